"""``np.corrcoef`` in Python source compiled by hanajit (``corrcoef`` types the
call): NumPy's steps after its ``cov`` (``numpy/lib/_function_base_impl.py``)."""
import numpy as np


def normalized(c):
    """The covariance matrix ``c`` (float64, the caller's own) divided by the
    standard deviations of its rows, then of its columns, clipped to [-1, 1]."""
    d = np.diag(c)
    stddev = np.sqrt(d)
    c /= stddev[:, None]
    c /= stddev[None, :]
    np.clip(c, -1, 1, out=c)
    return c

