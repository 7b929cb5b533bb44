"""``len(range(a, b, s))`` and ``range(...)[k]`` as values, and ``range`` objects
held in a name (``frontend/range_objects.py``, ``lib/python/range_values.py``)
against the interpreter: CPython's length (OverflowError past ``sys.maxsize``),
ValueError for a zero step where the range is made, ``r[k]`` with negative
``k`` and IndexError, loops over the name (also in ``zip``/``enumerate``/
``reversed`` and comprehensions)."""
from __future__ import annotations

import warnings

import numpy as np

from hanajit import jit
from hanajit.testing.compare import check_call


def check(fn, compiled, *args):
    check_call(fn, compiled, *args)


def length(a, b, s):
    return len(range(a, b, s)), len(range(a, b)), len(range(b))


def item(a, b, s, k):
    return range(a, b, s)[k]


def held(n):
    r = range(2, n, 3)
    s = 0
    for i in r:
        s += i
    return s, len(r)


def held_index(a, b, s, k):
    r = range(a, b, s)
    return r[k], len(r)


def zero_step(n):
    r = range(0, n, 0)      # noqa: F841 - raises where it is made
    return 1


def loops(a):
    r = range(len(a))
    out = np.float64(0.0)
    for i, v in zip(r, a):
        out += i * v
    for i, j in enumerate(r):
        out += i * j
    return out, sum(r), [i * 2 for i in r], [x for x in reversed(r)]


def rebound(n):
    r = range(n)
    if n > 3:
        r = range(1, n, 2)
    return len(r), r[0], r[-1]


BIG = 2**63 - 1
SMALL = -2**63
ARGS = [(0, 10, 3), (10, 0, -3), (5, 5, 1), (0, 10, -1), (-5, 5, 2), (0, 10, 0), (3, 4, 7),
        (SMALL, BIG, 1), (BIG, SMALL, -1), (BIG, SMALL, -2**62), (SMALL, 0, 1), (SMALL, -1, 1),
        (-7, 7, BIG), (7, -7, SMALL)]


def test_length():
    c = jit(length, fallback=False)
    for args in ARGS:
        check(length, c, *args)


def test_item():
    c, h = jit(item, fallback=False), jit(held_index, fallback=False)
    for args in ARGS:
        for k in (0, 1, 3, -1, -4, 5, BIG, SMALL):
            check(item, c, *args, k)
            check(held_index, h, *args, k)


def test_held():
    c = jit(held, fallback=False)
    for n in (0, 2, 3, 11, 100):
        check(held, c, n)
    c = jit(zero_step, fallback=False)
    check(zero_step, c, 5)
    c = jit(loops, fallback=False)
    for a in (np.array([1.0, 2.0, 3.0]), np.zeros(0), np.arange(5)):
        check(loops, c, a)
    c = jit(rebound, fallback=False)
    for n in (1, 3, 8, 0):
        check(rebound, c, n)


def returned(n):
    r = range(n)
    return r


def test_returned_falls_back():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert jit(returned)(4) == range(4)
    assert w


def nested_iterators(n):
    r = range(2, n, 3)
    s = 0
    for i, v in enumerate(reversed(r)):
        s += i * v
    for i, v in zip(r, reversed(r)):
        s += i - v
    t = sum(i * v for i, (j, v) in enumerate(zip(r, reversed(r))))
    return s, t, len(r)


def test_held_in_nested_iterators():
    # enumerate(reversed(r)), zip(r, reversed(r)) fell back ("'range' is not supported")
    c = jit(nested_iterators, fallback=False)
    for n in (0, 3, 10, 31):
        check(nested_iterators, c, n)


def measured_then_summed(n):
    r = range(1, n, 2)
    return len(r), r[-1], sum(r)


def test_sum_after_other_reads_in_its_statement():
    # fell back: "sum() of a sequence: evaluated after other work ... that could fail"
    c = jit(measured_then_summed, fallback=False)
    for n in (2, 3, 10):
        check(measured_then_summed, c, n)
