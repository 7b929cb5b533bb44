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

What the route cannot run is refused by :func:`refusal` before building,
naming the reason:

* PoCL's OpenCL 1.2 library has no atomics on generic pointers
  (``_Z10atomic_addPU3AS4Vii`` ... are missing at link time), and the
  translator turns LLVM's atomics on the kernel's generic pointers into those
  calls: a kernel with ``atomic_*()`` is refused on this route.
* PoCL's work-group compilation of a kernel that waits at a barrier while a
  raise exit (a bounds check) sits between the barriers did not finish in four
  minutes: a kernel with ``barrier()`` is refused unless compiled with
  ``boundscheck=False`` (or otherwise free of raises).
"""
from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
from pathlib import Path

TRANSLATOR = ("llvm-spirv-15", "llvm-spirv")
BUILD_OPTIONS = ("-x", "spir", "-spir-std=1.2", "-cl-fp32-correctly-rounded-divide-sqrt")

_OP_TYPE_BOOL, _OP_TYPE_INT, _OP_TYPE_FLOAT = 20, 21, 22
_OP_CONSTANT_FALSE, _OP_CONSTANT, _OP_CONSTANT_NULL = 41, 43, 46
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
                inst = [((3 + width) << 16) | _OP_CONSTANT, inst[1], inst[2]] + [0] * width
        out += inst
        i += count
    return struct.pack(f"<{len(out)}I", *out)


def spir_bitcode(spirv: bytes, timeout: float = 120) -> bytes:
    """SPIR 1.2 bitcode (LLVM 15) of the module, for ``clCreateProgramWithBinary``-
    style builds with :data:`BUILD_OPTIONS`."""
    tool = translator()
    if tool is None:
        raise RouteError("llvm-spirv-15 not found (apt-get install llvm-spirv-15)")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "kernel.spv", Path(tmp) / "kernel.bc"
        src.write_bytes(scalar_nulls_to_constants(spirv))
        proc = subprocess.run([tool, "-r", "--spirv-target-env=CL1.2", str(src),
                               "-o", str(dst)], capture_output=True, text=True,
                              timeout=timeout)
        if proc.returncode != 0:
            tail = "\n".join(proc.stderr.strip().splitlines()[:5])
            raise RouteError(f"{Path(tool).name} -r failed (status "
                             f"{proc.returncode}): {tail}")
        return dst.read_bytes()


def refusal(artifact) -> str | None:
    """Why the route cannot run ``artifact`` (None if it can): see the module
    docstring."""
    uses = artifact.metadata.get("uses", ())
    if "atomics" in uses:
        return ("atomic operations on this OpenCL route (PoCL's OpenCL 1.2 library has "
                "no atomics on generic pointers); a Level Zero driver runs them")
    if "barrier" in uses and artifact.metadata["raises"]:
        return ("a kernel waiting at barrier() that can raise (bounds checks) on this "
                "OpenCL route (PoCL's work-group compile does not finish); compile it "
                "with boundscheck=False, or use a Level Zero driver")
    return None
