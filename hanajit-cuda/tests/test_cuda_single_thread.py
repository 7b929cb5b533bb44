"""single_thread: an ordinary function as a one-thread kernel (what executables
embed).  PTX assembled by ptxas; the kernel forwards to the C-ABI entry wrapper;
the GPU kernel model is refused naming the construct.  (hanajit-exe's tests run
these kernels' IR on a fake device.)"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit_cuda import toolchain
from hanajit_cuda.single_thread import compile_single_thread, lower_single_thread

PTXAS = toolchain.find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found (CUDA toolkit, "
                                 "pip install nvidia-cuda-nvcc, or HANAJIT_PTXAS)")


@jit
def kernel(a, b):               # named like the kernel entry's symbol
    return a // b, a % b, float(a) / b


@jit
def total(a, n):
    s = 0
    for i in range(n):
        s += a[i]
    return s


@needs_ptxas
@pytest.mark.parametrize("fn, sig, params, slots", [
    (kernel, "i64, i64", ("i64",) * 2 + ("i64", "i64"), 6 + 3),
    (total, "i32[:], i64", ("i64",) * 2 + ("i64", "i64", "i64", "i64"), 6 + 1)])
def test_single_thread_ptx_assembles(tmp_path, fn, sig, params, slots):
    k = compile_single_thread(fn.ir_module(sig), "sm_75")
    assert (k.arch, k.params, k.buffer_slots) == ("sm_75", params, slots)
    assert ".visible .entry hj_kernel(" in k.ptx and ".target sm_75" in k.ptx
    assert k.ptx.count(".entry") == 1       # the user's function is not an entry
    src = tmp_path / "k.ptx"
    src.write_text(k.ptx)
    r = subprocess.run([PTXAS, "-arch=sm_75", str(src), "-o", str(tmp_path / "k.o")],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_the_kernel_forwards_to_the_entry_wrapper():
    text, libdevice = lower_single_thread(kernel.ir_module("i64, i64"))
    assert not libdevice
    assert 'define ptx_kernel void @"hj_kernel"(ptr' in text
    assert "__hj_entry" in text and "hj_kernel_1" in text   # the user's `kernel`


def test_a_function_named_kernel_compiles_for_the_cuda_target():
    from hanajit.gpu import thread_id

    def kernel(a):
        a[thread_id()] = 1.0
    k = jit(kernel, target="cuda", signature="f64[:]", fallback=False)
    assert ".visible .entry hj_kernel(" in k.inspect_gpu()


def test_the_kernel_model_is_refused_arrays_are_allocated_in_the_arena():
    from hanajit.gpu import block_id

    @jit(target="cuda")
    def model(a):
        a[block_id()] = 1.0
    with pytest.raises(UnsupportedError, match=r"GPU kernel model \(GpuIndex\)"):
        lower_single_thread(model.ir_module("f64[:]"))

    @jit
    def alloc(n):
        return np.zeros(n).sum()
    text, _ = lower_single_thread(alloc.ir_module("i64"))   # arrays: in the arena
    assert 'define internal ptr @"hj_nrt_alloc"' in text and "hj_arena_used" in text
