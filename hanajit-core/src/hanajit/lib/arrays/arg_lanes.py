"""``np.argmin``/``np.argmax`` of a contiguous 1-D float or integer lane as
vector code, in Python source compiled by hanajit (see ``lib/python/helpers.py``):
for a whole float array the extreme of each block by the lanes of
:mod:`extreme_lanes`, then the first position of the extreme in the first block
holding it (:func:`arg_blocks`); along the last axis of a C-contiguous float
array 16 accumulators, each taking every 16th value and keeping where its
extreme was first met (:func:`arg_rows`; rows of 8 to 255 values: their
extreme, then its first position, ``short_extremes.short_arg``); for integers
the largest of each block, then the first position of the largest in its
block (:func:`arg_int`, :func:`arg_rows_int`; a lane shorter than ``SHORT``:
its largest, then the least position holding it, two vector loops; rows of
``SHORT`` to ``LANE_ROWS`` integers of 32 or 64 bits: lanes that keep
positions, as for floats)."""
import numpy as np

from .extreme_lanes import LANES, SHIFT, block_extreme, keep
from .short_extremes import LONG, short_arg

FEW = 8         # float rows of FEW to LONG values: short_extremes.short_arg


def arg_blocks(a, big):
    """``np.argmax(a)`` (``big``) or ``np.argmin(a)`` of the contiguous 1-D
    float ``a`` (at least one value) in two steps, as :func:`_arg_int` takes
    integers: the extreme of each block of ``2 ** SHIFT`` values
    (``extreme_lanes.block_extreme``: the lanes of ``np.max``, which keep no
    positions) and the first block whose extreme beats every earlier block's
    (a strict compare: ``-0.0`` and ``0.0`` are equal there, as in NumPy's);
    then the first position in that block holding it.  A block with a NaN
    ends the search at its first NaN (the blocks in order)."""
    n = len(a)
    sign = 1.0 if big else -1.0
    if n < 2 * LANES:
        return _arg_short(a, 0, n, sign)
    size = 1 << SHIFT
    scratch = np.empty(LANES, a.dtype)
    nans = np.empty(LANES, np.bool_)
    best = a[0]
    start = 0
    lo = 0
    while lo < n:
        c = min(size, n - lo)
        e = block_extreme(a, lo, c, sign, scratch, nans)
        if e != e:                                      # noqa: PLR0124
            return lo + _first_nan(a, lo, c)
        if (e > best) if big else (e < best):
            best = e
            start = lo
        lo += c
    end = min(start + size, n)
    c = start
    while c + CHUNK <= end:
        hit = False
        for i in range(CHUNK):
            hit = hit | (a[c + i] == best)
        if hit:
            break
        c += CHUNK
    while a[c] != best:
        c += 1
    return c


def _scratch(a):
    """Room for the lanes' values (:func:`_arg_float`)."""
    return np.empty(2 * LANES, a.dtype)


def arg_int(a, big):
    """``np.argmax(a)`` (``big``) or ``np.argmin(a)`` of the contiguous 1-D integer
    ``a`` (:func:`_arg_int`): the argmin is the argmax of ``~a``, which reverses
    the order of signed and unsigned integers alike and cannot overflow."""
    return _arg_int(a, 0, len(a), _flip(a, big))


def _flip(a, big):
    """0 of ``a``'s dtype for an argmax, every bit set for an argmin, made from
    the data (of ``a``'s dtype whatever it is): one library piece serves both
    directions."""
    flip = a[0] ^ a[0]
    if not big:
        flip = ~flip
    return flip


def _arg_chunks(a, lo, n, sign, scratch, where, nans, pos, limit):
    """:func:`_arg_float` of ``a[lo:lo + n]`` in pieces of at most ``limit``
    values (the positions ``pos`` holds), the first NaN or the first of the
    pieces' largest taken."""
    if n <= limit:
        return _arg_float(a, lo, n, sign, scratch, where, nans, pos)
    o = 0
    r = a[lo] * sign
    at = 0
    while o < n:
        c = min(limit, n - o)
        k = o + _arg_float(a, lo + o, c, sign, scratch, where, nans, pos)
        x = a[lo + k] * sign
        if x != x:                                      # noqa: PLR0124
            return k
        if x > r:
            r = x
            at = k
        o += c
    return at


def _arg_float(a, lo, n, sign, scratch, where, nans, pos):
    """The first position of the largest of ``a * sign`` (``sign`` 1.0 or -1.0),
    or of the first NaN (``n`` values, positions held by ``pos``'s type).  16
    accumulators, each keeping its lane's largest value and the position where
    it first met it (a strict compare: an equal value later in the lane does
    not move it), become vectors of compares and selects as in
    :func:`_lanes`.  The loop takes two blocks of ``LANES`` values a step, the
    larger of each pair first (the earlier on a tie), so that each step waits
    on one compare of the accumulators; the last step is moved back to end at
    the last value, and overlaps the blocks before it: a value seen twice is at
    the same position both times, and the strict compare keeps the first of
    equal values.  NaNs are only watched on the way (a NaN would win, and a
    compare that let one in would have to stop there): a flag per lane is set
    by any NaN (an int32 mask, 0 or -1, which stays a vector register where a
    bool was packed to bytes at every step: 22.6 -> 19.5 us for 10**5 float64
    values), and then NaNs are looked for in order.  The direction is a
    multiplier, not a choice in the loop (a choice kept it scalar), a
    constant in each of :func:`arg_rows`' two copies."""
    if n < 2 * LANES:
        return _arg_short(a, lo, n, sign)
    m0 = a[lo + 0] * sign
    p0 = pos
    m1 = a[lo + 1] * sign
    p1 = pos
    m2 = a[lo + 2] * sign
    p2 = pos
    m3 = a[lo + 3] * sign
    p3 = pos
    m4 = a[lo + 4] * sign
    p4 = pos
    m5 = a[lo + 5] * sign
    p5 = pos
    m6 = a[lo + 6] * sign
    p6 = pos
    m7 = a[lo + 7] * sign
    p7 = pos
    m8 = a[lo + 8] * sign
    p8 = pos
    m9 = a[lo + 9] * sign
    p9 = pos
    m10 = a[lo + 10] * sign
    p10 = pos
    m11 = a[lo + 11] * sign
    p11 = pos
    m12 = a[lo + 12] * sign
    p12 = pos
    m13 = a[lo + 13] * sign
    p13 = pos
    m14 = a[lo + 14] * sign
    p14 = pos
    m15 = a[lo + 15] * sign
    p15 = pos
    s0 = -np.int32(m0 != m0)
    s1 = -np.int32(m1 != m1)
    s2 = -np.int32(m2 != m2)
    s3 = -np.int32(m3 != m3)
    s4 = -np.int32(m4 != m4)
    s5 = -np.int32(m5 != m5)
    s6 = -np.int32(m6 != m6)
    s7 = -np.int32(m7 != m7)
    s8 = -np.int32(m8 != m8)
    s9 = -np.int32(m9 != m9)
    s10 = -np.int32(m10 != m10)
    s11 = -np.int32(m11 != m11)
    s12 = -np.int32(m12 != m12)
    s13 = -np.int32(m13 != m13)
    s14 = -np.int32(m14 != m14)
    s15 = -np.int32(m15 != m15)
    steps = (n - LANES + 2 * LANES - 1) // (2 * LANES)
    for t in range(steps):
        j = min(LANES + 2 * LANES * t, n - 2 * LANES)
        pa = pos + j
        pb = pa + LANES
        x0 = a[lo + j + 0] * sign
        y0 = a[lo + j + 16] * sign
        s0 = s0 | -np.int32((x0 != x0) | (y0 != y0))
        m0, p0 = _better(x0, y0, m0, p0, pa, pb)
        x1 = a[lo + j + 1] * sign
        y1 = a[lo + j + 17] * sign
        s1 = s1 | -np.int32((x1 != x1) | (y1 != y1))
        m1, p1 = _better(x1, y1, m1, p1, pa, pb)
        x2 = a[lo + j + 2] * sign
        y2 = a[lo + j + 18] * sign
        s2 = s2 | -np.int32((x2 != x2) | (y2 != y2))
        m2, p2 = _better(x2, y2, m2, p2, pa, pb)
        x3 = a[lo + j + 3] * sign
        y3 = a[lo + j + 19] * sign
        s3 = s3 | -np.int32((x3 != x3) | (y3 != y3))
        m3, p3 = _better(x3, y3, m3, p3, pa, pb)
        x4 = a[lo + j + 4] * sign
        y4 = a[lo + j + 20] * sign
        s4 = s4 | -np.int32((x4 != x4) | (y4 != y4))
        m4, p4 = _better(x4, y4, m4, p4, pa, pb)
        x5 = a[lo + j + 5] * sign
        y5 = a[lo + j + 21] * sign
        s5 = s5 | -np.int32((x5 != x5) | (y5 != y5))
        m5, p5 = _better(x5, y5, m5, p5, pa, pb)
        x6 = a[lo + j + 6] * sign
        y6 = a[lo + j + 22] * sign
        s6 = s6 | -np.int32((x6 != x6) | (y6 != y6))
        m6, p6 = _better(x6, y6, m6, p6, pa, pb)
        x7 = a[lo + j + 7] * sign
        y7 = a[lo + j + 23] * sign
        s7 = s7 | -np.int32((x7 != x7) | (y7 != y7))
        m7, p7 = _better(x7, y7, m7, p7, pa, pb)
        x8 = a[lo + j + 8] * sign
        y8 = a[lo + j + 24] * sign
        s8 = s8 | -np.int32((x8 != x8) | (y8 != y8))
        m8, p8 = _better(x8, y8, m8, p8, pa, pb)
        x9 = a[lo + j + 9] * sign
        y9 = a[lo + j + 25] * sign
        s9 = s9 | -np.int32((x9 != x9) | (y9 != y9))
        m9, p9 = _better(x9, y9, m9, p9, pa, pb)
        x10 = a[lo + j + 10] * sign
        y10 = a[lo + j + 26] * sign
        s10 = s10 | -np.int32((x10 != x10) | (y10 != y10))
        m10, p10 = _better(x10, y10, m10, p10, pa, pb)
        x11 = a[lo + j + 11] * sign
        y11 = a[lo + j + 27] * sign
        s11 = s11 | -np.int32((x11 != x11) | (y11 != y11))
        m11, p11 = _better(x11, y11, m11, p11, pa, pb)
        x12 = a[lo + j + 12] * sign
        y12 = a[lo + j + 28] * sign
        s12 = s12 | -np.int32((x12 != x12) | (y12 != y12))
        m12, p12 = _better(x12, y12, m12, p12, pa, pb)
        x13 = a[lo + j + 13] * sign
        y13 = a[lo + j + 29] * sign
        s13 = s13 | -np.int32((x13 != x13) | (y13 != y13))
        m13, p13 = _better(x13, y13, m13, p13, pa, pb)
        x14 = a[lo + j + 14] * sign
        y14 = a[lo + j + 30] * sign
        s14 = s14 | -np.int32((x14 != x14) | (y14 != y14))
        m14, p14 = _better(x14, y14, m14, p14, pa, pb)
        x15 = a[lo + j + 15] * sign
        y15 = a[lo + j + 31] * sign
        s15 = s15 | -np.int32((x15 != x15) | (y15 != y15))
        m15, p15 = _better(x15, y15, m15, p15, pa, pb)
    # each lane's best, NaN flag and position: stored (in the caller's
    # scratch, LANES values each), which makes LLVM's SLP vectoriser take the
    # accumulators as vectors (see _lanes), then read back whole
    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,
         m8, m9, m10, m11, m12, m13, m14, m15)
    keep(nans, s0 != 0, s1 != 0, s2 != 0, s3 != 0, s4 != 0, s5 != 0, s6 != 0, s7 != 0,
         s8 != 0, s9 != 0, s10 != 0, s11 != 0, s12 != 0, s13 != 0, s14 != 0, s15 != 0)
    keep(where, p0, p1, p2, p3, p4, p5, p6, p7,
         p8, p9, p10, p11, p12, p13, p14, p15)
    k = _any_nan(a, lo, n, nans)
    if k >= 0:
        return k
    return _first_best(scratch, where, pos + n)


def _better(x, y, m, p, pa, pb):
    """One lane's step over two blocks: the larger of ``x`` (at ``pa``) and
    ``y`` (at ``pb``), the earlier on a tie, replaces the lane's best ``m`` (at
    ``p``) when strictly larger.  Inlined where it is called."""
    d = y > x
    x = y if d else x
    c = x > m
    return (x if c else m), ((pb if d else pa) if c else p)


def _arg_short(a, lo, n, sign):
    """:func:`_arg_float` of fewer than ``2 * LANES`` values: one at a time."""
    r = a[lo + 0] * sign
    at = 0
    for i in range(n):
        x = a[lo + i] * sign
        if x != x:                                      # noqa: PLR0124
            return i
        if x > r:
            r = x
            at = i
    return at


def _any_nan(a, lo, n, nans):
    """The first NaN's position in ``a[lo:lo + n]`` when a lane met one, else -1."""
    t = False
    for k in range(LANES):
        t = t | nans[k]
    if t:
        return _first_nan(a, lo, n)
    return -1


BLOCK = 2048    # bytes per block of the integer search
CHUNK = 32      # values per piece of the search for the largest in its block
SHORT = 256      # fewer values: a max loop and a min loop (_arg_int_short)
LANE_ROWS = 4096  # rows of 32- and 64-bit integers up to this long: _arg_int_lanes


def _arg_int(a, lo, n, flip):
    """The first position of the largest of ``a[lo:lo + n] ^ flip`` (``flip`` 0,
    or every bit set; ``n >= 1``).  Integers have no NaN and their max is exact
    in any order, so this takes two steps rather than lanes that keep
    positions: the largest value of each block of ``BLOCK`` bytes, a plain
    max loop that LLVM makes vector code as wide as the host's vectors (all
    lanes of bytes, where positions kept beside them would fill a quarter), and
    the first block whose largest beats every earlier block's; then the first
    position in that block holding it, looked for in pieces of ``CHUNK`` values
    (whether a piece holds it: an or of compares, vector code again)."""
    end = lo + n
    if n < SHORT:
        return _arg_int_short(a, lo, n, flip)
    block = BLOCK // a.itemsize
    best = a[lo] ^ flip
    start = lo
    o = lo
    # whole blocks and pieces in loops of a fixed length (the item size is the
    # compiled piece's own): no trip count to work out at each
    while o + block <= end:
        m = a[o] ^ flip
        for i in range(block):
            x = a[o + i] ^ flip
            m = x if x > m else m
        if m > best:
            best = m
            start = o
        o += block
    if o < end:
        m = a[o] ^ flip
        for i in range(o, end):
            x = a[i] ^ flip
            m = x if x > m else m
        if m > best:
            best = m
            start = o
    c = start
    while c + CHUNK <= end:
        hit = False
        for i in range(CHUNK):
            hit = hit | ((a[c + i] ^ flip) == best)
        if hit:
            at = CHUNK
            for i in range(CHUNK):
                k = i if (a[c + i] ^ flip) == best else CHUNK
                at = k if k < at else at
            return c + at - lo
        c += CHUNK
    at = end
    for i in range(c, end):
        k = i if (a[i] ^ flip) == best else end
        at = k if k < at else at
    return at - lo


def arg_rows(a, m, out, big, pos, limit):
    """``np.argmax``/``np.argmin`` (``big``) along the last axis of a C-contiguous
    float array: ``out[r]`` for each row ``r`` of ``m >= 1`` values of the data
    ``a``."""
    # (a copy of the rows' loops for each sign, a constant in each: where
    # ``big`` is an argument -- a shared helper piece -- the loops multiplied
    # every value by it)
    if big:
        return _arg_rows(a, m, out, 1.0, pos, limit)
    return _arg_rows(a, m, out, -1.0, pos, limit)


def _arg_rows(a, m, out, sign, pos, limit):
    """:func:`arg_rows` of the largest of ``a * sign``."""
    scratch = _scratch(a)
    where = np.full(LANES, pos)
    nans = np.empty(LANES, np.bool_)
    if m < FEW:
        for r in range(len(out)):
            out[r] = _arg_short(a, r * m, m, sign)
    elif m < LONG:
        for r in range(len(out)):
            out[r] = short_arg(a, r * m, m, sign > 0)
    elif m <= limit:
        for r in range(len(out)):
            out[r] = _arg_float(a, r * m, m, sign, scratch, where, nans, pos)
    else:
        for r in range(len(out)):
            out[r] = _arg_chunks(a, r * m, m, sign, scratch, where, nans, pos, limit)
    return 0


def arg_rows_int(a, m, out, big, pos, limit):
    """:func:`arg_rows` of integers: rows of ``SHORT`` to ``LANE_ROWS`` values of
    32 or 64 bits in lanes (:func:`_arg_int_lanes`), longer ones and those of
    narrower integers in blocks (:func:`_arg_int`), shorter rows by
    :func:`_arg_int_short`."""
    if len(out) == 0:
        return 0
    flip = _flip(a, big)
    if m < SHORT:
        for r in range(len(out)):
            out[r] = _arg_int_short(a, r * m, m, flip)
    elif a.itemsize >= 4 and m <= min(limit, LANE_ROWS):
        scratch = np.empty(2 * LANES, a.dtype)
        where = np.full(LANES, pos)
        for r in range(len(out)):
            out[r] = _arg_int_lanes(a, r * m, m, flip, scratch, where, pos)
    else:
        for r in range(len(out)):
            out[r] = _arg_int(a, r * m, m, flip)
    return 0


def _arg_int_lanes(a, lo, n, flip, scratch, where, pos):
    """:func:`_arg_int` of ``n >= 2 * LANES`` integers of 32 or 64 bits, as
    :func:`_arg_float` takes floats: 16 lanes each keeping its largest and
    where it first met it (positions held by ``pos``'s type), two blocks a
    step, the last step moved back to end at the last value; no NaN to watch.
    For rows of a few hundred values one pass over them beats the blocks'
    two."""
    m0 = a[lo + 0] ^ flip
    p0 = pos
    m1 = a[lo + 1] ^ flip
    p1 = pos
    m2 = a[lo + 2] ^ flip
    p2 = pos
    m3 = a[lo + 3] ^ flip
    p3 = pos
    m4 = a[lo + 4] ^ flip
    p4 = pos
    m5 = a[lo + 5] ^ flip
    p5 = pos
    m6 = a[lo + 6] ^ flip
    p6 = pos
    m7 = a[lo + 7] ^ flip
    p7 = pos
    m8 = a[lo + 8] ^ flip
    p8 = pos
    m9 = a[lo + 9] ^ flip
    p9 = pos
    m10 = a[lo + 10] ^ flip
    p10 = pos
    m11 = a[lo + 11] ^ flip
    p11 = pos
    m12 = a[lo + 12] ^ flip
    p12 = pos
    m13 = a[lo + 13] ^ flip
    p13 = pos
    m14 = a[lo + 14] ^ flip
    p14 = pos
    m15 = a[lo + 15] ^ flip
    p15 = pos
    steps = (n - LANES + 2 * LANES - 1) // (2 * LANES)
    for t in range(steps):
        j = min(LANES + 2 * LANES * t, n - 2 * LANES)
        pa = pos + j
        pb = pa + LANES
        x0 = a[lo + j + 0] ^ flip
        y0 = a[lo + j + 16] ^ flip
        m0, p0 = _better(x0, y0, m0, p0, pa, pb)
        x1 = a[lo + j + 1] ^ flip
        y1 = a[lo + j + 17] ^ flip
        m1, p1 = _better(x1, y1, m1, p1, pa, pb)
        x2 = a[lo + j + 2] ^ flip
        y2 = a[lo + j + 18] ^ flip
        m2, p2 = _better(x2, y2, m2, p2, pa, pb)
        x3 = a[lo + j + 3] ^ flip
        y3 = a[lo + j + 19] ^ flip
        m3, p3 = _better(x3, y3, m3, p3, pa, pb)
        x4 = a[lo + j + 4] ^ flip
        y4 = a[lo + j + 20] ^ flip
        m4, p4 = _better(x4, y4, m4, p4, pa, pb)
        x5 = a[lo + j + 5] ^ flip
        y5 = a[lo + j + 21] ^ flip
        m5, p5 = _better(x5, y5, m5, p5, pa, pb)
        x6 = a[lo + j + 6] ^ flip
        y6 = a[lo + j + 22] ^ flip
        m6, p6 = _better(x6, y6, m6, p6, pa, pb)
        x7 = a[lo + j + 7] ^ flip
        y7 = a[lo + j + 23] ^ flip
        m7, p7 = _better(x7, y7, m7, p7, pa, pb)
        x8 = a[lo + j + 8] ^ flip
        y8 = a[lo + j + 24] ^ flip
        m8, p8 = _better(x8, y8, m8, p8, pa, pb)
        x9 = a[lo + j + 9] ^ flip
        y9 = a[lo + j + 25] ^ flip
        m9, p9 = _better(x9, y9, m9, p9, pa, pb)
        x10 = a[lo + j + 10] ^ flip
        y10 = a[lo + j + 26] ^ flip
        m10, p10 = _better(x10, y10, m10, p10, pa, pb)
        x11 = a[lo + j + 11] ^ flip
        y11 = a[lo + j + 27] ^ flip
        m11, p11 = _better(x11, y11, m11, p11, pa, pb)
        x12 = a[lo + j + 12] ^ flip
        y12 = a[lo + j + 28] ^ flip
        m12, p12 = _better(x12, y12, m12, p12, pa, pb)
        x13 = a[lo + j + 13] ^ flip
        y13 = a[lo + j + 29] ^ flip
        m13, p13 = _better(x13, y13, m13, p13, pa, pb)
        x14 = a[lo + j + 14] ^ flip
        y14 = a[lo + j + 30] ^ flip
        m14, p14 = _better(x14, y14, m14, p14, pa, pb)
        x15 = a[lo + j + 15] ^ flip
        y15 = a[lo + j + 31] ^ flip
        m15, p15 = _better(x15, y15, m15, p15, pa, pb)
    # stored for LLVM's SLP vectoriser (_arg_float)
    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,
         m8, m9, m10, m11, m12, m13, m14, m15)
    keep(where, p0, p1, p2, p3, p4, p5, p6, p7,
         p8, p9, p10, p11, p12, p13, p14, p15)
    return _first_best(scratch, where, pos + n)


def _arg_int_short(a, lo, n, flip):
    """:func:`_arg_int` of fewer than ``SHORT`` values: the largest (a max
    loop), then the least position holding it (a min loop): vector code both,
    no branch to mispredict."""
    best = a[lo] ^ flip
    for i in range(n):
        x = a[lo + i] ^ flip
        best = x if x > best else best
    at = n
    for i in range(n):
        j = i if (a[lo + i] ^ flip) == best else n
        at = j if j < at else at
    return at


def _first_best(best, where, end):
    """The first position holding the largest of the lanes' values ``best`` (no
    NaN), lane ``k`` first holding it at ``where[k] + k`` (positions before
    ``end``, of ``where``'s type): the largest folded
    in pairs, then the least position of a lane holding it (vector compares
    and a vector minimum; ``-0.0`` and ``0.0`` are equal there as in NumPy's
    compares)."""
    lanes = len(where)
    half = lanes // 2
    for k in range(half):
        best[lanes + k] = _larger(best[k], best[k + half])
    for k in range(4):
        best[LANES + k] = _larger(best[LANES + k], best[LANES + k + 4])
    r = _larger(_larger(best[LANES], best[LANES + 1]), _larger(best[LANES + 2], best[LANES + 3]))
    at = end
    for k in range(lanes):
        i = where[k] + k if best[k] == r else end
        at = i if i < at else at
    return at


def _larger(x, y):
    """The larger of ``x`` and ``y`` (no NaN): one ``max`` instruction."""
    return x if x > y else y


def _first_nan(a, lo, n):
    """The first NaN's position in ``a[lo:lo + n]``, or -1 (infinities also make
    ``x * 0.0`` NaN)."""
    for i in range(n):
        if a[lo + i] != a[lo + i]:                      # noqa: PLR0124
            return i
    return -1


for _f in (arg_blocks, _scratch, arg_int, arg_rows, _arg_rows, arg_rows_int, _arg_chunks,
           _arg_float, _better, _arg_short, _any_nan, _arg_int, _arg_int_lanes, _arg_int_short,
           _flip, _first_best, _larger, _first_nan):
    _f.hj_unchecked = True
_arg_rows.hj_inline = True
_arg_float.hj_inline = True     # (a call per row cost a row of 32 values a third of its time)
_arg_int_lanes.hj_inline = True
_better.hj_inline = True
