"""PTX for every test kernel, assembled by ptxas for sm_75, sm_80 and sm_90; what
the PTX must (and must not) contain; refusals with clear messages."""
from __future__ import annotations

import subprocess

import pytest
from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit_cuda import toolchain


def load_kernels():
    from hanajit.testing import gpu_kernels
    return gpu_kernels


K = load_kernels()
PTXAS = toolchain.find_ptxas()
LIBDEVICE = toolchain.find_libdevice()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found (CUDA toolkit, "
                                 "pip install nvidia-cuda-nvcc, or HANAJIT_PTXAS)")
ARCHS = ("sm_75", "sm_80", "sm_90")
_cache: dict = {}


def kernel(name, arch="sm_75"):
    key = (name, arch)
    if key not in _cache:
        if name == "transcendentals" and LIBDEVICE is None:
            pytest.skip("libdevice not found (pip install nvidia-nvvm, or "
                        "HANAJIT_LIBDEVICE)")
        fn, sig = K.KERNELS[name]
        _cache[key] = jit(fn, target="cuda", signature=sig, gpu_arch=arch,
                          fallback=False)
    return _cache[key]


def ptxas(ptx: str, arch: str, tmp_path) -> subprocess.CompletedProcess:
    src = tmp_path / f"k_{arch}.ptx"
    src.write_text(ptx)
    return subprocess.run([PTXAS, f"-arch={arch}", str(src), "-o",
                           str(tmp_path / f"k_{arch}.cubin")],
                          capture_output=True, text=True, timeout=120)


@needs_ptxas
@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("name", sorted(K.KERNELS))
def test_ptx_assembles(name, arch, tmp_path):
    ptx = kernel(name, arch).inspect_gpu()
    assert f".target {arch}" in ptx
    assert ".visible .entry hj_kernel(" in ptx
    r = ptxas(ptx, arch, tmp_path)
    assert r.returncode == 0, r.stderr


def test_saxpy_ptx_is_exact_arithmetic():
    ptx = kernel("saxpy").inspect_gpu()
    # rounded separately, as NumPy does: no contraction into an fma
    assert "mul.rn.f64" in ptx and "add.rn.f64" in ptx
    assert "fma" not in ptx
    # the bounds checks record an IndexError through the error buffer
    assert "atom" in ptx and "cas.b64" in ptx
    assert "%tid.x" in ptx and "%ctaid.x" in ptx and "%ntid.x" in ptx


def test_geometry_registers_2d_3d():
    ptx2 = kernel("stencil2d").inspect_gpu()
    for reg in ("%tid.x", "%tid.y", "%ctaid.y", "%ntid.y"):
        assert reg in ptx2
    ptx3 = kernel("scale3d").inspect_gpu()
    for reg in ("%tid.z", "%ctaid.z", "%ntid.z"):
        assert reg in ptx3


def test_shared_memory_and_barriers():
    ptx = kernel("block_sums").inspect_gpu()
    assert ".shared .align 16 .b8" in ptx and "[2048]" in ptx
    assert "st.shared" in ptx and "ld.shared" in ptx
    assert "bar.sync" in ptx


def test_atomics_on_shared_and_global():
    ptx = kernel("histogram").inspect_gpu()
    assert "atom.shared.add.u32" in ptx or "atom.shared.add.s32" in ptx
    assert "atom.global.add.u32" in ptx or "atom.global.add.s32" in ptx
    ptx = kernel("shared_atomics").inspect_gpu()
    assert "atom.shared.min.s64" in ptx and "atom.shared.max.s64" in ptx
    assert "atom.shared.add.f64" in ptx
    assert "atom.shared.cas.b64" in ptx or "atom.relaxed.sys.shared.cas.b64" in ptx


def test_libdevice_linked_and_inlined():
    ptx = kernel("transcendentals").inspect_gpu()
    assert "__nv_" not in ptx.replace("// ", "")      # every libdevice call inlined
    assert ".extern" not in ptx
    llvm = kernel("transcendentals").inspect_llvm()
    assert "__nvvm_reflect" not in llvm


def test_without_libdevice_refuses_with_instructions(monkeypatch, tmp_path):
    monkeypatch.setenv("HANAJIT_LIBDEVICE", str(tmp_path / "missing.bc"))
    fn, sig = K.KERNELS["transcendentals"]
    with pytest.raises(UnsupportedError, match="libdevice.*pip install"):
        jit(fn, target="cuda", signature=sig, fallback=False)
    # fallback=True: a warning at decoration, and launch() raises the same error
    with pytest.warns(UserWarning, match="libdevice"):
        f = jit(fn, target="cuda", signature=sig)
    assert f.signatures == []


def test_kernels_without_transcendentals_need_no_libdevice(monkeypatch, tmp_path):
    monkeypatch.setenv("HANAJIT_LIBDEVICE", str(tmp_path / "missing.bc"))
    fn, sig = K.KERNELS["saxpy"]
    f = jit(fn, target="cuda", signature=sig, fallback=False)
    assert f.inspect_gpu().count(".entry") == 1


def test_gpu_arch_option_and_environment(monkeypatch):
    fn, sig = K.KERNELS["saxpy"]
    assert ".target sm_86" in jit(fn, target="cuda", signature=sig,
                                  gpu_arch="sm_86").inspect_gpu()
    monkeypatch.setenv("HANAJIT_CUDA_ARCH", "sm_80")
    assert ".target sm_80" in jit(fn, target="cuda", signature=sig).inspect_gpu()
    monkeypatch.delenv("HANAJIT_CUDA_ARCH")
    assert ".target sm_75" in jit(fn, target="cuda", signature=sig).inspect_gpu()
    with pytest.raises(ValueError, match="not a CUDA architecture"):
        toolchain.gpu_arch({"gpu_arch": "compute_xx"})


def test_allocation_in_a_kernel_is_refused():
    import numpy as np

    def alloc(out):
        t = np.zeros(4)
        out[0] = t[0]

    with pytest.raises(UnsupportedError, match="cannot allocate arrays"):
        jit(alloc, target="cuda", signature="f64[:]", fallback=False)


def test_returning_a_value_is_ignored():
    def k(y):
        y[0] = 1.0
        return 0

    ptx = jit(k, target="cuda", signature="f64[:]", fallback=False).inspect_gpu()
    assert ".entry hj_kernel(" in ptx


def test_scalar_kinds_and_complex_arguments(tmp_path):
    def k(out, a, b, c, d, z):
        out[0] = a + b + c + z.real
        out[1] = 1.0 if d else 0.0

    f = jit(k, target="cuda", signature="f32[:], f32, i32, u8, bool, c128",
            fallback=False)
    ptx = f.inspect_gpu()
    # out: ptr + shape + stride; a, b, c, d; z: two doubles; plus the error pointer
    assert ptx.count(".param .u64") + ptx.count(".param .f64") == 1 + 3 + 4 + 2
    if PTXAS is not None:
        assert ptxas(ptx, "sm_75", tmp_path).returncode == 0


def test_llvm_crash_is_an_error_not_an_abort():
    from hanajit_cuda.ptx import emit_in_subprocess
    bad = ('target triple = "nvptx64-nvidia-cuda"\n'
           'declare double @llvm.exp.f64(double)\n'
           'define ptx_kernel void @hj_kernel(ptr %p) {\n'
           '  %x = load double, ptr %p\n  %y = call double @llvm.exp.f64(double %x)\n'
           '  store double %y, ptr %p\n  ret void\n}\n')
    with pytest.raises(UnsupportedError, match="NVPTX codegen"):
        emit_in_subprocess(bad, "sm_75", None)


def test_pointer_signature_means_a_contiguous_array(tmp_path):
    def saxpy_ptr(y, x, a, n):
        i = block_id() * block_dim() + thread_id()  # noqa: F821
        if i < n:
            y[i] = a * x[i] + y[i]
        return 0

    f = jit(saxpy_ptr, target="cuda", signature="f64*, f64*, f64, i64", fallback=False)
    from hanajit.ir import types as T
    c64 = T.ArrayType(T.FLOAT64, 1, "C")
    assert f.signatures == [(c64, c64, T.FLOAT64, T.INT64)]
    ptx = f.inspect_gpu("f64*, f64*, f64, i64")
    if PTXAS is not None:
        assert ptxas(ptx, "sm_75", tmp_path).returncode == 0
    from hanajit.signature import parse_signature  # the same on the CPU
    assert [tuple(k) for k in parse_signature("f64*, f64*, f64, i64")] == f.signatures


def test_kernel_annotation_for_older_llvm(tmp_path):
    """LLVM < 20 has no ptx_kernel calling convention: the worker marks the kernel
    with nvvm.annotations instead (LLVM 22 still reads that form)."""
    from hanajit_cuda.codegen import lower_kernel
    from hanajit_cuda.ptx import emit
    f = kernel("saxpy")
    text, _ = lower_kernel(f.ir_module())
    out = emit({"ir": text, "arch": "sm_75", "libdevice": None, "annotate": True})
    assert ".visible .entry hj_kernel(" in out["ptx"]
    if PTXAS is not None:
        assert ptxas(out["ptx"], "sm_75", tmp_path).returncode == 0
