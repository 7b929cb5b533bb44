"""Sorting and searching in Python source compiled by hanajit (see ``helpers``):
the algorithms behind ``np.sort``, ``np.argsort``, ``np.unique`` and
``np.searchsorted`` (``sort`` types the calls and allocates the results).

Order is NumPy's: NaN sorts after every number, complex values sort
lexicographically (``sort_less``).  Values sort with an
introsort (``sort_rows_unstable``); ``kind='stable'`` and ``argsort`` use a stable
merge sort (insertion-sorted runs of 16, then bottom-up merges), so ``argsort``
gives ``kind='stable'``'s answer for ties.
"""
import numpy as np

RUN = 16


def sort_less(x, y):
    """NumPy's sort order (its ``CFLOAT_LT``): lexicographic on (real, imag), NaN
    after everything -- complex values as ``R + Rj, R + nanj, nan + Rj, nan + nanj``.
    For real ``x`` and ``y`` the imaginary parts are constant zeros and this folds to
    ``x < y or (y != y and x == x)`` (for integers the NaN tests fold away too)."""
    xr = x.real
    yr = y.real
    xi = x.imag
    yi = y.imag
    if xr < yr:
        return xi == xi or yi != yi             # noqa: PLR0124 - NaN tests
    if xr > yr:
        return yi != yi and xi == xi            # noqa: PLR0124
    if xr == yr or (xr != xr and yr != yr):     # noqa: PLR0124
        return xi < yi or (yi != yi and xi == xi)   # noqa: PLR0124
    return yr != yr                             # noqa: PLR0124


def sort_segment(v, w, lo, n):
    """Sort ``v[lo:lo + n]`` in place (stable); ``w`` is scratch of length >= n."""
    s = 0
    while s < n:
        e = min(s + RUN, n)
        for i in range(lo + s + 1, lo + e):
            x = v[i]
            j = i - 1
            while j >= lo + s and sort_less(x, v[j]):
                v[j + 1] = v[j]
                j -= 1
            v[j + 1] = x
        s = e
    width = RUN
    while width < n:
        s = 0
        while s < n:
            mid = min(s + width, n)
            e = min(s + 2 * width, n)
            if mid < e and sort_less(v[lo + mid], v[lo + mid - 1]):
                i = s
                j = mid
                k = 0
                while i < mid and j < e:
                    if sort_less(v[lo + j], v[lo + i]):
                        w[k] = v[lo + j]
                        j += 1
                    else:
                        w[k] = v[lo + i]
                        i += 1
                    k += 1
                while i < mid:
                    w[k] = v[lo + i]
                    i += 1
                    k += 1
                for t in range(k):          # the right run's rest is in place
                    v[lo + s + t] = w[t]
            s = e
        width *= 2


def sort_rows(v, rowlen):
    """Sort each row of ``rowlen`` items of the contiguous 1-D ``v`` in place."""
    if rowlen <= 1:
        return 0
    w = np.empty_like(v[:rowlen])
    lo = 0
    while lo < len(v):
        sort_segment(v, w, lo, rowlen)
        lo += rowlen
    return 0


def _swap(v, i, j):
    t = v[i]
    v[i] = v[j]
    v[j] = t


def _sift_down(v, lo, root, end):
    while True:
        child = 2 * root + 1
        if child >= end:
            return 0
        if child + 1 < end and sort_less(v[lo + child], v[lo + child + 1]):
            child += 1
        if not sort_less(v[lo + root], v[lo + child]):
            return 0
        _swap(v, lo + root, lo + child)
        root = child


def heap_sort(v, lo, n):
    """Sort ``v[lo:lo + n]`` in place (introsort's fallback)."""
    start = n // 2 - 1
    while start >= 0:
        _sift_down(v, lo, start, n)
        start -= 1
    end = n - 1
    while end > 0:
        _swap(v, lo, lo + end)
        _sift_down(v, lo, 0, end)
        end -= 1
    return 0


def intro_sort(v, lo, hi, depth):
    """Sort ``v[lo:hi]`` in place, not stable: median-of-three quicksort (Hoare
    partition), heap sort past ``depth`` levels, insertion sort for short runs."""
    while hi - lo > RUN:
        if depth == 0:
            return heap_sort(v, lo, hi - lo)
        depth -= 1
        mid = (lo + hi) >> 1
        if sort_less(v[mid], v[lo]):
            _swap(v, lo, mid)
        if sort_less(v[hi - 1], v[mid]):
            _swap(v, mid, hi - 1)
            if sort_less(v[mid], v[lo]):
                _swap(v, lo, mid)
        pivot = v[mid]
        i = lo
        j = hi - 1
        while True:         # v[lo] <= pivot <= v[hi - 1] stop both scans
            while sort_less(v[i], pivot):
                i += 1
            while sort_less(pivot, v[j]):
                j -= 1
            if i >= j:
                break
            _swap(v, i, j)
            i += 1
            j -= 1
        if j + 1 - lo < hi - j - 1:         # recurse into the smaller side
            intro_sort(v, lo, j + 1, depth)
            lo = j + 1
        else:
            intro_sort(v, j + 1, hi, depth)
            hi = j + 1
    for i in range(lo + 1, hi):
        x = v[i]
        j = i - 1
        while j >= lo and sort_less(x, v[j]):
            v[j + 1] = v[j]
            j -= 1
        v[j + 1] = x
    return 0


def sort_rows_unstable(v, rowlen):
    """``sort_rows`` with introsort: faster, equal values in any order."""
    if rowlen <= 1:
        return 0
    depth = 0
    k = rowlen
    while k > 1:
        depth += 2
        k >>= 1
    lo = 0
    while lo < len(v):
        intro_sort(v, lo, lo + rowlen, depth)
        lo += rowlen
    return 0


def argsort_segment(v, p, w, q, lo, n):
    """Stable sort of ``v[lo:lo + n]`` carrying the positions ``p`` along (``w``,
    ``q``: scratch)."""
    s = 0
    while s < n:
        e = min(s + RUN, n)
        for i in range(lo + s + 1, lo + e):
            x = v[i]
            y = p[i]
            j = i - 1
            while j >= lo + s and sort_less(x, v[j]):
                v[j + 1] = v[j]
                p[j + 1] = p[j]
                j -= 1
            v[j + 1] = x
            p[j + 1] = y
        s = e
    width = RUN
    while width < n:
        s = 0
        while s < n:
            mid = min(s + width, n)
            e = min(s + 2 * width, n)
            if mid < e and sort_less(v[lo + mid], v[lo + mid - 1]):
                i = s
                j = mid
                k = 0
                while i < mid and j < e:
                    if sort_less(v[lo + j], v[lo + i]):
                        w[k] = v[lo + j]
                        q[k] = p[lo + j]
                        j += 1
                    else:
                        w[k] = v[lo + i]
                        q[k] = p[lo + i]
                        i += 1
                    k += 1
                while i < mid:
                    w[k] = v[lo + i]
                    q[k] = p[lo + i]
                    i += 1
                    k += 1
                for t in range(k):
                    v[lo + s + t] = w[t]
                    p[lo + s + t] = q[t]
            s = e
        width *= 2


def argsort_rows(v, p, rowlen):
    """Fill ``p`` with each row's sorting positions; ``v`` (a scratch copy of the
    keys) is sorted along the way."""
    lo = 0
    while lo < len(p):
        for i in range(rowlen):
            p[lo + i] = i
        lo += rowlen
    if rowlen <= 1:
        return 0
    w = np.empty_like(v[:rowlen])
    q = np.empty_like(p[:rowlen])
    lo = 0
    while lo < len(v):
        argsort_segment(v, p, w, q, lo, rowlen)
        lo += rowlen
    return 0


def unique_sorted(v):
    """The distinct values of the sorted 1-D ``v`` (all NaNs count as one, as
    ``np.unique(equal_nan=True)``), as a new array."""
    k = 0
    for i in range(len(v)):
        x = v[i]
        if k == 0:
            v[k] = x
            k += 1
        else:
            prev = v[k - 1]
            if x != prev and not (x != x and prev != prev):     # noqa: PLR0124
                v[k] = x
                k += 1
    return v[:k].copy()


# np.unique of integers: distinct values kept in a hash table, at most this many
# (past them the table no longer fits in the cache and sorting is faster)
HASH_MAX = 1 << 16


def unique_ints(v):
    """``np.unique`` of the 1-D integer array ``v`` (a scratch copy; not uint64)
    as NumPy 2 finds it (``_unique_hash``): the distinct values from a hash
    table, then sorted -- linear in ``len(v)`` when they are few.  With more than
    ``HASH_MAX`` of them, ``v`` is sorted and read in order instead."""
    n = len(v)
    cap = 64
    table = np.empty(cap, v.dtype)
    used = np.zeros(cap, np.bool_)
    found = np.empty(min(n, HASH_MAX), v.dtype)
    k = 0
    for i in range(n):
        x = v[i]
        s = _slot(x, cap - 1)
        while used[s] and table[s] != x:
            s = (s + 1) & (cap - 1)
        if not used[s]:
            if k == HASH_MAX:
                v.sort()
                return unique_sorted(v)
            used[s] = True
            table[s] = x
            found[k] = x
            k += 1
            if 2 * k > cap:             # at most half full: rehash into twice the room
                cap *= 2
                table = np.empty(cap, v.dtype)
                used = np.zeros(cap, np.bool_)
                for j in range(k):
                    y = found[j]
                    t = _slot(y, cap - 1)
                    while used[t]:
                        t = (t + 1) & (cap - 1)
                    used[t] = True
                    table[t] = y
    out = found[:k].copy()
    out.sort()
    return out


def _slot(x, mask):
    """A table slot for the integer ``x`` (at most 64 bits; ``mask`` one less than
    a power of two): each 32-bit half times an odd 31-bit constant, products that
    cannot wrap, whose bits from 27 up depend on every bit of the half."""
    y = int(x)
    lo = y & 0xFFFFFFFF
    hi = (y >> 32) & 0xFFFFFFFF
    return (((lo * 0x5BD1E995) ^ (hi * 0x1B873593)) >> 27) & mask


def first_nan_last(u, v):
    """``u`` (distinct sorted values, all NaNs collapsed into its last item) with
    that item replaced by the first NaN of ``v``, the input: NumPy's complex
    ``np.unique`` keeps the first NaN it meets."""
    k = len(u)
    if k > 0 and u[k - 1] != u[k - 1]:                  # a NaN
        for i in range(len(v)):
            y = v[i]
            if y != y:                                  # noqa: PLR0124 - NaN
                u[k - 1] = y
                return u
    return u


def real_less(x, y):
    """:func:`sort_less` of real numbers as one expression, no branch."""
    return (x < y) | ((y != y) & (x == x))              # noqa: PLR0124 - NaN tests


def search_left(a, x):
    """First position ``i`` of the sorted real ``a`` with ``not a[i] < x`` (each
    step one compare without branches; LLVM still makes the choice of range a
    branch, as NumPy's loop is)."""
    lo = 0
    n = len(a)
    while n > 0:
        half = n >> 1
        up = real_less(a[lo + half], x)
        lo = lo + half + 1 if up else lo
        n = n - half - 1 if up else half
    return lo


def search_right(a, x):
    """First position ``i`` of the sorted real ``a`` with ``x < a[i]``."""
    lo = 0
    n = len(a)
    while n > 0:
        half = n >> 1
        up = not real_less(x, a[lo + half])
        lo = lo + half + 1 if up else lo
        n = n - half - 1 if up else half
    return lo


def searchsorted_into(a, keys, out, right):
    """``out[i] = np.searchsorted(a, keys[i], side)`` for each key in order,
    NumPy's ``binsearch`` step for step: each search starts from the range the
    previous key left when the keys rise, so an ``a`` that is not sorted (a NaN
    inside, falling bins) gives NumPy's positions too."""
    n = len(a)
    if len(keys) == 0:
        return 0
    lo = 0
    hi = n
    last = keys[0]
    for i in range(len(keys)):
        key = keys[i]
        if _side_less(last, key, right):
            hi = n
        else:
            lo = 0
            hi = hi + 1 if hi < n else n
        last = key
        # the compare, NaN last, with the key's NaN test out of the loop
        if key != key:                                  # noqa: PLR0124
            if right:           # every value is <= NaN
                lo = hi
            while lo < hi:
                mid = lo + ((hi - lo) >> 1)
                if a[mid] == a[mid]:                    # noqa: PLR0124
                    lo = mid + 1
                else:
                    hi = mid
        elif right:
            while lo < hi:
                mid = lo + ((hi - lo) >> 1)
                if a[mid] <= key:
                    lo = mid + 1
                else:
                    hi = mid
        else:
            while lo < hi:
                mid = lo + ((hi - lo) >> 1)
                if a[mid] < key:
                    lo = mid + 1
                else:
                    hi = mid
        out[i] = lo
    return 0


def _side_less(x, y, right):
    """NumPy's compare of a search: ``x < y`` for the left side, ``x <= y``
    (``not y < x``) for the right, in the order NaN last."""
    return (not real_less(y, x)) if right else real_less(x, y)


def lexsort_step(idx, key):
    """``idx`` reordered by ``key[idx]`` with a stable sort: one pass of
    ``np.lexsort``, whose keys are taken from the first to the last (the last
    the primary one), each pass keeping the order of the ones before among
    equal values -- the one order a stable sort by all keys gives."""
    n = len(idx)
    sub = np.empty(n, key.dtype)
    for i in range(n):
        sub[i] = key[idx[i]]
    order = np.argsort(sub, kind="stable")
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = idx[order[i]]
    return out


# every index of a search is in range by construction: no checks (pipeline.py)
search_left.hj_unchecked = search_right.hj_unchecked = True
searchsorted_into.hj_unchecked = True

# recursion into the smaller side only: at most log2(n) deep, no stack check
# (passes/stack_check)
intro_sort.hj_shallow = True
