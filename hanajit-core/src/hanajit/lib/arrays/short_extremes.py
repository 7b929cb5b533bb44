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
(``axis_reduce.rows``).  From ``LONG`` values on, the 32 lanes are faster.
The two kernels, ``short_max`` and ``short_min``, are written by
``scripts/gen_lane_kernels.py`` into ``lane_kernels``; the positions of
``np.argmax``/``np.argmin`` are here (:func:`short_arg`)."""
from .lane_kernels import short_max, short_min

SHORT = 4       # fewer values: one after the other
LONG = 256      # more values: lane_kernels' 32 lanes
NEAR = 64       # short_arg: fewer values, positions in lanes; more, a search


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
for _f in (short_arg, _first_of_lanes):
    _f.hj_unchecked = True
    _f.hj_inline = True
_first_of_lanes.hj_short_loops = True
