"""The value of ``np.min``/``np.max`` of a 1-D float lane as vector code, in Python
source compiled by hanajit (see ``lib/python/helpers.py``).

Which of equal values a min or max returns only shows for ``0.0`` and ``-0.0``,
and ``reductions.Reduction.numpy_zero`` recomputes a zero extreme in NumPy's own
order; a NaN anywhere makes the result NaN (which NaN is not promised,
docs/semantics.md).  Everything else is the same in any order, so 16
accumulators take every 16th value and are folded at the end: LLVM makes them
vectors of compares and selects (they are stored in ``scratch`` after the loop
for that, as ``statistics/pairwise_sum._leaf`` explains).  A lane that is not
contiguous is copied in chunks of :data:`CHUNK` values first: the compares then
read whole vectors, not gathers; one whose step is 2, 4, 8 or 16 items is read
whole, from its first value to its last, and only its own lanes are kept
(:func:`extreme_stepped`).
"""
import numpy as np

LANES = 16
CHUNK = 4096


def extreme(a, big):
    """``max(a)`` when ``big`` else ``min(a)`` of the contiguous 1-D float ``a``
    (at least one value): NaN when any value is NaN."""
    n = len(a)
    if n < 2 * LANES:
        return _in_order(a, 0, n, a[0], big)
    return _lanes(a, 0, n, big, np.empty(LANES, a.dtype))


def extreme_strided(a, big):
    """``extreme`` of a 1-D lane of any stride, through a contiguous buffer."""
    n = len(a)
    if n < 2 * LANES:
        return _in_order(a, 0, n, a[0], big)
    size = CHUNK if n > CHUNK else n
    buf = np.empty(size, a.dtype)
    scratch = np.empty(LANES, a.dtype)
    r = a[0]
    i = 0
    while i < n:
        k = n - i if n - i < size else size
        for j in range(k):
            buf[j] = a[i + j]
        if k < 2 * LANES:
            r = _in_order(buf, 0, k, r, big)
        else:
            r = _pick(r, _lanes(buf, 0, k, big, scratch), big)
        i += k
    return r


def extreme_stepped(a, step, big):
    """``extreme`` of every ``step``-th value of the contiguous 1-D float ``a``
    from ``a[0]`` (``step`` is 2, 4, 8 or 16, a divisor of :data:`LANES`; the
    last value is ``a[-1]``).  All of ``a`` is read as whole vectors; of the 16
    accumulators, lanes ``0, step, 2 * step ...`` hold exactly the wanted values
    and the others (the imaginary parts beside a complex array's ``.real``, the
    skipped items of ``x[::2]``: memory of the same array) are dropped."""
    m = len(a)
    blocks = m // LANES
    r = a[0]
    if blocks < 2:
        for i in range(step, m, step):
            r = _pick(r, a[i], big)
        return r
    scratch = np.empty(LANES, a.dtype)
    _lanes(a, 0, LANES * blocks, big, scratch)     # leaves each lane in scratch
    r = scratch[0]
    for k in range(step, LANES, step):
        r = _pick(r, scratch[k], big)
    for i in range(LANES * blocks, m, step):
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


def _lanes(a, lo, n, big, scratch):
    """The extreme of ``a[lo:lo + n]``, ``n >= LANES``."""
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    m8 = a[lo + 8]
    m9 = a[lo + 9]
    m10 = a[lo + 10]
    m11 = a[lo + 11]
    m12 = a[lo + 12]
    m13 = a[lo + 13]
    m14 = a[lo + 14]
    m15 = a[lo + 15]
    blocks = n // LANES
    for b in range(1, blocks):
        j = lo + LANES * b
        m0 = _pick(m0, a[j + 0], big)
        m1 = _pick(m1, a[j + 1], big)
        m2 = _pick(m2, a[j + 2], big)
        m3 = _pick(m3, a[j + 3], big)
        m4 = _pick(m4, a[j + 4], big)
        m5 = _pick(m5, a[j + 5], big)
        m6 = _pick(m6, a[j + 6], big)
        m7 = _pick(m7, a[j + 7], big)
        m8 = _pick(m8, a[j + 8], big)
        m9 = _pick(m9, a[j + 9], big)
        m10 = _pick(m10, a[j + 10], big)
        m11 = _pick(m11, a[j + 11], big)
        m12 = _pick(m12, a[j + 12], big)
        m13 = _pick(m13, a[j + 13], big)
        m14 = _pick(m14, a[j + 14], big)
        m15 = _pick(m15, a[j + 15], big)
    r = m0
    r = _pick(r, m1, big)
    r = _pick(r, m2, big)
    r = _pick(r, m3, big)
    r = _pick(r, m4, big)
    r = _pick(r, m5, big)
    r = _pick(r, m6, big)
    r = _pick(r, m7, big)
    r = _pick(r, m8, big)
    r = _pick(r, m9, big)
    r = _pick(r, m10, big)
    r = _pick(r, m11, big)
    r = _pick(r, m12, big)
    r = _pick(r, m13, big)
    r = _pick(r, m14, big)
    r = _pick(r, m15, big)
    r = _in_order(a, lo + LANES * blocks, n - LANES * blocks, r, big)
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
    return r


# every index above is in range by construction: no checks (pipeline.py)
for _f in (extreme, extreme_strided, extreme_stepped, _in_order, _lanes):
    _f.hj_unchecked = True
