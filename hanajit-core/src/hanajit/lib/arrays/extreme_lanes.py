"""``np.min``/``np.max`` of a 1-D lane as vector
code, in Python source compiled by hanajit (see ``lib/python/helpers.py``).

Which of equal values a min or max returns only shows for ``0.0`` and ``-0.0``,
and ``zero_pick.numpy_zero`` recomputes a zero extreme in NumPy's own
order; a NaN anywhere makes the result NaN (which NaN is not promised,
docs/semantics.md).  Everything else is the same in any order, so 16
accumulators take every 16th value and are folded at the end: LLVM makes them
vector ``max`` instructions, with the NaNs watched beside them (they are stored
in ``scratch`` after the loop for that, as ``statistics/pairwise_sum._leaf``
explains).  A min is the max of ``-a``: negation is exact, and a shared library
piece is compiled without knowing its arguments, so the direction is a
multiplier, not a choice in the loop.  (The loop also ANDed the sign bits,
so that a zero extreme of zeros of one sign needed no second pass; that cost
every call twice the time on a Zen 2 host, from spilled registers: 32 us for
``np.min`` of 10**5 float64 values where NumPy takes 16 and the loop without
it 13.  A zero extreme is rare, and ``numpy_zero``'s pass stops early where
zeros are many.)  A lane that is not
contiguous is copied in chunks of :data:`CHUNK` values first: the compares then
read whole vectors, not gathers; one whose step is 2, 4, 8 or 16 items is read
whole, from its first value to its last, and only its own lanes are kept
(:func:`extreme_stepped`).

``np.argmin``/``np.argmax`` are in :mod:`arg_lanes`.
"""
import numpy as np

from .minmax_algorithms import contiguous, contiguous_blocks

LANES = 16
CHUNK = 4096
SHIFT = 13          # blocks of 8192 values (extreme_zero)


def extreme(a, big):
    """``max(a)`` when big else ``min(a)`` of the contiguous 1-D float ``a`` (at
    least one value): NaN when any value is NaN."""
    n = len(a)
    if n < 2 * LANES:
        return _in_order(a, 0, n, a[0], big)
    sign = 1.0 if big else -1.0
    return _lanes(a, 0, n, sign, np.empty(LANES, a.dtype), np.empty(LANES, np.bool_))


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
    return _lanes(a, lo, n, sign, scratch, nans)


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
    take many: which of equal zeros it returns is not NumPy's pick."""
    if n < 2 * LANES:
        return _in_order(a, lo, n, a[lo], big)
    return _lanes(a, lo, n, 1.0 if big else -1.0, scratch, nans)


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
            return _first_nan_value(a, lo, LANES * blocks, step)
    r = scratch[0] * sign
    for k in range(step, LANES, step):
        r = _pick(r, scratch[k] * sign, big)
    for i in range(lo + LANES * blocks, lo + m, step):
        r = _pick(r, a[i], big)
    return r


def keep(v, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15):
    """``v[:16] = x0 .. x15``: the lanes' accumulators stored after a loop, which
    makes LLVM's SLP vectoriser take them as vectors (:func:`_lanes`).  Inlined
    where it is called."""
    v[0] = x0
    v[1] = x1
    v[2] = x2
    v[3] = x3
    v[4] = x4
    v[5] = x5
    v[6] = x6
    v[7] = x7
    v[8] = x8
    v[9] = x9
    v[10] = x10
    v[11] = x11
    v[12] = x12
    v[13] = x13
    v[14] = x14
    v[15] = x15


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
    """:func:`_lanes_in` with ``sign`` a constant in each of two copies: where
    it is an argument (a shared library piece), every value was multiplied by
    it in the loop."""
    if sign > 0:
        return _lanes_in(a, lo, n, 1.0, scratch, nans)
    return _lanes_in(a, lo, n, -1.0, scratch, nans)


def _lanes_in(a, lo, n, sign, scratch, nans):
    """The extreme of ``a[lo:lo + n]`` (``n >= LANES``), the largest of ``a *
    sign``, times ``sign`` -- or a NaN of ``a`` when there is one.  Each
    accumulator keeps ``m if m > x else x`` (vector ``max`` instructions; a NaN
    ``x`` would be dropped again by the next value, so NaNs are watched apart, in
    ``u``: int32 masks, 0 or -1, which stay vector registers, where bools were
    packed to bytes at every step -- int64 masks were faster still for float64,
    13 us against 16 for 10**5 values, but made float32's 14 us against 7); the
    lanes are left in ``scratch`` and
    ``nans``, each lane's largest of ``a * sign`` and whether it met a NaN."""
    m0 = a[lo + 0] * sign
    m1 = a[lo + 1] * sign
    m2 = a[lo + 2] * sign
    m3 = a[lo + 3] * sign
    m4 = a[lo + 4] * sign
    m5 = a[lo + 5] * sign
    m6 = a[lo + 6] * sign
    m7 = a[lo + 7] * sign
    m8 = a[lo + 8] * sign
    m9 = a[lo + 9] * sign
    m10 = a[lo + 10] * sign
    m11 = a[lo + 11] * sign
    m12 = a[lo + 12] * sign
    m13 = a[lo + 13] * sign
    m14 = a[lo + 14] * sign
    m15 = a[lo + 15] * sign
    u0 = -np.int32(m0 != m0)
    u1 = -np.int32(m1 != m1)
    u2 = -np.int32(m2 != m2)
    u3 = -np.int32(m3 != m3)
    u4 = -np.int32(m4 != m4)
    u5 = -np.int32(m5 != m5)
    u6 = -np.int32(m6 != m6)
    u7 = -np.int32(m7 != m7)
    u8 = -np.int32(m8 != m8)
    u9 = -np.int32(m9 != m9)
    u10 = -np.int32(m10 != m10)
    u11 = -np.int32(m11 != m11)
    u12 = -np.int32(m12 != m12)
    u13 = -np.int32(m13 != m13)
    u14 = -np.int32(m14 != m14)
    u15 = -np.int32(m15 != m15)
    blocks = n // LANES
    for b in range(1, blocks):
        j = lo + LANES * b
        x0 = a[j + 0] * sign
        m0 = m0 if m0 > x0 else x0
        u0 = u0 | -np.int32(x0 != x0)
        x1 = a[j + 1] * sign
        m1 = m1 if m1 > x1 else x1
        u1 = u1 | -np.int32(x1 != x1)
        x2 = a[j + 2] * sign
        m2 = m2 if m2 > x2 else x2
        u2 = u2 | -np.int32(x2 != x2)
        x3 = a[j + 3] * sign
        m3 = m3 if m3 > x3 else x3
        u3 = u3 | -np.int32(x3 != x3)
        x4 = a[j + 4] * sign
        m4 = m4 if m4 > x4 else x4
        u4 = u4 | -np.int32(x4 != x4)
        x5 = a[j + 5] * sign
        m5 = m5 if m5 > x5 else x5
        u5 = u5 | -np.int32(x5 != x5)
        x6 = a[j + 6] * sign
        m6 = m6 if m6 > x6 else x6
        u6 = u6 | -np.int32(x6 != x6)
        x7 = a[j + 7] * sign
        m7 = m7 if m7 > x7 else x7
        u7 = u7 | -np.int32(x7 != x7)
        x8 = a[j + 8] * sign
        m8 = m8 if m8 > x8 else x8
        u8 = u8 | -np.int32(x8 != x8)
        x9 = a[j + 9] * sign
        m9 = m9 if m9 > x9 else x9
        u9 = u9 | -np.int32(x9 != x9)
        x10 = a[j + 10] * sign
        m10 = m10 if m10 > x10 else x10
        u10 = u10 | -np.int32(x10 != x10)
        x11 = a[j + 11] * sign
        m11 = m11 if m11 > x11 else x11
        u11 = u11 | -np.int32(x11 != x11)
        x12 = a[j + 12] * sign
        m12 = m12 if m12 > x12 else x12
        u12 = u12 | -np.int32(x12 != x12)
        x13 = a[j + 13] * sign
        m13 = m13 if m13 > x13 else x13
        u13 = u13 | -np.int32(x13 != x13)
        x14 = a[j + 14] * sign
        m14 = m14 if m14 > x14 else x14
        u14 = u14 | -np.int32(x14 != x14)
        x15 = a[j + 15] * sign
        m15 = m15 if m15 > x15 else x15
        u15 = u15 | -np.int32(x15 != x15)
    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,
         m8, m9, m10, m11, m12, m13, m14, m15)
    keep(nans, u0 != 0, u1 != 0, u2 != 0, u3 != 0, u4 != 0, u5 != 0, u6 != 0, u7 != 0,
         u8 != 0, u9 != 0, u10 != 0, u11 != 0, u12 != 0, u13 != 0, u14 != 0, u15 != 0)
    r = m0
    r = r if r > m1 else m1
    r = r if r > m2 else m2
    r = r if r > m3 else m3
    r = r if r > m4 else m4
    r = r if r > m5 else m5
    r = r if r > m6 else m6
    r = r if r > m7 else m7
    r = r if r > m8 else m8
    r = r if r > m9 else m9
    r = r if r > m10 else m10
    r = r if r > m11 else m11
    r = r if r > m12 else m12
    r = r if r > m13 else m13
    r = r if r > m14 else m14
    r = r if r > m15 else m15
    u = (u0 | u1 | u2 | u3 | u4 | u5 | u6 | u7
         | u8 | u9 | u10 | u11 | u12 | u13 | u14 | u15) != 0
    for i in range(lo + LANES * blocks, lo + n):
        x = a[i] * sign
        r = r if r > x else x
        u = u | (x != x)
    if u:
        return _first_nan_value(a, lo, n, 1)
    return r * sign


def _first_nan_value(a, lo, n, step):
    """The first NaN of ``a[lo:lo + n:step]`` (there is one)."""
    for i in range(lo, lo + n, step):
        if a[i] != a[i]:                                # noqa: PLR0124
            return a[i]
    return a[lo]


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
for _f in (keep, extreme, extreme_zero, block_extreme, extreme_rows, extreme_at, nan_extreme,
           extreme_strided, extreme_stepped, extreme_2d, extreme_runs, extreme_stepped_runs,
           _stepped_at, _extreme_buffered, _in_order, _lanes, _lanes_in, _first_nan_value):
    _f.hj_unchecked = True
keep.hj_inline = True
_lanes_in.hj_inline = True
