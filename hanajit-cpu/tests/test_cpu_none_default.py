"""A parameter defaulting to None that the body gives a value (``if y is None:
y = 2``), against the interpreter: called with and without it, numbers and arrays,
``is not None`` with an else, reads of the None before the assignment; where
the None and a value meet after a branch that depends on values, the function
falls back naming the variable."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.jitted import jitted
from hanajit.testing.reference import same_value


def none_or(x, y=None):
    if y is None:
        y = 2
    return x + y


def none_else(x, y=None):
    if y is not None:
        z = y * 2
    else:
        y = 1.5
        z = y
    return x + z


def out_array(a, out=None):
    if out is None:
        out = np.empty_like(a)
    out[:] = a * 2
    return out


def read_before(x, y=None):
    was_none = y is None
    if y is None:
        y = x * 3
    return y, was_none


def two_defaults(x, lo=None, hi=None):
    if lo is None:
        lo = 0.0
    if hi is None:
        hi = lo + 1.0
    return min(max(x, lo), hi)


def assigned_in_a_loop(x, y=None):
    for i in range(3):
        if y is None:
            y = i
    return y


def assigned_on_a_branch(x, y=None):
    if x > 0:
        y = 1
    return y


CALLS = [
    (none_or, (1.0,)), (none_or, (1.0, 3)), (none_or, (2, 2.5)), (none_or, (7,)),
    (none_else, (1.0,)), (none_else, (1.0, 4)),
    (read_before, (2,)), (read_before, (2, 5)),
    (two_defaults, (0.5,)), (two_defaults, (3.0,)), (two_defaults, (3.0, 1.0)),
    (two_defaults, (3.0, None, 10.0)), (two_defaults, (-3.0, -1.0, 10.0)),
]


@pytest.mark.parametrize("fn,args", CALLS, ids=[f"{f.__name__}{a}" for f, a in CALLS])
def test_matches_the_interpreter(fn, args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = jitted(fn, fallback=False)(*args)
    assert same_value(got, fn(*args)), (got, fn(*args))


def test_keyword_and_array_out():
    a = np.arange(4.0)
    np.testing.assert_array_equal(jitted(out_array, fallback=False)(a), out_array(a))
    out = np.zeros(4)
    got = jitted(out_array, fallback=False)(a, out)
    assert got is out or np.shares_memory(got, out)
    np.testing.assert_array_equal(out, a * 2)
    assert same_value(jitted(none_or, fallback=False)(1.0, y=None), 3.0)
    assert same_value(jitted(none_or, fallback=False)(1.0, y=4), 5.0)


@pytest.mark.parametrize("fn", [assigned_in_a_loop, assigned_on_a_branch])
def test_falls_back_naming_the_variable(fn):
    with pytest.warns(HanaJitFallbackWarning, match="'y' holds both none and int64"):
        assert jit(fn)(1) == fn(1)


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False)),
       st.one_of(st.none(), st.integers(-100, 100), st.floats(allow_nan=False)))
def test_numbers(x, y):
    got = jitted(none_or, fallback=False)(x, y)
    assert same_value(got, none_or(x, y)), (x, y, got)
