"""``np.logspace`` in Python source compiled by hanajit (``log_ranges`` types the
call): NumPy's ``logspace`` (``numpy/_core/function_base.py``) for scalar
bounds and base, on hanajit's ``np.linspace``; the power is C's ``pow`` for every
element (``np.float_power``: the same float64 power, never the vector ``pow``),
which NumPy's power loop is wherever it does not run its own SIMD ``pow``."""
import numpy as np


def logspace(start, stop, num, endpoint, base):
    y = np.linspace(start, stop, num, endpoint)
    return np.float_power(base, y)


def geomspace(start, stop, num, endpoint):
    """NumPy's ``geomspace`` for float64 scalar bounds, step by step: the sign of
    ``start`` rotated away, ``logspace`` of the base-10 logarithms, the ends set
    to the bounds themselves, the sign put back."""
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    out_sign = np.sign(start)
    start = start / out_sign
    stop = stop / out_sign
    log_start = np.log10(start)
    log_stop = np.log10(stop)
    result = logspace(log_start, log_stop, num, endpoint, 10.0)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result *= out_sign
    return result
