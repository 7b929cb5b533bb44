"""``np.logspace`` in Python source compiled by hanajit (``log_ranges`` types the
call): NumPy's ``logspace`` (``numpy/_core/function_base.py``) for scalar
bounds and base, on hanajit's ``np.linspace``; the power is C's ``pow`` for every
element (``np.float_power``: the same float64 power, never the vector ``pow``),
which NumPy's power loop is wherever it does not run its own SIMD ``pow``."""
import numpy as np


def logspace(start, stop, num, endpoint, base):
    y = np.linspace(start, stop, num, endpoint)
    return np.float_power(base, y)
