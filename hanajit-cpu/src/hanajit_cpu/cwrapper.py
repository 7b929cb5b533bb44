"""A C-ABI entry wrapper around the IR entry function, and its Python caller.

The wrapper takes every argument flattened to ``i64``/``double`` scalars (tuples
and complex numbers are split), rebuilds the IR values, calls the entry function
and stores the flattened result in a buffer of 8-byte slots::

    i32 @__hj_entry(ptr ret, ptr err, i64/double args...)   ; 0 = ok, 1 = raised

This is the portable call path (ctypes); the native vectorcall path is built on
the same wrapper.
"""
from __future__ import annotations

import ctypes

from llvmlite import ir

from hanajit.ir import types as T
from hanajit.lowering.llvm import I1, I32, I64, F64, PTR, lltype

ENTRY = "__hj_entry"


def flat_kinds(t: T.Type) -> list:
    """Scalar leaves of a type, in order: (leaf type)."""
    if isinstance(t, T.TupleType):
        return [k for i in t.items for k in flat_kinds(i)]
    if isinstance(t, T.Scalar) and t.is_complex:
        return [t.component, t.component]
    if isinstance(t, T.NoneType):
        return []
    return [t]


def _abi(t: T.Scalar):
    return F64 if t.is_float else I64


def add_entry_wrapper(llmod: ir.Module, fn, entry_decl: ir.Function) -> None:
    arg_leaves = [k for t in fn.arg_types for k in flat_kinds(t)]
    fnty = ir.FunctionType(I32, [PTR, PTR] + [_abi(k) for k in arg_leaves])
    w = ir.Function(llmod, fnty, ENTRY)
    b = ir.IRBuilder(w.append_basic_block("entry"))
    ret, err = w.args[0], w.args[1]
    flat = list(w.args[2:])

    def rebuild(t):
        if isinstance(t, T.TupleType) or (isinstance(t, T.Scalar) and t.is_complex):
            items = t.items if isinstance(t, T.TupleType) else (t.component, t.component)
            v = ir.Constant(lltype(t), ir.Undefined)
            for i, it in enumerate(items):
                v = b.insert_value(v, rebuild(it), i)
            return v
        if isinstance(t, T.NoneType):
            return ir.Constant(lltype(t), 0)
        x = flat.pop(0)
        if t.is_float:
            return b.fptrunc(x, lltype(t)) if t.bits == 32 else x
        if t.is_bool:
            return b.icmp_unsigned("!=", x, ir.Constant(I64, 0))
        return b.trunc(x, lltype(t)) if t.bits < 64 else x

    args = [rebuild(t) for t in fn.arg_types]
    rt = fn.return_type
    if fn.can_raise:
        slot = b.alloca(lltype(rt) if rt != T.NONE else ir.IntType(8))
        status = b.call(entry_decl, [err, slot] + args)
        ok = w.append_basic_block("ok")
        bad = w.append_basic_block("bad")
        b.cbranch(b.icmp_unsigned("==", status, ir.Constant(I32, 0)), ok, bad)
        b.position_at_end(bad)
        b.ret(ir.Constant(I32, 1))
        b.position_at_end(ok)
        value = b.load(slot) if rt != T.NONE else None
    else:
        value = b.call(entry_decl, args)
        value = value if rt != T.NONE else None
    counter = [0]

    def store(v, t):
        if isinstance(t, T.TupleType) or (isinstance(t, T.Scalar) and t.is_complex):
            items = t.items if isinstance(t, T.TupleType) else (t.component, t.component)
            for i, it in enumerate(items):
                store(b.extract_value(v, i), it)
            return
        if isinstance(t, T.NoneType):
            return
        p = b.gep(ret, [ir.Constant(I64, counter[0])], source_etype=I64)
        counter[0] += 1
        if t.is_float:
            b.store(b.fpext(v, F64) if t.bits == 32 else v, p)
        elif t.is_bool:
            b.store(b.zext(v, I64), p)
        elif t.bits < 64:
            b.store(b.sext(v, I64) if t.is_signed else b.zext(v, I64), p)
        else:
            b.store(v, p)

    if value is not None:
        store(value, rt)
    b.ret(ir.Constant(I32, 0))
    _ = I1


def make_runner(address: int, fn, raises: list, keepalive, fallback):
    """A Python callable running the wrapper at ``address`` through ctypes."""
    arg_leaves = [k for t in fn.arg_types for k in flat_kinds(t)]
    argtypes = [ctypes.c_double if k.is_float else ctypes.c_int64 for k in arg_leaves]
    cfunc = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p,
                             *argtypes)(address)
    rt = fn.return_type
    nret = max(1, len(flat_kinds(rt)))
    needs_flatten = any(not isinstance(t, T.Scalar) or t.is_complex for t in fn.arg_types)
    masks = [k for k in arg_leaves]

    def flatten(args):
        out = []

        def go(v, t):
            if isinstance(t, T.TupleType):
                for x, it in zip(v, t.items):
                    go(x, it)
            elif t.is_complex:
                out.append(v.real)
                out.append(v.imag)
            elif t.is_int and not t.is_signed:
                out.append(int(v) - (1 << 64) if int(v) >= (1 << 63) else int(v))
            else:
                out.append(v)
        for v, t in zip(args, fn.arg_types):
            go(v, t)
        return out

    def unbox(ints, doubles):
        pos = [0]

        def go(t):
            if isinstance(t, T.TupleType):
                return tuple(go(i) for i in t.items)
            if isinstance(t, T.NoneType):
                return None
            if t.is_complex:
                return complex(go(t.component), go(t.component))
            k = pos[0]
            pos[0] += 1
            if t.is_float:
                return doubles[k]
            if t.is_bool:
                return bool(ints[k])
            v = ints[k]
            if not t.is_signed and v < 0:
                v += 1 << 64
            return v
        return go(rt)

    unsigned_args = any(k.is_int and not k.is_signed for k in masks)
    need_flat = needs_flatten or unsigned_args
    simple_ret = isinstance(rt, T.Scalar) and not rt.is_complex

    def run(*args):
        ret = (ctypes.c_int64 * nret)()
        err = (ctypes.c_int64 * 4)()
        flat = flatten(args) if need_flat else args
        if cfunc(ret, err, *flat):
            return _raise(raises[err[0] - 1], fallback, args)
        if rt == T.NONE:
            return None
        if simple_ret:
            if rt.is_float:
                return ctypes.c_double.from_buffer(ret).value
            v = ret[0]
            if rt.is_bool:
                return bool(v)
            if not rt.is_signed and v < 0:
                v += 1 << 64
            return v
        return unbox(ret, (ctypes.c_double * nret).from_buffer(ret))

    run._keepalive = keepalive
    return run


def _raise(entry, fallback, args):
    from hanajit.lib.pyhelpers import Deopt
    exc, message, deopt = entry
    if deopt or exc is Deopt:
        # the compiled code cannot represent CPython's result: the call is pure,
        # so running it in the interpreter gives exactly Python's answer
        return fallback(*args)
    raise exc(message)
