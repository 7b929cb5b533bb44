"""An ordinary function as a one-thread CUDA kernel (stage ``"ptx"``), for programs
that call it once -- the CUDA modes of ``export_executable`` (hanajit-exe).

The function is lowered by core's shared LLVM lowering for NVPTX (``codegen``'s
target info), wrapped by the same C-ABI entry wrapper the CPU target and the
executables use (``hanajit.lowering.cabi.add_entry_wrapper``), and given a kernel
entry that sets up the array arena and forwards its parameters::

    void hj_kernel(ptr buf, i64 arena, i64 arena_size, i64/double args...)
        ; launched as grid 1, block 1
        __hj_entry(buf + 48, buf, args...)
        buf[4] = arena bytes used, buf[5] = arena bytes needed

so ``buf`` (device memory, ``6 + ret_slots`` int64, zeroed before the launch) ends
with the raise record in ``buf[0..3]`` (``buf[0]`` the raise code, 0 when the call
returned) and the flattened result in ``buf[6...]``.  The parameters after the
arena are exactly the entry wrapper's: scalars as i64 or double, an array as its
data address (a device pointer as i64), its shape and its strides in bytes.  Arrays
the function allocates (and returns) live in the arena (``arena``: the memory
runtime); when ``buf[5]`` exceeds ``arena_size`` the arena was too small and the
caller runs the kernel again with at least that much.  No Python semantics are
decided here: they come with the typed IR.

The GPU kernel model itself is refused (a one-thread program has no use for
``thread_id()``; kernels are launched with ``f.launch``).
"""
from __future__ import annotations

from typing import NamedTuple

from hanajit.errors import UnsupportedError
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.cabi import ENTRY, add_entry_wrapper, flat_kinds, ret_slots
from hanajit.lowering.llvm import F64, I64, PTR, ModuleLowering
from llvmlite import ir

from . import arena, toolchain
from .codegen import NVPTX, target_info
from .ptx import KERNEL, emit_function

ERR_SLOTS = 4                     # the raise record at the front of the buffer
USED, NEEDED = 4, 5               # the arena's bytes used and needed
RESULT_AT = 6                     # where the flattened result starts
_GPU_MODEL = (N.GpuIndex, N.SharedArray, N.Atomic)


class SingleThreadKernel(NamedTuple):
    """PTX of a one-thread kernel and what its caller needs to launch it."""

    ptx: str
    arch: str
    llvm: str                     # optimised NVPTX LLVM IR
    params: tuple                 # kernel parameters after ``buf``: "i64" or "f64"
    buffer_slots: int             # int64 slots of ``buf``: 6 + the result's
    allocates: bool               # whether the function allocates arrays (arena)


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


def param_kinds(fn: N.Function) -> tuple:
    """The kernel's parameters after ``buf``: the arena's address and size, then
    the entry wrapper's flattened arguments -- ``"f64"`` for floats and ``"i64"``
    for everything else."""
    return ("i64", "i64") + tuple("f64" if k.is_float else "i64"
                                  for t in fn.arg_types for k in flat_kinds(t))


def lower_single_thread(module: N.Module) -> tuple[str, bool]:
    """NVPTX LLVM IR text of the module with its entry wrapper, the arena memory
    runtime and the kernel entry; and whether it calls libdevice."""
    check_single_thread(module)
    ml = ModuleLowering(module, target_info())
    llmod = ml.lower()
    arena.define_runtime(llmod)
    g = arena.state(llmod)
    entry = module.functions[module.entry]
    add_entry_wrapper(llmod, entry, ml.declare(entry))
    wrapper = llmod.globals[ENTRY]
    kinds = param_kinds(entry)
    kty = ir.FunctionType(ir.VoidType(), [PTR] + [F64 if k == "f64" else I64
                                                  for k in kinds])
    k = ir.Function(llmod, kty, KERNEL)
    k.calling_convention = NVPTX.kernel_cc
    b = ir.IRBuilder(k.append_basic_block("entry"))
    buf, base, size = k.args[:3]

    def slot(i):
        return b.gep(buf, [ir.Constant(I64, i)], source_etype=I64)

    b.store(b.inttoptr(base, PTR), g["base"])
    b.store(size, g["size"])
    b.store(ir.Constant(I64, 0), g["used"])
    b.store(ir.Constant(I64, 0), g["needed"])
    b.store(ir.Constant(PTR, None), g["free"])
    b.call(wrapper, [slot(RESULT_AT), buf] + list(k.args[3:]))
    b.store(b.load(g["used"], typ=I64), slot(USED))
    b.store(b.load(g["needed"], typ=I64), slot(NEEDED))
    b.ret_void()
    uses_libdevice = any(f.name.startswith("__nv_") for f in llmod.functions
                         if f.is_declaration)
    return str(llmod), uses_libdevice


def allocates(module: N.Module) -> bool:
    """Whether the function (or a callee) allocates arrays."""
    return any(isinstance(sub, N.AllocArray)
               for fn in module.functions.values() for s in N.walk_stmts(fn.body)
               for e in N.stmt_exprs(s) if e is not None for sub in N.walk_expr(e))


def compile_single_thread(module: N.Module, arch: str | None = None
                          ) -> SingleThreadKernel:
    """PTX for ``arch`` (default: ``HANAJIT_CUDA_ARCH``, else sm_75).  Codegen runs
    in a child process (``ptx.emit_function``); needs libdevice only when the
    function uses transcendentals, never a GPU."""
    arch = toolchain.gpu_arch({"gpu_arch": arch})
    entry = module.functions[module.entry]
    text, uses_libdevice = lower_single_thread(module)
    out = emit_function(entry, text, uses_libdevice, arch)
    slots = RESULT_AT + (ret_slots(entry.return_type)
                         if entry.return_type != T.NONE else 0)
    return SingleThreadKernel(out["ptx"], arch, out["llvm"], param_kinds(entry),
                              slots, allocates(module))
