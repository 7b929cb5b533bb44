"""Plain Python functions (not decorated) called by name from a jitted function are
compiled for the call as jitted callees are: against the interpreter, with
keywords and defaults, recursion and mutual recursion, arrays, NumPy scalars,
exceptions raised inside; a callee that does not compile makes the caller fall
back naming its reason; the standard library's and installed packages' functions
are not compiled this way; editing the callee invalidates the disk cache."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.frontend.source import user_function
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.reference import same_value
from hanajit.testing.sourcefile import load_sibling

pc = load_sibling(__file__, "plain_callee_cases.py", "hanajit_plain_callee_cases")


def _check(fn, *args):
    compiled = jit(fn, fallback=False)
    try:
        want = fn(*args)
    except Exception as exc:              # noqa: BLE001 - same exception, same words
        with pytest.raises(type(exc)) as info:
            compiled(*args)
        assert str(info.value) == str(exc)
        return
    got = compiled(*args)
    if isinstance(want, np.ndarray):
        assert_same_bits(got, want)
    else:
        assert same_value(got, want), (got, want)


@pytest.mark.parametrize("fn,args", [
    (pc.sum_squares, (np.arange(6.0),)), (pc.sum_squares, (np.arange(6, dtype=np.int32),)),
    (pc.keywords, (2.5,)), (pc.keywords, (3,)),
    (pc.fib_of, (15,)), (pc.parity, (7,)), (pc.parity, (0,)),
    (pc.smoothed, (np.array([1.0, -2.0, 4.0, 0.5, 3.0]),)),
    (pc.normalise_twice, (np.array([1.0, 2.0, 4.0, 8.0]),)),
    (pc.inverse_of, (4.0,)), (pc.inverse_of, (0.0,)), (pc.inverse_of, (0,)),
    (pc.narrow, (np.array([0.1, 0.2, 0.3], np.float32),)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_matches_the_interpreter(fn, args):
    _check(fn, *args)


@pytest.mark.parametrize("fn,args", [
    (pc.element_times_float32, (np.array([0.1]), np.array([0.3], np.float32))),
    (pc.python_float_times_float32, (np.array([0.3], np.float32),)),
    (pc.negates_an_element, (np.array([1.5]),)),
    (pc.negates_an_element, (np.array([3], np.int64),)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_numpy_scalar_arguments_stay_numpy_scalars_in_the_callee(fn, args):
    """NEP 50 inside a callee: an ``np.float64`` argument times an ``np.float32``
    computes in float64 (the value; the callee's result type follows the static
    rule), a Python float argument in float32."""
    got, want = jit(fn, fallback=False)(*args), fn(*args)
    assert np.asarray(got).dtype == np.asarray(want).dtype, (got, want)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (got, want)


@pytest.mark.parametrize("fn,args", [
    (pc.element_squared, (np.array([1.5, 2.5]), 1)),
    (pc.element_squared, (np.array([1.5, 2.5], np.float32), 0)),
    (pc.root_of_sum, (np.array([3.0, 4.0]),)),
], ids=lambda v: getattr(v, "__name__", None) or repr(v))
def test_a_callee_returning_a_numpy_scalar_on_every_path_gives_one(fn, args):
    got, want = jit(fn, fallback=False)(*args), fn(*args)
    assert type(got) is type(want) and got == want, (got, want)


def test_a_numpy_bool_argument_negated_in_a_callee_raises_numpys_error():
    with pytest.warns(HanaJitFallbackWarning, match="NumPy bool"):
        with pytest.raises(TypeError):
            jit(pc.negates_an_element)(np.array([True]))


def test_a_callee_that_does_not_compile_names_its_reason():
    with pytest.warns(HanaJitFallbackWarning, match="with_dict.*dict display"):
        assert jit(pc.calls_dict)(2) == 3


def test_generators_stdlib_and_packages_are_not_compiled_as_callees():
    assert user_function(pc.squared)
    assert not user_function(pc.counting)             # a generator function
    import statistics
    assert not user_function(statistics.fmean)        # the standard library
    assert not user_function(np.linspace)             # NumPy (the registry's)
    assert not user_function(pytest.raises)           # an installed package
    assert not user_function(abs)                     # a builtin
    for fn, arg in ((pc.calls_generator, 4), (pc.calls_stdlib, np.array([1.0, 2.0]))):
        with pytest.warns(HanaJitFallbackWarning):
            assert jit(fn)(arg) == fn(arg)


MAIN = '''
import hanajit
import helpers

@hanajit.jit(cache=True)
def total(n):
    s = 0
    for i in range(n):
        s += helpers.step(i)
    return s
'''


def test_editing_a_plain_callee_invalidates_the_cache(tmp_path):
    (tmp_path / "main.py").write_text(MAIN)
    (tmp_path / "helpers.py").write_text("def step(i):\n    return 2 * i\n")
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    code = ("import json, warnings, main; from hanajit import cache; "
            "warnings.simplefilter('error'); "
            "print(json.dumps([main.total(10), main.total.py_func(10), cache.stats]))")

    def run():
        out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out.splitlines()[-1])
    r1, p1, _ = run()
    assert r1 == p1 == 90
    (tmp_path / "helpers.py").write_text(textwrap.dedent("""
        def step(i):
            return 3 * i
    """))
    r2, p2, s2 = run()
    assert r2 == p2 == 135 and s2["stale"] >= 1 and s2["hits"] == 0
    r3, _, s3 = run()
    assert r3 == 135 and s3["hits"] >= 1
