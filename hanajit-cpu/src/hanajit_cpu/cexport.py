"""Plain C exports of a specialisation, next to the C-ABI entry wrapper.

For a specialisation whose arguments and result are real scalars, the CPU target
adds to the kernel's LLVM module (see :mod:`hanajit.dispatch.cfunc` for the ABI)::

    ret    __hj_cfunc(args...)            ; C scalar types, void for None
    i32    __hj_cfunc_error               ; raise code of the last failed call
    double __hj_cfunc_nd(i32 n, ptr xx)   ; only when all args/result are float64

``__hj_cfunc`` calls the IR entry directly (it is inlined), so it costs what a C
function costs; ``__hj_cfunc_nd`` is SciPy's ``LowLevelCallable`` form for
``quad(f, a, b, args=(...))``.

Only when the jit options carry ``c_exports`` (``JitFunction.specialize``
compiles the specialisation again with it): a call from Python never uses these
functions, and each function of a module costs optimisation and codegen -- the
two of them made the compile of ``def f(a, b): return a + b`` 1.5x slower.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from hanajit.dispatch.cfunc import c_representable
from hanajit.ir import types as T

if TYPE_CHECKING:
    from llvmlite import ir

# The names are read on the warm-cache path (cwrapper.native_entry), which never
# builds IR: llvmlite is imported by the functions below only.

CFUNC = "__hj_cfunc"
CFUNC_ERROR = "__hj_cfunc_error"
CFUNC_ND = "__hj_cfunc_nd"


def _c_type(t: T.Type) -> ir.Type:
    from llvmlite import ir

    from hanajit.lowering.llvm import I8, lltype
    if t == T.NONE:
        return ir.VoidType()
    return I8 if t == T.BOOL else lltype(t)


def add_cfunc(llmod: ir.Module, fn, entry_decl: ir.Function) -> list:
    """Add the plain C exports for IR function ``fn``; return the symbols added."""
    from llvmlite import ir

    from hanajit.lowering.llvm import F64, I8, I32, I64, lltype
    if not c_representable(fn.arg_types, fn.return_type):
        return []
    rt = fn.return_type
    f = ir.Function(llmod, ir.FunctionType(_c_type(rt), [_c_type(t) for t in
                                                          fn.arg_types]), CFUNC)
    for a, t in zip(f.args, fn.arg_types):
        if t.is_bool or (t.is_int and t.bits < 32):
            a.add_attribute("signext" if t.is_signed else "zeroext")
    b = ir.IRBuilder(f.append_basic_block("entry"))
    args = [b.icmp_unsigned("!=", a, ir.Constant(I8, 0)) if t.is_bool else a
            for a, t in zip(f.args, fn.arg_types)]

    def to_c(v):
        return b.zext(v, I8) if rt == T.BOOL else v

    error_word = ir.GlobalVariable(llmod, I32, CFUNC_ERROR)
    error_word.initializer = ir.Constant(I32, 0)
    if fn.can_raise:
        err = b.alloca(ir.ArrayType(I64, 4))
        slot = b.alloca(lltype(rt) if rt != T.NONE else I8)
        status = b.call(entry_decl, [err, slot] + args)
        ok, bad = f.append_basic_block("ok"), f.append_basic_block("raised")
        b.cbranch(b.icmp_unsigned("==", status, ir.Constant(I32, 0)), ok, bad)
        b.position_at_end(bad)
        code = b.load(b.gep(err, [ir.Constant(I32, 0), ir.Constant(I32, 0)]), typ=I64)
        b.store(b.trunc(code, I32), error_word)
        if rt == T.NONE:
            b.ret_void()
        elif rt.is_float:
            b.ret(ir.Constant(lltype(rt), float("nan")))
        else:
            b.ret(ir.Constant(_c_type(rt), 0))
        b.position_at_end(ok)
        if rt == T.NONE:
            b.ret_void()
        else:
            b.ret(to_c(b.load(slot)))
    else:
        value = b.call(entry_decl, args)
        if rt == T.NONE:
            b.ret_void()
        else:
            b.ret(to_c(value))
    added = [CFUNC, CFUNC_ERROR]
    if rt == T.FLOAT64 and fn.arg_types and all(t == T.FLOAT64 for t in fn.arg_types):
        nd = ir.Function(llmod, ir.FunctionType(F64, [I32, ir.PointerType()]), CFUNC_ND)
        b = ir.IRBuilder(nd.append_basic_block("entry"))
        xs = [b.load(b.gep(nd.args[1], [ir.Constant(I64, i)], source_etype=F64), typ=F64)
              for i in range(len(fn.arg_types))]
        b.ret(b.call(f, xs))
        added.append(CFUNC_ND)
    return added
