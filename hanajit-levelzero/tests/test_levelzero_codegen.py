"""SPIR-V for every test kernel, checked by ``spirv-val``; math as OpenCL.std extended
instructions; the ``intel`` alias; refusals by capability; the OpenCL route's
rewrite of scalar ``OpConstantNull`` and its translation by ``llvm-spirv-15 -r``."""
from __future__ import annotations

import struct

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.sourcefile import load_sibling
from hanajit_levelzero import codegen, opencl_route, spirv_tools

K = load_sibling(__file__, "levelzero_kernels.py", "hanajit_levelzero_test_kernels")
HAVE_VAL = spirv_tools.tool("spirv-val") is not None
HAVE_DIS = spirv_tools.tool("spirv-dis") is not None
_cache: dict = {}


def kernel(name, target="levelzero"):
    if name not in _cache:
        fn, sig = K.KERNELS[name]
        _cache[name] = jit(fn, target=target, signature=sig, fallback=False)
    return _cache[name]


def spirv_of(jf) -> bytes:
    [spec] = jf._compiled.values()
    return spec.artifact.stages["spirv"]


@pytest.mark.parametrize("name", sorted(K.KERNELS))
def test_every_kernel_is_valid_spirv(name):
    spv = spirv_of(kernel(name))
    assert struct.unpack("<I", spv[:4])[0] == 0x07230203
    if not HAVE_VAL:
        pytest.skip("spirv-val not found (apt-get install spirv-tools)")
    ok, message = spirv_tools.validate(spv, env="spv1.4")
    assert ok, message


@pytest.mark.skipif(not HAVE_DIS, reason="spirv-dis not found")
def test_kernel_entry_and_opencl_math():
    text = kernel("transcendentals").inspect_gpu()
    assert "OpEntryPoint Kernel" in text and '"hj_kernel"' in text
    assert 'OpExtInstImport "OpenCL.std"' in text
    for inst in ("exp", "sin", "log", "pow"):
        assert f"OpExtInst %double %1 {inst} " in text, inst
    text32 = kernel("transcendentals32").inspect_gpu()
    for inst in ("exp", "atan2", "log1p"):     # math.* of a float32 is a float
        assert f"OpExtInst %double %1 {inst} " in text32, inst
    assert "OpExtInst %float %1 pow " in text32   # float32 ** float32 stays float32
    assert "OpControlBarrier" in kernel("block_sums").inspect_gpu()
    assert "Workgroup" in kernel("histogram").inspect_gpu()


def test_the_intel_alias_is_the_levelzero_target():
    jf = jit(K.saxpy, target="intel", signature=K.KERNELS["saxpy"][1], fallback=False)
    assert jf.options["target"] == "levelzero"
    assert spirv_of(jf) == spirv_of(kernel("saxpy"))


def test_builtins_get_their_itanium_names():
    text = ('declare double @"hj.ocl.atan2"(double %".1", double %".2") nounwind\n'
            'declare float @"hj.ocl.exp.f32"(float %".1")\n'
            '  %"x" = call double @"hj.ocl.atan2"(double %"a", double %"b")\n')
    out = codegen.mangle_builtins(text)
    assert "@_Z5atan2dd(" in out and "@_Z3expf(" in out and "hj.ocl" not in out


def test_allocating_in_a_kernel_is_refused():
    def alloc(out):
        tmp = np.zeros(4)
        out[0] = tmp[0]

    with pytest.raises(UnsupportedError, match="cannot allocate arrays"):
        jit(alloc, target="levelzero", signature="f64[:]", fallback=False)


# -- the OpenCL route's rewrite --------------------------------------------------------
def _op(opcode, *operands):
    return [((1 + len(operands)) << 16) | opcode, *operands]


def test_scalar_nulls_become_zero_constants():
    header = [0x07230203, 0x00010400, 0, 10, 0]
    body = (_op(21, 1, 64, 0) + _op(22, 2, 32) + _op(20, 3) + _op(46, 1, 4)
            + _op(46, 2, 5) + _op(46, 3, 6))
    words = header + body
    out = opencl_route.scalar_nulls_to_constants(struct.pack(f"<{len(words)}I", *words))
    got = list(struct.unpack(f"<{len(out) // 4}I", out))
    assert got[:5] == header
    assert got[5:] == (_op(21, 1, 64, 0) + _op(22, 2, 32) + _op(20, 3)
                       + _op(43, 1, 4, 0, 0) + _op(43, 2, 5, 0) + _op(41, 3, 6))


@pytest.mark.skipif(opencl_route.translator() is None, reason="llvm-spirv-15 not found")
@pytest.mark.parametrize("name", ["saxpy", "raises", "transcendentals", "block_sums"])
def test_llvm_spirv_15_reads_the_module_back(name):
    bc = opencl_route.spir_bitcode(spirv_of(kernel(name)))
    assert bc[:4] == b"BC\xc0\xde"


@pytest.mark.skipif(not (HAVE_VAL and HAVE_DIS), reason="spirv-val/spirv-dis not found")
@pytest.mark.parametrize("name", ["histogram", "shared_atomics"])
def test_generic_atomics_cast_to_global_stay_valid(name):
    spv = spirv_of(kernel(name))
    out = opencl_route.generic_atomics_to_global(spv)
    ok, message = spirv_tools.validate(out, env="spv1.4")
    assert ok, message
    text = spirv_tools.disassemble(out)
    defs = {line.split("=")[0].strip(): line for line in text.splitlines()
            if " = " in line}
    atomics = [line.split() for line in text.splitlines() if " OpAtomic" in line]
    assert len(atomics) > 1
    for words in atomics:
        pointer = words[1] if words[0] == "OpAtomicStore" else words[4]
        assert "_ptr_Generic" not in defs[pointer], (" ".join(words), defs[pointer])
    assert "OpGenericCastToPtr" in text


def test_the_route_refuses_what_pocl_cannot_build():
    bounded = kernel("block_sums")
    [spec] = bounded._compiled.values()
    assert spec.artifact.metadata["can_raise"]       # the bounds checks
    assert "barrier()" in opencl_route.refusal(spec.artifact, cpu_device=True)
    fn, sig = K.KERNELS["block_sums"]
    unchecked = jit(fn, target="levelzero", signature=sig, fallback=False,
                    boundscheck=False)
    [spec] = unchecked._compiled.values()
    # ``step // 2`` cannot divide by zero: no raise survives optimisation
    assert not spec.artifact.metadata["can_raise"]
    assert opencl_route.refusal(spec.artifact, cpu_device=True) is None
    [spec] = kernel("shared_atomics")._compiled.values()
    assert "need a CPU device" in opencl_route.refusal(spec.artifact, cpu_device=False)
