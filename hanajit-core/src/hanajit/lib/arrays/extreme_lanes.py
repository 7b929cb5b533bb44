"""``np.min``/``np.max`` of a 1-D lane as vector
code, in Python source compiled by hanajit (see ``lib/python/helpers.py``).

Which of equal values a min or max returns only shows for ``0.0`` and ``-0.0``,
and ``zero_pick.numpy_zero`` recomputes a zero extreme in NumPy's own
order; a NaN anywhere makes the result NaN (which NaN is not promised,
docs/semantics.md).  Everything else is the same in any order, so 32
accumulators take every 32nd value and are folded at the end
(``lane_kernels.lanes_min``/``lanes_max``): LLVM makes them vector ``min``/``max``
instructions, with the NaNs watched beside them.  A run is read from its first
value on a 64-byte boundary (:func:`_aligned`).  A zero extreme is rare, and
``numpy_zero``'s pass stops early where zeros are many.  A lane that is not
contiguous is copied in chunks of :data:`CHUNK` values first: the compares then
read whole vectors, not gathers; one whose step is 2, 4, 8 or 16 items is read
whole, from its first value to its last, and only its own lanes are kept
(:func:`extreme_stepped`).

``np.argmin``/``np.argmax`` are in :mod:`arg_lanes`.
"""
import numpy as np

from .. import prims
from .lane_kernels import (LANES, first_nan_value, keep, lanes_max, lanes_min, short_max,
                           short_min)
from .minmax_algorithms import contiguous, contiguous_blocks
from .short_extremes import LONG, SHORT

CHUNK = 4096
SHIFT = 13          # blocks of 8192 values (extreme_zero)


def extreme(a, big):
    """``max(a)`` when big else ``min(a)`` of the contiguous 1-D float ``a`` (at
    least one value): NaN when any value is NaN."""
    n = len(a)
    if n < 2 * LANES:
        return _in_order(a, 0, n, a[0], big)
    sign = 1.0 if big else -1.0
    return _aligned(a, 0, n, sign, np.empty(LANES, a.dtype), np.empty(LANES, np.bool_))


def extreme_zero(a, big, W, low_from):
    """:func:`extreme` of the contiguous 1-D float ``a`` (at least one value),
    and when that is a zero, the zero NumPy's loop with ``W`` lanes returns
    (``minmax_algorithms.contiguous``, ``zero_pick.simd_model``): the extremes
    of blocks of ``2 ** SHIFT`` values are kept, and the search for NumPy's
    zero looks only into blocks whose extreme is a zero -- a few zeros among
    many values need no second pass over all of them.  The first NaN when
    there is one (the blocks in order)."""
    n = len(a)
    if n < 2 * LANES:
        r = _in_order(a, 0, n, a[0], big)
        return contiguous(a, big, W, low_from) if r == 0 else r
    size = 1 << SHIFT
    ext = np.empty((n + size - 1) >> SHIFT, a.dtype)
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    sign = 1.0 if big else -1.0
    r = a[0]
    for b in range(len(ext)):
        lo = b << SHIFT
        e = block_extreme(a, lo, min(size, n - lo), sign, scratch, nans)
        if e != e:                                      # noqa: PLR0124
            return e
        ext[b] = e
        r = _pick(r, e, big)
    if r == 0:
        return contiguous_blocks(a, big, W, low_from, ext, SHIFT)
    return r


def block_extreme(a, lo, n, sign, scratch, nans):
    """The extreme of ``a[lo:lo + n]`` (``n >= 1``; the largest when ``sign`` is
    1.0, the least when -1.0), or its first NaN, with the caller's scratch
    (``LANES`` items of ``a``'s type and of bools)."""
    if n < 2 * LANES:
        return _in_order(a, lo, n, a[lo], sign > 0)
    return _aligned(a, lo, n, sign, scratch, nans)


def _aligned(a, lo, n, sign, scratch, nans):
    """:func:`_lanes` of ``a[lo:lo + n]`` (``n >= 2 * LANES``) from its first
    value on a 64-byte boundary, the values before it in order: the lanes read
    whole cache lines.  (Reading lines split between two, as NumPy's arrays
    from ``malloc`` (16-byte aligned) give, cost float64 values in L2 two
    thirds more time: 13.0 us for 10**5 against 7.9 aligned, NumPy 9.1 either
    way.)  The lanes left in ``scratch`` are then not those of ``lo``: for
    callers that want the extreme only."""
    h = 0
    if n >= 3 * LANES:
        h = ((64 - (prims.address(a) + lo * a.itemsize) % 64) % 64) // a.itemsize
    big = sign > 0
    r = _in_order(a, lo, h, a[lo], big)
    if r != r:                                          # noqa: PLR0124
        return r
    return _pick(r, _lanes(a, lo + h, n - h, sign, scratch, nans), big)


def extreme_rows(a, m, out, big):
    """:func:`extreme` of each row of ``m >= 1`` values of the C-contiguous data
    ``a`` into ``out[r]`` (``np.max(x, axis=-1)``), the scratch made once."""
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    for r in range(len(out)):
        out[r] = extreme_at(a, r * m, m, big, scratch, nans)
    return 0


def extreme_at(a, lo, n, big, scratch, nans):
    """:func:`extreme` of ``a[lo:lo + n]`` (``n >= 1``) with the caller's
    scratch (``LANES`` items of ``a``'s type and of bools), for callers that
    take many: which of equal zeros it returns is not NumPy's pick.  Runs of
    4 to 255 values: ``short_extremes``."""
    if n < LONG:
        if n < SHORT:
            return _in_order(a, lo, n, a[lo], big)
        return short_max(a, lo, n) if big else short_min(a, lo, n)
    return _aligned(a, lo, n, 1.0 if big else -1.0, scratch, nans)


def extreme_strided(a, big):
    """``extreme`` of a 1-D lane of any stride, through a contiguous buffer."""
    n = len(a)
    if n < 2 * LANES:
        return _in_order(a, 0, n, a[0], big)
    size = CHUNK if n > CHUNK else n
    buf = np.empty(size, a.dtype)
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    sign = 1.0 if big else -1.0
    r = a[0]
    i = 0
    while i < n:
        k = n - i if n - i < size else size
        for j in range(k):
            buf[j] = a[i + j]
        if k < 2 * LANES:
            r = _in_order(buf, 0, k, r, big)
        else:
            r = _pick(r, _lanes(buf, 0, k, sign, scratch, nans), big)
        i += k
    return r


def extreme_2d(a, big):
    """``extreme`` of the 2-D float array ``a`` of any strides (at least one
    value; a C-contiguous one is a lane of its own): its values read along the
    axis of the smaller step, into a buffer of :data:`CHUNK` values whose lanes
    find each chunk's extreme.  NaN when any value is NaN; which of equal zeros
    it returns is not NumPy's pick (the caller redoes a zero in index order)."""
    if abs(a.strides[1]) <= abs(a.strides[0]):
        return _extreme_buffered(a, big)
    return _extreme_buffered(a.T, big)


def extreme_runs(a, count, n, step, big):
    """``extreme`` of ``count`` runs of ``n >= 1`` contiguous values of ``a``,
    each ``step`` items after the one before (the rows of a 2-D view whose rows
    are contiguous, or its columns): each run's lanes in place, all of them
    as one run where they follow each other (an F-contiguous array)."""
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    if step == n:
        return extreme_at(a, 0, count * n, big, scratch, nans)
    r = a[0]
    for i in range(count):
        r = _pick(r, extreme_at(a, i * step, n, big, scratch, nans), big)
    return r


def _extreme_buffered(a, big):
    """:func:`extreme_2d` reading ``a`` row by row."""
    rows, cols = a.shape
    n = rows * cols
    r = a[0, 0]
    if n < 2 * LANES:
        for i in range(rows):
            for j in range(cols):
                r = _pick(r, a[i, j], big)
        return r
    size = CHUNK if n > CHUNK else n
    buf = np.empty(size, a.dtype)
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    sign = 1.0 if big else -1.0
    k = 0
    for i in range(rows):
        j = 0
        while j < cols:
            c = min(cols - j, size - k)
            for t in range(c):
                buf[k + t] = a[i, j + t]
            k += c
            j += c
            if k == size:
                r = _pick(r, _lanes(buf, 0, k, sign, scratch, nans), big)
                k = 0
    if k >= 2 * LANES:
        return _pick(r, _lanes(buf, 0, k, sign, scratch, nans), big)
    return _in_order(buf, 0, k, r, big)


def extreme_stepped(a, step, big):
    """``extreme`` of every ``step``-th value of the contiguous 1-D float ``a``
    from ``a[0]`` (``step`` is 2, 4, 8 or 16, a divisor of :data:`LANES`; the
    last value is ``a[-1]``).  All of ``a`` is read as whole vectors; of the 16
    accumulators, lanes ``0, step, 2 * step ...`` hold exactly the wanted values
    and the others (the imaginary parts beside a complex array's ``.real``, the
    skipped items of ``x[::2]``: memory of the same array) are dropped."""
    m = len(a)
    if m < 2 * LANES:
        r = a[0]
        for i in range(step, m, step):
            r = _pick(r, a[i], big)
        return r
    return _stepped_at(a, 0, m, step, big, np.empty(LANES, a.dtype),
                       np.empty(LANES, np.bool_))


def extreme_stepped_runs(a, count, m, row_step, step, big):
    """:func:`extreme_stepped` of ``count`` runs of ``m`` items of ``a`` (every
    ``step``-th value of each), each ``row_step`` items after the one before:
    the rows (or columns) of a 2-D view stepped 2, 4, 8 or 16 items."""
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    r = a[0]
    for i in range(count):
        r = _pick(r, _stepped_at(a, i * row_step, m, step, big, scratch, nans), big)
    return r


def _stepped_at(a, lo, m, step, big, scratch, nans):
    """:func:`extreme_stepped` of ``a[lo:lo + m]``, with the caller's scratch."""
    blocks = m // LANES
    r = a[lo]
    if blocks < 2:
        for i in range(lo + step, lo + m, step):
            r = _pick(r, a[i], big)
        return r
    sign = 1.0 if big else -1.0
    _lanes(a, lo, LANES * blocks, sign, scratch, nans)    # leaves each lane in scratch
    for k in range(0, LANES, step):
        if nans[k]:
            return first_nan_value(a, lo, LANES * blocks, step)
    r = scratch[0]
    for k in range(step, LANES, step):
        r = _pick(r, scratch[k], big)
    for i in range(lo + LANES * blocks, lo + m, step):
        r = _pick(r, a[i], big)
    return r


def _pick(m, x, big):
    """``x`` when it is beyond ``m`` or NaN (a NaN ``m`` stays: nothing is)."""
    if big:
        return x if x > m or x != x else m
    return x if x < m or x != x else m


def _in_order(a, lo, n, r, big):
    for i in range(lo, lo + n):
        r = _pick(r, a[i], big)
    return r


def _lanes(a, lo, n, sign, scratch, nans):
    """The extreme of ``a[lo:lo + n]`` (``n >= 2 * LANES``): the largest when
    ``sign`` is 1.0, the least when -1.0 (``lane_kernels.lanes_min``), or a NaN of
    ``a``; each lane's extreme and whether it met a NaN left in ``scratch`` and
    ``nans``."""
    if sign > 0:
        return lanes_max(a, lo, n, scratch, nans)
    return lanes_min(a, lo, n, scratch, nans)


def nan_extreme(a, big):
    """``np.nanmax(a)`` when ``big`` else ``np.nanmin(a)`` of the contiguous 1-D
    float ``a``, NaNs skipped -- or ``-inf`` times the direction (``-inf`` for a
    max) when ``a`` holds fewer than ``2 * LANES`` values, none but NaNs or that
    infinity: the caller then runs its loop in order, which also picks its zero.
    Each accumulator starts at that infinity and keeps ``x if x > m else m``: a
    NaN ``x`` never replaces ``m`` (vector ``max`` takes its second operand
    then), so nothing else watches for NaNs."""
    n = len(a)
    sign = 1.0 if big else -1.0
    scratch = np.empty(LANES, a.dtype)
    scratch[0] = -np.inf
    low = scratch[0]                                    # -inf of a's type
    if n < 2 * LANES:
        return low * sign
    m0 = low
    m1 = low
    m2 = low
    m3 = low
    m4 = low
    m5 = low
    m6 = low
    m7 = low
    m8 = low
    m9 = low
    m10 = low
    m11 = low
    m12 = low
    m13 = low
    m14 = low
    m15 = low
    blocks = n // LANES
    for b in range(blocks):
        j = LANES * b
        x0 = a[j + 0] * sign
        m0 = x0 if x0 > m0 else m0
        x1 = a[j + 1] * sign
        m1 = x1 if x1 > m1 else m1
        x2 = a[j + 2] * sign
        m2 = x2 if x2 > m2 else m2
        x3 = a[j + 3] * sign
        m3 = x3 if x3 > m3 else m3
        x4 = a[j + 4] * sign
        m4 = x4 if x4 > m4 else m4
        x5 = a[j + 5] * sign
        m5 = x5 if x5 > m5 else m5
        x6 = a[j + 6] * sign
        m6 = x6 if x6 > m6 else m6
        x7 = a[j + 7] * sign
        m7 = x7 if x7 > m7 else m7
        x8 = a[j + 8] * sign
        m8 = x8 if x8 > m8 else m8
        x9 = a[j + 9] * sign
        m9 = x9 if x9 > m9 else m9
        x10 = a[j + 10] * sign
        m10 = x10 if x10 > m10 else m10
        x11 = a[j + 11] * sign
        m11 = x11 if x11 > m11 else m11
        x12 = a[j + 12] * sign
        m12 = x12 if x12 > m12 else m12
        x13 = a[j + 13] * sign
        m13 = x13 if x13 > m13 else m13
        x14 = a[j + 14] * sign
        m14 = x14 if x14 > m14 else m14
        x15 = a[j + 15] * sign
        m15 = x15 if x15 > m15 else m15
    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,
         m8, m9, m10, m11, m12, m13, m14, m15)
    r = m0
    r = m1 if m1 > r else r
    r = m2 if m2 > r else r
    r = m3 if m3 > r else r
    r = m4 if m4 > r else r
    r = m5 if m5 > r else r
    r = m6 if m6 > r else r
    r = m7 if m7 > r else r
    r = m8 if m8 > r else r
    r = m9 if m9 > r else r
    r = m10 if m10 > r else r
    r = m11 if m11 > r else r
    r = m12 if m12 > r else r
    r = m13 if m13 > r else r
    r = m14 if m14 > r else r
    r = m15 if m15 > r else r
    for i in range(LANES * blocks, n):
        x = a[i] * sign
        r = x if x > r else r
    return r * sign


# every index above is in range by construction: no checks (pipeline.py)
for _f in (extreme, extreme_zero, block_extreme, _aligned, extreme_rows, extreme_at,
           nan_extreme,
           extreme_strided, extreme_stepped, extreme_2d, extreme_runs, extreme_stepped_runs,
           _stepped_at, _extreme_buffered, _in_order, _lanes):
    _f.hj_unchecked = True
