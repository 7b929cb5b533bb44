"""NumPy's ``_replace_nan`` for ``np.nancumsum`` / ``np.nancumprod`` in Python
source compiled by hanajit (``nancumulative`` rewrites the calls): a copy of a
float or complex array with its NaNs set to 0 or 1."""
import numpy as np


def nan_to_zero(a):
    b = a.copy()
    b[np.isnan(b)] = 0
    return b


def nan_to_one(a):
    b = a.copy()
    b[np.isnan(b)] = 1
    return b
