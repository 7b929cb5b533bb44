"""Typed IR module -> NVPTX LLVM IR with a kernel entry (stage ``"llvm"``).

Core's shared lowering (``hanajit.lowering.llvm``) prints the functions; this
module supplies what is NVIDIA-specific through ``LLVMTargetInfo``: the triple and
data layout, special registers for ``GpuIndex``, ``bar.sync`` for ``Barrier``,
address space 3 for ``SharedArray``, and math spelt as libdevice ``__nv_*``
functions.  It then adds the kernel entry ``hj_kernel`` (``ptx_kernel`` calling
convention)::

    void hj_kernel(ptr err, <flattened arguments>)

An array argument is its data pointer (a global-memory pointer), then its shape and
its strides (bytes) as i64; a scalar is an i64 or a double (float32 is passed as a
double and narrowed, bools and narrow ints as i64), complex numbers and tuples are
split.  ``err`` points to four i64 in device memory: when the kernel raises (an
index out of bounds...), the first failing thread stores the raise code
(``Module.raises`` index + 1) with a compare-and-swap, then its three message
values; that thread returns, the others go on.  The launcher turns the code into
the Python exception after the kernel ends (see ``launch.py``).
"""
from __future__ import annotations

from llvmlite import ir

from hanajit.errors import UnsupportedError
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.cabi import flat_kinds, unflatten
from hanajit.lowering.llvm import (F64, I32, I64, PTR, LLVMTargetInfo, ModuleLowering,
                                   lltype)

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


class NvptxHooks:
    """The GPU hooks of ``LLVMTargetInfo`` for NVPTX."""

    shared_addrspace = 3
    _SREG = {"thread": "tid", "block": "ctaid", "block_dim": "ntid",
             "grid_dim": "nctaid"}

    def index(self, b, llmod, kind, axis):
        name = f"llvm.nvvm.read.ptx.sreg.{self._SREG[kind]}.{'xyz'[axis]}"
        fn = llmod.globals.get(name) or ir.Function(
            llmod, ir.FunctionType(I32, []), name)
        return b.zext(b.call(fn, []), I64)

    def barrier(self, b, llmod):
        name = "llvm.nvvm.barrier0"
        fn = llmod.globals.get(name) or ir.Function(
            llmod, ir.FunctionType(ir.VoidType(), []), name)
        b.call(fn, [])


def target_info() -> LLVMTargetInfo:
    return LLVMTargetInfo(triple=TRIPLE, data_layout=DATA_LAYOUT, math=NvptxMath(),
                          float32_suffix="f", gpu=NvptxHooks())


def check_kernel(module: N.Module) -> None:
    """Refuse what a kernel cannot do, with the construct named."""
    entry = module.functions[module.entry]
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            for e in N.stmt_exprs(s):
                for sub in N.walk_expr(e) if e is not None else ():
                    if isinstance(sub, N.AllocArray):
                        raise UnsupportedError(
                            f"{fn.pyname} (line {s.line}): a GPU kernel cannot "
                            "allocate arrays; pass an output array or use "
                            "shared_array()",
                            func=fn.pyname, line=s.line, construct="array allocation")
    for name, t in zip(entry.params, entry.arg_types):
        if isinstance(t, T.TupleType) and any(isinstance(i, T.ArrayType)
                                              for i in t.items):
            raise UnsupportedError(f"{entry.pyname}: kernel argument {name!r} is a "
                                   "tuple holding arrays", func=entry.pyname,
                                   construct="tuple of arrays argument")
    if isinstance(entry.return_type, T.ArrayType) or (
            isinstance(entry.return_type, T.TupleType)
            and any(isinstance(i, T.ArrayType) for i in entry.return_type.items)):
        raise UnsupportedError(f"{entry.pyname}: a GPU kernel cannot return an array "
                               "(write into an argument)", func=entry.pyname,
                               construct="array result")


def param_kinds(fn: N.Function) -> list:
    """The kernel's flattened parameters after ``err``: ``"ptr"``, ``"i64"`` or
    ``"f64"``, in order (what the launcher packs)."""
    out = []
    for t in fn.arg_types:
        if isinstance(t, T.ArrayType):
            out += ["ptr"] + ["i64"] * (2 * t.ndim)
        else:
            out += ["f64" if k.is_float else "i64" for k in flat_kinds(t)]
    return out


def lower_kernel(module: N.Module) -> tuple[str, bool]:
    """NVPTX LLVM IR text of the module plus its kernel entry; and whether it calls
    libdevice."""
    check_kernel(module)
    ml = ModuleLowering(module, target_info())
    llmod = ml.lower()
    _define_refcount_stubs(llmod)
    entry = module.functions[module.entry]
    _add_kernel(llmod, entry, ml.declare(entry))
    uses_libdevice = any(g.name.startswith("__nv_") for g in llmod.functions
                         if g.is_declaration)
    return str(llmod), uses_libdevice


def _define_refcount_stubs(llmod: ir.Module) -> None:
    """Kernels never own arrays (they cannot allocate; arguments and shared arrays
    have no meminfo), so the memory runtime's incref/decref are empty here."""
    from hanajit.lowering import nrt
    for name in (nrt.INCREF, nrt.DECREF):
        fn = llmod.globals.get(name)
        if fn is not None and fn.is_declaration:
            fn.linkage = "internal"
            ir.IRBuilder(fn.append_basic_block("entry")).ret_void()


def _add_kernel(llmod: ir.Module, fn: N.Function, decl: ir.Function) -> None:
    kinds = param_kinds(fn)
    llty = {"ptr": PTR, "i64": I64, "f64": F64}
    kty = ir.FunctionType(ir.VoidType(), [PTR] + [llty[x] for x in kinds])
    k = ir.Function(llmod, kty, KERNEL)
    k.calling_convention = "ptx_kernel"
    b = ir.IRBuilder(k.append_basic_block("entry"))
    err = k.args[0]
    flat = list(k.args[1:])

    args = [unflatten(b, flat, t, data_is_ptr=True) for t in fn.arg_types]
    if not fn.can_raise:
        b.call(decl, args)
        b.ret_void()
        return
    rt = fn.return_type
    local_err = b.alloca(ir.ArrayType(I64, 4))
    slot = b.alloca(lltype(rt) if rt != T.NONE else ir.IntType(8))
    status = b.call(decl, [local_err, slot] + args)
    bad = k.append_basic_block("raised")
    done = k.append_basic_block("done")
    b.cbranch(b.icmp_unsigned("!=", status, ir.Constant(I32, 0)), bad, done)
    b.position_at_end(bad)

    def at(p, i):
        return b.gep(p, [ir.Constant(I64, i)], source_etype=I64)

    code = b.load(at(local_err, 0), typ=I64)
    won = b.extract_value(b.cmpxchg(err, ir.Constant(I64, 0), code, "monotonic"), 1)
    first = k.append_basic_block("first")
    b.cbranch(won, first, done)
    b.position_at_end(first)
    for i in (1, 2, 3):
        b.store(b.load(at(local_err, i), typ=I64), at(err, i))
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
