"""Typed IR module -> SPIR-V compute shader (stages ``"llvm"`` and ``"spirv"``).

Core prints the functions and the kernel entry from the :data:`~hanajit.lowering.
kernel_model.VULKAN` row (logical addressing: buffers by binding, scalars in push
constants; ``hanajit/lowering/kernel_logical.py``).  The workgroup size is part of
the shader (``hlsl.numthreads``; LLVM 22 cannot make it a specialisation
constant), so a kernel is lowered once per workgroup size: :func:`compile_kernel`
takes it, and the launcher asks for the block size of each launch.  Codegen runs in
a child process (``kernel_emit``): LLVM's SPIR-V backend aborts on some input, and
the row's ``post_emit`` fixes the barrier semantics there.
"""
from __future__ import annotations

import dataclasses
import os

from hanajit.errors import UnsupportedError
from hanajit.lowering import kernel_lower
from hanajit.lowering.kernel_lower import param_kinds
from hanajit.lowering.kernel_model import VULKAN
from hanajit.lowering.llvm import LLVMTargetInfo
from hanajit.toolkit.kernel_emit import emit_kernel

KERNEL = "main"
LOCAL_SIZE_ENV = "HANAJIT_VULKAN_LOCAL_SIZE"
DEFAULT_LOCAL_SIZE = (64, 1, 1)

# GLSL.std.450 functions LLVM's SPIR-V backend prints for ``llvm.<name>`` (32-bit
# floats; float64 keeps only the exact ones, ``VULKAN.float64_math``: the others
# are core's software versions, ``softmath=True``)
_INTRINSICS = {"sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign", "fma",
               "exp", "exp2", "log", "log2", "sin", "cos", "tan", "asin", "acos",
               "atan", "sinh", "cosh", "tanh", "atan2", "pow",
               "smin", "smax", "umin", "umax", "ctpop"}


class VulkanMath(dict):
    """Intrinsic name -> how SPIR-V (Vulkan) spells it: LLVM intrinsics, which the
    backend maps to GLSL.std.450; the others stay library calls, which
    ``kernel_logical.check_math`` refuses."""

    def __bool__(self):
        return True

    def get(self, name, default=None):
        if name == "fmod":
            return ("frem", "")
        if name in _INTRINSICS:
            return ("llvm", "llvm." + name)
        return ("libm", name)


def local_size(block=None) -> tuple[int, int, int]:
    """The workgroup size of ``block`` (an int or a 1-3 tuple), else of
    ``$HANAJIT_VULKAN_LOCAL_SIZE`` ("64" or "8,8,1"), else 64."""
    if block is None:
        text = os.environ.get(LOCAL_SIZE_ENV, "").strip()
        if not text:
            return DEFAULT_LOCAL_SIZE
        try:
            block = tuple(int(x) for x in text.replace("x", ",").split(","))
        except ValueError:
            raise ValueError(f"{LOCAL_SIZE_ENV}={text!r}: expected 1-3 integers such "
                             "as 64 or 8,8,1") from None
    if isinstance(block, int):
        block = (block,)
    block = tuple(int(b) for b in block) + (1,) * (3 - len(tuple(block)))
    if len(block) != 3 or min(block) < 1:
        raise ValueError(f"workgroup size {block}: expected 1-3 positive integers")
    return block


def row(size: tuple[int, int, int]):
    """The VULKAN row with its workgroup size fixed to ``size``."""
    return dataclasses.replace(
        VULKAN, block_dim=dataclasses.replace(VULKAN.block_dim, values=tuple(size)))


def target_info(size) -> LLVMTargetInfo:
    return LLVMTargetInfo(triple=VULKAN.triple, data_layout="", math=VulkanMath(),
                          float32_suffix="f", gpu=row(size), softmath=True)


def lower(module, size, capabilities) -> str:
    """The kernel's LLVM IR text for workgroup ``size`` (before optimisation)."""
    return kernel_lower.kernel_text(module, target_info(size), capabilities, KERNEL,
                                    target="the vulkan target")


# the second arrangement of the kernel's returns (``spirv_patch``): returns in
# place (the row's ``duplicate_returns``) suit most kernels; a return before a
# loop inside an ``if`` (hanajit.philox's normals: ``philox_stream`` raising
# before the ziggurat's loop) needs them to meet at the ``if``'s merge instead
# (``early_returns``).  LLVM 22's structuriser gets each wrong on a kernel the
# other suits (measured: tree_sum, normals), so the second is tried only when
# spirv-val rejects the first.
EARLY_RETURNS = tuple(f for f in VULKAN.pre_emit if f != "duplicate_returns") + (
    "early_returns",)


def compile_kernel(module, size, capabilities) -> dict:
    """``{"llvm": optimised IR, "spirv": bytes, "params": flattened kinds}``."""
    from . import tools
    text = lower(module, size, capabilities)
    out = emit_kernel(text, row(size), emit=("obj",))
    if tools.find("spirv-val") is not None and not tools.validate(out["obj"])[0]:
        second = emit_kernel(text, dataclasses.replace(row(size), pre_emit=EARLY_RETURNS),
                             emit=("obj",))
        if tools.validate(second["obj"])[0]:
            out = second
    return {"llvm": out["llvm"], "spirv": out["obj"],
            "params": param_kinds(module.functions[module.entry])}


__all__ = ["KERNEL", "UnsupportedError", "compile_kernel", "local_size", "lower"]
