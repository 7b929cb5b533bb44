"""``np.median`` / ``np.nanmedian`` in Python source compiled by hanajit: which
elements of each lane the result is made of (``median`` does the
arithmetic and builds the result).

Each lane (``n`` items, contiguous in ``v``) is partitioned by NumPy's own
algorithm (``quantile_algorithms.introselect``) at the kth's ``_median`` asks
for: the middle one or two and, for floats, the last (whose NaN is the
result when there is one).  For every lane the helpers write two positions in
``v`` (``lo``, ``hi``) and a code saying how NumPy combines them:

* ``RAW``: the element at ``lo`` itself (a NaN NumPy passes through);
* ``ONE``: ``mean`` of one element, ``0 + v[lo]`` (NumPy's sum starts at +0);
* ``TWO``: ``mean`` of two, ``(0 + v[lo] + v[hi]) / 2``;
* ``NAN``: NumPy's ``np.nan`` (``np.ma.median`` of an all-NaN lane).
"""
import numpy as np

from .order_stats import quick_kth
from .quantile_algorithms import MAX_PIVOTS, introselect

RAW, ONE, TWO, NAN = 0, 1, 2, 3
SMALL = 600     # _nanmedian: shorter lanes go through np.ma.median (sort + index)


def _partition(v, b, num, inexact, piv):
    """``partition(lane, kth)`` with ``_median``'s kth's, in NumPy's order:
    ``[h - 1,] h`` and, for floats, ``num - 1`` (duplicates kept)."""
    h = num // 2
    piv[0] = 0
    if num % 2 == 0:
        introselect(v, b, num, h - 1, piv, True, inexact)
    introselect(v, b, num, h, piv, True, inexact)
    if inexact:
        introselect(v, b, num, num - 1, piv, True, inexact)
    return 0


def _median_kth(num, inexact):
    """The positions :func:`_partition` fixes, sorted and distinct (for
    ``order_stats.quick_kth``, which writes the values NumPy's partition
    leaves there)."""
    h = num // 2
    kth = np.empty(3, np.int64)
    k = 0
    if num % 2 == 0:
        kth[k] = h - 1
        k += 1
    kth[k] = h
    k += 1
    if inexact and num - 1 > h:
        kth[k] = num - 1
        k += 1
    return kth[:k]


def _middle(r, b, num, lo, hi, code):
    """The middle one or two of a partitioned lane, as ``mean`` reads them."""
    h = num // 2
    hi[r] = b + h
    if num % 2 == 0:
        lo[r] = b + h - 1
        code[r] = TWO
    else:
        lo[r] = b + h
        code[r] = ONE
    return 0


def median_rows(v, n, inexact, lo, hi, code):
    """``_median`` of each lane of ``n >= 1`` items: the middle after the
    partition, or the lane's last element when it is a NaN
    (``_median_nancheck``)."""
    piv = np.zeros(MAX_PIVOTS + 1, np.int64)
    kth = _median_kth(n, inexact)
    # (the middle values are read; the last only for whether it is a NaN)
    mid = kth[:2] if n % 2 == 0 else kth[:1]
    r = 0
    b = 0
    while b < len(v):
        if not quick_kth(v[b:b + n], n, kth, inexact, mid, mid):
            _partition(v, b, n, inexact, piv)
        _middle(r, b, n, lo, hi, code)
        if inexact:
            last = v[b + n - 1]
            if last != last:                            # noqa: PLR0124
                lo[r] = b + n - 1
                code[r] = RAW
        b += n
        r += 1
    return 0


def drop_nans(v, n):
    """``_remove_nan_1d`` on the lane ``v[:n]`` (``np.nanpercentile``): how many
    values are left at its front."""
    return _drop_nans(v, 0, n)


def _drop_nans(v, b, n):
    """``_remove_nan_1d`` on ``v[b:b + n]``: the NaNs among the first ``n - k``
    items (``k`` NaNs in all) replaced, in order, by the non-NaNs after them;
    returns ``n - k`` (the lane is left alone when it is all NaN)."""
    k = 0
    for i in range(n):
        x = v[b + i]
        if x != x:                                      # noqa: PLR0124
            k += 1
    if k == 0 or k == n:
        return n - k
    c = n - k
    j = b + c
    for i in range(c):
        x = v[b + i]
        if x != x:                                      # noqa: PLR0124
            y = v[j]
            while y != y:                               # noqa: PLR0124
                j += 1
                y = v[j]
            v[b + i] = y
            j += 1
    return c


def nanmedian_rows(v, n, small, lo, hi, code):
    """``_nanmedian`` of each lane of ``n >= 1`` floats.  ``small``: NumPy's
    ``np.ma.median`` path (an axis of a 2-D or wider array shorter than
    ``SMALL``): the middle of the sorted non-NaN values summed even when there
    is one (``(0 + x + x) / 2``: inf for a huge x), ``np.nan`` when there are
    none.  Otherwise ``_nanmedian1d``: NaNs dropped as ``_remove_nan_1d``
    drops them, then ``_median`` of the rest; the lane's last element when
    all are NaN."""
    piv = np.zeros(MAX_PIVOTS + 1, np.int64)
    r = 0
    b = 0
    while b < len(v):
        c = _drop_nans(v, b, n)
        if c == 0:
            lo[r] = b + n - 1
            hi[r] = b + n - 1
            code[r] = NAN if small else RAW
        else:
            _partition(v, b, c, True, piv)
            _middle(r, b, c, lo, hi, code)
            if small:
                code[r] = TWO
        b += n
        r += 1
    return 0
