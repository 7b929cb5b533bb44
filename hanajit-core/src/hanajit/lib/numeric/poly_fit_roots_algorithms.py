"""``np.roots`` and ``np.polyfit`` in Python source compiled by hanajit
(``poly_fit_roots`` types the calls): ``numpy/lib/_polynomial_impl.py`` step by
step, with ``np.vander`` as NumPy's ``multiply.accumulate`` of the columns."""
import numpy as np

from ..python.helpers import Deopt

EPS = 2.220446049250313e-16       # np.finfo(np.float64).eps


def _roots_of(p):
    """The companion-matrix eigenvalues of ``p`` stripped of its leading and
    trailing zeros, the zero roots appended; None when ``p`` is all zeros."""
    non_zero = np.nonzero(p)[0]
    k = non_zero.shape[0]
    first = non_zero[0]
    last = non_zero[k - 1]
    trailing_zeros = p.shape[0] - last - 1
    q = p[first:last + 1]
    n = q.shape[0]
    a = np.diag(np.ones((n - 2,), q.dtype), -1)
    a[0, :] = -q[1:] / q[0]
    r = np.linalg.eigvals(a)
    out = np.zeros(r.shape[0] + trailing_zeros, r.dtype)
    for i in range(r.shape[0]):
        out[i] = r[i]
    return out


def roots_real(p):
    """``np.roots`` of a 1-D float64 array (integers and bools made float64):
    float64 roots (complex ones re-run the call: ``eigvals``)."""
    non_zero = np.nonzero(p)[0]
    if non_zero.shape[0] == 0:
        return np.zeros(0, np.float64)
    n = non_zero[non_zero.shape[0] - 1] - non_zero[0] + 1
    if n == 1:     # NumPy's ``array([])`` and the zero roots: float64
        return np.zeros(p.shape[0] - non_zero[non_zero.shape[0] - 1] - 1, np.float64)
    return _roots_of(p)


def roots_complex(p):
    """``np.roots`` of a 1-D complex128 array: complex128 roots; an array with
    fewer than two coefficients between its zeros (NumPy's result is then a
    float64 array) re-runs the call."""
    non_zero = np.nonzero(p)[0]
    if non_zero.shape[0] == 0 or non_zero[non_zero.shape[0] - 1] == non_zero[0]:
        raise Deopt("np.roots() of a complex polynomial of degree 0 (a float64 result)")
    return _roots_of(p)


def _vander(x, order):
    """``np.vander(x, order)`` of a 1-D float64 array: the last column 1, each
    column to its left the one to its right times ``x`` (``multiply.accumulate``)."""
    m = x.shape[0]
    v = np.empty((m, order), np.float64)
    for i in range(m):
        v[i, order - 1] = 1.0
        for k in range(order - 2, -1, -1):
            v[i, k] = v[i, k + 1] * x[i]
    return v


def _checks(x, y, deg):
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")


def polyfit_1(x, y, deg):
    """``np.polyfit(x, y, deg)`` of 1-D float64 ``x`` and ``y``."""
    order = deg + 1
    _checks(x, y, deg)
    rcond = x.shape[0] * EPS
    lhs = _vander(x, order)
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    c, resids, rank, s = np.linalg.lstsq(lhs, y, rcond)
    c = c / scale
    if rank != order:
        raise Deopt("np.polyfit() of a rank-deficient fit (NumPy warns RankWarning)")
    return c


def polyfit_2(x, y, deg):
    """``np.polyfit(x, y, deg)`` of a 1-D float64 ``x`` and a 2-D float64 ``y``."""
    order = deg + 1
    _checks(x, y, deg)
    rcond = x.shape[0] * EPS
    lhs = _vander(x, order)
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    c, resids, rank, s = np.linalg.lstsq(lhs, y, rcond)
    c = (c.T / scale).T
    if rank != order:
        raise Deopt("np.polyfit() of a rank-deficient fit (NumPy warns RankWarning)")
    return c
