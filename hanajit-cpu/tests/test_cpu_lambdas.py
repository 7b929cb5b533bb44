"""Lambdas against the interpreter: ``jit(lambda ...)`` (found in the file by its
line and instruction positions, several on one line), lambdas from a closure,
local lambdas called (outlined, reading enclosing locals at the call as closures
do, calling earlier ones, raising), and the ones that fall back naming the
lambda."""
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
from hanajit.testing.sourcefile import load_sibling

lc = load_sibling(__file__, "lambda_cases.py", "hanajit_lambda_cases")


def _check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:              # noqa: BLE001 - same exception, same words
        with pytest.raises(type(exc)) as info:
            jitted(fn, fallback=False)(*args)
        assert str(info.value) == str(exc)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = jitted(fn, fallback=False)(*args)
    assert same_value(got, want), (got, want)


@pytest.mark.parametrize("fn,args", [
    (lc.inc, (2,)), (lc.inc, (2.5,)), (lc.two, (3,)), (lc.three, (3,)),
    (lc.pair[0], (1.0,)), (lc.pair[1], (1.0,)), (lc.make_adder(5), (2,)),
    (lc.make_adder(0.5), (2,)), (lc.local_call, (3,)), (lc.local_call, (1.5,)),
    (lc.late_binding, (1.0, 2)), (lc.chained, (5,)), (lc.raising, (4,)),
    (lc.raising, (0,)), (lc.two_same, (7,)),
    (lc.lambda_as_argument, (3,)), (lc.lambda_as_argument, (0.25,)),
    (lc.bound_lambda_passed_on, (2,)),
], ids=lambda v: getattr(v, "__qualname__", None) or repr(v))
def test_matches_the_interpreter(fn, args):
    _check(fn, *args)


def test_lambdas_over_arrays():
    a = np.arange(5.0)
    _check(lc.on_arrays, a)
    _check(lc.scaled, a, 3)
    got = jitted(lc.scaled, fallback=False)(a, 2.5)
    assert same_value(got, lc.scaled(a, 2.5))


def test_a_lambda_stored_under_another_name():
    _check(lc.passed_on, 3)


@pytest.mark.parametrize("fn,args", [(lc.in_a_loop, (3,)),
                                     (lc.closure_passed_on, (1, 2)),
                                     (lc.lambda_reading_a_local_passed, (1, 2))],
                         ids=["in_a_loop", "closure_passed_on", "reading_a_local"])
def test_other_uses_fall_back_naming_the_lambda(fn, args):
    # (a lambda passed on that reads the caller's locals is a closure: it has a
    # run-time form compiled code does not make)
    with pytest.warns(HanaJitFallbackWarning, match="lambda"):
        assert jit(fn)(*args) == fn(*args)


def test_a_lambda_without_a_file_falls_back():
    f = eval("lambda x: x + 1")
    with pytest.warns(HanaJitFallbackWarning, match="source code is not available"):
        assert jit(f)(1) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(-10**9, 10**9), st.integers(-1000, 1000))
def test_late_binding_integers(x, k):
    _check(lc.late_binding, x, k)
