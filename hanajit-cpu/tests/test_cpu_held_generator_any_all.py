"""``any``/``all`` of a generator object or iterator held in a name, and of a
generator expression over one (``frontend/held_generators.py``), against the
interpreter: each asks for items only until one decides, so what is left goes on
in a later ``next`` or ``for``, and a generator's effects (here, items it
records) happen as often as in CPython; the expression's names are its own (a
local of the same name keeps its value); ``if`` clauses; iterators of sequences;
exceptions from the generator; and what still falls back."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import check_call, check_fallback


_JITTED = {}


def check(fn, *args):
    # (one jitted function per kernel: each hypothesis example compiled it again)
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn, fallback=False)
    check_call(fn, _JITTED[fn], *args)


def items(a, seen):
    for x in a:
        seen.append(x)
        yield x


def halves(a):
    for x in a:
        if x == 7:
            raise ValueError("seven")
        yield x * 0.5


def any_then_rest(a, t):
    seen = []
    it = items(a, seen)
    found = any(x > t for x in it)
    rest = 0
    for x in it:
        rest += x
    return found, rest, len(seen)


def all_then_next(a, t):
    seen = []
    it = items(a, seen)
    ok = all(x <= t for x in it)
    return ok, next(it, -1), len(seen)


def plain_any_all(a):
    it = items(a, [])
    first = any(it)
    return first, all(it), next(it, 99)


def own_names(a, t):
    x = -5
    it = iter(a)
    found = any(x > t for x in it)
    return found, x


def with_conditions(a, t):
    it = items(a, [])
    odd_big = any(x > t for x in it if x % 2 if x != 3)
    return odd_big, list(it)


def in_an_expression(a, t):
    it = items(a, [])
    r = 1 + (10 if all(x != t for x in it) else 20)
    return r, sum(it)


def floats(a):
    it = halves(a)
    return any(y > 2.0 for y in it), all(y >= 0.0 for y in it)


def on_a_pair(a):
    it = items(a, [])
    return any(p > q for p, q in zip(it, it))


ARRAYS = st.lists(st.integers(-5, 12), max_size=10).map(lambda v: np.array(v, np.int64))


@settings(max_examples=40, deadline=None)
@given(ARRAYS, st.integers(-6, 12))
def test_stops_where_cpython_stops(a, t):
    check(any_then_rest, a, t)
    check(all_then_next, a, t)
    check(own_names, a, t)
    check(with_conditions, a, t)
    check(in_an_expression, a, t)


@settings(max_examples=25, deadline=None)
@given(ARRAYS)
def test_plain_and_raising(a):
    check(plain_any_all, a)
    check(floats, a)               # ValueError from the generator where a holds 7


def nested_scope(a):
    it = iter(a)
    return any((lambda y: y > 1)(x) for x in it)


def test_what_falls_back():
    a = np.arange(3)
    check_fallback(on_a_pair, (a,), "zipped with itself")
    check_fallback(nested_scope, (a,), "lambda or another comprehension")
