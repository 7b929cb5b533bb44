"""Typed IR module -> NVPTX LLVM IR with a kernel entry (stage ``"llvm"``).

Core prints the functions (``hanajit.lowering.llvm``) and the kernel entry
(``hanajit.lowering.kernel_lower``) from data this module supplies: the
:data:`NVPTX` kernel-model row (special registers for ``GpuIndex``, ``bar.sync``
for ``Barrier``, address space 3 for ``SharedArray``, the ``ptx_kernel`` calling
convention) and math spelt as libdevice ``__nv_*`` functions.  The kernel entry
is ``hj_kernel(ptr err, <flattened arguments>)``; ``kernel_lower`` documents the
argument layout and the error record, which the launcher (``launch.py``) reads.
"""
from __future__ import annotations

from hanajit.ir import nodes as N
from hanajit.lowering import kernel_lower
from hanajit.lowering.kernel_lower import param_kinds  # noqa: F401  (launch packing)
from hanajit.lowering.kernel_model import Builtin, KernelModel, Step
from hanajit.lowering.llvm import LLVMTargetInfo

from .ptx import KERNEL, TRIPLE

DATA_LAYOUT = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"

# math the NVPTX backend implements exactly (IEEE: sqrt.rn, cvt.rmi ...)
_NATIVE = {"sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign", "fma"}
_INTEGER = {"smin", "smax", "umin", "umax", "ctpop"}


class NvptxMath(dict):
    """Intrinsic name -> how NVPTX spells it: LLVM intrinsics for exact native
    operations, libdevice ``__nv_<name>`` (``__nv_<name>f`` for float32) for the
    rest, which must then be linked in."""

    def __bool__(self):
        return True

    def get(self, name, default=None):
        if name in _NATIVE or name in _INTEGER:
            return ("llvm", "llvm." + name)
        return ("libm", "__nv_" + name)


# the kernel model on NVPTX: special registers, bar.sync, generic pointers as
# kernel parameters (as before address-space inference), ptx_kernel
NVPTX = KernelModel(
    name="NVPTX",
    triple=TRIPLE,
    data_layout=DATA_LAYOUT,
    cpu="sm_75",
    thread=Builtin("intrinsic", "llvm.nvvm.read.ptx.sreg.tid.{axis}"),
    block=Builtin("intrinsic", "llvm.nvvm.read.ptx.sreg.ctaid.{axis}"),
    block_dim=Builtin("intrinsic", "llvm.nvvm.read.ptx.sreg.ntid.{axis}"),
    grid_dim=Builtin("intrinsic", "llvm.nvvm.read.ptx.sreg.nctaid.{axis}"),
    barrier=(Step(call="llvm.nvvm.barrier0"),),
    shared_addrspace=3,
    global_addrspace=0,
    kernel_cc="ptx_kernel",
)


def target_info() -> LLVMTargetInfo:
    return LLVMTargetInfo(triple=TRIPLE, data_layout=DATA_LAYOUT, math=NvptxMath(),
                          float32_suffix="f", gpu=NVPTX)


def lower_kernel(module: N.Module) -> tuple[str, bool]:
    """NVPTX LLVM IR text of the module plus its kernel entry; and whether it calls
    libdevice."""
    from .target import CudaTarget
    llmod = kernel_lower.lower_kernel(module, target_info(), CudaTarget.capabilities,
                                      KERNEL, target="the cuda target")
    uses_libdevice = any(g.name.startswith("__nv_") for g in llmod.functions
                         if g.is_declaration)
    return kernel_lower.address_spaces(str(llmod), NVPTX), uses_libdevice
