"""Every kernel of the GPU case list (``hanajit.testing.cases_kernels`` and
``cases_kernel_programs``) and of ``hip_kernels.py`` compiled for gfx90a and
gfx1100 into code objects that the real LLVM tools read back: ``llvm-readelf
--notes`` shows the target id, code object v5, the kernel descriptor and
argument metadata matching the signature, the symbol table only the kernel and
its 64-byte descriptor; ``llvm-objdump -d`` disassembles the kernel.  Math links
ROCm's device libraries, and refuses with instructions without them; options,
the ``amd`` alias."""
from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest
from hanajit import jit, plugins
from hanajit.errors import UnsupportedError
from hanajit.testing import cases_kernel_programs, cases_kernels
from hanajit.testing.sourcefile import load_sibling
from hanajit_hip import code_object, toolchain
from hanajit_hip.codegen import param_kinds

K = load_sibling(__file__, "hip_kernels.py", "hanajit_hip_test_kernels")
LLD = toolchain.find_lld()
READELF = toolchain.find_readelf()
OBJDUMP = toolchain.find_objdump()
LIBS = toolchain.find_device_libs()
ARCHS = ("gfx90a", "gfx1100")
pytestmark = pytest.mark.skipif(LLD is None, reason="ld.lld 15+ not found "
                                "(apt-get install lld-19, or HANAJIT_LD_LLD)")
needs_tools = pytest.mark.skipif(READELF is None or OBJDUMP is None,
                                 reason="llvm-readelf/llvm-objdump 15+ not found "
                                 "(apt-get install llvm-19)")
MATH = {"transcendental", "float32_math"}
_SHORT = {"float64": "f64", "float32": "f32", "int64": "i64"}


def case_signature(name: str) -> str:
    """The signature KernelConformance compiles a case of the GPU case list with."""
    kernel, dtype, make, _ = cases_kernels.KERNELS[name]
    return ", ".join([f"{_SHORT[np.dtype(dtype).name]}[:]"]
                     + [f"{_SHORT[a.dtype.name]}[:]" for a in make()] + ["i64"])


ALL = {**{f"case:{n}": (k[0], case_signature(n))
          for n, k in cases_kernels.KERNELS.items()},
       **{f"program:{n}": (p.kernel, p.signature)
          for n, p in cases_kernel_programs.PROGRAMS.items()}, **K.KERNELS}
_cache: dict = {}


def compiled(name: str):
    """(jitted function, artifact) for both architectures, compiled once."""
    if name not in _cache:
        if name.split(":")[-1] in MATH and LIBS is None:
            pytest.skip("ROCm device libraries not found (apt-get install "
                        "rocm-device-libs, or HANAJIT_ROCM_DEVICE_LIBS)")
        fn, sig = ALL[name]
        jf = jit(fn, target="hip", signature=sig, gpu_arch=",".join(ARCHS),
                 fallback=False)
        _cache[name] = (jf, jf._pick(None).artifact)
    return _cache[name]


def symbols(hsaco: bytes, tmp_path) -> str:
    path = tmp_path / "k.hsaco"
    path.write_bytes(hsaco)
    return subprocess.run([READELF, "--symbols", "--file-header", str(path)],
                          capture_output=True, text=True, timeout=60).stdout


@needs_tools
@pytest.mark.parametrize("name", sorted(ALL))
def test_code_object(name, tmp_path):
    jf, art = compiled(name)
    assert list(art.stages["hsaco"]) == list(ARCHS)
    kinds = param_kinds(jf._pick(None).module.functions[jf._pick(None).module.entry])
    for arch, blob in art.stages["hsaco"].items():
        assert blob[:4] == b"\x7fELF"
        meta = code_object.parse_notes(code_object.notes(blob))
        assert meta["target"] == f"amdgcn-amd-amdhsa--{arch}"
        assert meta["version"] == [1, 2]                   # code object v5
        assert list(meta["kernels"]) == ["hj_kernel"]
        kernel = meta["kernels"]["hj_kernel"]
        assert kernel["symbol"] == "hj_kernel.kd"
        assert kernel["args"] == code_object.expected_args(kinds)
        syms = symbols(blob, tmp_path)
        assert "OS/ABI:                            AMDGPU - HSA" in syms
        assert "ABI Version:                       3" in syms    # v5
        exported = [line.split()[-1] for line in syms.splitlines()
                    if " GLOBAL " in line or " WEAK " in line]
        assert set(exported) == {"hj_kernel", "hj_kernel.kd"}, exported
        kd = next(line for line in syms.splitlines() if line.endswith(" hj_kernel.kd"))
        assert " 64 OBJECT " in kd                  # the kernel descriptor's size
        asm = code_object.disassemble(blob, arch)
        assert "<hj_kernel>:" in asm and "s_endpgm" in asm


@needs_tools
def test_inspect_gpu_shows_notes_and_disassembly():
    text = compiled("saxpy")[0].inspect_gpu()
    for arch in ARCHS:
        assert f"; AMDGPU code object for {arch}" in text
        assert f"amdhsa.target:   amdgcn-amd-amdhsa--{arch}" in text
        assert f"; llvm-objdump -d --mcpu={arch}" in text
    assert text.count("<hj_kernel>:") == 2


def test_inspect_gpu_without_objdump(monkeypatch):
    art = compiled("saxpy")[1]
    monkeypatch.setattr(toolchain, "find_objdump", lambda: None)
    text = plugins.get_target("hip").assembly(art)
    assert "llvm-objdump 15 or later not found" in text
    assert 'define amdgpu_kernel void @"hj_kernel"' in text or \
        "define amdgpu_kernel void @hj_kernel" in text


def test_wave_sizes_and_barrier():
    art = compiled("block_sums")[1]
    assert "s_barrier" in code_object.disassemble(art.stages["hsaco"]["gfx90a"],
                                                  "gfx90a")
    notes = {a: code_object.notes(b) for a, b in art.stages["hsaco"].items()}
    assert ".wavefront_size: 64" in notes["gfx90a"]
    assert ".wavefront_size: 32" in notes["gfx1100"]
    assert ".group_segment_fixed_size: 2048" in notes["gfx90a"]    # 256 float64


@pytest.mark.skipif(LIBS is None, reason="ROCm device libraries not found")
def test_math_links_ocml_internally():
    art = compiled("case:transcendental")[1]
    assert art.metadata["ocml"] == ["__ocml_exp_f64", "__ocml_log1p_f64",
                                    "__ocml_sin_f64"]
    assert art.metadata["device_libs"] == LIBS
    for text in art.metadata["llvm"].values():
        lines = text.splitlines()
        # every device-library function used is linked in, and internal like the
        # control constants: the code object exports only the kernel
        assert all("@llvm." in x for x in lines if x.startswith("declare"))
        assert all(" internal " in x or "hj_kernel" in x
                   for x in lines if x.startswith("define"))
        consts = [x for x in lines if x.startswith("@__oclc_")]
        assert all(" internal " in x for x in consts)
    art32 = compiled("float32_math")[1]
    assert "__ocml_exp_f32" in art32.metadata["ocml"]


def test_control_constants():
    files, ir = toolchain.device_library(LIBS or "/nonexistent", "gfx1100")
    assert "constant i32 11000" in ir or any(f.endswith("_1100.bc") for f in files)
    assert toolchain.isa_version("gfx90a") == 9010
    assert toolchain.isa_version("gfx942") == 9402
    assert toolchain.wavefront64("gfx90a") and not toolchain.wavefront64("gfx1100")
    if LIBS is not None:
        files, ir = toolchain.device_library(LIBS, "gfx90a")
        names = {os.path.basename(f) for f in files}
        assert {"ocml.bc", "ockl.bc", "oclc_finite_only_off.bc",
                "oclc_unsafe_math_off.bc", "oclc_daz_opt_off.bc",
                "oclc_correctly_rounded_sqrt_on.bc", "oclc_wavefrontsize64_on.bc",
                "oclc_isa_version_90a.bc", "oclc_abi_version_500.bc"} <= names
        assert ir == ""


def test_math_without_device_libs_refuses(monkeypatch):
    monkeypatch.setenv("HANAJIT_ROCM_DEVICE_LIBS", "/nonexistent")
    fn, sig = ALL["case:transcendental"]
    with pytest.raises(UnsupportedError, match="rocm-device-libs") as info:
        jit(fn, target="hip", signature=sig, gpu_arch="gfx90a", fallback=False)
    assert "__ocml_exp_f64" in str(info.value)
    assert "HANAJIT_ROCM_DEVICE_LIBS" in str(info.value)
    fn, sig = ALL["case:float_arith"]        # no math: still compiles
    jf = jit(fn, target="hip", signature=sig, gpu_arch="gfx90a", fallback=False)
    assert list(jf._pick(None).artifact.stages["hsaco"]) == ["gfx90a"]


def test_undefined_functions_refuse():
    """A call nothing defines would pass ld.lld -shared and fail only when the
    runtime loads the code object: refused when compiling."""
    from hanajit_hip import hsaco

    class Fn:
        pyname = "k"
    text = ('declare double @"mystery"(double)\n'
            'define amdgpu_kernel void @"hj_kernel"(ptr addrspace(1) %p) {\n'
            '  %v = call double @"mystery"(double 1.0)\n'
            '  store double %v, ptr addrspace(1) %p\n  ret void\n}\n')
    with pytest.raises(UnsupportedError, match="would call mystery"):
        hsaco.build(Fn, text, [], ("gfx90a",))


def test_without_lld_refuses(monkeypatch):
    monkeypatch.setattr(toolchain, "find_lld", lambda: None)
    with pytest.raises(UnsupportedError, match="lld-19"):
        jit(K.saxpy, target="hip", signature=ALL["saxpy"][1], fallback=False)


def test_gpu_arch_option(monkeypatch):
    monkeypatch.delenv("HANAJIT_HIP_ARCH", raising=False)
    assert toolchain.gpu_archs() == ("gfx90a", "gfx1100")
    assert toolchain.gpu_archs({"gpu_arch": "gfx942"}) == ("gfx942",)
    assert toolchain.gpu_archs({"gpu_arch": ["gfx90a", "GFX1030", "gfx90a"]}) == (
        "gfx90a", "gfx1030")
    monkeypatch.setenv("HANAJIT_HIP_ARCH", "gfx908, gfx1101")
    assert toolchain.gpu_archs() == ("gfx908", "gfx1101")
    for bad in ("sm_80", "gfx", "gfx90a;rm"):
        with pytest.raises(ValueError, match="AMD GPU architecture"):
            toolchain.gpu_archs({"gpu_arch": bad})


def test_amd_alias():
    target = plugins.get_target("amd")
    assert target is plugins.get_target("hip") and target.name == "hip"
    jf = jit(K.saxpy, target="amd", signature=ALL["saxpy"][1], gpu_arch="gfx90a",
             fallback=False)
    assert jf._pick(None).artifact.target == "hip"
