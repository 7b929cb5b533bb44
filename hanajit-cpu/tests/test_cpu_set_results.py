"""Sets the caller gets (``return s``, a set in a returned tuple:
frontend/set_locals.py, lib/python/sets.result, hanajit/host_sets.py): the
caller's set has the interpreter's table -- slots, dummies, sizes and pop()
finger, read back from both sets -- its elements the interpreter's (Python
numbers or NumPy scalars), and later adds, discards and pops on it do what they
do on the interpreter's; compared on hypothesis-generated adds, discards, pops
and clears (collisions, -1 whose hash is -2, floats equal to ints)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import host_sets, jit
from hanajit.testing.compare import check_fallback
from hanajit.testing.jitted import jitted

pytestmark = pytest.mark.skipif(not host_sets.writable(),
                                reason="sets are written only on CPython 3.10 to 3.13")


def shape(x):
    """``x`` with each number as (repr, type name) and each set as its table."""
    if isinstance(x, (set, frozenset)):
        fill, used, mask, finger, slots = host_sets.table_of(x)
        return (type(x).__name__, fill, used, mask, finger,
                [(j, shape(e) if e is not None else "dummy", h) for j, e, h in slots])
    if isinstance(x, (tuple, list)):
        return (type(x).__name__,) + tuple(shape(i) for i in x)
    return (repr(x), type(x).__name__)


def afterwards(s, values) -> list:
    """What adds, discards and pops of ``values`` give on ``s``, in order."""
    out = []
    for k, v in enumerate(values):
        if k % 3 == 0:
            s.add(v)
        elif k % 3 == 1:
            s.discard(v)
        elif s:
            out.append(s.pop())
        out.append(list(s))
    return out


def same(f, *args):
    got, want = jitted(f, fallback=False)(*args), f(*args)
    assert shape(got) == shape(want)
    for a, b in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        if isinstance(a, set):
            more = [e // 3 for e in list(b)[:5]] + [type(e)(1) for e in b][:2]
            more += list(b)[:4] * 2
            assert repr(afterwards(a, more)) == repr(afterwards(b, more))
    return got


# ------------------------------------------------------------------ kernels
def built(codes, values):
    """Adds (0), discards (1), pops (2) and clears (3) of NumPy scalars."""
    s = set()
    s.add(values[0])
    for i in range(len(codes)):
        c = codes[i]
        if c == 0:
            s.add(values[i])
        elif c == 1:
            s.discard(values[i])
        elif c == 2:
            if s:
                s.pop()
        elif c == 3:
            s.clear()
    return s


def built_python(codes, values):
    """The same with Python ints or floats, returned in a tuple."""
    s = set()
    t = set()
    for i in range(len(codes)):
        c = codes[i]
        v = values[i].item()
        t.add(v)
        if c == 0:
            s.add(v)
        elif c == 1:
            s.discard(v)
        elif c == 2:
            if s:
                s.pop()
        elif c == 3:
            s.clear()
    return len(s), s, t


def twice(x):
    s = set(x)
    return s, len(s), s


def operators(x, y):
    a = set(x)
    b = set(y)
    a.discard(x[0])
    return a - b, a | b, a & b, a ^ b


def constants(x):
    s = {1, -1, 2**62, 7}
    for v in x:
        s.add(int(v))
    return s


def either(x, c):
    a = set(x)
    b = set(x[1:])
    if c:
        return a
    return b


def ints_or_floats(x, c):
    a = set(x)
    b = {v * 0.5 for v in x}
    if c:
        return a
    return b


def frozen(x):
    f = frozenset(x)
    g = frozenset(x[::3])
    s = set(x[:3])
    s.discard(x[0])
    k = frozenset(s)
    n = 0
    for v in f:
        if v in g:
            n += 1
    return frozenset({v % 5 for v in x}), f, g, k, n, len(f), sorted(f)


def frozen_display(x):
    g = frozenset({1, 2, 3, -1, 2**62})
    return g, frozenset({1, 2, 3}), len(x)


def made_in_return(x):
    return {v % 7 for v in x}, set(x[::2]), x[0]


def frozen_add(x):
    f = frozenset(x)
    f.add(3)
    return f


def frozen_operand(x):
    f = frozenset(x)
    t = set(x)
    return f | t


def frozen_of_frozen(x):
    f = frozenset(x)
    return frozenset(f)


def makes(x):
    s = set(x)
    return s


def calls_maker(x):
    return len(makes(x))


def returned_alone(x):
    s = set()
    for v in x:
        s.add(v)
    return s


# ------------------------------------------------------------------ tests
I64 = [np.array([3, 1, 3, -1, -2, 7, 1, 8, 15, 23, 31, 2**40, -2**63, 2**63 - 1, 0],
                np.int64), np.arange(100, dtype=np.int64)[::-3],
       np.arange(-40, 400, 7, dtype=np.int64)]
F64 = [np.array([0.0, -0.0, 1.5, 1.0, 2.0**61, -2.0**63, np.inf, -np.inf, 1e-300,
                 0.1, -1.0, -0.5]), np.linspace(-3, 3, 37)[::-1]]
OTHER = [np.arange(40, dtype=np.int32)[::-1] - 20, np.array([5, 250, 5, 0, 17], np.uint8),
         np.array([0.1, 0.7, -2.5, 1e30, 0.1, -0.0], np.float32)]


@pytest.mark.parametrize("x", I64 + F64 + OTHER)
def test_returned(x):
    same(twice, x)
    got = jitted(twice, fallback=False)(x)
    assert got[0] is got[2]                 # (one set, as the interpreter's)
    same(operators, x, x[::2])
    same(either, x, True)
    same(either, x, False)


def test_sequences():
    rng = np.random.default_rng(11)
    for n in (1, 6, 40, 300, 2000):
        codes = rng.choice(4, n, p=[0.6, 0.2, 0.18, 0.02])
        for values in (rng.integers(-50, 200, n), rng.integers(-2**63, 2**63 - 1, n),
                       rng.integers(-30, 30, n).astype(np.float64) / 4):
            same(built, codes, values)
            same(built_python, codes, values)


@pytest.mark.parametrize("x", I64 + F64 + OTHER)
def test_frozensets(x):
    x = x[np.isfinite(x.astype(np.float64))]    # (inf % 5: a NaN, hashed by identity)
    same(frozen, x)
    same(made_in_return, x)


def test_displays_and_python_kinds():
    same(constants, np.arange(5))
    same(frozen_display, np.arange(5))
    same(constants, np.arange(-3, 30, 2))
    got = jitted(built_python, fallback=False)(np.zeros(3, np.int64), np.arange(3))
    assert all(type(v) is int for v in got[1] | got[2])


_value = st.one_of(st.integers(-40, 300), st.integers(-2**63, 2**63 - 1),
                   st.sampled_from([-1, -2, 2**61 - 1, 2**61, -2**61 + 1, 0, 8, 16]))
_float = st.one_of(st.floats(allow_nan=False), st.integers(-40, 300).map(float),
                   st.sampled_from([0.0, -0.0, 2.0**61, 0.5, -1.0, -2.0, 8.0]))


@settings(max_examples=60, deadline=None)
@given(st.one_of(
    st.lists(st.tuples(st.integers(0, 3), _value), min_size=1, max_size=150),
    st.lists(st.tuples(st.integers(0, 3), _float), min_size=1, max_size=150)))
def test_hypothesis(seq):
    codes = np.array([c for c, _ in seq], np.int64)
    values = np.array([v for _, v in seq])
    same(built, codes, values)
    same(built_python, codes, values)


def test_fallbacks(monkeypatch):
    x = np.arange(5)
    check_fallback(ints_or_floats, (x, True), "returns both")
    check_fallback(calls_maker, (x,), "returns a set")
    check_fallback(frozen_add, (x,), "no method")
    check_fallback(frozen_operand, (x,), "in a set operation")
    check_fallback(frozen_of_frozen, (x,), "the same object")
    monkeypatch.setitem(host_sets._state, "writable", False)
    check_fallback(returned_alone, (x,), "compiled table")
    monkeypatch.undo()
    assert repr(jit(returned_alone, fallback=False)(x)) == repr(returned_alone(x))
