"""The C-ABI entry wrapper shared by host-side targets (CPU JIT, executables).

It takes every argument flattened to ``i64``/``double`` scalars (tuples and
complex numbers are split), rebuilds the IR values, calls the entry function and
stores the flattened result in a buffer of 8-byte slots::

    i32 @__hj_entry(ptr ret, ptr err, i64/double args...)   ; 0 = ok, 1 = raised

On 1, ``err[0]`` holds the raise code: ``Module.raises[code - 1]`` is
``(exception class, message, deopt)``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..ir import types as T

if TYPE_CHECKING:
    from llvmlite import ir

# The plugins' target modules import this one (check_scalar_signature) while
# plugins are discovered, before anything is compiled -- and a warm cache start
# never compiles.  So llvmlite and the LLVM lowering are imported by the functions
# that build IR, not here (they cost ~25 ms).

ENTRY = "__hj_entry"


def flat_kinds(t: T.Type) -> list:
    """Scalar leaves of a type, in order: (leaf type)."""
    if isinstance(t, T.TupleType):
        return [k for i in t.items for k in flat_kinds(i)]
    if isinstance(t, T.Scalar) and t.is_complex:
        return [t.component, t.component]
    if isinstance(t, T.NoneType):
        return []
    if isinstance(t, T.ArrayType):       # data pointer, shape, strides (bytes)
        return [T.INT64] * (1 + 2 * t.ndim)
    if isinstance(t, T.GeneratorType):   # state pointer, three function pointers
        return [T.INT64] * 4
    return [t]


def ret_slots(t: T.Type) -> int:
    """Number of 8-byte result slots the wrapper writes for a return type."""
    if isinstance(t, T.ArrayType):
        return 2 + 2 * t.ndim
    if isinstance(t, T.TupleType):
        return sum(ret_slots(i) for i in t.items)
    return len(flat_kinds(t))


def _abi(t: T.Scalar):
    from .llvm import F64, I64
    return F64 if t.is_float else I64


def unflatten(b: ir.IRBuilder, flat: list, t: T.Type, data_is_ptr: bool = False):
    """The value of type ``t`` rebuilt from the flat C-ABI words at the front of
    ``flat`` (consumed): arrays from data, shape, strides (no meminfo: the caller
    owns the memory), tuples and complex numbers from their items, narrow scalars
    from int64/double words.  ``data_is_ptr``: array data arrives as a pointer
    (GPU kernels) rather than an int64 address."""
    from llvmlite import ir

    from .llvm import I64, PTR, lltype
    if isinstance(t, T.ArrayType):
        v = ir.Constant(lltype(t), ir.Undefined)
        v = b.insert_value(v, ir.Constant(PTR, None), 0)
        data = flat.pop(0)
        v = b.insert_value(v, data if data_is_ptr else b.inttoptr(data, PTR), 1)
        for field in (2, 3):
            for k in range(t.ndim):
                v = b.insert_value(v, flat.pop(0), [field, k])
        return v
    if isinstance(t, (T.TupleType, T.GeneratorType)) or (
            isinstance(t, T.Scalar) and t.is_complex):
        items = t.items if isinstance(t, T.TupleType) else (T.INT64,) * 4 if isinstance(
            t, T.GeneratorType) else (t.component, t.component)
        v = ir.Constant(lltype(t), ir.Undefined)
        for i, it in enumerate(items):
            v = b.insert_value(v, unflatten(b, flat, it, data_is_ptr), i)
        return v
    if isinstance(t, T.NoneType):
        return ir.Constant(lltype(t), 0)
    x = flat.pop(0)
    if t.is_float:
        return b.fptrunc(x, lltype(t)) if t.bits == 32 else x
    if t.is_bool:
        return b.icmp_unsigned("!=", x, ir.Constant(I64, 0))
    return b.trunc(x, lltype(t)) if t.bits < 64 else x


def add_entry_wrapper(llmod: ir.Module, fn, entry_decl: ir.Function, name: str = ENTRY) -> None:
    """Add the C-ABI wrapper ``name`` calling ``entry_decl`` (IR function ``fn``)."""
    from llvmlite import ir

    from .llvm import F64, I32, I64, PTR, lltype
    arg_leaves = [k for t in fn.arg_types for k in flat_kinds(t)]
    fnty = ir.FunctionType(I32, [PTR, PTR] + [_abi(k) for k in arg_leaves])
    w = ir.Function(llmod, fnty, name)
    b = ir.IRBuilder(w.append_basic_block("entry"))
    ret, err = w.args[0], w.args[1]
    flat = list(w.args[2:])

    args = [unflatten(b, flat, t) for t in fn.arg_types]
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
        if isinstance(t, T.ArrayType):     # meminfo, data, shape, strides
            fields = [b.ptrtoint(b.extract_value(v, 0), I64),
                      b.ptrtoint(b.extract_value(v, 1), I64)]
            fields += [b.extract_value(v, [2, k]) for k in range(t.ndim)]
            fields += [b.extract_value(v, [3, k]) for k in range(t.ndim)]
            for f in fields:
                b.store(f, b.gep(ret, [ir.Constant(I64, counter[0])], source_etype=I64))
                counter[0] += 1
            return
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


def check_scalar_signature(fn, what: str, check_return: bool = True,
                           arrays: bool = False, complex_: bool = False) -> None:
    """Raise UnsupportedError unless every argument of ``fn`` is a non-complex scalar
    and (with ``check_return``) the result is such a scalar, a (nested) tuple of them,
    or None -- the signatures exporters without array support accept.  With
    ``arrays``, arrays of non-complex elements are accepted too, in both places;
    with ``complex_``, complex scalars too."""
    from ..errors import UnsupportedError

    def leaf_ok(t):
        if isinstance(t, T.ArrayType):
            return arrays and not t.dtype.is_complex
        return isinstance(t, T.Scalar) and (complex_ or not t.is_complex)

    kinds = ("bool, integer, float and complex scalars" if complex_ else
             "bool, integer and float scalars") + (" and arrays of them" if arrays
                                                   else "")
    for name, t in zip(fn.params, fn.arg_types):
        if not leaf_ok(t):
            raise UnsupportedError(
                f"{what}: argument {name!r} of {fn.pyname or fn.name} has type {t}; "
                f"only {kinds} are supported",
                func=fn.pyname, construct=f"argument of type {t}")

    def ok(t):
        if isinstance(t, T.TupleType):
            return all(ok(i) for i in t.items)
        return t == T.NONE or leaf_ok(t)

    if check_return and not ok(fn.return_type):
        raise UnsupportedError(
            f"{what}: {fn.pyname or fn.name} returns {fn.return_type}; only "
            f"{'scalars, arrays' if arrays else 'scalars'}, tuples of them and None "
            "are supported",
            func=fn.pyname, construct=f"return type {fn.return_type}")
