"""Typed IR module -> AMDGPU LLVM IR with a kernel entry.

Core prints the functions (``hanajit.lowering.llvm``) and the kernel entry
(``hanajit.lowering.kernel_lower``) from core's :data:`~hanajit.lowering.
kernel_model.AMDGPU` row (work-item intrinsics, the HSA dispatch packet for
block and grid sizes, ``s_barrier`` between workgroup fences, LDS address space
3, private allocas in address space 5, ``amdgpu_kernel``, code object v5).  Math
that AMDGPU does not implement exactly in hardware is spelt as ROCm's device
library (``__ocml_<name>_f64`` / ``_f32``), linked by ``hsaco.py``.  The kernel
entry is ``hj_kernel(ptr err, <flattened arguments>)``; ``kernel_lower``
documents the argument layout and the error record, which the launcher reads.
"""
from __future__ import annotations

import re

from hanajit.ir import nodes as N
from hanajit.lowering import kernel_lower
from hanajit.lowering.kernel_lower import param_kinds  # noqa: F401  (launch packing)
from hanajit.lowering.kernel_model import AMDGPU
from hanajit.lowering.llvm import LLVMTargetInfo

KERNEL = "hj_kernel"            # the kernel entry's symbol

# math the AMDGPU backend implements exactly (IEEE sqrt, rounding, sign, fma)
_NATIVE = {"sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign", "fma"}
_INTEGER = {"smin", "smax", "umin", "umax", "ctpop"}
# what the lowering prints for a device-library function; renamed to ocml's
# spelling (``__ocml_exp_f64``, ``__ocml_exp_f32``) before codegen
_PLACEHOLDER = "hj.ocml."
_F32 = ".f32"
_OCML_CALL = re.compile(r'@"hj\.ocml\.(\w+?)(\.f32)?"')


class AmdgpuMath(dict):
    """Intrinsic name -> how AMDGPU spells it: LLVM intrinsics for exact native
    operations, ROCm's ``ocml`` for the rest (which must then be linked in)."""

    def __bool__(self):
        return True

    def get(self, name, default=None):
        if name in _NATIVE or name in _INTEGER:
            return ("llvm", "llvm." + name)
        return ("libm", _PLACEHOLDER + name)


def target_info() -> LLVMTargetInfo:
    return LLVMTargetInfo(triple=AMDGPU.triple, data_layout=AMDGPU.data_layout,
                          math=AmdgpuMath(), float32_suffix=_F32, gpu=AMDGPU)


def ocml_names(text: str) -> str:
    """``@"hj.ocml.exp"`` -> ``@"__ocml_exp_f64"``, ``@"hj.ocml.exp.f32"`` ->
    ``@"__ocml_exp_f32"``."""
    return _OCML_CALL.sub(
        lambda m: f'@"__ocml_{m.group(1)}_{"f32" if m.group(2) else "f64"}"', text)


def lower_kernel(module: N.Module, capabilities) -> tuple[str, list]:
    """AMDGPU LLVM IR text of the module plus its kernel entry; and the device
    library functions it calls (``__ocml_exp_f64`` ...), sorted."""
    llmod = kernel_lower.lower_kernel(module, target_info(), capabilities, KERNEL,
                                      target="the hip target")
    text = ocml_names(kernel_lower.address_spaces(str(llmod), AMDGPU))
    ocml = sorted(set(re.findall(r'declare [^@\n]*@"(__ocml_\w+)"', text)))
    return text, ocml
