"""``min(seq, key=f)``, ``max(seq, key=f)`` and ``sorted(seq, key=f)``
(``frontend/key_functions.py``, ``frontend/sorted_lists.py``,
``lib/python/key_functions.py``) against the interpreter: the same item (the
first of equal keys; a stable sort), of the same type, NaN keys compared as
CPython compares them, ``default=``, and CPython's ValueError for an empty
sequence; a tuple, a ``range``, a 1-D array, a list display, ``zip`` and
``enumerate``; a lambda, a jitted function, a plain function and ``abs``."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.compare import assert_same_value as same, check_call


def check(fn, compiled, *args):
    check_call(fn, compiled, *args)


def square(v):
    return v * v


@jit
def jitted_neg(v):
    return -v


def min_lambda(a):
    return min(a, key=lambda v: (v - 1.5) * (v - 1.5))


def max_abs(a):
    return max(a, key=abs)


def min_plain(a):
    return min(a, key=square)


def max_jitted(a):
    return max(a, key=jitted_neg)


def max_identity(a):
    return max(a, key=lambda v: v), min(a, key=lambda v: v)


def min_default(a):
    return min(a, key=abs, default=-1.0)


def argmax_enumerate(a):
    return max(enumerate(a), key=lambda p: p[1])


def argmin_range(a):
    return min(range(len(a)), key=lambda i: a[i])


def max_zip(a, b):
    return max(zip(a, b), key=lambda p: p[0] * p[1])


def display(x):
    return min([3, -1, 2, -3, 1], key=lambda v: v * v + x), max((4, -4, 2), key=abs)


def several(x, y, z):
    return min(x, y, z, key=abs), max(x, y, key=lambda v: v * v)


def two_in_one(a):
    return min(a, key=abs), max(a, key=abs)


ARRAYS = [np.array([3.0, -1.0, 2.0, -3.0, 1.0, 1.5]), np.array([1.0, np.nan, 0.0, 2.0]),
          np.array([np.nan, 1.0, -4.0]), np.array([-0.0, 0.0, 1.0]), np.zeros(0),
          np.array([2, -2, 5, -5, 0])]
MORE = [np.array([7, 1, 7, 1], np.int32), np.array([1.5, -2.5, 2.5], np.float32),
        np.arange(10.0)[::-3]]


@pytest.mark.parametrize("fn", [min_lambda, max_abs, min_plain, max_jitted, max_identity,
                                min_default, argmax_enumerate, argmin_range, two_in_one],
                         ids=lambda f: f.__name__)
def test_arrays(fn):
    compiled = jit(fn, fallback=False)
    for a in ARRAYS + (MORE if fn in (max_abs, argmax_enumerate) else []):
        check(fn, compiled, a)


def test_tuples_and_zip():
    c = jit(min_lambda, fallback=False)
    for t in ((3, -1, 2), (1.0, 2.0, float("nan")), (2.5, 0.5, 2.5, 0.5)):
        check(min_lambda, c, t)
    c = jit(max_zip, fallback=False)
    check(max_zip, c, np.array([1, 2, 3]), np.array([3.0, 2.0, 1.0]))
    check(max_zip, c, np.array([1, 2]), np.array([2.0, 1.0, 5.0]))
    c = jit(display, fallback=False)
    check(display, c, 0)
    c = jit(several, fallback=False)
    for args in ((-2, 1, 3), (2.5, -2.5, 1.0), (np.float32(1), np.float32(-2), np.float32(0))):
        check(several, c, *args)


def test_items_of_different_types_fall_back():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        same(jit(several)(-2, 3.5, 1), several(-2, 3.5, 1))      # the int -2
    assert any("different types" in str(x.message) for x in w)


def sorted_abs(a):
    return sorted(a, key=abs)


def sorted_reverse(a):
    return sorted(a, key=lambda v: v % 3, reverse=True)


def sorted_indices(a):
    return sorted(range(len(a)), key=lambda i: a[i])


def sorted_loop(a):
    s = 0.0
    for v in sorted(a, key=square):
        s = s * 2 + v
    return s


def sorted_named(a):
    xs = sorted(a, key=jitted_neg)
    return xs


@pytest.mark.parametrize("fn", [sorted_abs, sorted_reverse, sorted_indices, sorted_loop,
                                sorted_named], ids=lambda f: f.__name__)
def test_sorted(fn):
    compiled = jit(fn, fallback=False)
    for a in ARRAYS + (MORE[:1] if fn is sorted_abs else []):
        if fn is sorted_loop and not a.size:
            continue    # (an empty loop leaves s = 0.0 a Python float: the compiled
        check(fn, compiled, a)      # local is np.float64 then, as for any loop)
    check(fn, compiled, (3, -1, 2, -3) if fn is not sorted_indices else np.array([2, 1]))
