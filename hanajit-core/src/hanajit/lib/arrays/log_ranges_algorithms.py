"""``np.logspace`` in Python source compiled by hanajit (``log_ranges`` types the
call): NumPy's ``logspace`` (``numpy/_core/function_base.py``) for scalar
bounds and base, on hanajit's ``np.linspace`` and ``np.power``."""
import numpy as np


def logspace(start, stop, num, endpoint, base):
    y = np.linspace(start, stop, num, endpoint)
    return np.power(base, y)
