"""Dict locals of numbers, continued (test_cpu_dicts.py): dict comprehensions,
``popitem``, ``copy``/``dict(d)``/``update`` with CPython 3.11's table sizes,
``list(d)``/``sorted(d)``, and their fallbacks, against the interpreter."""
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


# ------------------------------------------------- comprehensions, copies, popitem
def comp_range(n):
    d = {i: i * i for i in range(n)}
    return d


def comp_zip_filter(a, b):
    d = {k: v for k, v in zip(a, b) if v > 0 if k != 3}
    return d


def comp_enumerate_nested(a):
    d: dict[int, float] = {i * 10 + j: float(v) + j for i, v in enumerate(a)
                           for j in range(2) if i % 2 == 0}
    d[-1] = 0.5
    return d


def comp_shadowing(a):
    i = 7
    d = {i: a[i] for i in range(a.shape[0])}
    e = {k: v * 2 for k, v in d.items() if k > 0}
    return d, e, i


def comp_returned(a):
    return {float(x): 1 for x in a}


def comp_duplicates(a):
    d = {x % 3: int(x) for x in a}              # later values win, first position kept
    return d, len(d)


def comp_key_error(n):
    w = {0: 1.5, 1: 2.5}
    d = {k: w[k] for k in range(n)}
    return d


def comp_key_first(n):
    d = {k: 1 for k in range(3)}
    e = {d.pop(k): d.pop(k + 1) for k in range(n)}     # the key evaluated first
    return e


@pytest.mark.parametrize("f, args", [
    (comp_range, (0,)), (comp_range, (9,)),
    (comp_zip_filter, (np.array([1, 3, 5, 2]), np.array([1.0, 2.0, -1.0, 0.5]))),
    (comp_zip_filter, (np.zeros(0, np.int64), np.zeros(0))),
    (comp_enumerate_nested, (np.array([3, 1, 4, 1, 5], np.uint8),)),
    (comp_shadowing, (np.arange(4),)), (comp_shadowing, (np.zeros(0, np.int64),)),
    (comp_returned, (np.array([0.5, -0.0, 0.0, np.inf]),)),
    (comp_returned, (np.array([1.0, np.nan]),)),        # a NaN key: the interpreter's
    (comp_duplicates, (np.arange(7, dtype=np.int16),)),
    (comp_key_error, (2,)), (comp_key_error, (3,)),
    (comp_key_first, (1,)), (comp_key_first, (2,)),
])
def test_dict_comprehensions(f, args):
    same(f, *args)


def popitems(n, m):
    d = {i: i * 0.5 for i in range(n)}
    out = 0.0
    for j in range(m):
        k, v = d.popitem()
        out = out * 3 + k + v
    d[100] = 1.0
    last = d.popitem()
    return d, out, last


def popitem_empty(n):
    d = {}
    d[1] = 2
    d.popitem()
    return d.popitem()


@pytest.mark.parametrize("n, m", [(0, 0), (3, 0), (3, 3), (9, 4), (4, 5)])
def test_popitem(n, m):
    same(popitems, n, m)


def test_popitem_empty():
    same(popitem_empty, 1)


def copies(n, dels):
    d = {i: np.float32(i) for i in range(n)}
    for k in range(dels):
        del d[k]
    e = d.copy()
    f: dict[int, np.float32] = dict(d)
    g = {}
    g[-5] = np.float32(1)
    g.update(d)
    d.update(d)
    e[1000] = np.float32(2)
    return d, e, f, g


@pytest.mark.parametrize("n, dels", [(0, 0), (3, 1), (5, 0), (9, 7), (12, 2), (30, 25)])
def test_copy_update(n, dels):
    same(copies, n, dels)


def copies_and_updates(ops, keys):
    """Two dicts through random stores, deletions, popitem, copy, dict(), update
    and clear, then each iterated while a key is swapped for a new one at every
    step: where CPython's layout resizes decides how far the loop gets."""
    d = {}
    e = {}
    for i in range(len(ops)):
        op = ops[i]
        k = int(keys[i])
        if op == 0:
            d[k] = i
        elif op == 1:
            e[k] = i
        elif op == 2:
            if k in d:
                del d[k]
        elif op == 3:
            if k in e:
                del e[k]
        elif op == 4:
            if d:
                d.popitem()
        elif op == 5:
            e = d.copy()
        elif op == 6:
            e = dict(d)
        elif op == 7:
            d.update(e)
        elif op == 8:
            d = e.copy()
        else:
            e.clear()
    sd = 0
    try:
        for k in d:
            del d[k]
            d[k + 1000] = 0
            sd += 1
    except RuntimeError:
        sd = -sd - 1
    se = 0
    try:
        for k in e:
            del e[k]
            e[k + 1000] = 0
            se += 1
    except RuntimeError:
        se = -se - 1
    return d, e, sd, se


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0, 0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9]),
                          st.integers(0, 14)), max_size=60))
def test_random_copies_and_updates(seq):
    ops = np.array([s[0] for s in seq], dtype=np.int64)
    keys = np.array([s[1] for s in seq], dtype=np.int64)
    same(copies_and_updates, ops, keys)


def test_resize_of_one_or_two_keys():
    """CPython resizes a full table holding one or two keys to 16 slots
    (``calculate_log2_keysize(3 * used)``), which decides how far the loop that
    swaps keys gets (a table of 8 slots gave another outcome)."""
    ops = [0, 2, 0, 4, 0, 2, 4, 2, 0, 4, 0, 2, 4, 2, 4, 0, 0, 2, 0, 4, 0, 0, 0, 0, 4, 2,
           2, 4, 4, 2]
    keys = [6, 0, 6, 11, 9, 6, 12, 10, 11, 0, 2, 7, 1, 4, 11, 2, 7, 8, 7, 8, 9, 12, 0, 0,
            7, 5, 4, 7, 0, 12]
    same(copies_and_updates, np.array(ops), np.array(keys))


def listed(a):
    d = {}
    for v in a:
        d[v] = d.get(v, 0) + 1
    ks = sorted(d)
    vs = list(d.values())
    k2 = list(d.keys())
    del d[a[0]]
    v2 = sorted(d.values())
    k3 = list(d)
    return ks, vs, k2, v2, k3


def listed_floats(n):
    d = {(3 - i) * 0.5: -i * 1.5 for i in range(n)}
    d[math.nan if n > 5 else -0.0] = math.nan
    ks = sorted(d)
    vs = sorted(d.values())
    return ks, vs


def listed_returned(n):
    d = {3 - i: i * 0.5 for i in range(n)}
    return list(d)


@pytest.mark.parametrize("f, arg", [
    (listed_returned, 4), (listed_returned, 0),
    (listed, np.array([3, 1, 2, 3], np.int32)), (listed, np.array([7], np.int32)),
    (listed, np.array([2.5, -0.0, 0.0, np.inf, 2.5])),
    (listed_floats, 0), (listed_floats, 4), (listed_floats, 6)])
def test_list_and_sorted(f, arg):
    same(f, arg)


def listed_items(n):
    d = {1: n}
    return list(d.items())


def listed_into_itself(n):
    d = {1: n}
    d = list(d)
    return d


def comp_reads_itself(n):
    d = {0: 1}
    d = {k: d.get(k, 0) for k in range(n)}
    return d


def comp_in_try(n):
    d = {}
    try:
        d = {k: 10 // (2 - k) for k in range(n)}
    except ZeroDivisionError:
        pass
    return d


def comp_strings(n):
    d = {k: "x" for k in range(n)}
    return len(d)


def comp_nested(n):
    d = {i: {j: j for j in range(i)} for i in range(n)}
    return len(d)


def comp_passed(n):
    return len({k: 1 for k in range(n)})


def update_keywords(n):
    d = {1: 2}
    d.update(a=n)
    return d


def update_from_argument(n):
    d = {1: 2}
    e = {n: 3}
    d.update(e)
    return d, len(str(e))


def copy_of_itself(n):
    d = {1: n}
    d = d.copy()
    return d


@pytest.mark.parametrize("f", [comp_reads_itself, comp_in_try, comp_strings, comp_passed,
                               comp_nested,
                               update_keywords, update_from_argument, copy_of_itself,
                               listed_items, listed_into_itself])
def test_comprehension_and_copy_fallbacks(f):
    from hanajit.errors import UnsupportedError
    with pytest.raises(UnsupportedError):
        jit(f, fallback=False)(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(jit(f), 3) == outcome(f, 3)


def array_copies(a):
    c = {1: 2}
    b = a.copy()
    return b, len(c)


def test_array_copy_is_not_a_dict():
    a = np.arange(3.0)
    got = jitted(array_copies, fallback=False)(a)
    assert got[0].tobytes() == a.tobytes() and got[1] == 1


# -- d.get(k, default) of NumPy values with a Python-number default: the value is
# a NumPy scalar for a present key and the default itself for a missing one

def get_then_add_item(a):
    d = {}
    for i in range(a.shape[0]):
        k = i % 3
        d[k] = d.get(k, 0) + a[i]       # (a NumPy scalar either way)
    return d


def get_default_stored(a, keys):
    d = {}
    for i in range(a.shape[0]):
        d[int(keys[i])] = a[i]
    for k in keys:
        d[int(k)] = d.get(int(k), 0.0) + 1.0    # (np.float64 or the Python float 1.0)
    return d


def test_get_with_a_python_default_then_a_numpy_item_compiles():
    a = np.array([1.5, -2.0, 0.25, 4.0])
    got, want = jit(get_then_add_item, fallback=False)(a), get_then_add_item(a)
    assert list(got.items()) == list(want.items())
    assert [type(v) for v in got.values()] == [type(v) for v in want.values()]


def test_get_with_a_python_default_stored_falls_back():
    # (it stored np.float64(1.0) where the interpreter stores the Python float 1.0)
    from hanajit.testing.compare import check_fallback
    check_fallback(get_default_stored, (np.array([1.5]), np.array([0, 2])), "dict item")
