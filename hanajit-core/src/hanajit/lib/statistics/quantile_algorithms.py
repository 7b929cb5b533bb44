"""``np.percentile`` / ``np.quantile`` in Python source compiled by hanajit
(``quantile`` types the calls, builds the q's and does the final ``_lerp``).

The values a quantile reads are those NumPy's ``arr.partition(kth)`` leaves at
positions ``kth``.  Equal values of different bits (``-0.0`` and ``0.0``; NaNs)
can end up in either order, and the sign of a zero result depends on which one
lands where, so ``introselect`` below is NumPy's generic ``introselect_``
(``numpy/_core/src/npysort/selection.cpp``) step for step: median-of-3
quickselect with the stack of pivots kept across the kth's of one lane, the
O(n*kth) selection for small kth, the last-maximum search for ``kth == n - 1``
on floats, and median-of-medians-of-5 pivots past the depth limit.  (NumPy only
takes its SIMD ``qselect`` for a single kth; ``np.quantile`` always asks for at
least two -- ``0`` and ``-1`` -- except in one case where no value is read.)
"""
import numpy as np

MAX_PIVOTS = 50          # NPY_MAX_PIVOT_STACK


def _lt(x, y):
    """NumPy's sort order for reals (``FLOAT_LT``): NaN after every number."""
    return x < y or (y != y and x == x)                 # noqa: PLR0124


def _swap(v, p, i, j):
    """Swap items ``i`` and ``j`` of ``v`` and, unless ``p`` is empty, of ``p``
    (``argpartition``'s positions, swapped alongside: NumPy's ``SORTEE``)."""
    t = v[i]
    v[i] = v[j]
    v[j] = t
    if len(p) > 0:
        s = p[i]
        p[i] = p[j]
        p[j] = s


def _store_pivot(pivot, kth, piv, usepiv):
    """``store_pivot``: ``piv[0]`` is the stack's depth, ``piv[1:]`` the stack."""
    if not usepiv:
        return 0
    npiv = piv[0]
    if pivot == kth and npiv == MAX_PIVOTS:
        piv[npiv] = pivot
    elif pivot >= kth and npiv < MAX_PIVOTS:
        piv[npiv + 1] = pivot
        piv[0] = npiv + 1
    return 0


def _dumb_select(v, p, b, num, kth):
    """``dumb_select_`` on ``v[b:b + num]``: selection sort of the first kth + 1."""
    for i in range(kth + 1):
        minidx = i
        minval = v[b + i]
        for k in range(i + 1, num):
            if _lt(v[b + k], minval):
                minidx = k
                minval = v[b + k]
        _swap(v, p, b + i, b + minidx)
    return 0


def _median3_swap(v, p, b, low, mid, high):
    """``median3_swap_``: the median to ``low``, the smallest to ``low + 1``."""
    if _lt(v[b + high], v[b + mid]):
        _swap(v, p, b + high, b + mid)
    if _lt(v[b + high], v[b + low]):
        _swap(v, p, b + high, b + low)
    if _lt(v[b + low], v[b + mid]):
        _swap(v, p, b + low, b + mid)
    _swap(v, p, b + mid, b + low + 1)
    return 0


def _median5(v, p, b):
    """``median5_``: the position (1, 2 or 3) of the median of ``v[b:b + 5]``."""
    if _lt(v[b + 1], v[b]):
        _swap(v, p, b + 1, b)
    if _lt(v[b + 4], v[b + 3]):
        _swap(v, p, b + 4, b + 3)
    if _lt(v[b + 3], v[b]):
        _swap(v, p, b + 3, b)
    if _lt(v[b + 4], v[b + 1]):
        _swap(v, p, b + 4, b + 1)
    if _lt(v[b + 2], v[b + 1]):
        _swap(v, p, b + 2, b + 1)
    if _lt(v[b + 3], v[b + 2]):
        if _lt(v[b + 3], v[b + 1]):
            return 1
        return 3
    return 2


def _median_of_median5(v, p, b, num, piv, inexact):
    """``median_of_median5_`` on ``v[b:b + num]`` (its pivots are not kept)."""
    nmed = num // 5
    subleft = 0
    for i in range(nmed):
        m = _median5(v, p, b + subleft)
        _swap(v, p, b + subleft + m, b + i)
        subleft += 5
    if nmed > 2:
        select(v, p, b, nmed, nmed // 2, piv, False, inexact)
    return nmed // 2


def introselect(v, b, num, kth, piv, usepiv, inexact):
    """``introselect_`` on ``v[b:b + num]``: the kth smallest to position kth,
    smaller ones before it, larger after; ``piv`` the pivot stack (when
    ``usepiv``) shared by the kth's of one lane, in increasing order."""
    return select(v, piv[:0], b, num, kth, piv, usepiv, inexact)


def select(v, p, b, num, kth, piv, usepiv, inexact):
    """:func:`introselect` moving the positions ``p`` (same indexing as ``v``)
    along with the values, unless ``p`` is empty: NumPy's ``argpartition``
    (its ``introselect_<arg=true>`` compares ``v[tosort[i]]``, which is the
    value a swap-along copy of ``v`` holds at ``i``)."""
    low = 0
    high = num - 1
    if usepiv:
        while piv[0] > 0:
            top = piv[piv[0]]
            if top > kth:
                high = top - 1
                break
            if top == kth:
                return 0
            low = top + 1
            piv[0] = piv[0] - 1
    if kth - low < 3:
        _dumb_select(v, p, b + low, high - low + 1, kth - low)
        _store_pivot(kth, kth, piv, usepiv)
        return 0
    if inexact and kth == num - 1:
        maxidx = low
        maxval = v[b + low]
        for k in range(low + 1, num):
            if not _lt(v[b + k], maxval):
                maxidx = k
                maxval = v[b + k]
        _swap(v, p, b + kth, b + maxidx)
        return 0
    depth_limit = 0
    u = num >> 1
    while u > 0:
        depth_limit += 1
        u >>= 1
    depth_limit *= 2
    while low + 1 < high:
        ll = low + 1
        hh = high
        if depth_limit > 0 or hh - ll < 5:
            mid = low + (high - low) // 2
            _median3_swap(v, p, b, low, mid, high)
        else:
            mid = ll + _median_of_median5(v, p, b + ll, hh - ll, piv, inexact)
            _swap(v, p, b + mid, b + low)
            ll -= 1
            hh += 1
        depth_limit -= 1
        pivot = v[b + low]
        while True:                         # unguarded_partition_
            ll += 1
            while _lt(v[b + ll], pivot):
                ll += 1
            hh -= 1
            while _lt(pivot, v[b + hh]):
                hh -= 1
            if hh < ll:
                break
            _swap(v, p, b + ll, b + hh)
        _swap(v, p, b + low, b + hh)
        if hh != kth:
            _store_pivot(hh, kth, piv, usepiv)
        if hh >= kth:
            high = hh - 1
        if hh <= kth:
            low = ll
    if high == low + 1 and _lt(v[b + high], v[b + low]):     # two elements
        _swap(v, p, b + high, b + low)
    _store_pivot(kth, kth, piv, usepiv)
    return 0


def partition_rows(v, n, kth, inexact):
    """NumPy's ``partition`` of each row of ``n`` items of the contiguous ``v``
    at the sorted, non-negative ``kth`` (one pivot stack per row)."""
    piv = np.zeros(MAX_PIVOTS + 1, np.int64)
    return _partition_rows(v, piv[:0], n, kth, inexact, piv)


def argpartition_rows(v, p, n, kth, inexact):
    """NumPy's ``argpartition``: ``p`` (as long as ``v``) gets each row's
    positions ``0 .. n - 1``, partitioned along with the values ``v`` (a
    scratch copy) as :func:`partition_rows` partitions them."""
    lo = 0
    while lo < len(p):
        for i in range(n):
            p[lo + i] = i
        lo += n
    piv = np.zeros(MAX_PIVOTS + 1, np.int64)
    return _partition_rows(v, p, n, kth, inexact, piv)


def _partition_rows(v, p, n, kth, inexact, piv):
    if n <= 1:                  # (NumPy's _new_sortlike: nothing to do)
        return 0
    lo = 0
    while lo < len(v):
        piv[0] = 0
        for i in range(len(kth)):
            select(v, p, lo, n, kth[i], piv, True, inexact)
        lo += n
    return 0


def valid_quantiles(q):
    """``_quantile_is_valid``: every q in [0, 1] (NaN is not)."""
    for i in range(len(q)):
        x = q[i]
        if not (0.0 <= x <= 1.0):
            return False
    return True


def _sorted_kth(raw, n, dedupe):
    """``np.unique`` of ``raw`` (when ``dedupe``), negatives counted from the end
    (``n`` items), sorted -- the kth's ``arr.partition`` works through."""
    k = len(raw)
    insertion_sort(raw, k)
    if dedupe and k > 0:
        w = 1
        for i in range(1, k):
            if raw[i] != raw[w - 1]:
                raw[w] = raw[i]
                w += 1
        k = w
    out = np.empty(k, np.int64)
    for i in range(k):
        x = raw[i]
        out[i] = x + n if x < 0 else x
    insertion_sort(out, k)
    return out


def kth_out_of_bounds(kth, n):
    """``partition_prep_kth_array``: the negative kth's counted from the end of a
    lane of ``n`` items (in place); the position of the first one out of
    ``[0, n)`` (NumPy's ValueError), or -1."""
    bad = -1
    for i in range(len(kth)):
        if kth[i] < 0:
            kth[i] += n
        if bad < 0 and (kth[i] < 0 or kth[i] >= n):
            bad = i
    return bad


def sorted_kth(kth, n):
    """The kth's (as :func:`kth_out_of_bounds` leaves them) sorted, as a new
    array: the order ``partition`` works through them."""
    return _sorted_kth(kth, n, False)


def insertion_sort(a, k):
    for i in range(1, k):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x
    return 0


def linear_plan(q, top, n, prev, nxt, gam, tr, omtr, cond):
    """NumPy's ``method='linear'`` for the q's (already in [0, 1]) of a lane of
    ``n`` items, ``top`` being ``n - 1`` in q's float type: the virtual index
    ``(n - 1) * q``, its floor and the next index (-1 for both from the last
    index on: ``_get_indexes``), gamma (``_get_gamma``: the index minus the
    integer floor in float64, back in q's type), ``gam`` and ``1 - gam`` cast
    to the result type (``tr``, ``omtr``) and ``gam >= 0.5`` (``_lerp``'s
    choice).  Returns the kth's to partition at; ``prev``/``nxt`` end up as
    positions in the lane."""
    m = len(q)
    raw = np.empty(2 * m + 2, np.int64)
    raw[0] = 0
    raw[1] = -1
    for j in range(m):
        vi = top * q[j]
        f = np.floor(vi)
        p = int(f)
        x = int(f + 1)
        if vi >= top:
            p = -1
            x = -1
        gam[j] = float(vi) - p
        t = gam[j]
        tr[j] = t
        omtr[j] = 1 - t
        cond[j] = t >= 0.5
        raw[2 + j] = p
        raw[2 + m + j] = x
        prev[j] = p + n if p < 0 else p
        nxt[j] = x + n if x < 0 else x
    return _sorted_kth(raw, n, True)


def take_plan(q, n, idx, inexact):
    """The integer-q path (``np.quantile(a, 0)``, ``[0, 1]``): the positions
    ``(n - 1) * q``; the kth's are those, and -1 for a float array."""
    m = len(q)
    extra = 1 if inexact else 0
    raw = np.empty(m + extra, np.int64)
    for j in range(m):
        idx[j] = (n - 1) * q[j]
        raw[j] = idx[j]
    if inexact:
        raw[m] = -1
    return _sorted_kth(raw, n, False)


# NumPy's selection indexes only inside the lane it is given (its callers check
# kth: partition.py with kth_out_of_bounds, median and quantile compute theirs):
# no index checks (pipeline.py), as NumPy's C has none -- in the partition loop
# they cost a quarter of np.median's time
for _f in (_swap, _store_pivot, _dumb_select, _median3_swap, _median5, _median_of_median5,
           select):
    _f.hj_unchecked = True
# median of medians recurses on a fifth of the values: at most log5(n) deep, no
# stack check (passes/stack_check)
select.hj_shallow = True
_median_of_median5.hj_shallow = True
