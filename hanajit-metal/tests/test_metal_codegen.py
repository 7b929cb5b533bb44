"""MSL of every GPU case: printed by core's C-family emitter and compiled as C++
by g++ against the simulation header (``-fsyntax-only``); float64 refused by
default and demoted on request."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.cases_kernels import KERNELS
from hanajit.testing.sourcefile import load_sibling
from hanajit_metal import sim
from hanajit_metal.codegen import HanaJitMetalWarning

mk = load_sibling(__file__, "metal_kernels.py", "hanajit_metal_test_kernels")

pytestmark = pytest.mark.skipif(sim.find_compiler() is None, reason="no g++")

_SHORT = {"float64": "f64", "float32": "f32", "int64": "i64", "int32": "i32"}


def case_signature(name):
    _, dtype, make, _ = KERNELS[name]
    return ", ".join([f"{_SHORT[np.dtype(dtype).name]}[:]"]
                     + [f"{_SHORT[a.dtype.name]}[:]" for a in make()] + ["i64"])


CLANG = sim.find_clang()


def syntax_check(msl):
    """g++ against the simulation header; and, with clang, Metal's address spaces
    kept apart (metal_strict.h)."""
    sim.compile_cxx(sim.cxx_source(msl, wrapper=False), None, syntax_only=True)
    if CLANG is not None:
        sim.check_address_spaces(msl)


def msl_of(func, signature, **options):
    return jit(func, target="metal", fallback=False, signature=signature,
               **options).inspect_gpu()


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_case_msl_compiles(name):
    kernel = KERNELS[name][0]
    sig = case_signature(name)
    options = {}
    if "f64" in sig:
        with pytest.raises(UnsupportedError, match="metal_float64='demote'"):
            msl_of(kernel, sig)
        options = {"metal_float64": "demote"}
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            msl = msl_of(kernel, sig, **options)
    except UnsupportedError as exc:      # math Metal lacks (log1p ...)
        assert "has none" in str(exc)
        return
    assert any(issubclass(w.category, HanaJitMetalWarning) for w in seen) == bool(options)
    assert "double" not in msl
    assert "kernel void hj_kernel(" in msl and "[[buffer(0)]]" in msl
    syntax_check(msl)


@pytest.mark.parametrize("func, sig, needles", [
    (mk.tree_sum, "f32[:], f32[:], i64",
     ["threadgroup float *hj_sh0 [[threadgroup(0)]]",
      "threadgroup_barrier(mem_flags::mem_threadgroup | mem_flags::mem_device);",
      "uint3 hj_tid [[thread_position_in_threadgroup]]"]),
    (mk.histogram, "i32[:], i64[:], i64",
     ["atomic_fetch_add_explicit((device atomic_int *)&"]),
    (mk.int_max, "u32[:], u32[:], i64", ["atomic_fetch_max_explicit((device atomic_uint *)&"]),
    (mk.first_claim, "i32[:], i64", ["atomic_compare_exchange_weak_explicit("]),
])
def test_kernel_model_msl(func, sig, needles):
    msl = msl_of(func, sig)
    for needle in needles:
        assert needle in msl
    syntax_check(msl)


@pytest.mark.skipif(CLANG is None, reason="no clang++ for the address-space check")
def test_address_space_check_has_teeth():
    from hanajit.errors import TargetError
    msl = msl_of(mk.tree_sum, "f32[:], f32[:], i64")
    sim.check_address_spaces(msl)
    # a shared array's data where device data is expected
    bad = msl.replace("struct hj_tgarray_f32_1 { threadgroup float *data;",
                      "struct hj_tgarray_f32_1 { device float *data;")
    assert bad != msl
    with pytest.raises(TargetError, match=r"error: .*(device|threadgroup)"):
        sim.check_address_spaces(bad)
    # (explicit casts between address spaces pass here: clang allows them)


def test_no_64bit_atomics():
    def add64(out, n):
        atomic_add(out, 0, n)  # noqa: F821
    with pytest.raises(UnsupportedError, match="atomic add on int64"):
        msl_of(add64, "i64[:], i64")


def test_float64_refused_names_the_line_and_option():
    def scale(out, x, n):
        i = thread_id()  # noqa: F821
        if i < n:
            out[i] = x[i] * 2.0
    with pytest.raises(UnsupportedError) as info:
        msl_of(scale, "f64[:], f64[:], i64")
    msg = str(info.value)
    assert "64-bit floats" in msg and "metal_float64='demote'" in msg and "line" in msg


def test_demote_warns_once_per_function():
    def scale2(out, x, n):
        i = thread_id()  # noqa: F821
        if i < n:
            out[i] = x[i] * 2.0
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        f = jit(scale2, target="metal", fallback=False, metal_float64="demote")
        f.compile_signature("f64[:], f64[:], i64")
        f.compile_signature("f64[:, :], f64[:], i64")
    assert sum(issubclass(w.category, HanaJitMetalWarning) for w in seen) == 1


def test_unknown_float64_mode():
    with pytest.raises(UnsupportedError, match="metal_float64 must be one of"):
        msl_of(mk.histogram, "i32[:], i64[:], i64", metal_float64="emulate")


def test_option_belongs_to_metal_only():
    with pytest.raises(TypeError, match="metal_float64"):
        jit(mk.histogram, target="cpu", metal_float64="demote")
