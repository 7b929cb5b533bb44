"""Generator expressions held in a name, looped over by ``for``, given to
``list`` or iterated by another comprehension (``frontend/genexp_generators.py``:
local generator functions) against the interpreter: the first iterable
evaluated where the expression is (a name rebound afterwards does not change
it), the rest as items are asked for (names read then: late binding), ``if``
clauses, nested ``for``s, ``range``/``enumerate``/``zip`` as the first
iterable, ``next``/``sum``/``any``/``list`` of a held one going on where the
last left it; and what still falls back."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import check_call, check_fallback


_JITTED: dict = {}


def check(fn, *args):
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn, fallback=False)
    check_call(fn, _JITTED[fn], *args)


def held_then_consumed(a, t):
    g = (x * t for x in a if x > 0)
    first = next(g, -1)
    t = 100                         # read as the rest is asked for
    return first, sum(g)


def first_iterable_early(a, b):
    g = (x + 1 for x in a)
    a = b                           # g goes on over the first a
    return list(g), len(a)


def looped_over(a):
    s = 0.0
    for v in (x * y for x in a for y in range(3) if y != 1):
        s += v
    return s


def ranged(n, m):
    g = (i * m for i in range(1, n, 2))
    return all(v < 20 for v in g), list(g)


def enumerated(a):
    g = (i * x for i, x in enumerate(a))
    if len(a) == 0:
        return 0
    return max(g)


def zipped(a, b):
    return list((x - y for x, y in zip(a, b)))


def nested_comprehension(a, t):
    return [v * 2 for v in (x for x in a if x < t)]


def in_a_loop(a):
    total = 0
    for k in range(3):
        g = (x + k for x in a)
        total += sum(g)
    return total


INTS = st.lists(st.integers(-6, 9), max_size=8).map(lambda v: np.array(v, np.int64))


@settings(max_examples=40, deadline=None)
@given(INTS, INTS, st.integers(-3, 6))
def test_matches_the_interpreter(a, b, t):
    check(held_then_consumed, a, t)
    check(first_iterable_early, a, b)
    check(looped_over, a * 1.0)
    check(enumerated, a)
    check(zipped, a, b)
    check(nested_comprehension, a, t)
    check(in_a_loop, a)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 12), st.integers(-4, 4))
def test_ranges(n, m):
    check(ranged, n, m)


def walrus_inside(a):
    g = ((y := x) for x in a)
    s = sum(g)
    return s + y


def test_what_falls_back():
    check_fallback(walrus_inside, (np.arange(3),), "generator expression")
