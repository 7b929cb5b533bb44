"""NumPy's pairwise summation (``@TYPE@_pairwise_sum`` in its ``loops_utils``), in
Python source compiled by hanajit (see ``helpers``): the order of additions
NumPy's ``add.reduce`` uses on a lane its inner loop gets whole, so ``np.sum`` and
``np.mean`` of such lanes give NumPy's result bit for bit.

Fewer than 8 values are added in order; up to 128 with eight accumulators (each
takes every eighth value), combined as ``((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7))``,
the rest added in order; more are split in two at half the length rounded down
to a multiple of 8, each half summed so, and the two sums added.  The result is
``0 + sum`` (NumPy's reduction starts from the identity: ``-0.0`` sums to 0.0).
"""
import numpy as np

LEAF = 128      # the most values a leaf holds (NumPy's PW_BLOCKSIZE)


def pairwise(v, zero):
    """``zero + (pairwise sum of the 1-D v)`` in ``zero``'s type (past one leaf,
    with eight elements of scratch memory: ``_leaf``)."""
    n = len(v)
    if n <= 128:
        return zero + _leaf(v, 0, n, zero, None)
    return zero + _pairwise(v, 0, n, zero, np.full(8, zero))


def pairwise_unbuffered(v, zero):
    """``pairwise`` without allocating: the same sum.  For targets that cannot
    allocate, and for the many lanes of an axis sum, where an allocation per
    lane costs more than the better vectorised leaves of a long sum gain."""
    return zero + _pairwise(v, 0, len(v), zero, None)


BUFFER = 8192   # NumPy's iterator buffer, in items


def buffered_sum(v, zero):
    """NumPy's sum of a lane it casts through its iterator's buffer (an integer
    array summed as float64 by ``np.mean``/``np.var``): ``zero`` plus each
    buffer's pairwise sum in turn (``v`` holds the cast values)."""
    n = len(v)
    total = zero
    lo = 0
    while lo < n:
        m = min(BUFFER, n - lo)
        total = total + lane_sum(v, lo, m, zero)
        lo += m
    return total


def cast_sum(v, buf, zero):
    """``buffered_sum`` of the values of ``v`` cast to ``zero``'s type without a
    cast copy of them all: each run of ``BUFFER`` values is cast into ``buf``
    (``min(len(v), BUFFER)`` items or more) and summed there, as NumPy's
    iterator fills its buffer (``reduce_dtype``: ``np.sum(x32, dtype=np.float64)``)."""
    n = len(v)
    total = zero
    lo = 0
    while lo < n:
        m = min(BUFFER, n - lo)
        for i in range(m):
            buf[i] = v[lo + i]
        total = total + lane_sum(buf, 0, m, zero)
        lo += m
    return total


def lane_sum(v, lo, n, zero):
    """The pairwise sum of ``v[lo:lo + n]`` as NumPy's reduce adds it to its
    total (no leading ``zero +``; ``sum_lanes``)."""
    if n <= 128:
        return _leaf(v, lo, n, zero, None)
    return _pairwise(v, lo, n, zero, np.full(8, zero))


def _pairwise(v, lo, n, zero, scratch):
    if n <= 128:
        return _leaf(v, lo, n, zero, scratch)
    n2 = n // 2
    n2 -= n2 % 8
    if n - n2 <= 128:       # both halves are leaves (n2 <= n - n2): one call for both
        return _leaf(v, lo, n2, zero, scratch) + _leaf(v, lo + n2, n - n2, zero, scratch)
    return _pairwise(v, lo, n2, zero, scratch) + _pairwise(v, lo + n2, n - n2, zero, scratch)


def _leaf(v, lo, n, zero, scratch):
    """The sum of ``v[lo:lo + n]``, ``n <= 128``: not recursive, so it inlines.

    ``scratch`` (eight elements, or None for a lone leaf): the accumulators are
    stored there after the leaf, values nothing reads.  Those stores, of
    consecutive elements and in the last block, are what LLVM's SLP vectoriser
    meets first (it visits blocks in post-order), so the eight accumulators
    become one vector and each block of eight one vector load and add (NumPy's
    SIMD leaf).  Without them it starts from the combining tree, whose pairs
    make four 2-lane accumulators fed by shuffles: a third slower at 10**6."""
    if n < 8:
        res = zero
        for i in range(lo, lo + n):
            res += v[i]
        return res
    r0 = v[lo]
    r1 = v[lo + 1]
    r2 = v[lo + 2]
    r3 = v[lo + 3]
    r4 = v[lo + 4]
    r5 = v[lo + 5]
    r6 = v[lo + 6]
    r7 = v[lo + 7]
    # blocks of eight as a counted loop of affine indices, so the index
    # checks are proven once before it (passes/version_bounds) and the eight
    # accumulators vectorise
    m = n // 8
    for b in range(1, m):
        j = lo + 8 * b
        r0 += v[j]
        r1 += v[j + 1]
        r2 += v[j + 2]
        r3 += v[j + 3]
        r4 += v[j + 4]
        r5 += v[j + 5]
        r6 += v[j + 6]
        r7 += v[j + 7]
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(lo + 8 * m, lo + n):
        res += v[i]
    if scratch is not None:
        scratch[0] = r0
        scratch[1] = r1
        scratch[2] = r2
        scratch[3] = r3
        scratch[4] = r4
        scratch[5] = r5
        scratch[6] = r6
        scratch[7] = r7
    return res


# ---- the same order over values computed on the fly ----------------------------
# ``np.sum(a * b)`` of 1-D operands: NumPy sums the temporary ``a * b`` pairwise.
# The fused form (``arrays/reductions.fused_pairwise``) sums each leaf (at most
# 128 values, ``leaf_starts``) as ``_leaf`` does, computing its values on the
# fly, and adds the leaf sums in NumPy's tree (``combine``): the same additions
# in the same order, without the temporary.

def leaf_count(n):
    """How many leaves (runs of at most 128 values) the tree of ``n`` values has."""
    if n <= 128:
        return 1
    n2 = n // 2
    n2 -= n2 % 8
    return leaf_count(n2) + leaf_count(n - n2)


def leaf_starts(n):
    """The first index of every leaf, in order, then ``n``."""
    starts = np.empty(leaf_count(n) + 1, np.int64)
    k = _starts(starts, 0, n, 0)
    starts[k] = n
    return starts


def _starts(starts, lo, n, k):
    if n <= 128:
        starts[k] = lo
        return k + 1
    n2 = n // 2
    n2 -= n2 % 8
    k = _starts(starts, lo, n2, k)
    return _starts(starts, lo + n2, n - n2, k)


def leaf_buffer(starts, zero):
    """Room for the sum of every leaf, in ``zero``'s type, and eight more
    elements where each leaf stores its accumulators (see ``_leaf``)."""
    return np.full(len(starts) - 1 + 8, zero)


def combine(sums, n, zero):
    """``zero + `` the leaf sums of ``n`` values added in NumPy's tree."""
    return zero + _combine(sums, n, 0)[0]


def _combine(sums, n, k):
    if n <= 128:
        return sums[k], k + 1
    n2 = n // 2
    n2 -= n2 % 8
    left, k = _combine(sums, n2, k)
    right, k = _combine(sums, n - n2, k)
    return left + right, k


# every index above is in range by construction: no checks (pipeline.py)
for _f in (pairwise, pairwise_unbuffered, cast_sum, lane_sum, _pairwise, _leaf, leaf_starts,
           _starts, combine, _combine):
    _f.hj_unchecked = True
_leaf.hj_short_loops = True
# recursion log2(n) deep, under 64 levels: no stack check (passes/stack_check), so
# the tree's calls cannot raise and return their sums in registers
for _f in (_pairwise, _starts, _combine, leaf_count):
    _f.hj_shallow = True
# inlined into ``_pairwise``: a call per leaf cost about a fifth of the sum
# (its arguments, the array's fields, mostly on the stack)
_leaf.hj_inline = True
# the tree's helpers of a fused sum (``arrays/reductions.fused_pairwise``) run once
# per sum: compiled once per process and called, not copied into every caller
for _f in (leaf_starts, leaf_buffer, combine):
    _f.hj_share = True
