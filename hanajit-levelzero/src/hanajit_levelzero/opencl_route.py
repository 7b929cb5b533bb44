"""The OpenCL route: the target's SPIR-V module on an OpenCL device that cannot take
SPIR-V (PoCL 3.1, Debian's CPU OpenCL), through ``llvm-spirv-15 -r``.

Every workaround the route needs is here, and nowhere else:

* **Scalar OpConstantNull.**  LLVM's SPIR-V backend prints a zero of a scalar
  type as ``OpConstantNull``; the LLVM 15 translator asserts on it (it accepts it
  only for composite and pointer types).  :func:`scalar_nulls_to_constants`
  rewrites it in the binary as ``OpConstant 0`` (``OpConstantFalse`` for a bool):
  the same value, so the module Level Zero gets and the one PoCL runs compute
  the same thing.
* **SPIR 1.2 bitcode.**  ``llvm-spirv-15 -r --spirv-target-env=CL1.2`` gives
  LLVM 15 bitcode that PoCL builds with ``-x spir -spir-std=1.2``
  (:func:`spir_bitcode`).
* **Exact float32 division and square root**: ``-cl-fp32-correctly-rounded-
  divide-sqrt`` is passed to every build, as the Level Zero launcher passes it
  to ``zeModuleCreate`` (OpenCL otherwise allows 2.5 ulp for ``/``).

* **Atomics on generic pointers.**  LLVM's SPIR-V backend leaves the kernel's
  atomics on Generic pointers (llvmlite's O3 pipeline has no address-space
  inference for SPIR-V), the translator turns them into OpenCL 1.2 calls such as
  ``_Z10atomic_addPU3AS4Vii``, and PoCL's library has only the global (AS1) and
  local (AS3) ones: the link fails.  :func:`generic_atomics_to_global` casts each
  such pointer to CrossWorkgroup (``OpGenericCastToPtr``) in the binary.  That
  is the identity only where every address space is one memory, PoCL's CPU
  device, so :func:`refusal` refuses atomics on any other OpenCL device.

What the route cannot run is refused by :func:`refusal` before building, naming
the reason (an UnsupportedError, never a wrong result or a crash):

* PoCL's work-group compiler and a kernel waiting at ``barrier()`` whose bounds
  checks put a raise exit between the barriers: the shared-memory reduction's
  compile did not finish in four minutes, and the histogram's aborted the
  process with an assertion in ``ParallelRegion::Verify`` ("Incoming edges to
  non-entry block").  Compiled with ``boundscheck=False`` both build in about
  3 s and compute NumPy's result.  So a kernel with barriers is refused on this
  route when its optimised code can still raise (``codegen.can_raise``: the
  compare-and-swap that claims the error record is still there; a raise LLVM
  proved impossible is gone).
* atomics on a device that is not a CPU (above).
"""
from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

TRANSLATOR = ("llvm-spirv-15", "llvm-spirv")
BUILD_OPTIONS = ("-x", "spir", "-spir-std=1.2",
                 "-cl-fp32-correctly-rounded-divide-sqrt")

_OP_TYPE_BOOL, _OP_TYPE_INT, _OP_TYPE_FLOAT = 20, 21, 22
_OP_CONSTANT_FALSE, _OP_CONSTANT, _OP_CONSTANT_NULL = 41, 43, 46
_OP_TYPE_POINTER, _OP_GENERIC_CAST_TO_PTR = 32, 122
_OP_ATOMIC_STORE = 228
_OP_ATOMICS = frozenset(range(227, 243))        # OpAtomicLoad .. OpAtomicXor
_CROSS_WORKGROUP, _GENERIC = 5, 8
# instructions (result type, result id, ...) that can give a pointer: OpUndef,
# OpSpecConstantOp, OpConstantNull, OpFunctionParameter, OpVariable, OpLoad,
# OpAccessChain .. OpInBoundsPtrAccessChain, OpCopyObject, OpConvertUToPtr,
# OpPtrCastToGeneric, OpGenericCastToPtr, OpBitcast, OpSelect, OpPhi
_POINTER_RESULTS = frozenset((1, 52, 46, 55, 59, 61, 65, 66, 67, 70, 83, 120, 121, 122,
                              124, 169, 245))
_MAGIC = 0x07230203


class RouteError(RuntimeError):
    """The OpenCL route cannot take this module (tool missing or failing)."""


def translator() -> str | None:
    for name in TRANSLATOR:
        path = shutil.which(name)
        if path:
            return path
    return None


def scalar_nulls_to_constants(spirv: bytes) -> bytes:
    """The module with every scalar ``OpConstantNull`` as ``OpConstant 0`` (one or
    two zero words by the type's width) or ``OpConstantFalse``."""
    words = list(struct.unpack(f"<{len(spirv) // 4}I", spirv))
    if words[0] != _MAGIC:
        raise RouteError("not a little-endian SPIR-V module")
    out, scalar = words[:5], {}            # result id -> 0 (bool) or width in words
    i = 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        inst = words[i:i + count]
        if op == _OP_TYPE_BOOL:
            scalar[inst[1]] = 0
        elif op in (_OP_TYPE_INT, _OP_TYPE_FLOAT):
            scalar[inst[1]] = 2 if inst[2] > 32 else 1
        elif op == _OP_CONSTANT_NULL and inst[1] in scalar:
            width = scalar[inst[1]]
            if width == 0:
                inst = [(3 << 16) | _OP_CONSTANT_FALSE, inst[1], inst[2]]
            else:
                inst = [((3 + width) << 16) | _OP_CONSTANT, inst[1], inst[2],
                        *[0] * width]
        out += inst
        i += count
    return struct.pack(f"<{len(out)}I", *out)


def _instructions(words):
    i = 5
    while i < len(words):
        count = words[i] >> 16
        yield words[i:i + count]
        i += max(count, 1)


def generic_atomics_to_global(spirv: bytes) -> bytes:
    """Every atomic instruction on a Generic pointer gets its pointer through
    ``OpGenericCastToPtr`` to CrossWorkgroup first (one new ``OpTypePointer
    CrossWorkgroup T`` per pointee type, declared after the Generic one).

    Only right where every address space is one memory -- PoCL's CPU device,
    where the cast is the identity -- which :class:`.opencl_driver.OpenCLDriver`
    checks; a Level Zero device gets the module unchanged."""
    words = list(struct.unpack(f"<{len(spirv) // 4}I", spirv))
    bound = words[3]
    generic = {}                           # Generic pointer type id -> pointee type
    value_type = {}                        # result id -> type id (atomic operands)
    for inst in _instructions(words):
        if inst[0] & 0xFFFF == _OP_TYPE_POINTER and inst[2] == _GENERIC:
            generic[inst[1]] = inst[3]
    if not generic:
        return spirv
    global_of = {}                         # pointee -> new CrossWorkgroup pointer type
    out = words[:5]
    for inst in _instructions(words):
        op = inst[0] & 0xFFFF
        if op in _OP_ATOMICS:
            at = 1 if op == _OP_ATOMIC_STORE else 3
            ptype = value_type.get(inst[at])
            if ptype in generic:
                cast = bound
                bound += 1
                out += [(4 << 16) | _OP_GENERIC_CAST_TO_PTR, global_of[generic[ptype]],
                        cast, inst[at]]
                inst = inst[:at] + [cast] + inst[at + 1:]
        elif op in _POINTER_RESULTS:
            value_type[inst[2]] = inst[1]
        out += inst
        if op == _OP_TYPE_POINTER and inst[1] in generic:
            pointee = inst[3]
            if pointee not in global_of:
                global_of[pointee] = bound
                bound += 1
                out += [(4 << 16) | _OP_TYPE_POINTER, global_of[pointee],
                        _CROSS_WORKGROUP, pointee]
    out[3] = bound
    return struct.pack(f"<{len(out)}I", *out)


def spir_bitcode(spirv: bytes, timeout: float = 120) -> bytes:
    """SPIR 1.2 bitcode (LLVM 15) of the module, for ``clCreateProgramWithBinary``-
    style builds with :data:`BUILD_OPTIONS`."""
    tool = translator()
    if tool is None:
        raise RouteError("llvm-spirv-15 not found (apt-get install llvm-spirv-15)")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "kernel.spv", Path(tmp) / "kernel.bc"
        src.write_bytes(generic_atomics_to_global(scalar_nulls_to_constants(spirv)))
        proc = subprocess.run([tool, "-r", "--spirv-target-env=CL1.2", str(src),
                               "-o", str(dst)], capture_output=True, text=True,
                              timeout=timeout, check=False)
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[:5])
            raise RouteError(f"{Path(tool).name} -r failed (status "
                             f"{proc.returncode}): {tail}")
        return dst.read_bytes()


def refusal(artifact, cpu_device: bool) -> str | None:
    """Why the route cannot run ``artifact`` (None if it can): see the module
    docstring."""
    uses = artifact.metadata.get("uses", ())
    if "atomics" in uses and not cpu_device:
        return ("atomic operations on this OpenCL route need a CPU device (PoCL's "
                "OpenCL 1.2 library has no atomics on generic pointers, and the route "
                "casts them to global ones); a Level Zero driver runs them")
    if "barrier" in uses and artifact.metadata.get("can_raise", True):
        return ("a kernel that waits at barrier() and can raise (a bounds check, a "
                "division by zero ...) on this OpenCL route: PoCL's work-group "
                "compiler hangs or aborts on a raise exit between barriers; compile "
                "it with boundscheck=False and without raising operations, or use a "
                "Level Zero driver")
    return None
