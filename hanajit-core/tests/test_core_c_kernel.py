"""GPU kernels in source form (toolkit/c_kernel.py): the kernel model and the kernel
entry printed from the dialect's KernelSpelling -- data; refusals by what the
spelling lists.  Compiled and run by hanajit-metal's tests (g++, clang)."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from hanajit import hookimpl, jit, plugins
from hanajit.errors import UnsupportedError
from hanajit.gpu import atomic_add, atomic_cas, barrier, block_dim, block_id, \
    shared_array, thread_id
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.kernel_lower import check_kernel
from hanajit.target import Capabilities, Target
from hanajit.toolkit.c_dialects import C99, MSL
from hanajit.toolkit.c_kernel import emit_kernel_source

CAPS = Capabilities(kernel_model=True, shared_memory=True, atomics=True,
                    float64=False)


class SourceKernelTarget(Target):
    """Only what typing a kernel needs: the kernel-model capabilities."""

    name = "c-kernel-test"
    kind = "gpu"
    capabilities = CAPS


class _Plugin:
    @staticmethod
    @hookimpl
    def hanajit_register_target(register):
        register(SourceKernelTarget)


@pytest.fixture(scope="module", autouse=True)
def kernel_target():
    plugins.register_plugin(_Plugin, "c-kernel-test")
    yield
    plugins.reset()


def reduce_into(out, x, n):
    s = shared_array(32, np.float32)
    t = thread_id()
    i = block_id() * block_dim() + t
    s[t] = x[i] if i < n else np.float32(0)
    barrier()
    if t == 0:
        acc = np.float32(0)
        for k in range(32):
            acc += s[k]
        atomic_add(out, 0, acc)


def claim(owner, flag: bool, pair):
    atomic_cas(owner, 0, np.int32(-1), np.int32(thread_id()))


CLAIM_SIG = (T.ArrayType(T.INT32, 1, "C"), T.BOOL, T.TupleType((T.INT64, T.INT64)))


def module(func, sig):
    m = jit(func, target="c-kernel-test").ir_module(sig)
    check_kernel(m, CAPS)
    return m


def test_entry_and_nodes_follow_the_spelling():
    src = emit_kernel_source(module(reduce_into, "f32[:], f32[:], i64"), MSL)
    assert src.buffers == ["err", "array", "array", "slots"]
    assert src.shared == [(next(iter(src.shared))[0], 32 * 4)]
    text = src.text
    assert "kernel void hj_kernel(device long *hj_err [[buffer(0)]]," in text
    assert "constant long *hj_s [[buffer(3)]]" in text
    assert "threadgroup float *hj_sh0 [[threadgroup(0)]]" in text
    assert "((long)hj_k->hj_tid.x)" in text and "((long)hj_k->hj_bid.x)" in text
    assert text.count("threadgroup_barrier(") == 1
    assert "atomic_fetch_add_explicit((device atomic_float *)&" in text
    # the error record: claimed by compare-and-swap, then the message values
    assert "hj_err[1] = hj_le[1]; hj_err[2] = hj_le[2]; hj_err[3] = hj_le[3];" in text
    assert "hj_err[2] = (long)" in text          # an IndexError's values recorded
    # the spelling is data: another barrier, another text, nothing else changes
    other = dataclasses.replace(MSL, kernel=dataclasses.replace(
        MSL.kernel, barrier="hj_wait();"))
    text2 = emit_kernel_source(module(reduce_into, "f32[:], f32[:], i64"), other).text
    assert text2 == text.replace(MSL.kernel.barrier, "hj_wait();")


def test_scalar_slots_and_cas():
    text = emit_kernel_source(module(claim, CLAIM_SIG), MSL).text
    assert "(hj_s[2] != 0)" in text                   # a bool slot
    assert "hj_tuple0{((long)hj_s[3]), ((long)hj_s[4])}" in text
    assert "atomic_compare_exchange_weak_explicit((device atomic_int *)&" in text


def test_refusals():
    with pytest.raises(ValueError, match="no GPU kernels"):
        emit_kernel_source(module(claim, CLAIM_SIG), C99)

    def add64(out, v):
        atomic_add(out, 0, v)
    with pytest.raises(UnsupportedError, match="atomic add on int64"):
        emit_kernel_source(module(add64, "i64[:], i64"), MSL, "the metal target")

    m = jit(passes_shared, target="c-kernel-test").ir_module("f32[:]")
    assert any(isinstance(s, N.Assign) and isinstance(s.value, N.Call)
               for fn in m.functions.values() for s in N.walk_stmts(fn.body))
    with pytest.raises(UnsupportedError, match="shared array passed to a function"):
        emit_kernel_source(m, MSL)


@jit
def total(a):
    acc = np.float32(0)
    for k in range(a.shape[0]):
        acc += a[k]
    return acc


def passes_shared(out):
    s = shared_array(4, np.float32)
    out[0] = total(s)
