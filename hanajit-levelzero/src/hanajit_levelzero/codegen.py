"""Typed IR module -> OpenCL-flavoured SPIR-V (stages ``"llvm"`` and ``"spirv"``).

Core prints the functions (``hanajit.lowering.llvm``) and the kernel entry
(``hanajit.lowering.kernel_lower``) from core's :data:`~hanajit.lowering.
kernel_model.SPIRV_OPENCL` row: ``get_local_id`` & co. for ``GpuIndex``,
``barrier(CLK_LOCAL_MEM_FENCE)`` for ``Barrier``, Workgroup storage for shared
arrays, CrossWorkgroup pointers as kernel parameters, the ``spir_kernel`` calling
convention.  This module adds the math spelling: exact operations stay LLVM
intrinsics, every other function is an OpenCL C builtin by its Itanium-mangled
name (``_Z3expd``, ``_Z5atan2ff``), which LLVM's SPIR-V backend turns into
``OpenCL.std`` extended instructions -- float64 math comes from the device's own
library, which OpenCL requires for devices with ``cl_khr_fp64``.

LLVM's SPIR-V code generation runs in a child process
(``hanajit.toolkit.kernel_emit``): an LLVM abort becomes an UnsupportedError.
"""
from __future__ import annotations

import re

from hanajit.ir import nodes as N
from hanajit.lowering import kernel_lower
from hanajit.lowering.kernel_model import SPIRV_OPENCL
from hanajit.lowering.llvm import LLVMTargetInfo

KERNEL = "hj_kernel"            # the kernel entry's name in the module
ROW = SPIRV_OPENCL

# exact in OpenCL for float32 and float64 (sqrt: with the correctly-rounded build
# option the launchers pass), printed as LLVM intrinsics
_NATIVE = {"sqrt", "fabs", "floor", "ceil", "trunc", "rint", "copysign", "fma"}
_INTEGER = {"smin", "smax", "umin", "umax", "ctpop"}
# the placeholder prefix of OpenCL builtins until they are mangled (below)
_PREFIX = "hj.ocl."
_F32 = ".f32"
_MANGLE = {"double": "d", "float": "f", "i32": "i", "i64": "l"}


class OpenCLMath(dict):
    """Intrinsic name -> how OpenCL SPIR-V spells it: LLVM intrinsics for the exact
    operations, ``hj.ocl.<name>`` (``.f32`` for float32) for the OpenCL builtins,
    renamed to their mangled names by :func:`mangle_builtins`."""

    def __bool__(self):
        return True

    def get(self, name, default=None):
        if name == "fmod":
            return ("frem", "")         # OpFRem: C's fmod (sign of the dividend)
        if name in _NATIVE or name in _INTEGER:
            return ("llvm", "llvm." + name)
        return ("libm", _PREFIX + name)


def target_info() -> LLVMTargetInfo:
    return LLVMTargetInfo(triple=ROW.triple, data_layout=ROW.data_layout,
                          math=OpenCLMath(), float32_suffix=_F32, gpu=ROW)


_DECL = re.compile(r'^declare (?:[\w ]+ )?(double|float|i32|i64) '
                   r'@"(hj\.ocl\.[\w.]+)"\(([^)]*)\)', re.MULTILINE)


def mangle_builtins(text: str) -> str:
    """Rename every ``hj.ocl.<name>[.f32]`` to the OpenCL builtin's Itanium name
    from its declared parameter types (``exp(double)`` -> ``_Z3expd``; builtin
    types are never substituted, so ``pow(double, double)`` is ``_Z3powdd``)."""
    names = {}
    for m in _DECL.finditer(text):
        symbol = m.group(2)
        base = symbol[len(_PREFIX):]
        base = base.removesuffix(_F32)
        params = [p.strip().split()[0] for p in m.group(3).split(",") if p.strip()]
        names[symbol] = f"_Z{len(base)}{base}" + "".join(_MANGLE[p] for p in params)
    for symbol, mangled in names.items():
        text = text.replace(f'@"{symbol}"', f"@{mangled}")
    return text


def lower_kernel(module: N.Module, caps, target: str = "the levelzero target") -> str:
    """SPIR-V-flavoured LLVM IR text of the module plus its kernel entry."""
    text = kernel_lower.kernel_text(module, target_info(), caps, KERNEL, target=target)
    return mangle_builtins(text)


def emit_spirv(text: str) -> dict:
    """``{"llvm": optimised IR, "spirv": module bytes}`` of the lowered ``text``,
    LLVM running in a child process.  (LLVM 22's SPIR-V assembly printer crashes
    on these modules: ``spirv-dis`` gives the text instead.)"""
    from hanajit.toolkit.kernel_emit import emit_kernel
    out = emit_kernel(text, ROW, emit=("obj",))
    return {"llvm": out["llvm"], "spirv": out["obj"]}


def kernel_uses(module: N.Module) -> tuple:
    """Which of ``"barrier"``, ``"atomics"`` and ``"shared"`` the kernel uses (the
    OpenCL route's refusals read it)."""
    kinds = {N.Barrier: "barrier", N.Atomic: "atomics", N.SharedArray: "shared"}
    found = set()
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            nodes = [s] + [sub for e in N.stmt_exprs(s) if e is not None
                           for sub in N.walk_expr(e)]
            found.update(what for node in nodes for kind, what in kinds.items()
                         if isinstance(node, kind))
    return tuple(sorted(found))


_ENTRY = re.compile(r'^define spir_kernel void @"?hj_kernel"?\('
                    r'ptr addrspace\(\d+\)[^%]*(%[-\w.$"]+)', re.MULTILINE)


def can_raise(optimised_llvm: str) -> bool:
    """Does the optimised kernel still claim its error record (a compare-and-swap
    on ``err``, its first parameter)?  A raise LLVM proved impossible (``step //
    2``'s zero division) is gone by then."""
    m = _ENTRY.search(optimised_llvm)
    if m is None:
        return True
    return re.search(r"cmpxchg ptr addrspace\(\d+\) " + re.escape(m.group(1)) + ",",
                     optimised_llvm) is not None
