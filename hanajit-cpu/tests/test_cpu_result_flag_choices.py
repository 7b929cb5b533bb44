"""Results that are a Python number on some calls and a NumPy scalar on others,
boxed as the interpreter's: a returned ``a if n > 1 else 0.0`` or ``max(best,
cur)`` (the flag set from the test CPython makes), ``best = max(best, cur)`` of
two such locals, and arithmetic of several (``slope = num / den``, ``my - slope
* mx``: a NumPy scalar when any is one).  Compared with CPython/NumPy on inputs
that give each kind (empty inputs leave the Python numbers)."""
import warnings

import numpy as np
import pytest

from hanajit import jit


def var_or_zero(x):
    n = 0
    m2 = 0.0
    for v in x:
        n += 1
        m2 += v
    return m2 / (n - 1) if n > 1 else 0.0


def zero_or_var(x):
    n = 0
    m2 = 0.0
    for v in x:
        n += 1
        m2 += v
    return 0.0 if n <= 1 else m2 / (n - 1)


def welford(x):
    n = 0
    mean = 0.0
    m2 = 0.0
    for v in x:
        n += 1
        delta = v - mean
        mean += delta / n
        m2 += delta * (v - mean)
    return mean, m2 / (n - 1) if n > 1 else 0.0


def ratio(x, y):
    num = 0.0
    den = 0.0
    for xi, yi in zip(x, y):
        num += xi * yi
        den += xi ** 2
    slope = num / den
    return slope


def two_locals(x, y):
    num = 0.0
    den = 1
    for xi, yi in zip(x, y):
        num += xi * yi
        den += yi
    return num / den, num - den * 2


def linreg_simple(x, y):
    n = len(x)
    mx = sum(x) / n
    my = sum(y) / n
    num = 0.0
    den = 0.0
    for xi, yi in zip(x, y):
        num += (xi - mx) * (yi - my)
        den += (xi - mx) ** 2
    slope = num / den
    return slope, my - slope * mx


def running_best(g):
    best = 0
    cur = 0
    for v in g:
        cur += v
        best = max(best, cur)
    return best


def max_returned(g):
    best = 0
    cur = 0
    for v in g:
        cur += v
    return max(best, cur)


def min_max_pair(g):
    best = 0
    cur = 0
    for v in g:
        cur += v
    return min(cur, best), max(cur, 5)


def calories(groups):
    best = 0
    cur = 0
    for v in groups:
        if v < 0:
            best = max(best, cur)
            cur = 0
        else:
            cur += v
    return max(best, cur)


F = np.array
CASES = [
    (var_or_zero, [(F([]),), (F([1.0]),), (F([1.0, 2.5, 3]),), (F([-0.0, 0.0]),)]),
    (zero_or_var, [(F([]),), (F([1.0, 2.5, 3]),), (F([np.nan, 1.0]),)]),
    (welford, [(F([]),), (F([1.0]),), (F([1.0, 2.5, 3]),), (np.arange(5),),
               (F([1.0, np.inf]),)]),
    (ratio, [(F([]), F([])), (F([1.0, 2]), F([3.0, 4])), (F([0.0]), F([1.0])),
             (F([1, 2]), F([3, 4]))]),
    (two_locals, [(F([]), F([])), (F([1.0, 2]), F([3.0, 4])), (F([1.0, 2]), F([-3.0, 2])),
                  (F([1, 2]), F([3, 4]))]),
    (linreg_simple, [(F([1.0, 2, 3]), F([2.0, 4, 7])), (F([1, 2, 3]), F([2, 4, 7])),
                     (F([]), F([])), (F([1.0, 1.0]), F([2.0, 3.0]))]),
    (running_best, [(F([], np.int64),), (F([-1, -2]),), (F([3, -1, 4]),)]),
    (max_returned, [(F([], np.int64),), (F([-1, -2]),), (F([3, -1, 4]),), (F([0, 0]),)]),
    (min_max_pair, [(F([], np.int64),), (F([-1, -2]),), (F([3, -1, 4]),), (F([0, 0]),),
                    (F([5, 0]),)]),
    (calories, [(F([1, 2, -1, 5, -1, 3, 3]),), (F([], np.int64),), (F([-1, -1]),),
                (F([2, -1, 0]),), (F([2, -1, 2]),)]),
]
JITTED = {f.__name__: jit(f, fallback=False) for f, _ in CASES}


def run(f, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with np.errstate(all="ignore"):
                return f(*args), None
    except Exception as e:          # (compared by type)
        return None, type(e)


def same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, tuple):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif a is not None:
        assert np.asarray(a).dtype == np.asarray(b).dtype, (a, b)
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), (a, b)


@pytest.mark.parametrize("f,argsets", CASES, ids=[f.__name__ for f, _ in CASES])
def test_each_kind(f, argsets):
    for args in argsets:
        want, want_exc = run(f, args)
        got, got_exc = run(JITTED[f.__name__], args)
        assert want_exc is got_exc, (args, want_exc, got_exc)
        same(want, got)


# -- a local reassigned an array's item (``x = parent[x]``), and callees whose
# result is of either kind: a caller holds it as one of either kind
def find_root(parent, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def components(n, edges):
    parent = np.arange(n)
    rank = np.zeros(n, dtype=np.int64)
    for e in range(edges.shape[0]):
        a = find_root(parent, edges[e, 0])
        b = find_root(parent, edges[e, 1])
        if a == b:
            continue
        if rank[a] < rank[b]:
            a, b = b, a
        parent[b] = a
        if rank[a] == rank[b]:
            rank[a] += 1
    count = 0
    for i in range(n):
        if find_root(parent, i) == i:
            count += 1
    return count


def root_returned(parent, i):
    return find_root(parent, i)


def root_plus_one(parent, i):
    r = find_root(parent, i)
    return r + 1


def roots_summed(parent):
    s = 0
    for i in range(parent.shape[0]):
        s += find_root(parent, i)
    return s


def total(x):
    s = 0.0
    for v in x:
        s += v
    return s


def total_returned(x):
    return total(x)


def test_item_reassigned():
    f = jit(find_root, fallback=False)
    for p, i in [(np.arange(3), 1), (np.array([0, 0, 1]), 2), (np.array([0, 0, 1]), 0)]:
        same(find_root(p.copy(), i), f(p.copy(), i))


def test_callee_either_kind_used_as_index():
    f = jit(components, fallback=False)
    edges = np.array([[0, 1], [2, 3], [1, 3], [5, 6], [4, 4]])
    same(components(8, edges), f(8, edges))
    empty = np.zeros((0, 2), np.int64)
    same(components(3, empty), f(3, empty))


@pytest.mark.parametrize("g,argsets", [
    (root_returned, [(np.array([0, 0, 1]), 0), (np.array([0, 0, 1]), 2)]),
    (root_plus_one, [(np.array([0, 0, 1]), 0), (np.array([0, 0, 1]), 2)]),
    (roots_summed, [(np.arange(3),), (np.array([0, 0, 1]),)]),
    (total_returned, [(np.array([]),), (np.array([1.5]),)]),
], ids=lambda x: getattr(x, "__name__", ""))
def test_callee_either_kind_returned_falls_back(g, argsets):
    from hanajit import HanaJitFallbackWarning
    f = jit(g)
    for args in argsets:
        want = g(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        with pytest.warns(HanaJitFallbackWarning, match=r"result of (find_root|total)\(\)"):
            got = f(*args)
        same(want, got)
        f = jit(g)                      # (one warning per function)
