"""``np.histogram`` in Python source compiled by hanajit (``histogram`` types
the call), NumPy's algorithms step for step:

* an integer number of bins: edges from ``np.linspace``, a bin index from the
  scaled position, then corrected against the edges, so every value lands where
  NumPy puts it (the last bin includes the right edge; values outside the range
  and NaNs are dropped); weights are summed in float64 per block of ``BLOCK``
  values, the block sums then added (NumPy's ``bincount`` per block);
* a bin array: per block, the sorted values are searched for every edge (the
  last edge inclusive) and the counts -- or the cumulative weights, summed in
  sorted order -- are differenced.  NumPy sorts the weights with an unstable
  argsort, so weighted sums of tied values can round differently in the last bit.
"""
import math

import numpy as np

from ..sorting.sort_algorithms import (argsort_rows, search_left, search_right, sort_less, sort_rows_unstable)

BLOCK = 65536


def uniform_edges(a, bins, lo, hi, have_range):
    """(first, last, edges) of ``bins`` uniform bins over the range or the data."""
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
    return first, last, edges


def _bin(xf, first, denom, bins, edges):
    """The bin of the kept value ``xf`` (NumPy's scaled index, then corrected
    against the edges)."""
    q = (xf - first) / denom * bins
    if q != q or q >= 9.223372036854775807e18 or q < -9.223372036854775808e18:  # noqa: PLR0124
        # NumPy's astype(intp) of NaN or an out-of-range value (a range
        # overflowing to inf) gives the smallest intp; its edge lookup then raises
        # IndexError, as here
        k = -9223372036854775808
    else:
        k = int(q)
    if k == bins:
        k -= 1
    if xf < edges[k]:
        k -= 1
    if xf >= edges[k + 1] and k != bins - 1:
        k += 1
    return k


def histogram(a, bins, lo, hi, have_range):
    """(counts, edges) of the 1-D contiguous ``a`` over uniform bins."""
    first, last, edges = uniform_edges(a, bins, lo, hi, have_range)
    denom = last - first
    counts = np.zeros(bins, np.int64)
    for i in range(len(a)):
        xf = float(a[i])
        # NumPy keeps a value when ``first <= x <= last``: without a range the
        # bounds are the data's own min and max (every value is kept; exactly, for
        # int64 beyond 2**53 too); with one, the comparison is in float64
        if not have_range or (xf >= first and xf <= last):
            counts[_bin(xf, first, denom, bins, edges)] += 1
    return counts, edges


def histogram_weighted(a, bins, lo, hi, have_range, w):
    """``histogram`` summing the float64 weights ``w`` (per block, as NumPy)."""
    first, last, edges = uniform_edges(a, bins, lo, hi, have_range)
    denom = last - first
    counts = np.zeros(bins, np.float64)
    block = np.zeros(bins, np.float64)
    n = len(a)
    start = 0
    while start < n:
        for i in range(start, min(start + BLOCK, n)):
            xf = float(a[i])
            if not have_range or (xf >= first and xf <= last):
                block[_bin(xf, first, denom, bins, edges)] += w[i]
        for k in range(bins):
            counts[k] += block[k]
            block[k] = 0.0
        start += BLOCK
    return counts, edges


def _check_edges(edges):
    for i in range(len(edges) - 1):
        if edges[i] > edges[i + 1]:
            raise ValueError("`bins` must increase monotonically, when an array")
    return 0


def _differences(cum):
    out = np.empty(max(len(cum) - 1, 0), cum.dtype)
    for j in range(len(cum) - 1):
        out[j] = cum[j + 1] - cum[j]
    return out


def _load_block(sa, a, start, m):
    for t in range(m):
        sa[t] = a[start + t]
    return sa[:m]


def histogram_edges(a, edges, keys):
    """(counts, edges copy) of the 1-D contiguous ``a`` for the bin array
    ``edges``; ``keys`` holds the edges in the type values are compared in.

    Without NaN edges the edges are sorted, so each value's searches reduce to one
    binary search of the edges (``x < e_j`` holds from its position on): the
    counts NumPy's sorted searches give, without sorting the data."""
    _check_edges(edges)
    nb = len(edges)
    for j in range(nb):
        if keys[j] != keys[j]:                  # a NaN edge
            return _histogram_edges_sorted(a, edges, keys)
    if nb == 0:
        return np.zeros(0, np.int64), edges.copy()
    cnt = np.zeros(nb + 1, np.int64)
    x1 = np.empty(1, keys.dtype)
    last = keys[nb - 1]
    top = 0
    for i in range(len(a)):
        x1[0] = a[i]                            # compared in the keys' type
        x = x1[0]
        cnt[search_right(keys, x)] += 1
        if not sort_less(last, x):
            top += 1
    cum = np.zeros(nb, np.int64)
    run = 0
    for j in range(nb - 1):
        run += cnt[j]
        cum[j] = run
    cum[nb - 1] = top
    return _differences(cum), edges.copy()


def _histogram_edges_sorted(a, edges, keys):
    """``histogram_edges`` as NumPy computes it: per block, the sorted values are
    searched for every edge (any edges, NaNs included)."""
    nb = len(edges)
    cum = np.zeros(nb, np.int64)
    n = len(a)
    sa = np.empty(min(n, BLOCK), keys.dtype)
    start = 0
    while start < n:
        m = min(BLOCK, n - start)
        part = _load_block(sa, a, start, m)
        sort_rows_unstable(part, m)
        for j in range(nb - 1):
            cum[j] += search_left(part, keys[j])
        if nb > 0:
            cum[nb - 1] += search_right(part, keys[nb - 1])
        start += m
    return _differences(cum), edges.copy()


def histogram_edges_weighted(a, edges, keys, w):
    """``histogram_edges`` summing the float64 weights ``w``: cumulative sums in
    sorted order, read at the edges' positions."""
    _check_edges(edges)
    nb = len(edges)
    cum = np.zeros(nb, np.float64)
    n = len(a)
    sa = np.empty(min(n, BLOCK), keys.dtype)
    p = np.empty(min(n, BLOCK), np.int64)
    cw = np.empty(min(n, BLOCK) + 1, np.float64)
    start = 0
    while start < n:
        m = min(BLOCK, n - start)
        part = _load_block(sa, a, start, m)
        pp = p[:m]
        argsort_rows(part, pp, m)
        cw[0] = 0.0
        if m > 0:
            cw[1] = w[start + pp[0]]
        for t in range(1, m):
            cw[t + 1] = cw[t] + w[start + pp[t]]
        for j in range(nb - 1):
            cum[j] += cw[search_left(part, keys[j])]
        if nb > 0:
            cum[nb - 1] += cw[search_right(part, keys[nb - 1])]
        start += m
    return _differences(cum), edges.copy()
