"""The C-family emitter: C99 built with gcc and run against CPython; MSL and HLS C++
checked as text (no Metal compiler here): each dialect spells the same statements."""
from __future__ import annotations

import ctypes
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import UnsupportedError, kernel_message
from hanajit.lib.python.helpers import Deopt
from hanajit.testing.base import PROPERTY
from hanajit.testing.reference import check
from hanajit.toolkit import libm
from hanajit.toolkit.c_family import C99, HLS_CPP, MSL, c_identifier, emit_c_source

GOLDEN = Path(__file__).with_name("golden")
needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not installed")


def int_ops(a, b):
    q = a // b if b else 0
    return a * b - (a << 3) + q + (a % 7) - (~b) + (a >> 2) ^ b


def float_ops(x, y):
    if x < y or x != x:
        return x ** y + math.atan2(x, y) - math.floor(x)
    return x % y + x // y - math.fmod(x, y) if y else math.sqrt(abs(x))


def comparisons(x, y):
    return (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * (x != y) + 16 * (x > y)


def loops(n, x):
    s = 0.0
    k = 0
    while k < n:
        k += 1
        if k % 5 == 0:
            continue
        s = s * x + k
        if s > 1e12:
            break
    return s


def loops32(n, x):
    s = x - x
    k = n - n
    while k < n:
        k += 1
        if k % 5 == 0:
            continue
        s = s * x + x
        if s > x * x:
            break
    return s


def raising(a, b):
    return a // b


def narrowed(n):
    # NumPy's OverflowError names the value: the raise's integer reaches the message
    return int(np.int8(n))


def _build(func, sig, tmp_path):
    """``func`` printed as C99, built with gcc -std=c99 -pedantic-errors, and a
    Python callable of the entry (scalar arguments, one scalar result)."""
    module = jit(func).ir_module(sig)
    src = emit_c_source(module, C99)
    fn = module.functions[module.entry]
    ctype = {(k, b): C99.type_name(k, b) for k, b in ((t.kind, t.bits) for t in
                                                      (*fn.arg_types, fn.return_type))}
    rt = ctype[(fn.return_type.kind, fn.return_type.bits)]
    params = ", ".join(f"{ctype[(t.kind, t.bits)]} a{i}" for i, t in enumerate(fn.arg_types))
    args = ", ".join(f"a{i}" for i in range(len(fn.arg_types)))
    body = (f"return {c_identifier(module.entry)}(err, ret, {args});" if fn.can_raise
            else f"*ret = {c_identifier(module.entry)}({args}); return 0;")
    text = src.text + f"\nint32_t entry(int64_t *err, {rt} *ret, {params}) {{ {body} }}\n"
    c_file, so = tmp_path / f"{func.__name__}.c", tmp_path / f"{func.__name__}.so"
    c_file.write_text(text)
    subprocess.run(["gcc", "-std=c99", "-pedantic-errors", "-Wall", "-Werror",
                    "-Wno-unused-function", "-Wno-unused-variable", "-O2",
                    "-ffp-contract=off", "-fPIC", "-shared", "-o", str(so), str(c_file),
                    "-lm"], check=True, capture_output=True)
    lib = ctypes.CDLL(str(so))
    conv = {"f": ctypes.c_double, "i": ctypes.c_int64, "b": ctypes.c_bool}
    ret_t = conv[fn.return_type.kind]

    def run(*a):
        err, ret = (ctypes.c_int64 * 4)(), ret_t()
        if lib.entry(err, ctypes.byref(ret),
                     *(conv[t.kind](v) for v, t in zip(a, fn.arg_types))):
            exc, message, deopt = module.raises[err[0] - 1]
            if deopt or exc is Deopt:       # Python's result is beyond the C types
                return func(*a)
            raise exc(kernel_message(message, tuple(err[1:])))  # the raise's integers
        return ret.value
    run.__qualname__ = func.__name__
    return run


int64s = st.integers(-(1 << 63), (1 << 63) - 1)
small = st.integers(-1000, 1000)
floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, -0.0, 1.0, -1.5, 2.0, 1e308, 5e-324])


@needs_gcc
def test_c99_matches_cpython(tmp_path):
    runners = {f: _build(f, sig, tmp_path) for f, sig in (
        (int_ops, "i64, i64"), (float_ops, "f64, f64"), (comparisons, "f64, f64"),
        (loops, "i64, f64"), (raising, "i64, i64"), (narrowed, "i64"))}

    @PROPERTY
    @given(int64s, int64s, floats, floats, small)
    def prop(a, b, x, y, n):
        check(runners[int_ops], (a, b), reference=int_ops, wrap=True)
        check(runners[float_ops], (x, y), reference=float_ops)
        check(runners[comparisons], (x, y), reference=comparisons)
        check(runners[loops], (n, x), reference=loops)
        check(runners[raising], (a, b), reference=raising)
        check(runners[narrowed], (n,), reference=narrowed)
    prop()
    check(runners[raising], (1, 0), reference=raising)       # ZeroDivisionError


def hyp(x, y, n):
    if x < y:
        return np.sqrt(x * x + y * y) - x, n // 3
    return np.fmod(x, y), -n


def saxpy_into(a, x, y, out):
    for i in range(out.shape[0]):
        out[i] = a * x[i] + y[i]


@pytest.mark.parametrize("func, sig", [
    (hyp, "f32, f32, i32"), (saxpy_into, "f32, f32[:], f32[:], f32[:]")])
def test_msl_golden_text(func, sig):
    text = emit_c_source(jit(func).ir_module(sig), MSL).text
    assert text.strip() == (GOLDEN / f"msl_{func.__name__}.metal").read_text().strip()


def test_msl_kernel_buffers_are_device_pointers():
    text = emit_c_source(jit(saxpy_into).ir_module("f32, f32[:], f32[:], f32[:]"),
                         MSL).text
    assert "struct hj_array_f32_1 { device float *data; long shape[1]; long strides[1]; };" \
        in text
    assert "thread long *hj_err" in text and "#include <metal_stdlib>" in text
    assert "int64_t" not in text and "double" not in text


def test_msl_refuses_float64_by_name():
    with pytest.raises(UnsupportedError, match="float64"):
        emit_c_source(jit(float_ops).ir_module("f64, f64"), MSL)


def test_msl_refuses_math_functions_metal_lacks():
    module = jit(hyp).ir_module("f32, f32, i32")
    # every function of the table is spelled or refused by name, never misspelt
    for name in libm.FLOAT_FUNCTIONS:
        callee = MSL.math_function(name, 32)
        assert callee is None or callee == f"metal::{name}"
    assert MSL.math_function("erf", 32) is None
    assert emit_c_source(module, MSL).text.count("metal::") == 2


_OPERATORS = re.compile(r"<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%<>=!~^&|?:;]|\b(?:if|else|for|"
                        r"return|break|continue)\b|\bv_\w+|\bhj_\w+")


def _structure(text: str) -> list:
    """Operators, keywords and identifiers of the function bodies, in order."""
    body = text[text.index(");\n\n") + 3:]          # after the last prototype
    body = re.sub(r"/\*.*?\*/|#pragma .*", "", body).replace("metal::", "")
    body = re.sub(r"\b(hj_n|hj_discard)\d+", r"\1", body)    # numbered by line
    return _OPERATORS.findall(body)


@pytest.mark.parametrize("func, sig", [
    (hyp, "f32, f32, i32"), (int_ops, "i64, i64"), (comparisons, "f32, f32"),
    (loops32, "i32, f32"), (saxpy_into, "f32, f32[:], f32[:], f32[:]"),
])
def test_dialects_differ_in_spelling_only(func, sig):
    module = jit(func).ir_module(sig)
    c99, hls, msl = (emit_c_source(module, d).text for d in (C99, HLS_CPP, MSL))
    assert _structure(c99) == _structure(hls) == _structure(msl)
    assert "metal::" not in c99 and "int64_t" not in msl


def test_hls_is_the_cpp_spelling():
    text = emit_c_source(jit(loops).ir_module("i64, f64"), HLS_CPP).text
    assert "#pragma HLS PIPELINE II=1" in text and "typedef" not in text


def test_reserved_symbols_cover_both_widths():
    reserved = libm.reserved_symbols("main")
    assert {"sin", "sinf", "fma", "fmaf", "round", "main"} <= reserved
    assert all(libm.FLOAT_FUNCTIONS[n] in (1, 2, 3) for n in libm.FLOAT_FUNCTIONS)
