"""``min``/``max`` of two ints of one type lower to the integer min/max primitive
(``smin smax umin umax``): the value and the type are CPython's, for Python ints
and every NumPy integer scalar, at the extremes of each type."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.ir import nodes as N
from hypothesis import given, settings
from hypothesis import strategies as st

INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
             np.uint64]


def lo_hi(a, b):
    return min(a, b), max(a, b), min(b, a), max(b, a)


fast = jit(lo_hi)


def _values(t):
    info = np.iinfo(t)
    return st.integers(int(info.min), int(info.max)).map(t) | st.sampled_from(
        [t(info.min), t(info.max), t(0), t(1)])


@pytest.mark.parametrize("t", INT_TYPES, ids=lambda t: t.__name__)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_numpy_integer_min_max_match_cpython(t, data):
    a, b = data.draw(_values(t)), data.draw(_values(t))
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = fast(a, b)
    want = lo_hi(a, b)
    assert [type(x) for x in got] == [type(x) for x in want]
    assert got == want


@settings(max_examples=40, deadline=None)
@given(st.integers(-2**63, 2**63 - 1), st.integers(-2**63, 2**63 - 1))
def test_python_int_min_max_match_cpython(a, b):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = fast(a, b)
    assert got == lo_hi(a, b) and all(type(x) is int for x in got)


def test_two_ints_become_the_min_max_primitive():
    g = jit(lo_hi)          # (its own: ir_module() is the first signature compiled)
    g(3, 4)
    fn = g.ir_module().functions[g.ir_module().entry]
    names = {e.name for s in N.walk_stmts(fn.body) for x in N.stmt_exprs(s)
             if x is not None for e in N.walk_expr(x) if isinstance(e, N.Intrinsic)}
    assert {"smin", "smax"} <= names


def two(a, b):
    return max(a, b), min(a, b)


def three(a, b, c):
    return max(a, b, c)


@pytest.mark.parametrize("a, b", [
    (2**53 + 1, 1.0), (1.0, 2**53 + 1), (-(2**53) - 1, 1.0), (2**63 - 1, -0.5),
    (np.uint64(2**64 - 1), np.int64(-1)), (np.int64(-1), np.uint64(2**63 + 1)),
    (np.int64(2**53 + 1), 1.0), (5, 2.5), (2**53, 1.0)])
def test_an_int_the_result_type_cannot_hold_is_the_interpreters(a, b):
    """The result has one type (float64 for an int with a float, or an int64
    with a uint64); where the winning int does not fit it exactly, the call
    runs in the interpreter, which returns the int itself -- never a rounded
    value."""
    with warnings.catch_warnings():     # (a result of either kind falls back)
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        got, want = jit(two)(a, b), two(a, b)
        assert got == want and all(int(g) == int(w) for g, w in zip(got, want))
        assert jit(three)(1.0, a, b) == three(1.0, a, b)
