"""Regression tests: one small hand-written case per mismatch the differential
suite or the program generator found.  Each is named after the bug; the ones still
open are strict xfails whose reason names the place to fix."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning


@pytest.fixture(autouse=True)
def no_fallback():
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        yield


def compiled(f):
    return jit(f, fallback=False)


# ---------------------------------------------------------------- fixed bugs
def _fpow(a, b):
    return a ** b


def test_float_power_compiles():
    # helpers.float_pow called a plain Python helper (_is_odd_integer), which
    # hanajit cannot compile: every float ** fell back to the interpreter
    f = compiled(_fpow)
    assert f(2.0, 0.5) == 2.0 ** 0.5
    assert f(-2.0, 3.0) == -8.0
    assert math.copysign(1.0, f(-0.0, 3.0)) == -1.0
    with pytest.raises(ZeroDivisionError):
        f(0.0, -1.0)


def _div(a, b):
    return a / b


def test_int_true_division_beyond_2_53_is_correctly_rounded():
    # int / int converted both ints to float first: double rounding for ints
    # beyond 2**53 (CPython divides exactly, then rounds once)
    f = compiled(_div)
    assert f(1, 9007199254740993) == 1 / 9007199254740993
    assert f(2 ** 63 - 1, 3) == (2 ** 63 - 1) / 3
    assert f(7, 2) == 3.5


def _band(a, b):
    return a & b, a | b, a ^ b


def test_bool_bitwise_operators_give_bool():
    # bool & bool was typed bool but lowered as an int64 operation: LLVM rejected
    # the function ("ret i64" in a function returning i1)
    assert compiled(_band)(True, False) == (False, True, True)
    assert type(compiled(_band)(True, True)[0]) is bool


def _np_floor(x):
    return np.floor(x)


def test_numpy_floor_of_int_stays_int():
    # NumPy 2.1+ has integer loops for floor/ceil/trunc: np.floor(3) is int64
    got = compiled(_np_floor)(3)
    assert got == 3 and type(got) is type(np.floor(3))


def _np_fmin(a, b):
    return np.fmin(a, b), np.fmax(a, b)


@pytest.mark.parametrize("a, b", [
    (0.0, -0.0), (-0.0, 0.0), (np.float64(0.0), np.float64(-0.0)),
    (np.float32(-0.0), np.float32(0.0)), (np.float32(0.0), np.float32(-0.0))])
def test_numpy_fmin_of_signed_zeros_as_this_numpy(a, b):
    # equal scalars: NumPy 2.3+ returns the first float64, the second float32;
    # NumPy 2.2 (the last for Python 3.10) the second of both
    got, want = compiled(_np_fmin)(a, b), _np_fmin(a, b)
    for g, w in zip(got, want):
        assert np.array_equal(np.signbit(g), np.signbit(w))


def _np_fmod(a, b):
    return np.fmod(a, b)


def test_numpy_fmod_of_ints():
    # np.fmod on ints lowered to an LLVM frem on i64 (invalid IR)
    f = compiled(_np_fmod)
    with np.errstate(all="ignore"):
        for a, b in ((7, 3), (-7, 3), (7, -3), (7, 0), (-2 ** 63, -1)):
            assert f(a, b) == np.fmod(a, b)


# ----------------------------------------------------------------- open bugs
def _widen_param(a, c):
    if c:
        a = 1.5
    return a


def test_parameter_widened_by_assignment():
    assert compiled(_widen_param)(1, True) == 1.5
    assert compiled(_widen_param)(1, False) == 1


def _swap(a, b):
    a, b = b, a
    return a, b


def test_swap_of_int_and_float_parameters():
    assert compiled(_swap)(1, 2.5) == (2.5, 1)


def _expm1(x):
    return math.expm1(x)


def test_libm_only_functions_compile():
    # lowering/llvm.py added the attribute 'willreturn' to libm declarations, which
    # llvmlite 0.50 rejects: expm1, log1p, erf, cbrt, hypot ... never compiled
    assert compiled(_expm1)(1e-10) == math.expm1(1e-10)


def _range_len(start, stop, step):
    n = 0
    for _ in range(start, stop, step):
        n += 1
        if n > 5:
            break
    return n


def test_range_with_more_than_2_63_items():
    # the iteration count stop - start wrapped negative: range(-1, 2**63 - 1) ran
    # no iteration at all
    f = compiled(_range_len)
    assert f(-1, 2 ** 63 - 1, 1) == 6
    assert f(0, -2 ** 63, -1) == 6
    assert f(-2 ** 63, 2 ** 63 - 1, 1) == 6


def _classify(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    else:
        return 2


def test_if_elif_else_all_returning():
    # the unreachable merge block after an if/else whose branches all return got
    # a void 'ret' in a non-void function (invalid LLVM IR, so a fallback)
    assert [compiled(_classify)(x) for x in (-3, 0, 4)] == [-1, 0, 2]


@jit
def _kw_callee(a, *, c=100):
    return a + c


def _kw_caller(a):
    return _kw_callee(a) + _kw_callee(a, c=1)


def test_call_of_function_with_keyword_only_parameters():
    # pipeline.py rebound already-bound arguments on every inference iteration:
    # the keyword-only default then counted as an extra positional argument
    assert compiled(_kw_caller)(1) == 103


def _square(p):
    return p ** 2


def test_float_square_matches_libm_pow():
    p = 11.9999999999
    assert compiled(_square)(p) == p ** 2 == math.pow(p, 2)


RECURSIVE_EAGER = '''
from hanajit import jit


@jit(signature="i64", fallback=False)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@jit(signature="f64, i64", fallback=False)
def power(x, n):
    if n == 0:
        return 1.0
    return x * power(x, n - 1)
'''


def test_signature_compiles_a_self_recursive_function_eagerly(tmp_path):
    # the decorated name is not bound while the decorator runs: inside the body it
    # means the function itself (it failed: "'fib' is not defined", and ran in the
    # interpreter for ever)
    import warnings

    from hanajit.testing.sourcefile import load_module
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mod = load_module(RECURSIVE_EAGER, "recursive_eager")
        assert mod.fib(20) == 6765 and mod.power(2.0, 10) == 1024.0
    assert len(mod.fib.signatures) == 1 and mod.fib.py_func(20) == 6765
    # exported without sig=: the signature's specialisation is there
    out = mod.fib.export_executable(tmp_path / "fib")
    import subprocess
    proc = subprocess.run([str(out.executable), "20"], capture_output=True, text=True)
    assert proc.stdout == "6765\n"


def test_an_undefined_name_is_still_an_error_with_a_signature():
    from hanajit.errors import UnsupportedError
    from hanajit.testing.sourcefile import load_module
    with pytest.raises(UnsupportedError, match="'fob' is not defined"):
        load_module('from hanajit import jit\n\n\n@jit(signature="i64", fallback=False)\n'
                    'def fib(n):\n    return fob(n)\n', "undefined_eager")
