"""Order statistics of one long lane found without partitioning it, in Python
source compiled by hanajit (see ``lib/python/helpers.py``): what NumPy's
``partition`` leaves at the positions ``kth`` (``np.percentile``,
``np.quantile``, ``np.median`` read nothing else) is, for each ``k``, the k-th
smallest value -- decided by value alone unless equal values of different
bits can land there, which for reals means a zero (``-0.0``/``0.0``, when the
lane holds zeros of both signs) or a NaN.

So for a lane of at least ``SMALLEST`` values: a sample of ``SAMPLE`` values
(an eighth of a shorter lane), spread evenly and partitioned at the ranks it needs, brackets the wanted ranks
(those within ``n // 64`` of each other share a bracket; more than
``MOST_BRACKETS`` brackets, or fewer than ``PER_BRACKET`` values per bracket:
NumPy's partition) with a margin of five standard
deviations of a sample rank.  For each bracket one pass over the lane counts
the values below it, at its two ends and before its upper end (sums of
compares: vector code), a second copies those strictly inside -- a few per
cent -- (without a branch, or with one where few are inside), and NumPy's
partition of the copies at the ranks left gives the values.  The smallest and
largest are the vector lanes' ``min``/``max``.  A NaN anywhere, a read zero
where the lane holds zeros of both signs, or a rank outside its bracket (the
sample misled) gives up, nothing written: the caller partitions the lane as
NumPy does.
"""
import math

import numpy as np

from ..arrays.extreme_lanes import extreme
from ..arrays.minmax_algorithms import one_zero_sign
from .quantile_algorithms import insertion_sort, partition_rows

SAMPLE = 8192           # values in the sample (an eighth of a shorter lane)
SMALLEST = 512          # shorter lanes: NumPy's partition
PER_BRACKET = 700       # fewer values per bracket: NumPy's partition
MOST_BRACKETS = 4       # more (many q's far apart): NumPy's partition


def partition_lanes(v, n, kth, inexact, read, also):
    """``quantile_algorithms.partition_rows`` for ``np.quantile``/``np.percentile``,
    which read only the positions ``kth`` (the values at ``read`` and ``also``,
    whether the others are NaN): each row of ``n`` values of ``v`` gets the
    values there from :func:`quick_kth` when they are decided by value alone,
    else NumPy's partition."""
    if n < SMALLEST:
        return partition_rows(v, n, kth, inexact)
    for r in range(len(v) // n):
        row = v[r * n:(r + 1) * n]
        if not quick_kth(row, n, kth, inexact, read, also):
            partition_rows(row, n, kth, inexact)
    return 0


def quick_kth(v, n, kth, inexact, read, also):
    """Write at each position ``kth[t]`` (sorted, ``0 <= kth[t] < n``) of the
    lane ``v`` (``len(v) == n``) the ``kth[t]``-th smallest value, when those
    are decided by value alone (module docstring; ``inexact``: floats, whose
    zeros have two signs); True when done, False with ``v`` unchanged.  Only
    at the positions in ``read`` and ``also`` is a zero's sign read by the
    caller (at the others only whether there is a NaN): a zero elsewhere is
    written as found."""
    nk = len(kth)
    if n < SMALLEST or len(v) != n or nk == 0:
        return False
    size = min(SAMPLE, n // 8)
    # the brackets: runs kth[t..u] of ranks near each other (the smallest and
    # largest value apart), each with the sample ranks of its two ends
    runs = np.empty((nk, 2), np.int64)
    ends = np.empty(2 * nk + 1, np.int64)
    nr = 0
    t = 0
    while t < nk:
        if kth[t] == 0 or kth[t] == n - 1:
            t += 1                      # (the smallest or largest: below)
            continue
        u = t
        while u + 1 < nk and kth[u + 1] < n - 1 and kth[u + 1] - kth[t] <= n // 64:
            u += 1
        runs[nr, 0] = t
        runs[nr, 1] = u
        ends[2 * nr] = min(max(_sample_rank(kth[t], n, -1, size), 0), size - 1)
        ends[2 * nr + 1] = min(max(_sample_rank(kth[u], n, 1, size), 0), size - 1)
        nr += 1
        t = u + 1
    if nr > MOST_BRACKETS or n < PER_BRACKET * nr:
        return False    # (a pass per bracket: many cost more than the partition)
    ends[2 * nr] = size - 1             # (where a NaN of the sample would go)
    ends = ends[:2 * nr + 1]
    insertion_sort(ends, 2 * nr + 1)
    step = n // size
    sample = np.empty(size, v.dtype)
    for i in range(size):
        sample[i] = v[i * step]
    # the sample's values at those ranks: NumPy's partition, not a sort (no
    # call into NumPy: every target with allocation compiles this)
    partition_rows(sample, size, ends, inexact)
    if sample[size - 1] != sample[size - 1]:                # noqa: PLR0124
        return False                                        # (a NaN: put last)
    vals = np.empty(nk, v.dtype)
    counts = np.zeros(5, np.int64)
    signs = 0           # zeros: 0 not looked at, 1 of one sign, 2 of both
    for b in range(nr):
        t = runs[b, 0]
        u = runs[b, 1]
        first = _sample_rank(kth[t], n, -1, size)
        last = _sample_rank(kth[u], n, 1, size)
        closed_lo = first >= 0
        closed_hi = last < size
        lo = sample[first] if closed_lo else sample[0]
        hi = sample[last] if closed_hi else sample[size - 1]
        _count(v, n, lo, hi, counts)
        if counts[4] != 0:
            return False                                    # a NaN
        below = counts[0] if closed_lo else 0
        at_lo = counts[1] - counts[0] if closed_lo else 0
        at_hi = counts[3] - counts[2] if closed_hi and not (closed_lo and hi == lo) else 0
        # strictly inside (an open end: past it too); none when lo == hi
        m = max((counts[2] if closed_hi else n) - (counts[1] if closed_lo else 0), 0)
        inside = np.empty(m + 1, v.dtype)
        if m * 64 > n:
            _compact(v, n, lo, hi, closed_lo, closed_hi, inside)
        elif m > 0:         # few: a branch that is rarely taken costs less
            _pick(v, n, lo, hi, closed_lo, closed_hi, inside)
        # the wanted ranks among those inside, then NumPy's partition of them there
        local = np.empty(u - t + 1, np.int64)
        for w in range(t, u + 1):
            local[w - t] = min(max(kth[w] - below - at_lo, 0), max(m - 1, 0))
        if m > 0:
            partition_rows(inside[:m], m, local, inexact)
        for w in range(t, u + 1):
            r = kth[w] - below
            if r < 0:
                return False
            if r < at_lo:
                x = lo
            elif r < at_lo + m:
                x = inside[r - at_lo]
            elif r < at_lo + m + at_hi:
                x = hi
            else:
                return False            # outside the bracket: the sample misled
            if inexact and x == 0 and _among(kth[w], read, also):
                if signs == 0:
                    signs = 1 if one_zero_sign(v) else 2
                if signs == 2:
                    return False        # -0.0 and 0.0: NumPy's arrangement decides
            vals[w] = x
    for w in range(nk):
        if kth[w] == 0 or kth[w] == n - 1:
            # the smallest or largest: vector code (a NaN anywhere gives NaN;
            # for floats the lanes without np.min's choice among zeros: the
            # count of the zeros' signs settles a zero)
            if inexact:
                vals[w] = extreme(v, kth[w] != 0)
            else:
                vals[w] = np.min(v) if kth[w] == 0 else np.max(v)
            x = vals[w]
            if x != x:                                      # noqa: PLR0124
                return False
            if inexact and x == 0 and _among(kth[w], read, also):
                if signs == 0:
                    signs = 1 if one_zero_sign(v) else 2
                if signs == 2:
                    return False
    for w in range(nk):
        v[kth[w]] = vals[w]
    return True


def _among(k, read, also):
    """Is position ``k`` in ``read`` or ``also``?"""
    for i in range(len(read)):
        if read[i] == k:
            return True
    for i in range(len(also)):
        if also[i] == k:
            return True
    return False


def _sample_rank(k, n, side, size):
    """The position in a sample of ``size`` values bracketing rank ``k`` of
    ``n`` from below (``side`` -1) or above (1): five standard deviations of
    the sample's rank of it, and 16 more, away (past the sample's ends: open)."""
    p = (k + 0.5) / n
    spread = int(5.0 * math.sqrt(size * p * (1.0 - p))) + 16
    centre = int(p * size)
    return centre + side * spread


def _count(v, n, lo, hi, counts):
    """``counts``: how many values are below ``lo``, at most ``lo``, below
    ``hi``, at most ``hi``, and NaNs -- sums of compares, vector code."""
    lt_lo = 0
    le_lo = 0
    lt_hi = 0
    le_hi = 0
    nan = 0
    for i in range(n):
        x = v[i]
        lt_lo += x < lo
        le_lo += x <= lo
        lt_hi += x < hi
        le_hi += x <= hi
        nan += x != x                                       # noqa: PLR0124
    counts[0] = lt_lo
    counts[1] = le_lo
    counts[2] = lt_hi
    counts[3] = le_hi
    counts[4] = nan
    return 0


def _compact(v, n, lo, hi, closed_lo, closed_hi, out):
    """The values strictly between ``lo`` and ``hi`` (an open end: every value
    past it), in order, into ``out`` (one more item than there are: each value
    is stored, and the position moves on only past one that belongs -- no
    branch to mispredict)."""
    m = 0
    for i in range(n):
        x = v[i]
        out[m] = x
        m += ((x > lo) | (not closed_lo)) & ((x < hi) | (not closed_hi))
    return m


def _pick(v, n, lo, hi, closed_lo, closed_hi, out):
    """:func:`_compact` with a branch: for brackets that hold few values."""
    m = 0
    for i in range(n):
        x = v[i]
        if ((x > lo) | (not closed_lo)) & ((x < hi) | (not closed_hi)):
            out[m] = x
            m += 1
    return m


for _f in (partition_lanes, quick_kth, _among, _sample_rank, _count, _compact, _pick):
    _f.hj_unchecked = True
