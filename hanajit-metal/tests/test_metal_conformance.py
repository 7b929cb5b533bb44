"""The GPU case list on Metal, executed by the C++ simulation of Metal (g++; see
docs/gpu.md, "Metal") -- or by Metal.framework on a Mac -- and compared with the
interpreter / NumPy; kernels needing float64 are refused naming it.  Then what
the case list cannot show on Metal: a raise in float32, float64 demoted."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.conformance import KernelConformance
from hanajit.testing.sourcefile import load_sibling
from hanajit_metal import sim
from hanajit_metal.codegen import HanaJitMetalWarning

mk = load_sibling(__file__, "metal_kernels.py", "hanajit_metal_test_kernels")


class TestMetalKernelConformance(KernelConformance):
    target = "metal"

    def validate(self, assembly: str) -> bool:
        if sim.find_compiler() is None:
            return False
        sim.compile_cxx(sim.cxx_source(assembly, wrapper=False), None, syntax_only=True)
        if sim.find_clang() is not None:
            sim.check_address_spaces(assembly)
        return True


needs_device = pytest.mark.skipif(sim.find_compiler() is None and
                                  __import__("sys").platform != "darwin",
                                  reason="no g++ for the Metal simulation")


@needs_device
def test_index_error_float32():
    f = jit(mk.out_of_bounds, target="metal", fallback=False)
    out = np.zeros(40, np.float32)
    # every thread fails; the first to record wins
    with pytest.raises(IndexError, match=r"index \d+ is out of bounds for axis 0 "
                                         "with size 40"):
        f.launch(out, 40, grid=2, block=32)
    # the record was cleared: a good launch afterwards raises nothing
    f.launch(out, 0, grid=1, block=8)
    assert out[:8].tolist() == [1.0] * 8


@needs_device
def test_atomics_and_cas():
    counts = np.zeros(8, np.int32)
    x = np.arange(1000, dtype=np.int64)
    jit(mk.histogram, target="metal", fallback=False).launch(counts, x, 1000, grid=8,
                                                             block=128)
    assert counts.tolist() == np.bincount(x % 8, minlength=8).tolist()
    owner = np.array([-1], np.int32)
    jit(mk.first_claim, target="metal", fallback=False).launch(owner, 100, grid=4,
                                                               block=32)
    assert 0 <= owner[0] < 100
    top = np.zeros(1, np.uint32)
    v = np.random.default_rng(3).integers(0, 2**32, 300).astype(np.uint32)
    jit(mk.int_max, target="metal", fallback=False).launch(top, v, 300, grid=3,
                                                           block=128)
    assert top[0] == v.max()


@needs_device
def test_float64_demoted_computes_in_float32():
    def axpy(y, x, a, n):
        i = block_id() * block_dim() + thread_id()  # noqa: F821
        if i < n:
            y[i] = a * x[i] + y[i]
    f = jit(axpy, target="metal", fallback=False, metal_float64="demote")
    x = np.random.default_rng(1).normal(size=100)
    y = np.random.default_rng(2).normal(size=100)
    want = (np.float32(0.1) * x.astype(np.float32) + y.astype(np.float32)).astype(
        np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitMetalWarning)
        f.launch(y, x, 0.1, 100)
    assert y.dtype == np.float64 and np.array_equal(y, want)


@needs_device
def test_device_arrays_and_async():
    f = jit(mk.tree_sum, target="metal", fallback=False)
    x = np.random.default_rng(4).normal(size=200).astype(np.float32)
    xd = f.to_device(x)
    out = f.to_device(np.zeros(4, np.float32))
    f.launch(out, xd, 200, grid=4, block=64, sync=False)
    f.synchronize()
    got = out.to_host()
    pad = np.zeros(256, np.float32)
    pad[:200] = x
    s = pad.reshape(4, 64)
    step = 32
    while step:
        s[:, :step] = s[:, :step] + s[:, step:2 * step]
        step //= 2
    assert np.array_equal(got, s[:, 0])
