"""Primitive IR -> wasm LLVM IR with a direct scalar export (the ``"llvm"`` stage).

The exported function takes and returns plain wasm values, which is what
JavaScript and wasmtime call most naturally::

    f64 compound(f64 x, i64 years)        ; i64 is a BigInt in JavaScript
    i32 compound_error()                  ; 0, or the raise code of the last call

``bool`` and integers narrower than 32 bits travel as ``i32`` (``bool`` as 0/1),
``i64``/``u64`` as ``i64``.  A tuple result is stored in a module buffer and the
function returns nothing; ``<name>_result_i64(k)`` / ``<name>_result_f64(k)`` read
leaf ``k``.  After a raise the result is 0 and ``<name>_error()`` gives the code
(and ``<name>_error_arg(k)``, k < 3, the integers the message formats into its
``{}`` places, e.g. an out-of-range index)
(``Module.raises[code - 1]``).

IR function symbols carry core's ``hj_`` prefix, so neither the export name nor a
libm import (``sin``, ``exp``) can collide with a kernel's own symbol.

An array argument is passed flat, like the C-ABI wrapper's form: its data address
in linear memory (``i32`` on wasm32, ``i64`` on wasm64), then ``shape[ndim]`` and
``strides[ndim]`` in bytes (``i64``).  An array result (alone or in a tuple) fills
``2 + 2 * ndim`` slots of the result buffer: its meminfo (release it with
``hanajit_release``), data address, shape and strides.  Modules with arrays link
in the allocator of :mod:`hanajit_wasm.heap` and the memory runtime.
"""
from __future__ import annotations

import re

from llvmlite import ir

from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.lowering.cabi import ret_slots, unflatten
from hanajit.lowering.llvm import (F64, I32, I64, LLVMTargetInfo, ModuleLowering,
                                   holds_array, lltype)
from hanajit.toolkit.boundary import raise_table
from hanajit.toolkit import libm

from . import heap

TRIPLES = {32: "wasm32-unknown-unknown", 64: "wasm64-unknown-unknown"}


# symbols an object may import or that the C runtime owns: never an export name
RESERVED = libm.reserved_symbols("memcpy", "memset", "memmove", "memcmp", "abort")


def export_name(pyname: str) -> str:
    """A wasm/JS identifier for a Python function name."""
    name = re.sub(r"[^A-Za-z0-9_]", "_", pyname.rsplit(".", 1)[-1]) or "kernel"
    return "_" + name if name[0].isdigit() else name


def export_symbol(name: str) -> str:
    """The wasm export for ``name``: itself unless a libm import has that name
    (a kernel called ``sin`` is exported as ``sin_kernel``)."""
    return f"{name}_kernel" if name in RESERVED else name


def abi_type(t: T.Scalar) -> str:
    """The wasm value type of a scalar at the export boundary."""
    if t.is_float:
        return "f32" if t.bits == 32 else "f64"
    return "i64" if t.bits == 64 else "i32"


_IR_ABI = {"f32": ir.FloatType(), "f64": F64, "i32": I32, "i64": I64}


def lower_for_wasm(module: N.Module, pyname: str, bits: int = 32) -> tuple[str, dict]:
    """Lower ``module`` for wasm, exported as ``export_symbol(pyname)``; return the
    LLVM IR text (triple set, data layout left to the emitter) and the manifest
    (``name``: the function's name in the loader, ``symbol``: the wasm export)."""
    name = export_symbol(pyname)
    fn = module.functions[module.entry]
    ml = ModuleLowering(module, LLVMTargetInfo(triple=TRIPLES[bits]))
    llmod = ml.lower()
    entry = ml.declare(fn)
    nslots = ret_slots(fn.return_type)
    arrays = holds_array(fn.return_type) or any(isinstance(t, T.ArrayType)
                                                for t in fn.arg_types)
    addr = I32 if bits == 32 else I64
    scalar_ret = isinstance(fn.return_type, T.Scalar)
    # the code and up to three message arguments, as core's lowering writes them
    err_ty = ir.ArrayType(I64, 4)
    err = ir.GlobalVariable(llmod, err_ty, name=f"{name}.err")
    err.linkage = "internal"
    err.initializer = ir.Constant(err_ty, None)
    retbuf = None
    if not scalar_ret and nslots:
        bty = ir.ArrayType(I64, nslots)
        retbuf = ir.GlobalVariable(llmod, bty, name=f"{name}.ret")
        retbuf.linkage = "internal"
        retbuf.initializer = ir.Constant(bty, None)

    params = []
    for t in fn.arg_types:
        if isinstance(t, T.ArrayType):
            params += [addr] + [I64] * (2 * t.ndim)
        else:
            params.append(_IR_ABI[abi_type(t)])
    ret_ty = _IR_ABI[abi_type(fn.return_type)] if scalar_ret else ir.VoidType()
    w = ir.Function(llmod, ir.FunctionType(ret_ty, params), name=name)
    b = ir.IRBuilder(w.append_basic_block("entry"))
    b.store(ir.Constant(I64, 0), b.gep(err, [ir.Constant(I32, 0), ir.Constant(I32, 0)]))
    args = []
    flat = list(w.args)
    for t in fn.arg_types:
        if isinstance(t, T.ArrayType):
            args.append(unflatten(b, flat, t))
            continue
        a = flat.pop(0)
        if t.is_bool:
            args.append(b.icmp_unsigned("!=", a, ir.Constant(I32, 0)))
        elif t.is_int and t.bits < 32:
            args.append(b.trunc(a, lltype(t)))
        else:
            args.append(a)
    if fn.can_raise:
        slot = b.alloca(lltype(fn.return_type) if fn.return_type != T.NONE else ir.IntType(8))
        status = b.call(entry, [err, slot] + args)
        ok = w.append_basic_block("ok")
        bad = w.append_basic_block("raised")
        b.cbranch(b.icmp_unsigned("==", status, ir.Constant(I32, 0)), ok, bad)
        b.position_at_end(bad)
        if scalar_ret:
            b.ret(ir.Constant(ret_ty, 0))
        else:
            b.ret_void()
        b.position_at_end(ok)
        value = b.load(slot) if fn.return_type != T.NONE else None
    else:
        value = b.call(entry, args)
    if scalar_ret:
        b.ret(_to_abi(b, value, fn.return_type))
    else:
        if retbuf is not None:
            _store_leaves(b, value, fn.return_type, retbuf, [0])
        b.ret_void()

    exports = [name, f"{name}_error", f"{name}_error_arg"]
    _getter(llmod, f"{name}_error", I32, [],
            lambda gb, _: gb.ret(gb.trunc(gb.load(gb.gep(
                err, [ir.Constant(I32, 0), ir.Constant(I32, 0)])), I32)))

    def error_arg(gb, fnc):
        k = gb.add(fnc.args[0], ir.Constant(I32, 1))
        gb.ret(gb.load(gb.gep(err, [ir.Constant(I32, 0), k])))
    _getter(llmod, f"{name}_error_arg", I64, [I32], error_arg)
    if retbuf is not None:
        for kind, ty in (("i64", I64), ("f64", F64)):
            def body(gb, fnc, ty=ty):
                p = gb.gep(retbuf, [ir.Constant(I32, 0), fnc.args[0]])
                gb.ret(gb.load(gb.bitcast(p, ty.as_pointer())))
            _getter(llmod, f"{name}_result_{kind}", ty, [I32], body)
            exports.append(f"{name}_result_{kind}")
    if arrays:
        exports += list(heap.EXPORTS)
    manifest = {
        "name": pyname,
        "symbol": name,
        "function": fn.pyname or pyname,
        "bits": bits,
        "params": [[p, describe_type(t)] for p, t in zip(fn.params, fn.arg_types)],
        "result": describe_type(fn.return_type),
        "raises": [list(entry) for entry in raise_table(module.raises)],
        "exports": exports,
        "arrays": arrays,
    }
    return str(llmod), manifest


def runtime_modules(manifest: dict) -> list:
    """LLVM IR texts to link into the module: the heap and the memory runtime
    when the signature has arrays."""
    if not manifest.get("arrays"):
        return []
    from hanajit.lowering import nrt
    return [heap.heap_ir(manifest["bits"]), nrt.RUNTIME_IR]


def describe_type(t: T.Type):
    """JSON form of a type: ``"f64"``, ``"none"``, a list for a tuple, or
    ``{"array": "f64", "ndim": 2}``."""
    if isinstance(t, T.ArrayType):
        return {"array": t.dtype.short, "ndim": t.ndim}
    if isinstance(t, T.TupleType):
        return [describe_type(i) for i in t.items]
    if t == T.NONE:
        return "none"
    return t.short


def _getter(llmod, name, ret, params, body):
    f = ir.Function(llmod, ir.FunctionType(ret, params), name=name)
    body(ir.IRBuilder(f.append_basic_block("entry")), f)


def _to_abi(b, v, t: T.Scalar):
    if t.is_bool:
        return b.zext(v, I32)
    if t.is_int and t.bits < 32:
        return b.sext(v, I32) if t.is_signed else b.zext(v, I32)
    return v


def _store_leaves(b, v, t, buf, counter):
    if isinstance(t, T.ArrayType):         # meminfo, data, shape, strides
        fields = [b.ptrtoint(b.extract_value(v, 0), I64),
                  b.ptrtoint(b.extract_value(v, 1), I64)]
        fields += [b.extract_value(v, [f, k]) for f in (2, 3) for k in range(t.ndim)]
        for f in fields:
            b.store(f, b.gep(buf, [ir.Constant(I32, 0), ir.Constant(I32, counter[0])]))
            counter[0] += 1
        return
    if isinstance(t, T.TupleType):
        for i, it in enumerate(t.items):
            _store_leaves(b, b.extract_value(v, i), it, buf, counter)
        return
    if t == T.NONE:
        return
    p = b.gep(buf, [ir.Constant(I32, 0), ir.Constant(I32, counter[0])])
    counter[0] += 1
    if t.is_float:
        b.store(b.fpext(v, F64) if t.bits == 32 else v, b.bitcast(p, F64.as_pointer()))
    elif t.is_bool or not t.is_signed:
        b.store(b.zext(v, I64) if t.bits < 64 else v, p)
    else:
        b.store(b.sext(v, I64) if t.bits < 64 else v, p)
