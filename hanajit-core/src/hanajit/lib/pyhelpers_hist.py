"""``np.histogram`` with an integer number of bins, in Python source compiled by
hanajit (``np_stats`` types the call): NumPy's algorithm for uniform bins, step
for step -- edges from ``np.linspace``, a bin index from the scaled position, then
corrected against the edges, so every value lands where NumPy puts it (the last
bin includes the right edge; values outside the range and NaNs are dropped)."""
import math

import numpy as np


def histogram(a, bins, lo, hi, have_range):
    """(counts, edges) of the 1-D contiguous ``a``."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    if have_range:
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError("supplied range is not finite")
    elif len(a) == 0:
        lo = 0
        hi = 1
    else:
        lo = a.min()
        hi = a.max()
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError("autodetected range is not finite")
    first = lo
    last = hi
    if first == last:
        first = first - 0.5
        last = last + 0.5
    edges = np.linspace(first, last, bins + 1)
    for i in range(bins):
        if edges[i] >= edges[i + 1]:
            raise ValueError("Too many bins for data range. Cannot create that many "
                             "finite-sized bins.")
    counts = np.zeros(bins, np.int64)
    denom = last - first
    for i in range(len(a)):
        xf = float(a[i])
        # NumPy keeps a value when ``first <= x <= last``: without a range the
        # bounds are the data's own min and max (every value is kept; exactly, for
        # int64 beyond 2**53 too); with one, the comparison is in float64
        if not have_range or (xf >= first and xf <= last):
            k = int((xf - first) / denom * bins)
            if k == bins:
                k -= 1
            if xf < edges[k]:
                k -= 1
            if xf >= edges[k + 1] and k != bins - 1:
                k += 1
            counts[k] += 1
    return counts, edges
