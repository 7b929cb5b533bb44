"""``np.logspace`` in Python source compiled by hanajit (``log_ranges`` types the
call): NumPy's ``logspace`` (``numpy/_core/function_base.py``) for scalar
bounds and base, on hanajit's ``np.linspace``; the power is NumPy's power loop,
``np.power(base, y)`` (:data:`power_loop`, ``log_ranges.PowerLoop``)."""
import numpy as np

from ..registry import CompiledOnly

# ``np.power(base, y)`` of a float64 number and array, each element as NumPy's
# loop computes it: its SIMD ``pow`` where NumPy runs one and the target calls
# it (``lowering/numpy_loops.py``), else C's ``pow`` (never the vector math of
# a vectorised loop)
power_loop = CompiledOnly("np.power loop")


def logspace(start, stop, num, endpoint, base):
    y = np.linspace(start, stop, num, endpoint)
    return power_loop(base, y)


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
