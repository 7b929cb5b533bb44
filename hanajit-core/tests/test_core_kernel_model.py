"""The GPU kernel-model rows of core (AMDGPU, OpenCL- and Vulkan-flavoured SPIR-V) for real:
kernels with indices, shared memory, barriers, atomics (float add, min/max, CAS)
and a raise are lowered from each row and compiled by LLVM; AMDGPU objects are
linked into code objects by ``ld.lld`` and read back by ``llvm-readelf --notes``,
SPIR-V modules pass ``spirv-val``.  Tools that are missing skip with the reason.
"""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from hanajit import jit, plugins
from hanajit.errors import UnsupportedError
from hanajit.gpu import atomic_add, barrier, shared_array
from hanajit.lowering import kernel_lower as KL
from hanajit.lowering.kernel_model import AMDGPU, SPIRV_OPENCL, KernelModel
from hanajit.lowering.llvm import LLVMTargetInfo
from hanajit.target import Capabilities, Target
from hanajit.toolkit.kernel_emit import emit_kernel

GPU = Capabilities(kernel_model=True, shared_memory=True, atomics=True)


class KernelIRTarget(Target):
    """Only what typing a kernel needs: the kernel-model capabilities."""

    name = "kernel-ir-test"
    kind = "gpu"
    capabilities = GPU


class _Plugin:
    from hanajit import hookimpl

    @staticmethod
    @hookimpl
    def hanajit_register_target(register):
        register(KernelIRTarget)


@pytest.fixture(scope="module", autouse=True)
def kernel_target():
    plugins.register_plugin(_Plugin, "kernel-ir-test")
    yield
    plugins.reset()


# -- kernels (the same programming model as hanajit-cuda's tests) -------------------
def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        y[i] = a * x[i] + y[i]


def block_sums(partials, a, n):
    tid = thread_id()  # noqa: F821
    i = block_id() * block_dim() + tid  # noqa: F821
    s = shared_array(256, np.float64)
    acc = 0.0
    if i < n:
        acc = a[i]
    s[tid] = acc
    barrier()
    step = 128
    while step > 0:
        if tid < step:
            s[tid] = s[tid] + s[tid + step]
        barrier()
        step = step // 2
    if tid == 0:
        partials[block_id()] = s[0]  # noqa: F821


def histogram(hist, data, n):
    s = shared_array(64, np.int32)
    t = thread_id()  # noqa: F821
    if t < 64:
        s[t] = 0
    barrier()
    i = block_id() * block_dim() + t  # noqa: F821
    if i < n:
        atomic_add(s, data[i] % 64, 1)
    barrier()
    if t < 64:
        atomic_add(hist, t, s[t])


def stencil2d(out, a):
    i = block_id_y() * block_dim_y() + thread_id_y()  # noqa: F821
    j = block_id_x() * block_dim_x() + thread_id_x()  # noqa: F821
    inside = i < grid_dim_y() * block_dim_y()  # noqa: F821
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1 and inside:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


def float_atomics(out, ints):
    """Float add/min/max/cas on global memory (a CAS loop where the row has no
    float atomicrmw), integer min/max/cas on shared memory."""
    k = shared_array(4, np.int32)
    t = thread_id()  # noqa: F821
    if t == 0:
        k[0] = 1 << 20
        k[1] = -(1 << 20)
        k[2] = -1
    barrier()
    atomic_add(out, 0, 0.5)
    atomic_min(out, 1, 1.0 * t)  # noqa: F821
    atomic_max(out, 2, 1.0 * t)  # noqa: F821
    atomic_cas(out, 3, 0.0, 1.0 + t)  # noqa: F821
    atomic_min(k, 0, t)  # noqa: F821
    atomic_max(k, 1, t)  # noqa: F821
    atomic_cas(k, 2, -1, t)  # noqa: F821
    atomic_add(ints, t % 2, 1)
    barrier()
    if t < 3:
        ints[2 + t] = k[t]


def raises(out, a):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    out[i] = a[i + 1]          # out of bounds for the last thread: IndexError


KERNELS = {
    "saxpy": (saxpy, "f64[:], f64[:], f64, i64"),
    "block_sums": (block_sums, "f64[:], f64[:], i64"),
    "histogram": (histogram, "i32[:], i64[:], i64"),
    "stencil2d": (stencil2d, "f32[:, :], f32[:, :]"),
    "float_atomics": (float_atomics, "f32[:], i32[:]"),
    "raises": (raises, "f64[:], f64[:]"),
}
ROWS = {"amdgpu": AMDGPU, "spirv": SPIRV_OPENCL}


def lowered(name: str, row: KernelModel, caps: Capabilities = GPU) -> str:
    fn, sig = KERNELS[name]
    module = jit(fn, target="kernel-ir-test").ir_module(sig)
    info = LLVMTargetInfo(triple=row.triple, data_layout=row.data_layout, math={},
                          gpu=row)
    return KL.kernel_text(module, info, caps, "hj_kernel")


def tool(*names):
    for n in names:
        path = shutil.which(n)
        if path:
            return path
    return None


LLD = tool("ld.lld-19", "ld.lld-20", "ld.lld")
READELF = tool("llvm-readelf-19", "llvm-readelf-20", "llvm-readelf")
SPIRV_VAL = tool("spirv-val")


# -- what the rows print --------------------------------------------------------------
def test_rows_print_their_intrinsics():
    text = lowered("block_sums", AMDGPU)
    assert 'call i32 @"llvm.amdgcn.workitem.id.x"()' in text
    assert '@"llvm.amdgcn.dispatch.ptr"()' in text          # block_dim from the packet
    assert 'fence syncscope("workgroup") release' in text
    assert 'call void @"llvm.amdgcn.s.barrier"()' in text
    assert "addrspace(3) global [256 x double]" in text
    assert "define amdgpu_kernel void @\"hj_kernel\"(ptr addrspace(1)" in text
    assert "amdhsa_code_object_version" in text
    text = lowered("block_sums", SPIRV_OPENCL)
    assert "call spir_func i64 @\"_Z12get_local_idj\"(i32 0)" in text
    assert "call spir_func void @\"_Z7barrierj\"(i32 1)" in text
    assert "define spir_kernel void @\"hj_kernel\"(ptr addrspace(1)" in text
    # a barrier, and every function waiting at one, is convergent
    assert 'declare spir_func void @"_Z7barrierj"(i32 %".1") convergent' in text
    # (and always inlined: the OpenCL row's ``inline_aggregates``)
    assert ') alwaysinline convergent nounwind' in text


def test_constant_and_call_forms():
    """A workgroup size fixed at compile time (Vulkan's numthreads) and an index
    read by a call with the axis as argument."""
    import dataclasses
    from hanajit.lowering.kernel_model import Builtin
    row = dataclasses.replace(
        SPIRV_OPENCL, block_dim=Builtin("constant", "", values=(64, 2, 1)),
        thread=Builtin("call", "llvm.spv.thread.id.in.group.i32", width=32))
    text = lowered("stencil2d", row)
    assert 'call i32 @"llvm.spv.thread.id.in.group.i32"(i32 1)' in text
    assert "_Z14get_local_sizej" not in text
    assert "mul i64 %" in text and ", 2\n" in text      # block_dim_y() is 2


def test_cas_loop_where_the_row_has_no_atomicrmw():
    amd = lowered("float_atomics", AMDGPU)
    assert 'atomicrmw fadd ptr' in amd and 'syncscope("agent") monotonic' in amd
    spv = lowered("float_atomics", SPIRV_OPENCL)
    assert "atomicrmw fadd" not in spv and "atomicrmw fmin" not in spv
    assert "atomic.retry" in spv and "@\"llvm.minnum.f32\"" in spv
    assert 'atomicrmw add ptr' in spv and 'syncscope("device") seq_cst' in spv


def test_refusals_follow_capabilities():
    fn, sig = KERNELS["histogram"]
    module = jit(fn, target="kernel-ir-test").ir_module(sig)
    info = LLVMTargetInfo(triple=AMDGPU.triple, math={}, gpu=AMDGPU)
    for caps, what in ((Capabilities(kernel_model=True, atomics=True), "shared_memory"),
                       (Capabilities(kernel_model=True, shared_memory=True), "atomics"),
                       (Capabilities(kernel_model=True, shared_memory=True,
                                     atomics=True, int64=False), "int64"),
                       (Capabilities(), "kernel model")):
        with pytest.raises(UnsupportedError, match=what):
            KL.lower_kernel(module, info, caps)
    fn, sig = KERNELS["saxpy"]
    module = jit(fn, target="kernel-ir-test").ir_module(sig)
    with pytest.raises(UnsupportedError, match="capability float64"):
        KL.lower_kernel(module, info, Capabilities(kernel_model=True, float64=False))


def test_no_cas_refuses_a_raise():
    import dataclasses
    row = dataclasses.replace(AMDGPU, cmpxchg=False)
    with pytest.raises(UnsupportedError, match="compare-and-swap"):
        lowered("raises", row)


# -- compiled by LLVM, checked by the real tools --------------------------------------
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_amdgpu_code_object(name, tmp_path):
    out = emit_kernel(lowered(name, AMDGPU), AMDGPU, emit=("obj", "asm"))
    assert out["obj"][:4] == b"\x7fELF"
    assert ".amdhsa_kernel hj_kernel" in out["asm"]
    if LLD is None:
        pytest.skip("ld.lld not found (apt-get install lld-19)")
    obj = tmp_path / "k.o"
    obj.write_bytes(out["obj"])
    hsaco = tmp_path / "k.hsaco"
    r = subprocess.run([LLD, "-shared", str(obj), "-o", str(hsaco)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    if READELF is None:
        pytest.skip("llvm-readelf not found (apt-get install llvm-19)")
    notes = subprocess.run([READELF, "--notes", str(hsaco)], capture_output=True,
                           text=True, timeout=60).stdout
    assert "amdgcn-amd-amdhsa--gfx90a" in notes
    assert ".name:           hj_kernel" in notes
    assert ".symbol:         hj_kernel.kd" in notes


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_spirv_opencl_module(name, tmp_path):
    out = emit_kernel(lowered(name, SPIRV_OPENCL), SPIRV_OPENCL, emit=("obj",))
    spv = out["obj"]
    assert spv[:4] == b"\x03\x02\x23\x07"        # the SPIR-V magic number
    if SPIRV_VAL is None:
        pytest.skip("spirv-val not found (apt-get install spirv-tools)")
    path = tmp_path / "k.spv"
    path.write_bytes(spv)
    r = subprocess.run([SPIRV_VAL, str(path)], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr


def test_address_space_rewrite():
    """Pointers into the generic space, allocas into the stack space with a cast;
    names that contain "ptr" and other address spaces are left alone."""
    text = '''  %"ptr" = alloca {ptr, i64}
  store {ptr, i64} zeroinitializer, {ptr, i64}* %"ptr"
  call void @"llvm.memcpy.p0.p0.i64"(ptr %"ptr", ptr null, i64 8)
  %g = call ptr addrspace(4) @"llvm.amdgcn.dispatch.ptr"()
'''
    spv = KL.address_spaces(text, SPIRV_OPENCL)
    assert '%"ptr.stack" = alloca {ptr addrspace(4), i64}\n' in spv
    assert '%"ptr" = addrspacecast ptr %"ptr.stack" to ptr addrspace(4)' in spv
    assert '{ptr addrspace(4), i64} addrspace(4)* %"ptr"' in spv
    assert ('@"llvm.memcpy.p4.p4.i64"(ptr addrspace(4) %"ptr", ptr addrspace(4) null'
            in spv)
    assert '@"llvm.amdgcn.dispatch.ptr"()' in spv
    amd = KL.address_spaces(text, AMDGPU)
    assert '%"ptr.stack" = alloca {ptr, i64}, addrspace(5)\n' in amd
    assert '%"ptr" = addrspacecast ptr addrspace(5) %"ptr.stack" to ptr' in amd
    assert '@"llvm.memcpy.p0.p0.i64"(ptr %"ptr", ptr null' in amd
    row = KernelModel(name="flat", triple="", data_layout="", cpu="")
    assert KL.address_spaces(text, row) == text


# -- logical addressing (the VULKAN row) ---------------------------------------------
def test_vulkan_row_binds_buffers_and_pushes_words():
    from hanajit.lowering.kernel_model import VULKAN
    text = lowered("saxpy", VULKAN)
    assert 'define void @"hj_kernel"() "hlsl.numthreads"="64,1,1"' in text
    # every parameter slot: the error record, per array address, shape, stride
    assert ("external hidden addrspace(13) global {i64, i64, i64, i64, i64, i64, i64, "
            "double, i64}") in text
    # y is binding 1, x binding 2 (0 is the error record), by element type
    assert "VulkanBuffer_a0f64_12_1t(i32 0, i32 1, i32 1, i32 0, ptr @.hj.b1)" in text
    assert "VulkanBuffer_a0f64_12_1t(i32 0, i32 2, i32 1, i32 0, ptr @.hj.b2)" in text
    assert "VulkanBuffer_a0i32_12_1t" in text                      # the error record
    assert " alwaysinline" in text and "noinline" not in text


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_spirv_vulkan_module(name, tmp_path):
    from hanajit.lowering.kernel_model import VULKAN
    if name == "float_atomics":         # atomic_cas: LLVM 22 aborts on cmpxchg
        with pytest.raises(UnsupportedError, match="capability: atomic compare-and-swap"):
            lowered(name, VULKAN)
        return
    out = emit_kernel(lowered(name, VULKAN), VULKAN, emit=("obj",))
    if SPIRV_VAL is None:
        pytest.skip("spirv-val not found (apt-get install spirv-tools)")
    path = tmp_path / "k.spv"
    path.write_bytes(out["obj"])
    r = subprocess.run([SPIRV_VAL, "--target-env", "vulkan1.3", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
