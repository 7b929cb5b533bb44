"""``np.cov`` in Python source compiled by hanajit (``cov`` types the call):
NumPy's ``cov`` (``numpy/lib/_function_base_impl.py``) step for step, from the
float64 array ``X`` of the variables in rows onwards, with NumPy's own mean along
the rows and its ``dot`` (``X @ X.T`` of one buffer: ``?syrk``, as NumPy's
``cblas_matrixproduct``)."""
import numpy as np


def rows_1d(m):
    """``array(m, ndmin=2, dtype=float64)`` of a 1-D ``m``: one row."""
    return m.astype(np.float64).reshape(1, m.shape[0])


def rows_2d(m):
    """``array(m, ndmin=2, dtype=float64)`` of a 2-D ``m``."""
    return m.astype(np.float64)


def columns_2d(m):
    """``X.T`` of the above, for ``rowvar=False`` (``m`` has more than one row)."""
    return m.astype(np.float64).T


def stacked(X, Y):
    """``np.concatenate((X, y), axis=0)``: ``y``'s variables after ``m``'s."""
    return np.concatenate((X, Y), axis=0)


def stacked_columns(X, Y):
    """The same of two transposed (Fortran-ordered) arrays (``rowvar=False``):
    NumPy's concatenation keeps their order, and so the order in which the
    rows' means add.  (Not of two single rows, whose strides tie: NumPy's
    concatenation is C-ordered then; ``cov`` leaves that to the interpreter.)"""
    return np.concatenate((X.T, Y.T), axis=1).T


def cov_rows(X, ddof):
    """The covariance matrix of the rows of ``X`` (the caller's own array,
    changed in place), ``ddof`` the delta degrees of freedom."""
    avg = np.mean(X, axis=1)
    fact = X.shape[1] - ddof
    if fact <= 0:
        fact = 0        # (NumPy warns "Degrees of freedom <= 0 for slice")
    X -= avg[:, None]
    c = np.dot(X, X.T)
    c *= np.true_divide(1, fact)
    return c
