"""NumPy's ``choice``, ``shuffle`` and ``permutation`` algorithms, compiled by hanajit.

``Generator.choice`` (``numpy/random/_generator.pyx``) and ``RandomState.choice``
(``mtrand.pyx``, the legacy ``np.random.choice``) in NumPy 2, step for step:

- the argument checks in NumPy's order and with its messages (the two classes
  word them differently: ``legacy`` picks the ``RandomState`` ones), the sum of
  ``p`` by Kahan summation against ``sqrt(eps)`` of its dtype;
- with replacement and no ``p``: ``integers(0, len)`` (Lemire's method) for a
  ``Generator``, ``randint(0, len)`` (masked rejection) for ``RandomState``;
- with ``p``: the cumulative sum divided by its last element and, for each
  ``random()`` draw, the index ``searchsorted(cdf, u, side='right')`` gives;
- without replacement, with ``p``: NumPy's loop (draw as many uniforms as are
  missing, zero the probabilities found so far, keep the new indices in the
  order of their first appearance);
- without replacement, no ``p``: ``Generator`` takes a tail shuffle of
  ``arange(len)`` for a population above 10000 and a sample above
  ``len // 50`` (``len // 20`` with ``shuffle=False``), else Floyd's algorithm
  over an open-addressing hash set, then shuffles the sample; ``RandomState``
  takes the first ``size`` items of a permutation of the population.

Every function fills a 1-D int64 array of the chosen indices; the caller
(``choice.py``) makes the result of the shape asked for.  Shuffles
of n-D arrays swap rows (``shuffle_rows``) with NumPy's masked draws.
"""
import numpy as np

from .. import prims
from .distributions import bounded_uint64, fill_integers, interval, shuffle

ATOL64 = 1.4901161193847656e-08       # np.sqrt(np.finfo(np.float64).eps)
ATOL32 = 0.0003452669770922512        # np.sqrt(np.finfo(np.float32).eps), a float32


def kahan_sum(p):
    """``kahan_sum`` of ``_common.pyx``: 0.0 for no items."""
    n = p.shape[0]
    if n <= 0:
        return 0.0
    total = float(p[0])
    c = 0.0
    for i in range(1, n):
        y = float(p[i]) - c
        t = total + y
        c = (t - total) - y
        total = t
    return total


def _fail_population(is_int, legacy):
    if is_int:
        if legacy:
            raise ValueError("a must be greater than 0 unless no samples are taken")
        raise ValueError("a must be a positive integer unless no samples are taken")
    if legacy:
        raise ValueError("'a' cannot be empty unless no samples are taken")
    raise ValueError("a cannot be empty unless no samples are taken")


def _check_p(p, pop, atol, legacy):
    if p.shape[0] != pop:
        if legacy:
            raise ValueError("'a' and 'p' must have same size")
        raise ValueError("a and p must have same size")
    total = kahan_sum(p)
    if total != total:
        if legacy:
            raise ValueError("probabilities contain NaN")
        raise ValueError("Probabilities contain NaN")
    for i in range(p.shape[0]):
        if p[i] < 0:
            if legacy:
                raise ValueError("probabilities are not non-negative")
            raise ValueError("Probabilities are not non-negative")
    if abs(total - 1.0) > atol:
        if legacy:
            raise ValueError("probabilities do not sum to 1")
        raise ValueError("Probabilities do not sum to 1. See Notes section of "
                         "docstring for more information.")


def _cdf(q):
    """``cdf = q.cumsum(); cdf /= cdf[-1]``."""
    n = q.shape[0]
    cdf = np.empty(n, np.float64)
    acc = 0.0
    for i in range(n):
        acc = acc + float(q[i])
        cdf[i] = acc
    last = cdf[n - 1]
    for i in range(n):
        cdf[i] = cdf[i] / last
    return cdf


def searchsorted_right(cdf, u):
    """The index ``np.searchsorted(cdf, u, side='right')`` gives on a sorted
    ``cdf``: how many of its items are ``<= u``."""
    lo = 0
    hi = cdf.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if cdf[mid] <= u:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _with_p_replaced(rng, idx, p):
    cdf = _cdf(p)
    for k in range(idx.shape[0]):
        idx[k] = searchsorted_right(cdf, prims.rng_next_double(rng))


def _with_p_unique(rng, idx, p):
    """NumPy's loop for ``replace=False`` with ``p`` (the checks made)."""
    size = idx.shape[0]
    n = p.shape[0]
    q = np.empty(n, np.float64)
    for i in range(n):
        q[i] = float(p[i])
    seen = np.zeros(n, np.bool_)
    u = np.empty(size, np.float64)
    n_uniq = 0
    while n_uniq < size:
        want = size - n_uniq
        for k in range(want):
            u[k] = prims.rng_next_double(rng)
        for k in range(n_uniq):
            q[idx[k]] = 0.0
        cdf = _cdf(q)
        found = n_uniq
        for k in range(want):
            j = searchsorted_right(cdf, u[k])
            if not seen[j]:
                seen[j] = True
                idx[found] = j
                found += 1
        n_uniq = found


def _shuffle_int(rng, data, n, first):
    """``_shuffle_int``: Fisher-Yates on int64 items from ``n - 1`` down to
    ``first``, ``j`` by Lemire's bounded draw."""
    for i in range(n - 1, first - 1, -1):
        j = prims.as_int64(bounded_uint64(rng, prims.as_uint64(i)))
        t = data[j]
        data[j] = data[i]
        data[i] = t


def _gen_mask(v):
    mask = v
    mask = mask | (mask >> 1)
    mask = mask | (mask >> 2)
    mask = mask | (mask >> 4)
    mask = mask | (mask >> 8)
    mask = mask | (mask >> 16)
    mask = mask | (mask >> 32)
    return mask


def _unique_generator(rng, idx, pop, shuffle_):
    """``Generator.choice(replace=False)`` without ``p``."""
    size = idx.shape[0]
    cutoff = 50 if shuffle_ else 20
    if pop > 10000 and size > pop // cutoff:
        data = np.arange(pop)
        first = pop - size
        if first < 1:
            first = 1
        _shuffle_int(rng, data, pop, first)
        for k in range(size):
            idx[k] = data[pop - size + k]
        return
    # Floyd's algorithm; the hash set's size is the power of 2 above 1.2 * size
    mask = _gen_mask(int(1.2 * size))
    table = np.full(mask + 1, -1, np.int64)
    for j in range(pop - size, pop):
        val = prims.as_int64(bounded_uint64(rng, prims.as_uint64(j)))
        loc = val & mask
        while table[loc] != -1 and table[loc] != val:
            loc = (loc + 1) & mask
        if table[loc] == -1:
            table[loc] = val
            idx[j - pop + size] = val
        else:
            loc = j & mask
            while table[loc] != -1:
                loc = (loc + 1) & mask
            table[loc] = j
            idx[j - pop + size] = j
    if shuffle_:
        _shuffle_int(rng, idx, size, 1)


def _unique_legacy(rng, idx, pop):
    """``RandomState.choice(replace=False)`` without ``p``: the first items of
    ``permutation(len)``."""
    data = np.arange(pop)
    shuffle(rng, data)
    for k in range(idx.shape[0]):
        idx[k] = data[k]


def choice_indices(rng, pop, is_int, m, neg, replace, has_p, p, atol, shuffle_, legacy):
    """The ``m`` indices ``choice`` draws from a population of ``pop`` (``a``
    itself when ``is_int``), after NumPy's checks.  ``neg``: the size has a
    negative dimension (NumPy's error comes before any draw except without
    replacement and ``p``, where the caller raises it after the draws)."""
    if pop <= 0 and m != 0:
        _fail_population(is_int, legacy)
    if has_p:
        _check_p(p, pop, atol, legacy)
    if replace:
        if neg:
            raise ValueError("negative dimensions are not allowed")
        idx = np.empty(m, np.int64)
        if has_p:
            _with_p_replaced(rng, idx, p)
        elif legacy:
            if m != 0:
                top = prims.as_uint64(pop - 1)
                for k in range(m):
                    idx[k] = prims.as_int64(interval(rng, top))
        else:
            fill_integers(rng, idx, 0, pop, False)
        return idx
    if m > pop:
        if legacy:
            raise ValueError("Cannot take a larger sample than population when "
                             "'replace=False'")
        raise ValueError("Cannot take a larger sample than population when "
                         "replace is False")
    if m < 0:
        if legacy:
            raise ValueError("Negative dimensions are not allowed")
        raise ValueError("negative dimensions are not allowed")
    idx = np.empty(m, np.int64)
    if has_p:
        positive = 0
        for i in range(p.shape[0]):
            if p[i] > 0:
                positive += 1
        if positive < m:
            raise ValueError("Fewer non-zero entries in p than size")
        if neg:
            raise ValueError("negative dimensions are not allowed")
        _with_p_unique(rng, idx, p)
    elif legacy:
        _unique_legacy(rng, idx, pop)
    else:
        _unique_generator(rng, idx, pop, shuffle_)
    return idx


def choice_indices_no_p(rng, pop, is_int, m, neg, replace, shuffle_, legacy):
    return choice_indices(rng, pop, is_int, m, neg, replace, False,
                          np.empty(0, np.float64), ATOL64, shuffle_, legacy)


def legacy_choice_indices(st, pop, is_int, m, neg, replace, p, atol):
    rng = prims.make_generator(prims.legacy_words(st))
    return choice_indices(rng, pop, is_int, m, neg, replace, True, p, atol, True, True)


def legacy_choice_indices_no_p(st, pop, is_int, m, neg, replace):
    rng = prims.make_generator(prims.legacy_words(st))
    return choice_indices(rng, pop, is_int, m, neg, replace, False,
                          np.empty(0, np.float64), ATOL64, True, True)


def first_index(idx):
    return idx[0]


def first_item(a, idx):
    return a[idx[0]]


def take(out, a, idx):
    for k in range(idx.shape[0]):
        out[k] = a[idx[k]]


def copy_indices(out, idx):
    for k in range(idx.shape[0]):
        out[k] = idx[k]


# ------------------------------------------------------------ shuffle, rows
def shuffle_rows(rng, x):
    """The n-D shuffle along axis 0 on its 2-D view ``x`` (rows by the rest):
    rows ``i`` and ``j`` swapped for ``i`` from ``n - 1`` down to 1.  An array
    of no items draws nothing (``Generator`` and ``RandomState`` alike)."""
    n = x.shape[0]
    if x.shape[1] == 0:
        return
    for i in range(n - 1, 0, -1):
        j = prims.as_int64(interval(rng, prims.as_uint64(i)))
        if i != j:
            for k in range(x.shape[1]):
                t = x[i, k]
                x[i, k] = x[j, k]
                x[j, k] = t


def take_rows(out, x, idx):
    """``x[idx]`` of a 2-D view into ``out``'s 2-D view."""
    for r in range(idx.shape[0]):
        src = idx[r]
        for k in range(x.shape[1]):
            out[r, k] = x[src, k]


def permutation_rows(rng, out, x):
    """``permutation`` of an n-D array (2-D views): ``arange(len)`` shuffled,
    then its rows taken in that order."""
    idx = np.arange(x.shape[0])
    shuffle(rng, idx)
    take_rows(out, x, idx)


# --------------------------------------------- legacy (the RandomState at st)
def legacy_shuffle(st, x):
    shuffle(prims.make_generator(prims.legacy_words(st)), x)


def legacy_shuffle_rows(st, x):
    shuffle_rows(prims.make_generator(prims.legacy_words(st)), x)


def legacy_permutation_int(st, n):
    x = np.arange(n)
    legacy_shuffle(st, x)
    return x


def legacy_permutation_array(st, a):
    x = a.copy()
    legacy_shuffle(st, x)
    return x


def legacy_permutation_rows(st, out, x):
    permutation_rows(prims.make_generator(prims.legacy_words(st)), out, x)
