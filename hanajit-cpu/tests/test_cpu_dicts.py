"""Dict locals of numbers (``frontend/dict_locals.py``, ``lib/python/dicts.py``)
against the interpreter: values, the types of keys and values (Python numbers or
NumPy scalars), insertion order, CPython's errors (KeyError, the RuntimeErrors of
a dict changed while iterated), random operation sequences, and the fallbacks."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.jitted import jitted


from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "dict_outcomes.py", "hanajit_dict_outcomes")
shape, outcome, same = _h.shape, _h.outcome, _h.same


# -------------------------------------------------------------------- kernels
def count(a):
    counts = {}
    for v in a:
        counts[v] = counts.get(v, 0) + 1
    return counts


def count_python(n):
    counts = dict()
    for i in range(n):
        v = (i * 7) % 5
        counts[v] = counts.get(v, 0) + 1
    return counts


def memo_fib(n):
    memo = {0: 0, 1: 1}
    for i in range(2, n + 1):
        memo[i] = memo[i - 1] + memo[i - 2]
    return memo[n], len(memo)


def lookup(a):
    w = {0: 0.5, 1: 0.25, 3: 2.0, -1: 1e300}
    s = 0.0
    for i in range(len(a)):
        k = int(a[i])
        if k in w:
            s += w[k] * a[i]
        elif k not in w:
            s -= 1.0
    return s, len(w)


def getitem(k):
    d = {1: 2.5, 2: -0.0}
    return d[k]


def float_keys(a):
    d = {}
    for x in a:
        d[x] = d.get(x, 0.0) + 1.0
    return d


def python_float_keys(n):
    d = {}
    d[-0.0] = 1
    d[0.0] = 2
    d[0.5] = 3
    d[1e300] = 4
    d[-math.inf] = 5
    d[2.0 ** 70] = 6
    return d, d[0.0], d.get(-0.0, 0), d.get(3.0, -1)


def deletes(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    for i in range(0, n, 2):
        del d[i]
    s = 0
    for k in d:
        s += k
    t = 0
    for k, v in d.items():
        t += k * v
    u = 0
    for v in d.values():
        u += v
    for k in d.keys():
        u -= k
    return d, s, t, u, sum(d.values())


def del_missing(k):
    d = {1: 1.0}
    del d[k]
    return d


def pops(n):
    d = {}
    for i in range(n):
        d[i] = float(i)
    a = d.pop(3)
    b = d.pop(100, -1.0)
    c = d.setdefault(4, 9.0)
    d.setdefault(50, 7.5)
    x = 2 in d
    y = 3 not in d
    return d, a, b, c, x, y


def pop_missing(k):
    d = {1: 1, 2: 2}
    return d.pop(k), d


def grows_while_iterated(n):
    d = {0: 1, 1: 2}
    for k in d:
        if k == n:
            d[k + 10] = 1
    return d


def keys_changed(n):
    d = {0: 1, 1: 2, 2: 3}
    s = 0
    for k in d:
        s += k
        if k < n:
            del d[k]
            d[k + 10] = 1
    return d, s


def shrinks_while_iterated(n):
    d = {0: 1, 1: 2, 2: 3}
    for k in d:
        if k == n:
            del d[2]
    return d


def clears(n):
    d = {1: 1}
    d.clear()
    if not d:
        d[n] = 3
    if d:
        return d
    return d


def most_common(a):
    d = {}
    for v in a:
        d[v] = d.get(v, 0) + 1
    return max(d, key=d.get)


def of_float32(a):
    d = {}
    for i in range(len(a)):
        d[i] = a[i]
    return d


def nan_key(x):
    d = {1.5: 2}
    d[x] = 3
    return d


def key_error_caught(k):
    d = {1: 1}
    try:
        return d[k]
    except KeyError:
        return -1


def augmented(a):
    d = {0: 0.0, 1: 0.0}
    for i in range(len(a)):
        d[i % 2] += float(a[i])
    return d


def big_display(n):
    d = {0: 1, 1: 2, 2: 3, 3: 4, 4: 5, 5: 6, 6: 7, 7: 8, 8: 9}
    for i in range(n):
        d[i + 100] = i
    return d


def keyed_by_int32(a, b):
    d = {}
    for i in range(len(a)):
        d[a[i]] = b[i]
    s = 0.0
    for k, v in d.items():
        s += v
    return d, s


def complex_values(n):
    d = {}
    for i in range(n):
        d[i] = complex(i, -i)
    return d


def bool_values(a):
    d = {}
    for i in range(len(a)):
        d[i] = a[i] > 0
    return d


def annotated(a):
    counts: dict[int, int] = {}
    for v in a:
        counts[int(v)] = counts.get(int(v), 0) + 1
    while counts:
        k = max(counts, key=counts.get)
        del counts[k]
        if len(counts) < 2:
            break
    return counts


def in_comprehensions(a):
    w = {0: 0.5, 1: 0.25, 2: 2.0}
    s = sum(w[k] * a[k] for k in range(3))
    t = [w.get(int(x), 0.0) for x in a]
    return s, np.array(t), min(w, key=w.get), max(w, key=w.get)


def writes_argument(a, k, x):
    d = {}
    d[k] = 1
    d[x] = 2
    a[0] += 1
    return d[k], x in d, len(d)


# ------------------------------------------------------------------- the tests
def test_counting():
    same(count, np.array([3, 1, 3, 2, 1, 3]))
    same(count, np.array([3, 1, 3, 2, 1, 3], dtype=np.int32))
    same(count, np.array([3, 1, 3, 2, 1, 3], dtype=np.uint8))
    same(count, np.array([], dtype=np.int64))
    same(count, np.arange(1000) % 37)
    same(count, np.array([0.5, 0.5, -0.0, 0.0, np.inf]))
    same(count, np.array([1.5, 2.5], dtype=np.float32))
    same(count_python, 40)
    same(count_python, 0)


def test_memo_and_lookup():
    same(memo_fib, 50)
    same(memo_fib, 1)
    same(lookup, np.array([0.0, 1.0, 2.0, 3.0, -1.0, 7.0]))
    same(big_display, 0)
    same(big_display, 30)


def test_getitem_key_error():
    same(getitem, 1)
    same(getitem, 2)
    same(getitem, 3)            # KeyError: 3 (re-run in the interpreter)
    same(getitem, -5)
    same(key_error_caught, 1)
    same(key_error_caught, 7)
    same(del_missing, 1)
    same(del_missing, 2)
    same(pop_missing, 1)
    same(pop_missing, 3)
    with pytest.raises(KeyError) as e:
        jitted(getitem, fallback=False)(np.int64(9))
    assert e.value.args == (np.int64(9),) and type(e.value.args[0]) is np.int64


def missing_after_write(a, k):
    d = {1: 2.0, 3: 4.0}
    a[0] += 1                   # (the call cannot re-run in the interpreter)
    return d[k]


@pytest.mark.parametrize("k", [49, -2**63, 2])
def test_a_missing_int_key_raises_the_int_when_the_call_cannot_re_run(k):
    """KeyError(49) (str '49'), as CPython: not KeyError('49')."""
    with pytest.raises(KeyError) as e:
        jitted(missing_after_write, fallback=False)(np.zeros(1), k)
    assert e.value.args == (k,) and type(e.value.args[0]) is int and str(e.value) == str(k)


def missing_numpy_key_after_write(a, x):
    d = {}
    for v in x:
        d[v] = 1                # NumPy scalar keys
    a[0] += 1
    return d[x[0] + 100]


def missing_float_key_after_write(a, x):
    d = {}
    for v in x:
        d[float(v)] = 1
    a[0] += 1
    try:
        d[0.25]
    except KeyError:
        a[0] += 10              # (caught: compiles and runs)
    return d[0.75]


def test_a_missing_float_or_numpy_key_after_a_write_is_a_key_error():
    """CPython's KeyError holds the key object (np.int64(101), 0.75), which compiled
    code cannot make; a call that cannot re-run still raises KeyError (a handler
    of the caller catches it), with the key's value or a message naming it."""
    for x in (np.array([1, 2]), np.array([1.5, 2.0]), np.array([1, 2], np.int32)):
        with pytest.raises(KeyError):
            jitted(missing_numpy_key_after_write, fallback=False)(np.zeros(1), x)
    a = np.zeros(1)
    with pytest.raises(KeyError):
        jitted(missing_float_key_after_write, fallback=False)(a, np.array([0.5]))
    assert a[0] == 11.0
    a = np.zeros(1)
    assert jitted(missing_float_key_after_write, fallback=False)(
        a, np.array([0.75])) == 1 and a[0] == 11.0


@pytest.mark.parametrize("k, x", [(3, 100), (2**40, -2**62), (-1, 7), (3.5, 1e300),
                                  (-0.0, 0.0), (1e18, 5e18), (math.inf, -math.inf)])
def test_compiled_code_runs_without_re_runs(k, x):
    """Big and small keys hash without leaving compiled code (a function that
    writes into its argument cannot be re-run: it would raise UnsupportedError)."""
    a, b = np.zeros(1), np.zeros(1)
    assert jitted(writes_argument, fallback=False)(a, k, x) == writes_argument(b, k, x)
    assert a[0] == b[0] == 1.0


def test_float_keys():
    same(float_keys, np.array([0.5, -0.0, 0.0, 0.5, 1e-300, -np.inf, np.inf]))
    same(float_keys, np.array([0.5, 0.25, 0.5], dtype=np.float32))
    same(python_float_keys, 0)
    same(nan_key, 2.5)
    same(nan_key, 1.5)
    same(nan_key, float("nan"))          # a NaN key: re-run in the interpreter


def test_mutation_and_views():
    same(deletes, 0)
    same(deletes, 1)
    same(deletes, 25)
    same(pops, 10)
    same(augmented, np.array([1.5, 2.0, -3.0]))
    same(clears, 4)
    same(keyed_by_int32, np.array([3, 1, 3], dtype=np.int32), np.array([1.0, 2.0, 3.0]))
    same(complex_values, 5)
    same(bool_values, np.array([1, -1, 0]))
    same(of_float32, np.array([1.5, 2.5], dtype=np.float32))


def test_changed_while_iterated():
    for n in (-1, 0, 1):
        same(grows_while_iterated, n)
    for n in (-1, 0, 1, 2, 3):
        same(keys_changed, n)
        same(shrinks_while_iterated, n)


def test_max_key_get():
    same(most_common, np.array([1, 2, 2, 3, 3]))
    same(most_common, np.array([5]))
    same(most_common, np.array([], dtype=np.int64))       # ValueError
    same(most_common, np.array([2.5, 0.5, 0.5]))
    same(annotated, np.array([1, 2, 2, 3, 3, 3, 4]))
    same(annotated, np.array([], dtype=np.int64))


def test_read_in_comprehensions():
    got = jitted(in_comprehensions, fallback=False)(np.array([1.0, 2.0, 3.0]))
    want = in_comprehensions(np.array([1.0, 2.0, 3.0]))
    assert shape(got[::2]) == shape(want[::2]) and shape(got[3]) == shape(want[3])
    assert got[1].tobytes() == want[1].tobytes()


# ---------------------------------------------------- random operation sequences
def operations(ops, keys, values, out):
    """Apply op codes to a dict; a checksum of what each read gives.  (``out``
    is written: the call cannot be re-run in the interpreter.)"""
    out[0] += 1.0
    d = {}
    total = 0.0
    n = 0
    for i in range(len(ops)):
        op, k, v = ops[i], keys[i], float(values[i])
        if op == 0:
            d[k] = v
        elif op == 1:
            total += d.get(k, -1.0)
        elif op == 2:
            if k in d:
                del d[k]
        elif op == 3:
            total += d.pop(k, 0.5)
        elif op == 4:
            x = d.setdefault(k, v)
            total += x
        elif op == 5:
            if k in d:
                d[k] += v
        elif op == 6:
            n += len(d)
        elif op == 7:
            for key in d:
                total += key * 0.25
        elif op == 8 and v > 90.0:
            d.clear()
        else:
            for key, value in d.items():
                total -= value
    return d, total, n


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(-12, 12),
                          st.integers(-100, 100)), max_size=120),
       st.sampled_from(["int", "float"]))
def test_random_operations(seq, kind):
    ops = np.array([s[0] for s in seq], dtype=np.int64)
    dtype = np.int64 if kind == "int" else np.float64
    keys = np.array([s[1] for s in seq], dtype=dtype)
    if kind == "float":
        keys = keys / 4.0
    values = np.array([float(s[2]) for s in seq])
    same(operations, ops, keys, values, np.zeros(1))


def iterate_mutating(n0, ops, keys):
    """Deletes and inserts while iterating: CPython's RuntimeErrors at the same
    step (size changed; keys changed, after a resize moved the entries)."""
    d = {}
    for i in range(n0):
        d[i] = i
    j = 0
    seen = 0
    try:
        for k in d:
            seen += k + 1
            if j < len(ops):
                op, key = ops[j], int(keys[j])
                j += 1
                if op == 0:
                    d[key] = 1
                elif op == 1:
                    if key in d:
                        del d[key]
                elif key in d:
                    del d[key]
                    d[key + 100] = 2
    except RuntimeError:
        seen = -seen
    return d, seen, j


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 12), st.lists(st.tuples(st.integers(0, 2), st.integers(0, 14)),
                                    max_size=40))
def test_random_changes_while_iterated(n0, seq):
    ops = np.array([s[0] for s in seq], dtype=np.int64)
    keys = np.array([s[1] for s in seq], dtype=np.int64)
    same(iterate_mutating, n0, ops, keys)


def count_then_read(a):
    counts = {}
    for i in range(len(a)):
        counts[a[i]] = counts.get(a[i], 0) + 1
    s = 0
    for i in range(len(a)):
        s += counts[a[i]]
    return counts, s


def test_parallel_true_keeps_dict_loops_serial():
    from hanajit.errors import HanaJitFallbackWarning
    a = np.arange(5000) % 17
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = outcome(jit(count_then_read, parallel=True), a)
    assert got == outcome(count_then_read, a)
    assert not [x for x in w if issubclass(x.category, HanaJitFallbackWarning)]
    assert all("a dict is used in the loop" in str(x.message) for x in w)


def test_loaded_from_the_disk_cache(tmp_path, monkeypatch):
    from hanajit import cache as hcache
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path / "cache"))
    a = np.array([3, 1, 3], dtype=np.int16)
    jit(keyed_by_int32, cache=True)(a, np.array([1.0, 2.0, 3.0]))     # compile, store
    f = jit(keyed_by_int32, cache=True)
    hits = hcache.stats["hits"]
    assert outcome(f, a, np.array([1.0, 2.0, 3.0])) == \
        outcome(keyed_by_int32, a, np.array([1.0, 2.0, 3.0]))
    assert hcache.stats["hits"] == hits + 1


# ---------------------------------------------------------------------- leaks
def test_no_leak():
    import resource
    f, g = jitted(count, fallback=False), jitted(getitem, fallback=False)
    a = np.arange(200) % 13

    def run(n):
        for k in range(n):
            f(a)
            try:
                g(k % 4)
            except KeyError:
                pass
    run(500)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    run(20_000)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 8192   # KiB


# ------------------------------------------------------------------ fallbacks
def aliased(n):
    d = {1: 2}
    e = d
    return e[1] + n


def passed_on(n):
    d = {1: 2}
    return len(str(d)) + n


def mixed_keys(n):
    d = {}
    d[1] = 1
    d[2.5] = 2
    return len(d) + n


def mixed_kinds(a):
    d = {}
    d[1] = 1
    d[a[0]] = 2
    return len(d)


def get_without_default(n):
    d = {1: 2}
    return d.get(n)


def iterated_in_comprehension(n):
    d = {1: 2}
    return len([k for k in d]) + n


def string_keys(n):
    d = {"a": 1}
    return d["a"] + n


def for_else(n):
    d = {1: 2}
    for k in d:
        n += k
    else:
        n += 1
    return n


def never_stored(n):
    d = {}
    return len(d) + n


@pytest.mark.parametrize("f, arg", [
    (aliased, 1), (passed_on, 1), (mixed_keys, 1), (mixed_kinds, np.array([3])),
    (get_without_default, 1), (string_keys, 1), (for_else, 1), (never_stored, 1),
    (iterated_in_comprehension, 1)])
def test_fallbacks(f, arg):
    from hanajit.errors import UnsupportedError
    with pytest.raises(UnsupportedError):
        jit(f, fallback=False)(arg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(jit(f), arg) == outcome(f, arg)
