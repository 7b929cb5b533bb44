"""``np.polyder``, ``np.polyint`` and ``np.unwrap`` in Python source compiled by
hanajit (``poly_calculus`` types the calls): ``numpy/lib/_polynomial_impl.py``
and ``numpy/lib/_function_base_impl.py`` step by step (one derivative or
integral per call; the lowering repeats it ``m`` times, as NumPy recurses)."""
import numpy as np


def polyder_once(p):
    n = p.shape[0] - 1
    return p[:-1] * np.arange(n, 0, -1)


def polyint_once(p):
    n = p.shape[0]
    y = p / np.arange(n, 0, -1)
    out = np.zeros(n + 1, y.dtype)
    for i in range(n):
        out[i] = y[i]
    return out


def unwrap(p, discont, period):
    """``np.unwrap`` of a 1-D float64 array (``discont`` already ``period / 2``
    where it was None)."""
    n = p.shape[0]
    up = np.empty(n, np.float64)
    if n == 0:
        return up
    dd = np.diff(p)
    interval_high = period / 2
    interval_low = -interval_high
    ddmod = np.mod(dd - interval_low, period) + interval_low
    for i in range(n - 1):
        if ddmod[i] == interval_low and dd[i] > 0:
            ddmod[i] = interval_high
    ph_correct = ddmod - dd
    for i in range(n - 1):
        if abs(dd[i]) < discont:
            ph_correct[i] = 0.0
    cs = np.cumsum(ph_correct)
    up[0] = p[0]
    for i in range(1, n):
        up[i] = p[i] + cs[i - 1]
    return up
