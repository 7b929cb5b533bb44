"""The least or largest of a short contiguous run of floats (4 to 255 values: a
row of ``np.max(x, axis=1)``), in Python source compiled by hanajit.

One value after the other (``extreme_lanes._in_order``), each compare waits on
the one before: about 3 ns a value, so that rows of 31 float64 values took twice
NumPy's time; and the 32 lanes of ``lane_kernels`` (from 32 values) cost about
20 ns a row to set up and fold.  Here eight accumulators -- one vector register
of float64 -- take the run in blocks of eight, the last block moved back to end
at the last value (a value read twice does not change a min or a max), and are
folded at the end; four to seven values are two overlapping blocks of four.
NaNs are watched beside them (int32 masks, as in ``lane_kernels``); with one,
the first NaN is the result, as in order.  Which of equal zeros comes out is not
NumPy's pick: callers that need it recompute zero results
(``axis_reduce.rows``).  From ``LONG`` values on, the 32 lanes are faster."""
import numpy as np

from .lane_kernels import first_nan_value

SHORT = 4       # fewer values: one after the other
LONG = 256      # more values: lane_kernels' 32 lanes
NEAR = 64       # short_arg: fewer values, positions in lanes; more, a search


def short_max(a, lo, n):
    """The largest of ``a[lo:lo + n]`` (``SHORT <= n``), or a NaN of ``a``."""
    if n < 8:
        m0 = a[lo + 0]
        m1 = a[lo + 1]
        m2 = a[lo + 2]
        m3 = a[lo + 3]
        x0 = a[lo + n - 4]
        x1 = a[lo + n - 3]
        x2 = a[lo + n - 2]
        x3 = a[lo + n - 1]
        if ((m0 != m0) | (m1 != m1) | (m2 != m2) | (m3 != m3)
                | (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3)):
            return first_nan_value(a, lo, n, 1)
        m0 = m0 if m0 > x0 else x0
        m1 = m1 if m1 > x1 else x1
        m2 = m2 if m2 > x2 else x2
        m3 = m3 if m3 > x3 else x3
        m0 = m0 if m0 > m2 else m2
        m1 = m1 if m1 > m3 else m3
        return m0 if m0 > m1 else m1
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    u0 = -np.int32((m0 != m0) | (m4 != m4))
    u1 = -np.int32((m1 != m1) | (m5 != m5))
    u2 = -np.int32((m2 != m2) | (m6 != m6))
    u3 = -np.int32((m3 != m3) | (m7 != m7))
    for t in range((n - 1) // 8):
        j = lo + min(8 + 8 * t, n - 8)
        x0 = a[j + 0]
        x1 = a[j + 1]
        x2 = a[j + 2]
        x3 = a[j + 3]
        x4 = a[j + 4]
        x5 = a[j + 5]
        x6 = a[j + 6]
        x7 = a[j + 7]
        m0 = m0 if m0 > x0 else x0
        m1 = m1 if m1 > x1 else x1
        m2 = m2 if m2 > x2 else x2
        m3 = m3 if m3 > x3 else x3
        m4 = m4 if m4 > x4 else x4
        m5 = m5 if m5 > x5 else x5
        m6 = m6 if m6 > x6 else x6
        m7 = m7 if m7 > x7 else x7
        u0 = u0 | -np.int32((x0 != x0) | (x4 != x4))
        u1 = u1 | -np.int32((x1 != x1) | (x5 != x5))
        u2 = u2 | -np.int32((x2 != x2) | (x6 != x6))
        u3 = u3 | -np.int32((x3 != x3) | (x7 != x7))
    if (u0 | u1 | u2 | u3) != 0:
        return first_nan_value(a, lo, n, 1)
    m0 = m0 if m0 > m4 else m4
    m1 = m1 if m1 > m5 else m5
    m2 = m2 if m2 > m6 else m6
    m3 = m3 if m3 > m7 else m7
    m0 = m0 if m0 > m2 else m2
    m1 = m1 if m1 > m3 else m3
    return m0 if m0 > m1 else m1


def short_min(a, lo, n):
    """The least of ``a[lo:lo + n]`` (``SHORT <= n``), or a NaN of ``a``."""
    if n < 8:
        m0 = a[lo + 0]
        m1 = a[lo + 1]
        m2 = a[lo + 2]
        m3 = a[lo + 3]
        x0 = a[lo + n - 4]
        x1 = a[lo + n - 3]
        x2 = a[lo + n - 2]
        x3 = a[lo + n - 1]
        if ((m0 != m0) | (m1 != m1) | (m2 != m2) | (m3 != m3)
                | (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3)):
            return first_nan_value(a, lo, n, 1)
        m0 = m0 if m0 < x0 else x0
        m1 = m1 if m1 < x1 else x1
        m2 = m2 if m2 < x2 else x2
        m3 = m3 if m3 < x3 else x3
        m0 = m0 if m0 < m2 else m2
        m1 = m1 if m1 < m3 else m3
        return m0 if m0 < m1 else m1
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    u0 = -np.int32((m0 != m0) | (m4 != m4))
    u1 = -np.int32((m1 != m1) | (m5 != m5))
    u2 = -np.int32((m2 != m2) | (m6 != m6))
    u3 = -np.int32((m3 != m3) | (m7 != m7))
    for t in range((n - 1) // 8):
        j = lo + min(8 + 8 * t, n - 8)
        x0 = a[j + 0]
        x1 = a[j + 1]
        x2 = a[j + 2]
        x3 = a[j + 3]
        x4 = a[j + 4]
        x5 = a[j + 5]
        x6 = a[j + 6]
        x7 = a[j + 7]
        m0 = m0 if m0 < x0 else x0
        m1 = m1 if m1 < x1 else x1
        m2 = m2 if m2 < x2 else x2
        m3 = m3 if m3 < x3 else x3
        m4 = m4 if m4 < x4 else x4
        m5 = m5 if m5 < x5 else x5
        m6 = m6 if m6 < x6 else x6
        m7 = m7 if m7 < x7 else x7
        u0 = u0 | -np.int32((x0 != x0) | (x4 != x4))
        u1 = u1 | -np.int32((x1 != x1) | (x5 != x5))
        u2 = u2 | -np.int32((x2 != x2) | (x6 != x6))
        u3 = u3 | -np.int32((x3 != x3) | (x7 != x7))
    if (u0 | u1 | u2 | u3) != 0:
        return first_nan_value(a, lo, n, 1)
    m0 = m0 if m0 < m4 else m4
    m1 = m1 if m1 < m5 else m5
    m2 = m2 if m2 < m6 else m6
    m3 = m3 if m3 < m7 else m7
    m0 = m0 if m0 < m2 else m2
    m1 = m1 if m1 < m3 else m3
    return m0 if m0 < m1 else m1


def short_arg(a, lo, n, big):
    """``np.argmax`` (``big``) or ``np.argmin`` of ``a[lo:lo + n]`` (``SHORT <=
    n``) in two passes: the extreme (:func:`short_max`), then the first
    position holding it; with a NaN, the first NaN's.  The
    first equal value is NumPy's pick (a strict compare keeps it: ``-0.0`` and
    ``0.0`` are equal)."""
    best = short_max(a, lo, n) if big else short_min(a, lo, n)
    if best != best:                                    # noqa: PLR0124
        for i in range(n):
            if a[lo + i] != a[lo + i]:                  # noqa: PLR0124
                return i
    if n < NEAR:
        return _first_of_lanes(a, lo, n, best)
    # the first block of eight holding it (a vector compare each), then the
    # first position in it: the search stops there, and as a loop with an
    # early exit it is never vectorised across blocks (which gathered values)
    j = 0
    while j + 8 <= n:
        hit = False
        for k in range(8):
            hit = hit | (a[lo + j + k] == best)
        if hit:
            break
        j += 8
    while a[lo + j] != best:
        j += 1
    return j


def _first_of_lanes(a, lo, n, best):
    """The first position of ``best`` in ``a[lo:lo + n]`` (``8 <= n < NEAR``):
    eight lanes of positions, taken as the values were (a position seen twice
    is the same position), the least at the end; no branch, where the row's
    random place of its extreme mispredicts a search that stops (rows of 8:
    67 against 286 us for 160,000 values).  Its loop stays a scalar loop
    (``hj_short_loops``): with eight blocks or more LLVM's loop vectoriser took
    it across its blocks, reading the values one by one into vectors, 2x
    slower.)"""
    p0 = 0 if a[lo + 0] == best else n
    p1 = 1 if a[lo + 1] == best else n
    p2 = 2 if a[lo + 2] == best else n
    p3 = 3 if a[lo + 3] == best else n
    p4 = 4 if a[lo + 4] == best else n
    p5 = 5 if a[lo + 5] == best else n
    p6 = 6 if a[lo + 6] == best else n
    p7 = 7 if a[lo + 7] == best else n
    for t in range((n - 1) // 8):
        j = min(8 + 8 * t, n - 8)
        q0 = j + 0 if a[lo + j + 0] == best else n
        q1 = j + 1 if a[lo + j + 1] == best else n
        q2 = j + 2 if a[lo + j + 2] == best else n
        q3 = j + 3 if a[lo + j + 3] == best else n
        q4 = j + 4 if a[lo + j + 4] == best else n
        q5 = j + 5 if a[lo + j + 5] == best else n
        q6 = j + 6 if a[lo + j + 6] == best else n
        q7 = j + 7 if a[lo + j + 7] == best else n
        p0 = p0 if p0 < q0 else q0
        p1 = p1 if p1 < q1 else q1
        p2 = p2 if p2 < q2 else q2
        p3 = p3 if p3 < q3 else q3
        p4 = p4 if p4 < q4 else q4
        p5 = p5 if p5 < q5 else q5
        p6 = p6 if p6 < q6 else q6
        p7 = p7 if p7 < q7 else q7
    p0 = p0 if p0 < p4 else p4
    p1 = p1 if p1 < p5 else p5
    p2 = p2 if p2 < p6 else p6
    p3 = p3 if p3 < p7 else p7
    p0 = p0 if p0 < p2 else p2
    p1 = p1 if p1 < p3 else p3
    return p0 if p0 < p1 else p1


# every index above is in range by construction: no checks (pipeline.py)
for _f in (short_max, short_min, short_arg, _first_of_lanes):
    _f.hj_unchecked = True
    _f.hj_inline = True
_first_of_lanes.hj_short_loops = True
