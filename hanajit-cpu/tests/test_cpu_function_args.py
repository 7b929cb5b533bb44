"""A function passed as an argument and called, against the interpreter: jitted and
plain Python functions and lambdas, one specialisation per function (its identity
is in the dispatch key), passed on to a jitted callee, on arrays, exceptions raised
inside the callee, defaults; a callee whose source does not compile and a function
value returned make the caller fall back with the reason."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.reference import same_value
from hanajit.testing.sourcefile import load_sibling

fc = load_sibling(__file__, "function_arg_cases.py", "hanajit_function_arg_cases")


def _name(v):
    """A test id without addresses (xdist workers must collect the same ids)."""
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_name, v)) + ")"
    name = getattr(v, "__qualname__", None) or getattr(getattr(v, "py_func", None),
                                                      "__qualname__", None)
    return name or repr(v)


def _check(fn, *args):
    compiled = jit(fn)
    try:
        want = fn(*args)
    except Exception as exc:              # noqa: BLE001 - same exception, same words
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            with pytest.raises(type(exc)) as info:
                compiled(*args)
        assert str(info.value) == str(exc)
        return compiled
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = compiled(*args)
    assert same_value(got, want), (got, want)
    return compiled


@pytest.mark.parametrize("fn,args", [
    (fc.apply, (fc.tripled, 2.0)), (fc.apply, (fc.minus_one, 2.0)),
    (fc.apply, (fc.minus_one, 7)), (fc.apply, (fc.lam_add, 1)),
    (fc.apply, (lambda x: x * 4, 2)),
    (fc.twice, (fc.minus_one, 5)), (fc.twice, (fc.tripled, 1.5)),
    (fc.through_a_jitted_callee, (fc.tripled, 2)),
    (fc.through_a_jitted_callee, (fc.minus_one, 2.5)),
    (fc.two_functions, (fc.tripled, fc.minus_one, 4)),
    (fc.apply, (fc.divides, 0)), (fc.apply, (fc.divides, 3)),
    (fc.default_function, (3,)), (fc.default_function, (3, fc.tripled)),
    (fc.unused, (fc.no_source_dict, 2)),
    (fc.through_index, (fc.indexing, np.arange(4.0))),
    (fc.passes_a_global, (3,)), (fc.passes_a_global, (0.5,)),
], ids=lambda v: _name(v))
def test_matches_the_interpreter(fn, args):
    _check(fn, *args)


def test_arrays():
    _check(fc.on_array, fc.squares, np.arange(5.0))
    _check(fc.keeps_order, fc.minus_one, np.array([1.5, 2.5]))


def test_one_specialisation_per_function():
    compiled = jit(fc.apply)
    assert compiled(fc.tripled, 2) == 6
    assert compiled(fc.minus_one, 2) == 1
    assert compiled(fc.tripled, 3) == 9
    assert len(compiled._compiled) == 2


def test_a_callee_that_does_not_compile_names_its_reason():
    with pytest.warns(HanaJitFallbackWarning, match="dict display"):
        assert jit(fc.apply)(fc.no_source_dict, 3) == 1


@pytest.mark.parametrize("args", [(fc.minus_one,), (fc.tripled,)])
def test_returning_a_function_falls_back(args):
    with pytest.warns(HanaJitFallbackWarning, match="returns a function value"):
        assert jit(fc.returns_it)(*args) is args[0]


def test_calling_a_number_falls_back():
    with pytest.warns(HanaJitFallbackWarning, match="not a function"):
        with pytest.raises(TypeError):
            jit(fc.calls_a_number)(3, 1)


def test_builtin_functions_are_not_arguments_yet():
    with pytest.warns(HanaJitFallbackWarning, match="builtin_function_or_method"):
        assert jit(fc.apply)(abs, -2) == 2
