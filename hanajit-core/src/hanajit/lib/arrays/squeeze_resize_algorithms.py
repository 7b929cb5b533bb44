"""``np.resize``, ``np.ediff1d`` and ``np.trim_zeros`` in Python source compiled
by hanajit (see ``lib/python/helpers.py``), NumPy's steps."""
import numpy as np


def resize_fill(out, src):
    """``out`` (flat) filled with ``src`` repeated; zeros when ``src`` is empty."""
    n = src.shape[0]
    if n == 0:
        zero = np.zeros(1, out.dtype)[0]
        for i in range(out.shape[0]):
            out[i] = zero
        return n
    for i in range(out.shape[0]):
        out[i] = src[i % n]
    return n


def ediff_fill(out, ary, begin, end):
    """``to_begin``, ``ary[1:] - ary[:-1]``, ``to_end`` into ``out``."""
    lb = begin.shape[0]
    for i in range(lb):
        out[i] = begin[i]
    diff = ary.shape[0] - 1
    if diff < 0:
        diff = 0
    for i in range(diff):
        out[lb + i] = ary[i + 1] - ary[i]
    for i in range(end.shape[0]):
        out[lb + diff + i] = end[i]
    return diff


def trim_bounds(filt, front, back):
    """``[start, stop)`` of ``filt`` without its leading (``front``) and trailing
    (``back``) zeros; ``[0, 0)`` when every element is zero."""
    n = filt.shape[0]
    first = -1
    for i in range(n):
        if filt[i]:
            first = i
            break
    out = np.zeros(2, np.int64)
    if first < 0:
        return out
    last = n - 1
    while not filt[last]:
        last -= 1
    out[0] = first if front else 0
    out[1] = last + 1 if back else n
    return out
