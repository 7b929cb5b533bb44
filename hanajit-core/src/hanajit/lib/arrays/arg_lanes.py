"""``np.argmin``/``np.argmax`` of a contiguous 1-D float or integer lane as
vector code, in Python source compiled by hanajit (see ``lib/python/helpers.py``):
for floats the lanes of :mod:`extreme_lanes` (16 accumulators, each taking every
16th value, folded at the end), each keeping where its extreme was first met as
well (:func:`arg_max`, :func:`arg_min`; :func:`arg_rows` along the last axis of
a C-contiguous array); for integers the largest of each block, then the first
position of the largest in its block (:func:`arg_int`, :func:`arg_rows_int`)."""
import numpy as np

from .extreme_lanes import LANES


def arg_max(a, pos, limit):
    """``np.argmax(a)`` of the contiguous 1-D float ``a`` (at least one value):
    the first position of the largest value, or of the first NaN when there is
    one (:func:`_arg_float`).  ``pos``: 0 of the integer type that counts blocks
    of ``LANES`` values (int32 beside 32-bit data: one vector of positions per
    vector of values), ``limit`` the most blocks it counts."""
    return _arg_float(a, 0, len(a), 1.0, np.empty(LANES, a.dtype),
                      np.empty(LANES, np.int64), np.empty(LANES, np.bool_), pos, limit)


def arg_min(a, pos, limit):
    """``np.argmin``: :func:`arg_max` of ``-a`` (negation is exact, keeps NaN a NaN
    and ``-0.0`` equal to ``0.0``, so the same compares decide)."""
    return _arg_float(a, 0, len(a), -1.0, np.empty(LANES, a.dtype),
                      np.empty(LANES, np.int64), np.empty(LANES, np.bool_), pos, limit)


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


def _arg_float(a, lo, n, sign, scratch, where, nans, pos, limit):
    """The first position of the largest of ``a * sign`` (``sign`` 1.0 or -1.0),
    or of the first NaN.  16 accumulators, each keeping its lane's largest value
    and the block of ``LANES`` values where it first met it (a strict compare: an equal value later in the
    lane does not move it), become vectors of compares and selects as in
    :func:`_lanes`, and the first position holding the largest is taken at the
    end.  NaNs are only watched on the way (a NaN would win, and a compare that
    let one in would have to stop there): a flag per lane, left in ``nans``, is
    set by any NaN, and then NaNs are looked for in order.  The
    direction is a multiplier, not a choice in the loop: a shared library piece
    is compiled without knowing its arguments, and a choice kept it scalar."""
    if n < 2 * LANES or n // LANES > limit:
        r = a[lo + 0] * sign
        at = 0
        for i in range(n):
            x = a[lo + i] * sign
            if x != x:                                  # noqa: PLR0124
                return i
            if x > r:
                r = x
                at = i
        return at
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
    s0 = m0 != m0
    s1 = m1 != m1
    s2 = m2 != m2
    s3 = m3 != m3
    s4 = m4 != m4
    s5 = m5 != m5
    s6 = m6 != m6
    s7 = m7 != m7
    s8 = m8 != m8
    s9 = m9 != m9
    s10 = m10 != m10
    s11 = m11 != m11
    s12 = m12 != m12
    s13 = m13 != m13
    s14 = m14 != m14
    s15 = m15 != m15
    blocks = n // LANES
    for b in range(1, blocks):
        j = LANES * b
        bb = pos + b
        x0 = a[lo + j + 0] * sign
        s0 = s0 | (x0 != x0)
        c0 = x0 > m0
        m0 = x0 if c0 else m0
        p0 = bb if c0 else p0
        x1 = a[lo + j + 1] * sign
        s1 = s1 | (x1 != x1)
        c1 = x1 > m1
        m1 = x1 if c1 else m1
        p1 = bb if c1 else p1
        x2 = a[lo + j + 2] * sign
        s2 = s2 | (x2 != x2)
        c2 = x2 > m2
        m2 = x2 if c2 else m2
        p2 = bb if c2 else p2
        x3 = a[lo + j + 3] * sign
        s3 = s3 | (x3 != x3)
        c3 = x3 > m3
        m3 = x3 if c3 else m3
        p3 = bb if c3 else p3
        x4 = a[lo + j + 4] * sign
        s4 = s4 | (x4 != x4)
        c4 = x4 > m4
        m4 = x4 if c4 else m4
        p4 = bb if c4 else p4
        x5 = a[lo + j + 5] * sign
        s5 = s5 | (x5 != x5)
        c5 = x5 > m5
        m5 = x5 if c5 else m5
        p5 = bb if c5 else p5
        x6 = a[lo + j + 6] * sign
        s6 = s6 | (x6 != x6)
        c6 = x6 > m6
        m6 = x6 if c6 else m6
        p6 = bb if c6 else p6
        x7 = a[lo + j + 7] * sign
        s7 = s7 | (x7 != x7)
        c7 = x7 > m7
        m7 = x7 if c7 else m7
        p7 = bb if c7 else p7
        x8 = a[lo + j + 8] * sign
        s8 = s8 | (x8 != x8)
        c8 = x8 > m8
        m8 = x8 if c8 else m8
        p8 = bb if c8 else p8
        x9 = a[lo + j + 9] * sign
        s9 = s9 | (x9 != x9)
        c9 = x9 > m9
        m9 = x9 if c9 else m9
        p9 = bb if c9 else p9
        x10 = a[lo + j + 10] * sign
        s10 = s10 | (x10 != x10)
        c10 = x10 > m10
        m10 = x10 if c10 else m10
        p10 = bb if c10 else p10
        x11 = a[lo + j + 11] * sign
        s11 = s11 | (x11 != x11)
        c11 = x11 > m11
        m11 = x11 if c11 else m11
        p11 = bb if c11 else p11
        x12 = a[lo + j + 12] * sign
        s12 = s12 | (x12 != x12)
        c12 = x12 > m12
        m12 = x12 if c12 else m12
        p12 = bb if c12 else p12
        x13 = a[lo + j + 13] * sign
        s13 = s13 | (x13 != x13)
        c13 = x13 > m13
        m13 = x13 if c13 else m13
        p13 = bb if c13 else p13
        x14 = a[lo + j + 14] * sign
        s14 = s14 | (x14 != x14)
        c14 = x14 > m14
        m14 = x14 if c14 else m14
        p14 = bb if c14 else p14
        x15 = a[lo + j + 15] * sign
        s15 = s15 | (x15 != x15)
        c15 = x15 > m15
        m15 = x15 if c15 else m15
        p15 = bb if c15 else p15
    t = s0 | s1 | s2 | s3 | s4 | s5 | s6 | s7
    t = t | s8 | s9 | s10 | s11 | s12 | s13 | s14 | s15
    if t:
        k = _first_nan(a, lo, n)
        if k >= 0:
            return k
    # each lane's best and where: stored (in the caller's scratch, LANES values
    # each), which makes LLVM's SLP vectoriser take the accumulators as vectors
    # (see _lanes), then read back in order
    scratch[0] = m0
    scratch[1] = m1
    scratch[2] = m2
    scratch[3] = m3
    scratch[4] = m4
    scratch[5] = m5
    scratch[6] = m6
    scratch[7] = m7
    scratch[8] = m8
    scratch[9] = m9
    scratch[10] = m10
    scratch[11] = m11
    scratch[12] = m12
    scratch[13] = m13
    scratch[14] = m14
    scratch[15] = m15
    nans[0] = s0
    nans[1] = s1
    nans[2] = s2
    nans[3] = s3
    nans[4] = s4
    nans[5] = s5
    nans[6] = s6
    nans[7] = s7
    nans[8] = s8
    nans[9] = s9
    nans[10] = s10
    nans[11] = s11
    nans[12] = s12
    nans[13] = s13
    nans[14] = s14
    nans[15] = s15
    where[0] = p0
    where[1] = p1
    where[2] = p2
    where[3] = p3
    where[4] = p4
    where[5] = p5
    where[6] = p6
    where[7] = p7
    where[8] = p8
    where[9] = p9
    where[10] = p10
    where[11] = p11
    where[12] = p12
    where[13] = p13
    where[14] = p14
    where[15] = p15
    r, at = _first_best(scratch, where)
    for i in range(LANES * blocks, n):
        x = a[lo + i] * sign
        if x != x:                                      # noqa: PLR0124
            return i
        if x > r:
            r = x
            at = i
    return at


BLOCK = 2048    # bytes per block of the integer search
CHUNK = 32      # values per piece of the search for the largest in its block


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
    block = BLOCK // a.itemsize
    best = a[lo] ^ flip
    start = lo
    o = lo
    while o < end:
        e = min(o + block, end)
        m = a[o] ^ flip
        for i in range(o, e):
            x = a[i] ^ flip
            m = x if x > m else m
        if m > best:
            best = m
            start = o
        o = e
    c = start
    while c < end:
        e = min(c + CHUNK, end)
        hit = False
        for i in range(c, e):
            hit = hit | ((a[i] ^ flip) == best)
        if hit:
            for i in range(c, e):
                if (a[i] ^ flip) == best:
                    return i - lo
        c = e
    return 0


def arg_rows(a, m, out, big, pos, limit):
    """``np.argmax``/``np.argmin`` (``big``) along the last axis of a C-contiguous
    float array: ``out[r]`` for each row ``r`` of ``m >= 1`` values of the data
    ``a``."""
    sign = 1.0 if big else -1.0
    scratch = np.empty(LANES, a.dtype)
    where = np.empty(LANES, np.int64)
    nans = np.empty(LANES, np.bool_)
    for r in range(len(out)):
        out[r] = _arg_float(a, r * m, m, sign, scratch, where, nans, pos, limit)
    return 0


def arg_rows_int(a, m, out, big):
    """:func:`arg_rows` of integers."""
    if len(out) == 0:
        return 0
    flip = _flip(a, big)
    for r in range(len(out)):
        out[r] = _arg_int(a, r * m, m, flip)
    return 0


def _first_best(best, where):
    """The largest of the lanes' ``best`` and the first position holding it
    (lane ``k`` of block ``where[k]``)."""
    r = best[0]
    at = where[0] * LANES
    for k in range(1, len(best)):
        i = where[k] * LANES + k
        if best[k] > r or (best[k] == r and i < at):
            r = best[k]
            at = i
    return r, at


def _first_nan(a, lo, n):
    """The first NaN's position in ``a[lo:lo + n]``, or -1 (infinities also make
    ``x * 0.0`` NaN)."""
    for i in range(n):
        if a[lo + i] != a[lo + i]:                      # noqa: PLR0124
            return i
    return -1


for _f in (arg_max, arg_min, arg_int, arg_rows, arg_rows_int, _arg_float,
           _arg_int, _flip, _first_best, _first_nan):
    _f.hj_unchecked = True
