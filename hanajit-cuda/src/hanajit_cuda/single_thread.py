"""An ordinary function as a one-thread CUDA kernel (stage ``"ptx"``), for programs
that call it once -- the CUDA modes of ``export_executable`` (hanajit-exe).

The function is lowered by core's shared LLVM lowering for NVPTX (``codegen``'s
target info), wrapped by the same C-ABI entry wrapper the CPU target and the
executables use (``hanajit.lowering.cabi.add_entry_wrapper``), and given a kernel
entry that only forwards its parameters::

    void hj_kernel(ptr buf, i64/double args...)      ; launched as grid 1, block 1
        __hj_entry(buf + 32, buf, args...)

so ``buf`` (device memory, ``4 + ret_slots`` int64, zeroed before the launch) ends
with the raise record in ``buf[0..3]`` (``buf[0]`` the raise code, 0 when the call
returned) and the flattened result in ``buf[4...]``.  The parameters are exactly
the entry wrapper's: scalars as i64 or double, an array as its data address (a
device pointer as i64), its shape and its strides in bytes.  No Python semantics
are decided here: they come with the typed IR.

What the GPU cannot run is refused with the construct named (``codegen.check_kernel``:
allocating arrays, array results), as is the GPU kernel model itself (a one-thread
program has no use for ``thread_id()``; kernels are launched with ``f.launch``).
"""
from __future__ import annotations

from typing import NamedTuple

from hanajit.errors import UnsupportedError
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.cabi import ENTRY, add_entry_wrapper, flat_kinds, ret_slots
from hanajit.lowering.llvm import F64, I64, PTR, ModuleLowering
from llvmlite import ir

from . import toolchain
from .codegen import _define_refcount_stubs, check_kernel, target_info
from .ptx import KERNEL, emit_in_subprocess

ERR_SLOTS = 4                     # the raise record at the front of the buffer
_GPU_MODEL = (N.GpuIndex, N.SharedArray, N.Atomic)


class SingleThreadKernel(NamedTuple):
    """PTX of a one-thread kernel and what its caller needs to launch it."""

    ptx: str
    arch: str
    llvm: str                     # optimised NVPTX LLVM IR
    params: tuple                 # kernel parameters after ``buf``: "i64" or "f64"
    buffer_slots: int             # int64 slots of ``buf``: 4 + the result's


def check_single_thread(module: N.Module) -> None:
    """Refuse, naming the construct, what a one-thread kernel cannot run."""
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            what = "barrier()" if isinstance(s, N.Barrier) else None
            for e in N.stmt_exprs(s):
                for sub in N.walk_expr(e) if e is not None else ():
                    if isinstance(sub, _GPU_MODEL):
                        what = what or type(sub).__name__
            if what:
                raise UnsupportedError(
                    f"{fn.pyname} (line {s.line}): uses the GPU kernel model "
                    f"({what}); a program calls a function once, on one thread -- "
                    "launch kernels with f.launch()",
                    func=fn.pyname, line=s.line, construct="GPU kernel model")
    check_kernel(module)


def param_kinds(fn: N.Function) -> tuple:
    """The kernel's parameters after ``buf``: the entry wrapper's flattened
    arguments, ``"f64"`` for floats and ``"i64"`` for everything else."""
    return tuple("f64" if k.is_float else "i64"
                 for t in fn.arg_types for k in flat_kinds(t))


def lower_single_thread(module: N.Module) -> tuple[str, bool]:
    """NVPTX LLVM IR text of the module with its entry wrapper and the forwarding
    kernel; and whether it calls libdevice."""
    check_single_thread(module)
    ml = ModuleLowering(module, target_info())
    llmod = ml.lower()
    _define_refcount_stubs(llmod)
    entry = module.functions[module.entry]
    add_entry_wrapper(llmod, entry, ml.declare(entry))
    wrapper = llmod.globals[ENTRY]
    kinds = param_kinds(entry)
    kty = ir.FunctionType(ir.VoidType(), [PTR] + [F64 if k == "f64" else I64
                                                  for k in kinds])
    k = ir.Function(llmod, kty, KERNEL)
    k.calling_convention = "ptx_kernel"
    b = ir.IRBuilder(k.append_basic_block("entry"))
    buf = k.args[0]
    ret = b.gep(buf, [ir.Constant(I64, ERR_SLOTS)], source_etype=I64)
    b.call(wrapper, [ret, buf] + list(k.args[1:]))
    b.ret_void()
    uses_libdevice = any(g.name.startswith("__nv_") for g in llmod.functions
                         if g.is_declaration)
    return str(llmod), uses_libdevice


def compile_single_thread(module: N.Module, arch: str | None = None
                          ) -> SingleThreadKernel:
    """PTX for ``arch`` (default: ``HANAJIT_CUDA_ARCH``, else sm_75).  Codegen runs
    in a child process (``ptx.emit_in_subprocess``); needs libdevice only when the
    function uses transcendentals, never a GPU."""
    arch = toolchain.gpu_arch({"gpu_arch": arch})
    entry = module.functions[module.entry]
    text, uses_libdevice = lower_single_thread(module)
    libdevice = None
    if uses_libdevice:
        libdevice = toolchain.find_libdevice()
        if libdevice is None:
            raise UnsupportedError(f"{entry.pyname}: {toolchain.LIBDEVICE_HELP}",
                                   func=entry.pyname, construct="libdevice")
    out = emit_in_subprocess(text, arch, libdevice)
    slots = ERR_SLOTS + (ret_slots(entry.return_type)
                         if entry.return_type != T.NONE else 0)
    return SingleThreadKernel(out["ptx"], arch, out["llvm"], param_kinds(entry),
                              slots)
