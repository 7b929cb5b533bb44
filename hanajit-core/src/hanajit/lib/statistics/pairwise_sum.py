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


def pairwise(v, zero):
    """``zero + (pairwise sum of the 1-D v)`` in ``zero``'s type."""
    return zero + _pairwise(v, 0, len(v), zero)


def _pairwise(v, lo, n, zero):
    if n < 8:
        res = zero
        for i in range(lo, lo + n):
            res += v[i]
        return res
    if n <= 128:
        r0 = v[lo]
        r1 = v[lo + 1]
        r2 = v[lo + 2]
        r3 = v[lo + 3]
        r4 = v[lo + 4]
        r5 = v[lo + 5]
        r6 = v[lo + 6]
        r7 = v[lo + 7]
        i = lo + 8
        end = lo + n - n % 8
        while i < end:
            r0 += v[i]
            r1 += v[i + 1]
            r2 += v[i + 2]
            r3 += v[i + 3]
            r4 += v[i + 4]
            r5 += v[i + 5]
            r6 += v[i + 6]
            r7 += v[i + 7]
            i += 8
        res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < lo + n:
            res += v[i]
            i += 1
        return res
    n2 = n // 2
    n2 -= n2 % 8
    return _pairwise(v, lo, n2, zero) + _pairwise(v, lo + n2, n - n2, zero)
