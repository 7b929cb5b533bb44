"""Nested ``def``s at the top level of a function body, outlined as lambdas are
(``frontend/lambdas.py``): against the interpreter -- enclosing locals read at
each call, recursion, a nested function calling an earlier one, its own locals
shadowing the caller's, exceptions, arrays, passed on as a value when it reads
no enclosing local; the rest falls back naming the construct."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.reference import same_value
from hanajit.testing.sourcefile import load_sibling

nc = load_sibling(__file__, "nested_def_cases.py", "hanajit_nested_def_cases")


@pytest.mark.parametrize("fn,args", [
    (nc.clamped_sum, (np.arange(5.0), 5)), (nc.recursive, (6,)),
    (nc.statements, (np.array([1.0, 2.0, 3.0]),)), (nc.reads_at_call, (1.5,)),
    (nc.calls_earlier, (4,)), (nc.shadows, (3,)), (nc.raises, (4.0,)), (nc.raises, (0,)),
    (nc.on_arrays, (np.array([3.0, 4.0]),)), (nc.passed_on, (2.0,)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_matches_the_interpreter(fn, args):
    compiled = jit(fn, fallback=False)
    try:
        want = fn(*args)
    except Exception as exc:              # noqa: BLE001 - same exception, same words
        with pytest.raises(type(exc), match=str(exc)):
            compiled(*args)
        return
    got = compiled(*args)
    if isinstance(want, np.ndarray):
        assert_same_bits(got, want)
    else:
        assert same_value(got, want), (got, want)


@pytest.mark.parametrize("fn", [nc.closure_passed, nc.with_default, nc.in_a_branch,
                                nc.decorated], ids=lambda f: f.__name__)
def test_the_rest_falls_back_naming_the_nested_function(fn):
    with pytest.warns(HanaJitFallbackWarning, match="nested function definition"):
        assert jit(fn)(2) == fn(2)


def test_a_helper_result_of_either_kind_returned_falls_back():
    """sq_sum() gives a Python float for an empty array and an np.float64 else:
    only the entry boxes per call, so a returned sum of two falls back, naming
    the helper (it came back as np.float64(0.0) where the interpreter gives 0.0)."""
    from hanajit.testing.compare import check_fallback
    for a in (np.zeros(0), np.array([1.0, 2.0, 3.0])):
        check_fallback(nc.either_kind_helper, (a,), "sq_sum")
