"""``np.histogram`` in Python source compiled by hanajit (``histogram`` types
the call), NumPy's algorithms step for step:

* an integer number of bins: edges from ``np.linspace``; then, per chunk of
  :data:`CHUNK` values, a bin index from each value's scaled position,
  corrected against the edges, so every value lands where NumPy puts it (the
  last bin includes the right edge; values outside the range and NaNs are
  dropped); the indices are counted after (weights summed in float64 per block
  of ``BLOCK`` values, the block sums then added: NumPy's ``bincount`` per
  block).  Float32 data are binned in NumPy's types (``histogram32``);
* a bin array: per block, the sorted values are searched for every edge (the
  last edge inclusive) and the counts -- or the cumulative weights, summed in
  sorted order -- are differenced.  NumPy sorts the weights with an unstable
  argsort, so weighted sums of tied values can round differently in the last bit.

The positions of a chunk are computed apart from their correction and counting
because that pass, free of branches and of stores to computed places, is vector
code (a subtraction, a division, a product and a truncation per value); the edge
loads of the correction would be gathers, which LLVM does not vectorise for
every CPU (Zen 4), so they stay in the scalar loop that counts.  One loop doing
everything was scalar: 4.8 ms for 10**6 float64 values and 64 bins, 2.4 ms
split (NumPy: 7 to 11 ms).  The positions are int32 in that pass
(``prims.to_int32``): AVX2 converts four doubles to int32 and back in one
instruction each but has no such instruction for int64, whose conversions LLVM
does one lane at a time -- the whole call took 6.4 ms with int64 positions and
4.2 ms with int32 on a Zen 2 host (NumPy 12 ms there).
"""
import math

import numpy as np

from .. import prims
from ..sorting.sort_algorithms import (argsort_rows, search_left, search_right, sort_less, sort_rows_unstable)

BLOCK = 65536
CHUNK = 1024        # values binned by one vector pass (a divisor of BLOCK)


# ------------------------------------------------------------------ uniform edges
def _check_range(lo, hi):
    if lo > hi:
        raise ValueError("max must be larger than min in range parameter.")
    if not (math.isfinite(lo) and math.isfinite(hi)):
        raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")


def _check_widths(edges, bins):
    for i in range(bins):
        if edges[i] >= edges[i + 1]:
            raise ValueError("Too many bins for data range. Cannot create that many "
                             "finite-sized bins.")


def uniform_edges(a, bins, lo, hi, have_range):
    """(first, last, edges) of ``bins`` uniform bins over the range or the data."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    if have_range:
        _check_range(lo, hi)
    elif len(a) == 0:
        lo = 0
        hi = 1
    else:
        lo = a.min()
        hi = a.max()
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
    first = lo
    last = hi
    if first == last:
        first = first - 0.5
        last = last + 0.5
    edges = np.linspace(first, last, bins + 1)
    _check_widths(edges, bins)
    return first, last, edges


def histogram(a, bins, lo, hi, have_range):
    """(counts, edges) of the 1-D contiguous ``a`` (integers or float64) over
    uniform bins: values and edges in float64."""
    first, last, edges = uniform_edges(a, bins, lo, hi, have_range)
    # NumPy keeps a value when ``first <= x <= last``: without a range the bounds
    # are the data's own min and max (every value is kept; exactly, for int64
    # beyond 2**53 too); with one, the comparison is in float64
    return _counts(a, first, last, have_range, first, last - first, bins, bins,
                   edges), edges


def histogram_weighted(a, bins, lo, hi, have_range, w):
    """``histogram`` summing the float64 weights ``w`` (per block, as NumPy)."""
    first, last, edges = uniform_edges(a, bins, lo, hi, have_range)
    return _weighted_counts(a, first, last, have_range, first, last - first, bins,
                            bins, edges, w), edges


# float32 data: NumPy bins in the type of ``first``, ``last`` and the data.
# Without a range those are the data's min and max, float32 scalars: the edges,
# the keep test and the scaled position are float32 arithmetic.  With one they
# are Python numbers: the edges are float64 ``linspace`` rounded to float32, the
# keep test is in float32, and the position is ``(x - first)`` in float32
# divided by ``last - first``, a float64 scalar (NEP 50), times the bins.
def _linspace32(start, stop, num):
    """``np.linspace(start, stop, num)`` of two float32 scalars, in float32 as
    NumPy computes it: ``arange * step + start`` (``arange / div * delta``
    where the step underflows to 0), the last value ``stop``."""
    div = num - 1
    delta = stop - start
    step = delta / np.float32(div)
    y = np.empty(num, np.float32)
    for i in range(num):
        if step == 0:
            y[i] = np.float32(i) / np.float32(div) * delta + start
        else:
            y[i] = np.float32(i) * step + start
    y[num - 1] = stop
    return y


def _data_edges32(a, bins):
    """(first, last, edges) of float32 data over its own min and max."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    if len(a) == 0:
        first = np.float32(0.0)
        last = np.float32(1.0)
        edges = np.linspace(0.0, 1.0, bins + 1).astype(np.float32)
    else:
        first = a.min()
        last = a.max()
        if not (math.isfinite(first) and math.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
        if first == last:
            first = first - np.float32(0.5)
            last = last + np.float32(0.5)
        edges = _linspace32(first, last, bins + 1)
    _check_widths(edges, bins)
    return first, last, edges


def _range_edges32(bins, lo, hi, span):
    """(first, last, span, edges) of float32 data over ``range=(lo, hi)``;
    ``span`` is NumPy's ``hi - lo`` (for integers the exact difference)."""
    if bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    _check_range(lo, hi)
    first = lo
    last = hi
    if first == last:
        first = lo - 0.5
        last = hi + 0.5
        span = last - first
    edges = np.linspace(first, last, bins + 1).astype(np.float32)
    _check_widths(edges, bins)
    return first, last, span, edges


def histogram32(a, bins):
    """(counts, edges) of the 1-D contiguous float32 ``a`` over its own range."""
    first, last, edges = _data_edges32(a, bins)
    return _counts(a, first, last, False, first, last - first, np.float32(bins),
                   bins, edges), edges


def histogram32_weighted(a, bins, w):
    """``histogram32`` summing the float64 weights ``w``."""
    first, last, edges = _data_edges32(a, bins)
    return _weighted_counts(a, first, last, False, first, last - first,
                            np.float32(bins), bins, edges, w), edges


def histogram32_range(a, bins, lo, hi, span):
    """(counts, edges) of the 1-D contiguous float32 ``a`` over ``(lo, hi)``."""
    first, last, span, edges = _range_edges32(bins, lo, hi, span)
    f, g = np.float32(first), np.float32(last)
    return _counts(a, f, g, True, f, np.float64(span), bins, bins, edges), edges


def histogram32_range_weighted(a, bins, lo, hi, span, w):
    """``histogram32_range`` summing the float64 weights ``w``."""
    first, last, span, edges = _range_edges32(bins, lo, hi, span)
    f, g = np.float32(first), np.float32(last)
    return _weighted_counts(a, f, g, True, f, np.float64(span), bins, bins, edges,
                            w), edges


# ------------------------------------------------------------- uniform counting
# The bin of a value ``x`` (in the edges' type) is NumPy's: kept when
# ``keep_lo <= x <= keep_hi`` (always without a range), at the scaled position
# ``q = (x - sub) / denom * scale`` truncated, the last bin including its right
# edge, then one step down where ``x`` is below its bin's left edge and one
# step up where it reaches the next edge.
def _chunk_positions(a, start, m, buf, keep_lo, keep_hi, have_range, sub, denom,
                     scale, bins, edges, out, step):
    """The truncated positions of ``a[start:start + m]`` into ``out[:m]``
    (``bins`` for a dropped value), below ``bins`` as the last bin includes its
    right edge, as vector code; True when a kept value's position is NaN or
    outside ``[0, bins]`` (a range too wide for float64) or the value is below
    the first edge: NumPy's edge lookup then fails or wraps, and ``_exact_bins``
    redoes the chunk as NumPy.  (Those refusals also keep every index the
    unchecked loops make in range.)

    With ``step`` (not 0.0: ``_linear_step``) the positions are corrected too
    (``_corrected``), each edge computed as ``linspace`` computed it instead of
    loaded: ``out`` holds the bins."""
    for t in range(m):
        buf[t] = a[start + t]               # as NumPy's ``astype`` to the edges' type
    top = float(bins)
    low = edges[0]
    first = np.float64(low)
    # the positions in int32 (vector conversions on every x86-64 CPU); with
    # more bins than that, every value takes the exact path
    small = bins < 2147483646
    b32 = np.int32(bins if small else 0)
    bad = False
    for t in range(m):
        x = buf[t]
        keep = (not have_range) | ((x >= keep_lo) & (x <= keep_hi))
        q = (x - sub) / denom * scale
        use = keep & small & (q >= 0.0) & (q <= top) & (x >= low)
        k = prims.to_int32(q if use else 0.0)
        use = use & (k <= b32)
        bad = bad | (keep & (not use))
        k = k - 1 if k == b32 else k
        # _corrected with edges[j] = j * step + edges[0] (j < bins), in float64
        # (float32 edges are exact in it; edges[bins] only matters for
        # k < bins - 1); j + 1 as k's float64 plus 1 (exact), so that each
        # value converts one integer
        xd = np.float64(x)
        kf = np.float64(k)
        e0 = kf * step + first
        down = xd < e0
        kd = k - 1 if down else k
        e1 = (kf if down else kf + 1.0) * step + first
        up = (xd >= (e0 if down else e1)) & (kd != b32 - 1)
        k = k if step == 0.0 else (kd + 1 if up else kd)
        out[t] = np.int64(k) if use else bins
    return bad


def _linear_step(edges, bins):
    """``step`` when every edge but the last is ``j * step + edges[0]`` in
    float64, as ``np.linspace`` computes them (``step = (last - first) /
    bins``), else 0.0: then ``_chunk_positions`` can compute each value's bin
    without loading edges (a load at a computed index, no vector code).  Every
    operand is a float64 (not a Python float, which NumPy's rules would round
    to float32 edges' type)."""
    first = np.float64(edges[0])
    step = (np.float64(edges[bins]) - first) / np.float64(bins)
    for j in range(bins):
        if np.float64(edges[j]) != np.float64(j) * step + first:
            return np.float64(0.0)
    return step


def _corrected(x, k, bins, edges):
    """The bin of ``x`` from its truncated position ``k < bins``: ``x >= edges[0]``,
    so it is not below the first bin."""
    e0 = edges[k]
    down = x < e0
    k = k - 1 if down else k
    up = (x >= (e0 if down else edges[k + 1])) & (k != bins - 1)
    return k + 1 if up else k


def _bin(x, sub, denom, scale, bins, edges):
    """The bin of the kept value ``x`` as NumPy computes it, whatever the
    position (the slow path of ``_chunk_positions``' refusals)."""
    q = (x - sub) / denom * scale
    if q != q or q >= 9.223372036854775807e18 or q < -9.223372036854775808e18:  # noqa: PLR0124
        # NumPy's astype(intp) of NaN or an out-of-range value (a range
        # overflowing to inf) gives the smallest intp; its edge lookup then raises
        # IndexError, as here
        k = -9223372036854775808
    else:
        k = int(q)
    if k == bins:
        k -= 1
    if x < edges[k]:
        k -= 1
    if x >= edges[k + 1] and k != bins - 1:
        k += 1
    if k < 0:
        raise ValueError("'list' argument must have no negative elements")  # bincount
    return k


def _exact_bins(buf, m, keep_lo, keep_hi, have_range, sub, denom, scale, bins, edges,
                tally, w, start):
    """Add the values ``buf[:m]`` (``w[start:start + m]`` when ``w`` has them,
    else 1 each) to their bins in ``tally``, one by one."""
    for t in range(m):
        x = buf[t]
        if not have_range or (x >= keep_lo and x <= keep_hi):
            k = _bin(x, sub, denom, scale, bins, edges)
            if len(w) > 0:
                tally[k] += w[start + t]
            else:
                tally[k] += 1


def _counts(a, keep_lo, keep_hi, have_range, sub, denom, scale, bins, edges):
    """The int64 counts of the 1-D contiguous ``a`` in uniform ``edges``."""
    n = len(a)
    tally = np.zeros(bins + 1, np.int64)           # + 1: the dropped values
    size = min(n, CHUNK)
    buf = np.empty(size, edges.dtype)
    out = np.empty(size, np.int64)
    none = np.empty(0, np.int64)
    step = _linear_step(edges, bins)
    start = 0
    while start < n:
        m = min(CHUNK, n - start)
        if _chunk_positions(a, start, m, buf, keep_lo, keep_hi, have_range, sub,
                            denom, scale, bins, edges, out, step):
            _exact_bins(buf, m, keep_lo, keep_hi, have_range, sub, denom, scale, bins,
                        edges, tally, none, 0)
        elif step != 0.0:
            for t in range(m):
                tally[out[t]] += 1
        else:
            for t in range(m):
                k = out[t]
                kept = k < bins
                c = _corrected(buf[t], k if kept else 0, bins, edges)
                tally[c if kept else bins] += 1
        start += m
    counts = np.empty(bins, np.int64)
    for k in range(bins):
        counts[k] = tally[k]
    return counts


def _weighted_counts(a, keep_lo, keep_hi, have_range, sub, denom, scale, bins, edges,
                     w):
    """The float64 sums of the weights ``w`` of ``a``'s values per uniform bin:
    in order per block of ``BLOCK`` values, the block sums then added (NumPy's
    ``bincount`` per block)."""
    n = len(a)
    counts = np.zeros(bins, np.float64)
    block = np.zeros(bins + 1, np.float64)         # + 1: the dropped values
    size = min(n, CHUNK)
    buf = np.empty(size, edges.dtype)
    out = np.empty(size, np.int64)
    step = _linear_step(edges, bins)
    start = 0
    while start < n:
        m = min(CHUNK, n - start)
        if _chunk_positions(a, start, m, buf, keep_lo, keep_hi, have_range, sub,
                            denom, scale, bins, edges, out, step):
            _exact_bins(buf, m, keep_lo, keep_hi, have_range, sub, denom, scale, bins,
                        edges, block, w, start)
        elif step != 0.0:
            for t in range(m):
                block[out[t]] += w[start + t]
        else:
            for t in range(m):
                k = out[t]
                kept = k < bins
                c = _corrected(buf[t], k if kept else 0, bins, edges)
                block[c if kept else bins] += w[start + t]
        start += m
        if start % BLOCK == 0 or start == n:
            for k in range(bins + 1):
                if k < bins:
                    counts[k] += block[k]
                block[k] = 0.0
    return counts


# every index is in range by construction: no checks (pipeline.py); ``_bin``
# and ``_exact_bins`` keep theirs (NumPy's IndexError)
for _f in (_chunk_positions, _corrected, _linear_step, _counts, _weighted_counts):
    _f.hj_unchecked = True


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
