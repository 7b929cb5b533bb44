"""Starred unpacking of tuples (``frontend/starred_targets.py``,
``lib/python/starred_unpack.py``): ``first, *rest = t``, ``*init, last = t``,
``a, *mid, b = t`` with the starred list only read, against the interpreter;
a returned starred list, an array, and a tuple too short fall back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.compare import assert_same_value as same, check_call


def check(fn, compiled, *args):
    check_call(fn, compiled, *args)


def head_tail(t):
    first, *rest = t
    total = sum(rest)
    return first, len(rest), total, rest[0]


def init_last(t):
    *init, last = t
    s = 0
    for v in init:
        s += v
    return s, last, len(init)


def middle(t):
    a, *mid, b = t
    return a + b, len(mid), 2 in mid


def as_array(t):
    a, *mid, b = t
    return np.array(mid), np.asarray(mid, dtype=np.float32), mid[-1]


def indexed(t, i):
    first, *rest = t
    return rest[i]


def list_target(a):
    [p, *q] = (a[0], 1, 2.5)
    return p, q[1], max(q)


def test_tuples():
    c = jit(head_tail, fallback=False)
    for t in ((1, 2, 3), (1.5, 2.0, 3.0), (-1, 2**62, 2**62)):     # (overflow)
        check(head_tail, c, t)
    c = jit(init_last, fallback=False)
    for t in ((1, 2, 3, 4), (7, 8)):
        check(init_last, c, t)
    c = jit(middle, fallback=False)
    for t in ((1, 2, 3, 4), (1, 2), (1.0, 2.0, -0.0)):
        check(middle, c, t)
    c = jit(as_array, fallback=False)
    for t in ((1, 2, 3, 4), (np.int8(1), np.int8(5), np.int8(-3))):
        check(as_array, c, t)
    c = jit(indexed, fallback=False)
    for i in (0, 1, -2, 2, -3):
        check(indexed, c, (1.0, 2.0, 3.0), i)        # IndexError: list index out of range
    c = jit(list_target, fallback=False)
    check(list_target, c, np.array([3.0]))
    check(list_target, c, np.array([3], np.uint8))


def returned(t):
    a, *mid = t
    return mid


def of_array(a):
    x, *r = a
    return x, r[0]


@pytest.mark.parametrize("fn, arg", [(returned, (1, 2, 3)), (of_array, np.arange(3)),
                                     (middle, (1,))], ids=["returned", "array", "short"])
def test_falls_back(fn, arg):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            want = fn(arg)
        except ValueError:
            with pytest.raises(ValueError):
                jit(fn)(arg)
        else:
            same(jit(fn)(arg), want)
    assert any("starred" in str(x.message) or "unpack" in str(x.message) for x in w)


def summed_in_the_return(a):
    first, *rest = (a[0], a[1], a[2], a[0])
    return first, rest[0], len(rest), sum(rest)


def test_sum_of_the_starred_list_after_other_reads():
    # fell back: "sum() of a sequence: evaluated after other work ... that could fail"
    c = jit(summed_in_the_return, fallback=False)
    for a in (np.array([3, 1, 9]), np.array([1.5, -0.0, 2.0])):
        check(summed_in_the_return, c, a)
