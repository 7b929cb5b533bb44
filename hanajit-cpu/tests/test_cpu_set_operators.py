"""Set operators and methods between set locals (frontend/set_operators.py,
lib/python/set_operations.py): each result's items in order, after more adds,
and its pop() order -- so its table is CPython's -- with the items' types,
compared with the interpreter running the same function on random sets (adds,
discards and pops: tables with dummies and after resizes)."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback
from hanajit.testing.sourcefile import load_sibling

same = load_sibling(__file__, "dict_outcomes.py", "hanajit_dict_outcomes").same


# ------------------------------------------------------------------ kernels
def made(ca, va, cb, vb, extra):
    """Every operator and method making a new set, each result's items, its
    items after ``extra`` added, and its pops."""
    a = set()
    for i in range(len(ca)):
        if ca[i] == 0:
            a.add(va[i])
        elif ca[i] == 1:
            a.discard(va[i])
        elif a:
            a.pop()
    b = set()
    for i in range(len(cb)):
        if cb[i] == 0:
            b.add(vb[i])
        elif cb[i] == 1:
            b.discard(vb[i])
        elif b:
            b.pop()
    items, sizes = [], []
    c1 = a | b
    c2 = a & b
    c3 = a - b
    c4 = b - a
    c5 = a ^ b
    c6 = set(b)
    c7 = a.union(b, a, b)
    c8 = a.intersection(b, a)
    c9 = a.difference(b, a)
    c10 = a & a
    c11 = a ^ a
    c12 = a | b & a - b
    for v in extra:
        c1.add(v)
        c2.add(v)
        c3.add(v)
        c5.add(v)
        c6.add(v)
        c11.add(v)
    for v in c1:
        items.append(v)
    sizes.append(len(c1))
    for v in c2:
        items.append(v)
    sizes.append(len(c2))
    for v in c3:
        items.append(v)
    sizes.append(len(c3))
    for v in c4:
        items.append(v)
    sizes.append(len(c4))
    for v in c5:
        items.append(v)
    sizes.append(len(c5))
    for v in c6:
        items.append(v)
    sizes.append(len(c6))
    for v in c7:
        items.append(v)
    sizes.append(len(c7))
    for v in c8:
        items.append(v)
    sizes.append(len(c8))
    for v in c9:
        items.append(v)
    sizes.append(len(c9))
    for v in c10:
        items.append(v)
    sizes.append(len(c10))
    for v in c11:
        items.append(v)
    sizes.append(len(c11))
    for v in c12:
        items.append(v)
    sizes.append(len(c12))
    while c1:
        items.append(c1.pop())
    while c11:
        items.append(c11.pop())
    return items, sizes


def in_place(ca, va, cb, vb, extra, code):
    """``a op= b`` (``code`` 0-3), the update methods (4-7), the same set twice
    (8-11), then more adds and the pops."""
    a = set()
    for i in range(len(ca)):
        if ca[i] == 0:
            a.add(va[i])
        elif ca[i] == 1:
            a.discard(va[i])
        elif a:
            a.pop()
    b = set()
    for i in range(len(cb)):
        if cb[i] == 0:
            b.add(vb[i])
        elif cb[i] == 1:
            b.discard(vb[i])
        elif b:
            b.pop()
    if code == 0:
        a |= b
    elif code == 1:
        a &= b
    elif code == 2:
        a -= b
    elif code == 3:
        a ^= b
    elif code == 4:
        a.update(b, b)
    elif code == 5:
        a.intersection_update(b, a)
    elif code == 6:
        a.difference_update(b, b)
    elif code == 7:
        a.symmetric_difference_update(b)
    elif code == 8:
        a |= a
    elif code == 9:
        a &= a
    elif code == 10:
        a -= a
    else:
        a ^= a
    out = list(a)
    n = len(a)
    for v in extra:
        a.add(v)
    for v in a:
        out.append(v)
    while a:
        out.append(a.pop())
    return out, n


def compared(ca, va, cb, vb):
    a = set()
    for i in range(len(ca)):
        if ca[i] == 0:
            a.add(va[i])
        elif ca[i] == 1:
            a.discard(va[i])
    b = set()
    for i in range(len(cb)):
        if cb[i] == 0:
            b.add(vb[i])
        elif cb[i] == 1:
            b.discard(vb[i])
    c = a & b
    return (a == b, a != b, a <= b, a < b, a >= b, a > b, c <= a, c < b, c == c,
            a.issubset(b), a.issuperset(c), a.isdisjoint(b), (a - b).isdisjoint(b),
            a == a | c)


def python_ints(x, y):
    a = set()
    for v in x:
        a.add(int(v))
    b = set()
    for v in y:
        b.add(int(v))
    c = a ^ b
    c |= a
    d = a - b
    e = sorted(a & b)
    p = c.pop() if c else 0
    return list(c), list(d), e, p


def python_floats(x, y):
    a = set()
    for v in x:
        a.add(float(v))
    b = {float(v) for v in y}
    c = a | b
    d = a.intersection(b)
    d ^= c
    return list(c), list(d), sum(d)


# ------------------------------------------------------------------ tests
_int = st.one_of(st.integers(-40, 300), st.integers(-2**63, 2**63 - 1),
                 st.sampled_from([-1, -2, 2**61 - 1, 2**61, -2**61 + 1, 0]))
_float = st.one_of(st.floats(allow_nan=False), st.integers(-40, 300).map(float),
                   st.sampled_from([0.0, -0.0, 2.0**61, 0.5, -1.0, np.inf]))
_codes = st.integers(0, 9).map(lambda c: 0 if c < 7 else 1 if c < 9 else 2)


def _arrays(seq, dtype):
    return (np.array([c for c, _ in seq], np.int64), np.array([v for _, v in seq], dtype))


def _sets(value, dtype):
    seq = st.lists(st.tuples(_codes, value), max_size=90)
    return st.tuples(seq, seq, st.lists(value, max_size=12)).map(
        lambda t: (*_arrays(t[0], dtype), *_arrays(t[1], dtype), np.array(t[2], dtype)))


@settings(max_examples=40, deadline=None)
@given(_sets(_int, np.int64), st.integers(0, 11))
def test_ints(args, code):
    same(made, *args)
    same(in_place, *args, code)
    same(compared, *args[:4])


@settings(max_examples=40, deadline=None)
@given(_sets(_float, np.float64), st.integers(0, 11))
def test_floats(args, code):
    same(made, *args)
    same(in_place, *args, code)
    same(compared, *args[:4])


def _shared(n, m, seed):
    """Sets sharing many items, of sizes ``n`` and ``m`` (the size rules:
    ``len(a) >> 2 > len(b)``, ``len(b) >> 3 > len(a)``, resizes of merges)."""
    rng = np.random.default_rng(seed)
    va = rng.integers(-60, 400, n)
    vb = np.concatenate([va[: m // 2], rng.integers(-60, 400, m - m // 2)])
    ca = (rng.random(n) < 0.15).astype(np.int64)
    cb = (rng.random(m) < 0.15).astype(np.int64)
    return ca, va, cb, vb, rng.integers(-60, 400, 5)


def test_sizes():
    for n, m in ((0, 0), (0, 7), (5, 0), (4, 4), (200, 3), (3, 200), (60, 14), (14, 130),
                 (1000, 1000), (5, 9)):
        for seed in range(2):
            args = _shared(n, m, seed)
            same(made, *args)
            same(compared, *args[:4])
            for code in range(12):
                same(in_place, *args, code)


def test_forms():
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, -1, -2, 100, 2**40, 64, 128])
    y = np.array([2, 7, 1, 8, 2, 8, 1, 8, 2, 8, 4, 5, 9, 0, -1, 32])
    same(forms, x, y)
    same(forms, y, x)
    same(forms, x[:0], y)


def test_python_items():
    x = np.array([3, 1, 4, 1, 5, 9, 2, 6, -1, -2, 2**40, 77])
    y = np.array([2, 7, 1, 8, 2, 8, 1, 8, -1, 2**62])
    same(python_ints, x, y)
    same(python_ints, x[:0], y)
    same(python_floats, x * 0.5, y * 0.25)
    same(python_floats, np.array([0.0, 1.5, -0.0]), np.array([-0.0, 2.5, np.inf]))
    same(nan_sizes, np.array([0.1, np.nan]), np.array([0.2, 0.1]))    # (NaN re-runs)
    x32 = _shared(30, 20, 4)
    same(in_place, x32[0], x32[1].astype(np.float32), x32[2], x32[3].astype(np.float32),
         x32[4].astype(np.float32), 3)


def forms(x, y):
    """Operands that are displays, comprehensions or set(...) calls, a target
    that is an operand, a union carried round a loop."""
    a = {int(v) for v in x}
    b = {int(v) for v in y}
    a = a - b
    b = a & b
    acc = set()
    for i in range(len(x)):
        t = {int(x[i]) % 5, int(x[i]) % 7}
        acc = acc | t
    c = {int(v) for v in y}
    c |= {1, 2, 3}
    c.update({int(v) for v in x}, {5, 6})
    d = {int(v) for v in x}
    d.difference_update({int(v) for v in y})
    e = c ^ {int(v) for v in x[:3]}
    n = len(c & {int(v) for v in y})
    m = 0
    for v in a | d:
        m += v
    return (list(a), list(b), sorted(acc), list(acc), list(c), list(d), list(e),
            c.isdisjoint({100, 200, 300}), n, m)


def nan_sizes(x, y):
    a = {float(v) for v in x}
    b = set()
    for v in y:
        b.add(float(v))
    return len(a | b), len(a & b), a <= b


def displays(x, k):
    """Displays of three or more constants (frozenset constants), then adds."""
    a = {3, 1, 4, 1, 5, 9, 2, 6, 5, 35, 8, 97, 9, 32, 384, 626, -1, -2, 2**62}
    b = {7, 15, 23}
    c = {0.5, -0.0, 0.0, 2.5, 1e300, 8.0, 16.0, -1.0}
    d = {23, 15, 7, 31}
    e = {-1, -2, -3, 2**61 - 1, 2**61}
    for i in range(len(x)):
        v = int(x[i])
        a.add(v * k)
        b.add(v * k)
        d.add(v * k)
        e.add(v)
    c.add(0.25 * k)
    out = list(a)
    out.append(-12345)
    for v in b:
        out.append(v)
    out.append(-12345)
    for v in d:
        out.append(v)
    out.append(-12345)
    for v in e:
        out.append(v)
    fl = list(c)
    while a:
        out.append(a.pop())
    eq = b == {15, 23, 7}
    return out, fl, eq, c.pop()


def mixed_display(x):
    s = {1, 2.5, 3}
    return len(s) + len(x)


def int_and_float(x):
    a = set()
    for v in x:
        a.add(int(v))
    b = {float(v) for v in x}
    return len(a | b)


def with_list(x):
    a = set(x)
    b = list(x)
    return len(a - set(b)), a == b


def with_other(x):
    a = set(x)
    return a | x


def returned(x):
    a = set(x)
    b = set(x[:2])
    return a - b


def numpy_and_python(x):
    a = set(x)
    b = set()
    for v in x:
        b.add(int(v))
    return len(a & b)


def test_displays():
    for x, k in ((np.arange(0), 1), (np.arange(12), 8), (np.arange(-3, 60), 3),
                 (np.arange(5), 16)):
        same(displays, x, k)


def test_fallbacks():
    x = np.arange(5)
    check_fallback(mixed_display, (x,), "frozenset constant")
    check_fallback(int_and_float, (x,), "float64 and int64")
    check_fallback(with_list, (x,), "combined with 'b'")
    check_fallback(with_other, (x,), "an operator with what is not a set")
    same(returned, x)                   # (compiled: test_cpu_set_results.py)
    check_fallback(numpy_and_python, (x,), "different kinds")


def test_model_is_cpython():
    """The model of the operators (set_table_model.py) against this Python's sets:
    every result's order, after more adds, and its pops (also a script, run under
    each Python 3.10 to 3.13)."""
    model = load_sibling(__file__, "set_table_model.py", "hanajit_set_table_model")
    for seed in range(60):
        assert model.run_operators(seed)
