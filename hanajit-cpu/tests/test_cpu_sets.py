"""Set locals of numbers (frontend/set_locals.py, lib/python/sets.py): values,
the items' types (Python numbers or NumPy scalars), CPython's iteration and
pop() order (its hash table, lib/python/set_algorithms.py), its errors, and the
fallbacks, compared with the interpreter running the same function."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback
from hanajit.testing.jitted import jitted

from hanajit.testing.sourcefile import load_sibling

# (numbers compared with their types, lists by repr)
same = load_sibling(__file__, "dict_outcomes.py", "hanajit_dict_outcomes").same


# ------------------------------------------------------------------ kernels
def seen_twice(x):
    seen = set()
    dup = 0
    for v in x:
        if v in seen:
            dup += 1
        seen.add(v)
    return len(seen), dup


def in_order(x):
    s = set()
    for v in x:
        s.add(v)
    out = []
    for v in s:
        out.append(v)
    return out, list(s), len(s)


def python_items(x):
    s = set()
    for v in x:
        s.add(int(v))
    a = list(s)
    b = sorted(s)
    t, lo, hi = sum(s), min(s), max(s)
    p = s.pop()
    return a, b, t, lo, hi, p, len(s)


def python_floats(x):
    s = set()
    for v in x:
        s.add(float(v))
    return list(s), sum(s), min(s), max(s)


def numpy_sums(x):
    s = set(x)
    return sum(s), sorted(s), len(s)


def ops(codes, values):
    """Adds (0), discards (1), pops (2), clears (3), lookups (4) and removes (5);
    what each gives, and the set's items in order after each."""
    s = set()
    out = []
    for i in range(len(codes)):
        c = codes[i]
        v = values[i]
        if c == 0:
            s.add(v)
        elif c == 1:
            s.discard(v)
        elif c == 2:
            if s:
                out.append(s.pop())
        elif c == 3:
            s.clear()
        elif c == 4:
            out.append(v if v not in s else -v)
        elif c == 5:
            if v in s:
                s.remove(v)
        for w in s:
            out.append(w)
    return out, len(s)


def comprehension(x):
    s = {v % 7 for v in x if v > 0}
    t = {v * 2 for v in range(4)}
    return sorted(s), list(t), len(s)


def display(a, b):
    s = {a, b}
    s.add(a + b)
    return list(s), len(s)


def distinct(x):
    n = len(set(x))
    return n


def truth(x):
    s = set()
    r = []
    r.append(1 if s else 0)
    r.append(5 if not s else 6)
    for v in x:
        s.add(v)
    r.append(1 if s else 0)
    if s:
        r.append(2)
    while s:
        r.append(int(s.pop()))
    return r


def remove_missing(x, v):
    s = set(x)
    s.remove(v)
    return len(s)


def pop_empty(x):
    s = set(x)
    out = []
    for _ in range(len(x) + 1):
        out.append(s.pop())
    return out


def grows_while_iterated(x):
    s = set(x)
    n = 0
    for v in s:
        n += 1
        if n == 2:
            s.add(v + 1000)
    return n


def empty_min(x):
    s = set()
    for v in x:
        if v > 100:
            s.add(v)
    return min(s)


# ------------------------------------------------------------------ tests
I64 = [np.array([3, 1, 3, -1, -2, 7, 1, 8, 15, 23, 31, 2**40, -2**63, 2**63 - 1, 0],
                np.int64),
       np.array([], np.int64), np.arange(100, dtype=np.int64)[::-3],
       np.asfortranarray(np.arange(60, dtype=np.int64).reshape(6, 10))[:, 3]]
F64 = [np.array([0.0, -0.0, 1.5, 1.0, 2.0**61, -2.0**63, np.inf, -np.inf, 1e-300,
                 5e-324, 0.1, 0.2, 0.3, 1e16, -1.0, -0.5]),
       np.array([-0.0, 0.0, 3.0, 3.0]), np.array([], np.float64), np.linspace(-3, 3, 37)[::-1]]
OTHER = [np.arange(40, dtype=np.int32)[::-1] - 20, np.array([5, 250, 5, 0, 17], np.uint8),
         np.array([-8, 8, -1, 1, -128], np.int8), np.array([0.1, 0.7, -2.5, 1e30, 0.1, -0.0],
                                                          np.float32)]


@pytest.mark.parametrize("x", I64 + F64)
def test_numpy_items(x):
    same(seen_twice, x)
    same(in_order, x)
    same(numpy_sums, x[np.abs(x.astype(np.float64)) < 2.0**50])   # (no overflow)
    same(distinct, x)
    same(truth, x)
    same(grows_while_iterated, x)


@pytest.mark.parametrize("x", OTHER)
def test_other_dtypes(x):
    same(in_order, x)           # NumPy int32, uint8, int8, float32 items, in order


@pytest.mark.parametrize("x", I64 + OTHER[:1])
def test_python_ints(x):
    same(python_items, x)
    if len(x):
        got = jitted(python_items, fallback=False)(x)
        assert type(got[0][0]) is int and type(got[5]) is int
    same(comprehension, x)


@pytest.mark.parametrize("x", F64 + OTHER[3:])
def test_python_floats(x):
    same(python_floats, x)


def test_float_sum_order():
    # many values whose sum depends on the order (and on 3.12's compensated sum)
    x = np.array([1e16, 1.0, -1e16, 3.5, 1e-3, 2.0**-30, 7.25, -0.1] * 3)
    same(python_floats, x)
    same(numpy_sums, x)


def test_display_and_errors():
    same(display, 1, 2)
    same(display, 3, 3)
    same(display, 2.5, -0.0)
    same(remove_missing, np.arange(5), 3)
    same(remove_missing, np.arange(5), 9)
    same(remove_missing, np.arange(5.0), 9.5)
    same(pop_empty, np.arange(4))
    same(pop_empty, np.array([], np.int64))
    same(empty_min, np.arange(5))
    same(empty_min, np.arange(200)[::7])


def test_nan_reruns():
    x = np.array([1.0, np.nan, 2.0, np.nan])
    same(seen_twice, x)
    same(remove_missing, np.arange(3.0), np.nan)


def test_ops_sequences():
    rng = np.random.default_rng(7)
    for n in (5, 40, 300):
        codes = rng.choice(6, n, p=[0.55, 0.15, 0.12, 0.02, 0.1, 0.06])
        same(ops, codes, rng.integers(-50, 200, n))
        same(ops, codes, rng.integers(-2**63, 2**63 - 1, n))
        same(ops, codes, rng.integers(-30, 30, n).astype(np.float64) / 4)


_value = st.one_of(st.integers(-40, 300), st.integers(-2**63, 2**63 - 1),
                   st.sampled_from([-1, -2, 2**61 - 1, 2**61, -2**61 + 1, 0]))
_float = st.one_of(st.floats(allow_nan=False), st.integers(-40, 300).map(float),
                   st.sampled_from([0.0, -0.0, 2.0**61, 0.5, -1.0]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), _value), max_size=120))
def test_hypothesis_ints(seq):
    codes = np.array([c for c, _ in seq], np.int64)
    same(ops, codes, np.array([v for _, v in seq], np.int64))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), _float), max_size=120))
def test_hypothesis_floats(seq):
    codes = np.array([c for c, _ in seq], np.int64)
    same(ops, codes, np.array([v for _, v in seq], np.float64))


def returns_set(x):
    s = set(x)
    return s


def constants(x):
    s = {1, 2, 3}
    return len(s) + len(x)


def union(x):
    s = set(x)
    t = set(x[:2])
    return len(s | t)


def never_added(x):
    s = set()
    return len(s) + len(x)


def loop_else(x):
    s = set(x)
    n = 0
    for v in s:
        n += v
    else:
        n += 100
    return n


def residues(x, m):
    s = set()
    for i in range(len(x)):
        s.add(x[i] % m)
    first = -1
    for v in s:
        if first < 0:
            first = v
    return len(s), first


def test_parallel_runs_serially():
    from hanajit import jit
    from hanajit.errors import HanaJitParallelWarning
    x = np.arange(50, dtype=np.int64) * 7
    f = jit(residues, fallback=False, parallel=True)
    with pytest.warns(HanaJitParallelWarning, match="a set is used in the loop"):
        assert repr(f(x, 9)) == repr(residues(x, 9))


def mixed(x):
    s = {1, 2.5}
    for v in x:
        s.add(int(v))
    return len(s)


def test_fallbacks():
    x = np.arange(4)
    check_fallback(mixed, (x,), "set")
    check_fallback(never_added, (x,), "no element is ever added")
    check_fallback(loop_else, (x,), "for ... else")
    same(returns_set, x)                # (compiled: test_cpu_set_results.py)
    same(constants, x)                  # (compiled: test_cpu_set_operators.py)
    same(union, x)                      # (compiled: test_cpu_set_operators.py)
    check_fallback(numpy_sums, (np.arange(3, dtype=np.float32),), "sum")


def empty_sum_after_write(x, out):
    out[0] += 1.0
    s = set()
    for v in x:
        if v > 100:
            s.add(v)
    return sum(s)


def remove_after_write(x, out, k):
    out[0] += 1.0
    s = set()
    for v in x:
        s.add(v)
    try:
        s.remove(x[0] + 0.5)
    except KeyError:
        out[0] += 10.0          # (caught: compiles and runs)
    s.remove(k)
    return len(s)


def test_calls_that_cannot_re_run():
    """sum() of an empty set (the int 0) and a KeyError of a float or NumPy element
    re-run a pure call in the interpreter; one that wrote into its argument raises
    UnsupportedError for the sum (it raised TypeError('sum() of an empty set')) and
    a KeyError with the element's value."""
    from hanajit.errors import UnsupportedError
    x = np.array([1.0, 2.0])
    with pytest.raises(UnsupportedError, match="sum.. of an empty set"):
        jitted(empty_sum_after_write, fallback=False)(x, np.zeros(1))
    out = np.zeros(1)
    assert jitted(empty_sum_after_write, fallback=False)(x + 200, out) == 403.0
    assert out[0] == 1.0
    with pytest.raises(KeyError):
        jitted(remove_after_write, fallback=False)(x, out, 7.0)
    assert out[0] == 12.0
    assert jitted(remove_after_write, fallback=False)(x, out, 2.0) == 1 and out[0] == 23.0


def sorted_with_keywords(x):
    s = set()
    for v in x:
        s.add(int(v))
    r = sorted(s, key=lambda k: k % 3)
    out = []
    for w in sorted(s, reverse=True):
        out.append(w)
    t = sorted(s, key=abs, reverse=True)
    lo = min(s, key=abs)
    hi = max(s, key=abs)
    return r, out, t, lo, hi


def numpy_keywords(x):
    s = set(x)
    a = sorted(s, reverse=True)
    b = max(s, key=lambda k: k * k)
    c = sorted(s, key=lambda k: -k)
    return a, b, c


def test_sorted_min_max_keywords():
    """sorted(s, key=, reverse=), min/max(s, key=): the list of the elements in
    table order, sorted stably (ties keep that order, as CPython's)."""
    for x in I64[:2] + [np.array([3, -3, 2, -2, 1, -1, 0, 9, -9], np.int64)]:
        same(sorted_with_keywords, x[np.abs(x) < 2**40])
    for x in (F64[0], F64[1], np.array([-2.5, 2.5, -0.0, 1.0, -1.0])):
        same(numpy_keywords, x)
    same(sorted_with_keywords, np.array([], np.int64))     # (max of none: ValueError)


def comprehensions_over_sets(x):
    s = set()
    for v in x:
        s.add(int(v))
    big = any(v > 5 for v in s)
    small = all(v > -3 for v in s)
    r = [v + 1 for v in s if v % 2]
    t = sum(v * 2 for v in s if v > 0)
    if any(v < 0 for v in s):
        t += 1000
    return big, small, r, t


def over_numpy_set(x):
    s = set(x)
    m = max(v * v for v in s)
    return m, [v for v in s]


def test_comprehensions_over_a_set():
    """A generator expression or list comprehension over a set (in a simple
    statement or an if's test) reads the list of the elements in table order, as
    CPython's set iterator gives them (it fell back: used in a comprehension)."""
    for x in I64[:3]:
        same(comprehensions_over_sets, x[np.abs(x) < 2**40])
    for x in (F64[0], F64[1], I64[0][np.abs(I64[0]) < 2**30]):
        same(over_numpy_set, x)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.one_of(_value, _float)), max_size=200))
def test_model_is_cpython(seq):
    """The table model the compiled sets follow (set_table_model.py) against this
    Python's sets: ints, floats and integral floats mixed, after every step."""
    model = load_sibling(__file__, "set_table_model.py", "hanajit_set_table_model")
    Model, h, same_items = model.Model, model.h, model.same
    s, m = set(), Model()
    for c, v in seq:
        if c == 0 or c == 4:
            s.add(v)
            m.add(v)
        elif c == 1:
            s.discard(v)
            m.discard(v)
        elif c == 2 and s:
            assert same_items([s.pop()], [m.pop()])
        elif c == 3:
            s.clear()
            m.clear()
        elif c == 5:
            assert (v in s) == (m.lookup(v) >= 0)
        assert same_items(list(s), m.items())
    for _, v in seq:
        assert hash(v) == h(v)
