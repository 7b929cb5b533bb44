"""Python operator semantics as primitive IR (used by ``passes.lower_semantics``).

Every function takes the :class:`Lowerer` ``L`` (to emit checks and temporaries)
and lowered, typed operands, and returns a pure primitive expression.  Longer
semantics (float ``//``, ``%``, ``**``, int ``**``, complex division) are Python
source in :mod:`hanajit.lib.python.helpers`, compiled by hanajit itself.
"""
from __future__ import annotations

from ...errors import message_fields, with_field_kinds, zero_division_message
from ...ir import nodes as N
from ...ir import types as T
from . import helpers, int_overflow


def C(v, t):
    return N.Const(v, t)


def zero(t: T.Scalar) -> N.Const:
    if t.is_float:
        return C(0.0, t)
    if t.is_complex:
        return C(0j, t)
    if t.is_bool:
        return C(False, t)
    return C(0, t)


def logical_not(e: N.Expr) -> N.Expr:
    if isinstance(e, N.Const):
        return C(not e.value, T.BOOL)
    return N.UnOp("not", e, T.BOOL)


def band(a, b):
    return N.BinOp("and", a, b, T.BOOL)


def bor(a, b):
    return N.BinOp("or", a, b, T.BOOL)


# ------------------------------------------------------------------ conversion
def _relayout(L, e: N.Expr, to: T.ArrayType) -> N.Expr:
    """An array as the unified type of a variable that holds arrays of several
    layouts (``typing_rules.unify``: layout "A", readonly if any is): the same
    memory, shape and strides."""
    src = e.type
    if not (isinstance(src, T.ArrayType) and src.dtype == to.dtype
            and src.ndim == to.ndim):
        raise AssertionError(f"array conversion {src} -> {to}")  # inference refuses it
    if L is not None:
        e = L.let(e)
    i64 = T.INT64
    return N.ArrayView(e, C(0, i64), [N.ArrayAttr(e, "shape", k, i64) for k in range(to.ndim)],
                       [N.ArrayAttr(e, "stride", k, i64) for k in range(to.ndim)], to)


def convert(L, e: N.Expr, to: T.Type) -> N.Expr:
    """Python's conversion of ``e`` to type ``to`` (``int(x)`` checks included)."""
    src = e.type
    if src == to:
        return e
    if isinstance(to, T.ArrayType):
        return _relayout(L, e, to)
    if isinstance(to, T.TupleType):
        e = L.let(e)
        return N.MakeTuple([convert(L, N.TupleGet(e, i, st), dt)
                            for i, (st, dt) in enumerate(zip(src.items, to.items))], to)
    if isinstance(e, N.Const) and isinstance(e.value, (bool, int, float)) and not to.is_bool:
        v = e.value
        if to.is_float:
            return C(float(v), to)
        if to.is_complex:
            return C(complex(v), to)
        if to.is_int and isinstance(v, (bool, int)):
            lo, hi = T.int_range(to)
            if lo <= v <= hi:
                return C(int(v), to)
    if to.is_bool:
        return truth(L, e)
    if to.is_complex:
        if src.is_complex:
            return N.MakeComplex(N.Cast(N.ComplexPart(e, "real", src.component), to.component),
                                 N.Cast(N.ComplexPart(e, "imag", src.component), to.component),
                                 to)
        return N.MakeComplex(convert(L, e, to.component), zero(to.component), to)
    if src.is_complex:
        raise AssertionError("complex to real conversion")  # inference refuses it
    if src.is_float and to.is_int:
        return float_to_int(L, e, to)
    return N.Cast(e, to)


def float_to_int(L, e, to: T.Scalar):
    """``int(x)``: ValueError for NaN, OverflowError for inf, deopt when the exact
    Python int does not fit ``to``.  One ordered test on the hot path -- false for
    NaN and the infinities too -- and the three cases told apart only when it
    fails (a 2-D histogram's ``int(x[i] * nx)`` twice an element: 3 compares and
    branches each before)."""
    e = L.let(e)
    lo, hi = T.int_range(to)
    # in range iff lo - 1 < x < hi + 1 (the bounds are powers of two: exact)
    lo_f, hi_f = C(float(lo) - 1.0 if lo else -1.0, e.type), C(float(hi + 1), e.type)
    fits = band(N.Cmp("gt", e, lo_f, T.BOOL), N.Cmp("lt", e, hi_f, T.BOOL))
    if L.ctx is not None and L.ctx.capabilities.structured_control_flow:
        L.raise_if(N.Cmp("uno", e, e, T.BOOL), ValueError,
                   "cannot convert float NaN to integer")
        L.raise_if(N.Cmp("eq", N.Intrinsic("fabs", [e], e.type), C(float("inf"), e.type),
                         T.BOOL), OverflowError, "cannot convert float infinity to integer")
        L.emit(N.If(cond=logical_not(fits), then=[N.Raise(
            exc=OverflowError, deopt=True, message=f"float too large to convert to {to}")]))
        return N.Cast(e, to)

    def cold():
        L.raise_if(N.Cmp("uno", e, e, T.BOOL), ValueError,
                   "cannot convert float NaN to integer")
        inf = C(float("inf"), e.type)
        L.raise_if(N.Cmp("eq", N.Intrinsic("fabs", [e], e.type), inf, T.BOOL),
                   OverflowError, "cannot convert float infinity to integer")
        L.emit(N.Raise(exc=OverflowError, deopt=True,
                       message=f"float too large to convert to {to}"))
    stmts, _ = L.sub_block(cold)
    L.emit(N.If(cond=logical_not(fits), then=stmts))
    return N.Cast(e, to)


def setitem_float_to_int(L, e, to: T.Scalar):
    """A float stored into an integer array element (``a[i] = 1e19``), as NumPy's
    setitem converts it: ``int(x)`` (ValueError for NaN, OverflowError for inf),
    then that Python int as a C long -- "Python int too large to convert to C
    long" beyond int64 (uint64 also takes ``[2**63, 2**64)``) -- then
    "Python integer N out of bounds for int8" outside the element type.  Never a
    deopt: such stores mostly write into arguments, which cannot be re-run."""
    F = T.FLOAT64
    e = L.let(e if e.type == F else N.Cast(e, F))
    L.raise_if(N.Cmp("uno", e, e, T.BOOL), ValueError, "cannot convert float NaN to integer")
    L.raise_if(N.Cmp("eq", N.Intrinsic("fabs", [e], F), C(float("inf"), F), T.BOOL),
               OverflowError, "cannot convert float infinity to integer")
    w = L.let(N.Intrinsic("trunc", [e], F))
    hi = 2.0 ** 64 if to == T.UINT64 else 2.0 ** 63
    L.raise_if(bor(N.Cmp("lt", w, C(-2.0 ** 63, F), T.BOOL), N.Cmp("ge", w, C(hi, F), T.BOOL)),
               OverflowError, "Python int too large to convert to C long")
    if to == T.UINT64:
        neg = L.let(N.Cmp("lt", w, C(0.0, F), T.BOOL))
        wi = L.let(N.Cast(N.Select(neg, w, C(0.0, F), F), T.INT64))
        L.emit(N.If(cond=neg, then=[N.Raise(
            exc=OverflowError, message="Python integer {} out of bounds for uint64",
            args=[wi], line=L.line)], line=L.line))
        return N.Cast(N.Select(neg, C(0.0, F), w, F), to)
    wi = L.let(N.Cast(w, T.INT64))
    if to != T.INT64:
        lo, top = T.int_range(to)
        L.emit(N.If(cond=bor(N.Cmp("lt", wi, C(lo, T.INT64), T.BOOL),
                             N.Cmp("gt", wi, C(top, T.INT64), T.BOOL)),
                    then=[N.Raise(exc=OverflowError, args=[wi], line=L.line,
                                  message="Python integer {} out of bounds for "
                                          f"{'int' if to.is_signed else 'uint'}{to.bits}")],
                    line=L.line))
        return N.Cast(wi, to)
    return wi


def np_float_to_int(L, e, to: T.Scalar):
    """NumPy's cast of a float to an integer type (``astype``), as NumPy on x86-64
    computes it -- C's conversion, which is the processor's truncating convert: a
    NaN, infinite or out-of-range value never raises but gives the convert
    instruction's "invalid" value, ``INT_MIN`` of the width it converts at.  NumPy
    converts int8..int32 and uint8/uint16 through int32, uint64 as GCC does
    (values from 2**63 converted less 2**63, the top bit set back; NaN gives
    2**63); uint32 deoptimises where NumPy's own loops disagree.  In range, all of
    them truncate toward zero.
    ``hanajit-cpu/tests/test_cpu_astype_pairs.py`` checks every pair on edge
    values against NumPy."""
    f = e.type
    e = L.let(e)

    def convert_at(x, bits):      # cvtts*2si: the truncated value, or INT_MIN
        it = T.INT32 if bits == 32 else T.INT64
        lim = float(2 ** (bits - 1))
        ok = band(N.Cmp("ge", x, C(-lim, f), T.BOOL), N.Cmp("lt", x, C(lim, f), T.BOOL))
        safe = N.Select(ok, x, C(0.0, f), f)
        return N.Select(ok, N.Cast(safe, it), C(-(2 ** (bits - 1)), it), it)

    if to == T.UINT32:
        # NumPy's contiguous loops convert as GCC's unsigned trick at 32 bits, its
        # strided ones through int64: they agree on -2**31-1 < x < 2**32 only, and
        # elsewhere (NaN too) the interpreter gives the value NumPy's loop would
        ok = band(N.Cmp("gt", e, C(-(2.0 ** 31) - 1.0, f), T.BOOL),
                  N.Cmp("lt", e, C(2.0 ** 32, f), T.BOOL))
        L.emit(N.If(cond=logical_not(ok), then=[N.Raise(
            exc=OverflowError, deopt=True,
            message="invalid value in a cast to uint32 (NumPy's value depends on the loop)")]))
        return N.Cast(convert_at(e, 64), to)
    if to == T.UINT64:
        top = C(float(2 ** 63), f)
        big = L.let(N.Cmp("ge", e, top, T.BOOL))
        low = convert_at(e, 64)
        high = N.BinOp("xor", convert_at(N.BinOp("sub", e, top, f), 64),
                       C(-(2 ** 63), T.INT64), T.INT64)
        return N.Cast(N.Select(big, high, low, T.INT64), to)
    bits = 64 if to == T.INT64 else 32
    r = convert_at(e, bits)
    return r if r.type == to else N.Cast(r, to)


# -------------------------------------------------------------------- truth
def truth(L, e: N.Expr) -> N.Expr:
    t = e.type
    if t == T.BOOL:
        return e
    if t == T.NONE:
        return C(False, T.BOOL)
    if isinstance(t, T.TupleType):
        return C(len(t.items) > 0, T.BOOL)
    if isinstance(e, N.Const):
        return C(bool(e.value), T.BOOL)
    if t.is_complex:
        e = L.let(e)
        c = t.component
        return bor(N.Cmp("ne", N.ComplexPart(e, "real", c), zero(c), T.BOOL),
                   N.Cmp("ne", N.ComplexPart(e, "imag", c), zero(c), T.BOOL))
    return N.Cmp("ne", e, zero(t), T.BOOL)


# ----------------------------------------------------------------- operators
def binop(L, op, a, b, rtype, an=None, bn=None, checked=True):
    """Python's ``a op b``; Python ints deoptimise beyond int64 (``int_overflow``;
    ``checked=False``: a step proven not to overflow)."""
    from ...typing_rules import arith_operands
    ct = arith_operands(a.type, b.type, an, bn)
    if op == "truediv":
        ct = rtype
        if ct.is_float and _is_intlike(a.type) and _is_intlike(b.type):
            a, b = L.let(a), L.let(b)
            inexact_int_division(L, a, b)
    elif op == "pow" and rtype.is_float and ct.is_int:
        ct = rtype
    elif op in ("bitand", "bitor", "bitxor") and rtype == T.BOOL:
        ct = T.BOOL                 # bool & bool is a bool
    a, b = convert(L, a, ct), convert(L, b, ct)
    if op in ("add", "sub", "mul"):
        if ct.is_complex:
            return complex_arith(L, op, a, b, ct)
        return int_overflow.arith(L, op, a, b, ct, checked)
    if op == "truediv":
        if ct.is_complex:
            return L.call_helper(helpers.complex_div, [a, b])
        b = L.let(b)
        # float.__truediv__ or __rtruediv__ raises as soon as one is a float
        floats = any(x is not None and getattr(x, "type", None) is not None
                     and x.type.is_float for x in (an, bn))
        L.raise_if(N.Cmp("eq", b, zero(ct), T.BOOL), ZeroDivisionError,
                   zero_division_message("truediv", floats))
        return N.BinOp("fdiv", a, b, ct)
    if op in ("floordiv", "mod"):
        if ct.is_float:
            helper = helpers.float_floordiv if op == "floordiv" else helpers.float_mod
            return convert(L, L.call_helper(helper, [convert(L, a, T.FLOAT64),
                                                     convert(L, b, T.FLOAT64)]), ct)
        return int_divmod(L, op, a, b, ct)
    if op == "pow":
        if ct.is_int:
            if ct.is_signed:
                pw = helpers.py_int_pow if int_overflow.active(L) else helpers.int_pow
                r = L.call_helper(pw, [convert(L, a, T.INT64), convert(L, b, T.INT64)])
            else:           # (int_pow's int64 1 times a uint64 would be a float)
                r = L.call_helper(helpers.uint_pow, [convert_wrap(a, T.UINT64),
                                                       convert_wrap(b, T.UINT64)])
            return convert_wrap(r, rtype)
        if ct.is_float:
            if _is_two(b) and ({"afn", "fast"} & set(L.fn.fastmath)):
                # fastmath's approximate functions: the correctly rounded square
                # (what NumPy's arrays, Numba and C compilers compute), which the
                # C library's pow may miss by an ulp; overflow still raises
                a = L.let(convert(L, a, T.FLOAT64))
                r = L.let(N.BinOp("mul", a, a, T.FLOAT64))
                inf = C(float("inf"), T.FLOAT64)
                overflow = N.If(
                    cond=N.Cmp("lt", N.Intrinsic("fabs", [a], T.FLOAT64), inf, T.BOOL),
                    then=[N.Raise(exc=OverflowError, line=L.line,
                                  message="(34, 'Numerical result out of range')")],
                    line=L.line)
                L.emit(N.If(cond=N.Cmp("eq", r, inf, T.BOOL), then=[overflow], line=L.line))
            elif _is_two(b) and square_is_libm_exact():
                r = L.call_helper(helpers.float_square, [convert(L, a, T.FLOAT64)])
            else:
                r = L.call_helper(helpers.float_pow, [convert(L, a, T.FLOAT64),
                                                        convert(L, b, T.FLOAT64)])
            return convert(L, r, rtype)
        return L.call_helper(helpers.complex_pow, [a, b])
    if op in ("bitand", "bitor", "bitxor"):
        return N.BinOp({"bitand": "and", "bitor": "or", "bitxor": "xor"}[op], a, b, ct)
    if op in ("lshift", "rshift"):
        return shift(L, op, a, b, ct)
    raise AssertionError(op)  # pragma: no cover


def np_scalar_pow(L, a, b, t):
    """``**`` on NumPy float scalars: C's ``pow``/``powf`` (NumPy's scalar power,
    not its arrays' ``x*x`` for ``x ** 2``), inf and NaN instead of Python's
    errors."""
    a, b = convert(L, a, t), convert(L, b, t)
    if _is_two(b.operand if isinstance(b, N.Cast) else b):
        if {"afn", "fast"} & set(L.fn.fastmath):
            a = L.let(a)                 # fastmath: the correctly rounded square
            return N.BinOp("mul", a, a, t)
        if t == T.FLOAT64 and square_is_libm_exact():
            return L.call_helper(helpers.np_float_square, [a])
    return N.Intrinsic("pow", [a, b], t)


def _is_two(e) -> bool:
    return (isinstance(e, N.Const) and not isinstance(e.value, bool)
            and isinstance(e.value, (int, float)) and e.value == 2)


def square_is_libm_exact() -> bool:
    """Whether the C library's ``pow`` that CPython calls is glibc's or musl's,
    whose documented accuracy ``helpers.float_square`` relies on (Linux); other
    platforms always call ``pow`` for ``x ** 2``."""
    import sys
    return sys.platform.startswith("linux")


def _is_intlike(t) -> bool:
    return isinstance(t, T.Scalar) and (t.is_int or t.is_bool)


def inexact_int_division(L, a, b):
    """``int / int`` is correctly rounded in Python; dividing the converted floats
    rounds once only when both ints convert exactly, so deoptimise when one is
    beyond 2**53 (the interpreter gives CPython's answer)."""
    big = None
    for x in (a, b):
        t = x.type
        if t.bits <= 32 or isinstance(x, N.Const) and -2**53 <= x.value <= 2**53:
            continue
        if t.is_signed:
            # -2**53 <= x <= 2**53  as one unsigned comparison
            off = N.BinOp("add", N.Cast(x, T.UINT64), C(2**53, T.UINT64), T.UINT64)
            out = N.Cmp("gt", off, C(2**54, T.UINT64), T.BOOL)
        else:
            out = N.Cmp("gt", N.Cast(x, T.UINT64) if t != T.UINT64 else x,
                        C(2**53, T.UINT64), T.BOOL)
        big = out if big is None else bor(big, out)
    if big is not None:
        L.raise_if(big, helpers.Deopt, "int / int beyond 2**53 (correctly rounded)")


def raise_fields(message: str, args: list):
    """A raise's message template and values as every runtime reads them
    (``errors.Field``): a float travels as a double in its int64 slot, printed
    by ``{f}``; a uint64 prints unsigned (``{u}``); other integers as int64; a
    str built at run time (``T.StrCodes``: ``{s}``, ``{r}`` with ``!r``) as its
    code points, whose reference the record takes (``lowering/llvm.py``)."""
    if not args:
        return message, args
    fields = message_fields(message)
    kinds = [("r" if f.conversion == "r" else "s") if isinstance(a.type, T.StrCodes) else
             "f" if a.type.is_float else "u" if a.type == T.UINT64 else ""
             for a, f in zip(args, fields)]
    return with_field_kinds(message, kinds), [
        a if isinstance(a.type, T.ArrayType) else
        convert_wrap(a, T.FLOAT64 if a.type.is_float else T.INT64) for a in args]


def convert_wrap(e, to):
    if e.type != to and isinstance(to, T.ArrayType):
        return _relayout(None, e, to)       # (``e`` a variable: read twice freely)
    if (isinstance(to, T.Scalar) and to.is_complex and isinstance(e.type, T.Scalar)
            and not e.type.is_complex):     # (a bool array's astype(complex))
        c = to.component
        return N.MakeComplex(convert_wrap(e, c), C(0.0, c), to)
    return e if e.type == to else N.Cast(e, to)


def mod_positive(x, n, L=None, t=T.INT64):
    """``x % n`` as Python's for ``n > 0`` (an index along an axis of ``n``
    items, counted from either end): the remainder, plus ``n`` where negative.
    With ``L`` the remainder is a let."""
    r = N.BinOp("srem", x, n, t)
    if L is not None:
        r = L.let(r)
    return N.Select(N.Cmp("lt", r, zero(t), T.BOOL), N.BinOp("add", r, n, t), r, t)


def int_divmod(L, op, a, b, t):
    a, b = L.let(a), L.let(b)
    L.raise_if(N.Cmp("eq", b, zero(t), T.BOOL), ZeroDivisionError,
               zero_division_message(op, False))
    if not t.is_signed:
        return N.BinOp("udiv" if op == "floordiv" else "urem", a, b, t)
    lo, _ = T.int_range(t)
    if op == "floordiv":
        int_overflow.floordiv_min(L, a, b, t)
    overflow = band(N.Cmp("eq", a, C(lo, t), T.BOOL), N.Cmp("eq", b, C(-1, t), T.BOOL))
    if isinstance(b, N.Const) and b.value != -1:
        safe_b = b
    else:
        safe_b = L.let(N.Select(overflow, C(1, t), b, t))
    r = L.let(N.BinOp("srem", a, safe_b, t))
    if isinstance(b, N.Const) and b.value > 0:
        adjust = N.Cmp("lt", r, zero(t), T.BOOL)
    else:
        adjust = band(N.Cmp("ne", r, zero(t), T.BOOL),
                      N.Cmp("lt", N.BinOp("xor", r, b, t), zero(t), T.BOOL))
    if op == "mod":
        return N.Select(adjust, N.BinOp("add", r, b, t), r, t)
    q = N.BinOp("sdiv", a, safe_b, t)
    return N.Select(adjust, N.BinOp("sub", q, C(1, t), t), q, t)


def shift(L, op, a, b, t):
    b = L.let(b)
    if t.is_signed or t.is_bool:
        L.raise_if(N.Cmp("lt", b, zero(t), T.BOOL), ValueError, "negative shift count")
    if op == "lshift":
        r = int_overflow.lshift(L, a, b, t)
        if r is not None:
            return r
    bits = C(t.bits, t)
    big = N.Cmp("ge", b, bits, T.BOOL)
    if isinstance(b, N.Const) and 0 <= b.value < t.bits:
        amount, big = b, None
    else:
        big = L.let(big)
        amount = N.Select(big, zero(t), b, t)
    if op == "lshift":
        r = N.BinOp("shl", a, amount, t)
        return r if big is None else N.Select(big, zero(t), r, t)
    if t.is_signed:
        if big is not None:
            amount = N.Select(big, C(t.bits - 1, t), b, t)
        return N.BinOp("ashr", a, amount, t)
    r = N.BinOp("lshr", a, amount, t)
    return r if big is None else N.Select(big, zero(t), r, t)


def complex_arith(L, op, a, b, t):
    c = t.component
    a, b = L.let(a), L.let(b)
    ar, ai = N.ComplexPart(a, "real", c), N.ComplexPart(a, "imag", c)
    br, bi = N.ComplexPart(b, "real", c), N.ComplexPart(b, "imag", c)
    if op in ("add", "sub"):
        return N.MakeComplex(N.BinOp(op, ar, br, c), N.BinOp(op, ai, bi, c), t)
    re = N.BinOp("sub", N.BinOp("mul", ar, br, c), N.BinOp("mul", ai, bi, c), c)
    im = N.BinOp("add", N.BinOp("mul", ar, bi, c), N.BinOp("mul", ai, br, c), c)
    return N.MakeComplex(re, im, t)


def unop(L, op, a, rtype, checked=True):
    if op == "not":
        return logical_not(truth(L, a))
    a = convert(L, a, rtype)
    if op == "pos":
        return a
    if op == "neg":
        if rtype.is_complex:
            a = L.let(a)
            c = rtype.component
            return N.MakeComplex(N.UnOp("neg", N.ComplexPart(a, "real", c), c),
                                 N.UnOp("neg", N.ComplexPart(a, "imag", c), c), rtype)
        return int_overflow.neg(L, a, rtype) if checked else N.UnOp("neg", a, rtype)
    if op == "invert":
        return N.UnOp("invert", a, rtype)
    raise AssertionError(op)  # pragma: no cover


# ---------------------------------------------------------------- comparisons
_FLIP = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}
_PYOP = {"lt": lambda x, y: x < y, "le": lambda x, y: x <= y, "gt": lambda x, y: x > y,
         "ge": lambda x, y: x >= y, "eq": lambda x, y: x == y, "ne": lambda x, y: x != y}


def compare(L, op, a, b) -> N.Expr:
    """One Python comparison of two lowered values, exact across int/float."""
    ta, tb = a.type, b.type
    if op in ("is", "isnot"):
        same = ta == tb == T.NONE
        if ta == tb == T.BOOL:
            return N.Cmp("eq" if op == "is" else "ne", a, b, T.BOOL)
        return C(same if op == "is" else not same, T.BOOL)
    if op in ("in", "notin"):
        r = contains(L, a, b)
        return r if op == "in" else logical_not(r)
    if isinstance(ta, T.TupleType) or isinstance(tb, T.TupleType):
        return tuple_eq(L, op, a, b)
    if ta.is_bool and tb.is_bool:
        return N.Cmp(op, N.Cast(a, T.INT8), N.Cast(b, T.INT8), T.BOOL) if op not in (
            "eq", "ne") else N.Cmp(op, a, b, T.BOOL)
    if ta.is_bool:
        a, ta = N.Cast(a, T.INT64), T.INT64
    if tb.is_bool:
        b, tb = N.Cast(b, T.INT64), T.INT64
    if ta.is_complex or tb.is_complex:
        ct = T.COMPLEX128
        a, b = L.let(convert(L, a, ct)), L.let(convert(L, b, ct))
        c = T.FLOAT64
        eq = band(N.Cmp("eq", N.ComplexPart(a, "real", c), N.ComplexPart(b, "real", c), T.BOOL),
                  N.Cmp("eq", N.ComplexPart(a, "imag", c), N.ComplexPart(b, "imag", c), T.BOOL))
        return eq if op == "eq" else logical_not(eq)
    if ta.is_int and tb.is_float:
        return int_float_cmp(L, op, a, convert(L, b, T.FLOAT64))
    if ta.is_float and tb.is_int:
        return int_float_cmp(L, _FLIP[op], b, convert(L, a, T.FLOAT64))
    if ta.is_float and tb.is_float:
        t = ta if ta.bits >= tb.bits else tb
        return N.Cmp(op, N.Cast(a, t) if ta != t else a, N.Cast(b, t) if tb != t else b, T.BOOL)
    # both integers
    if ta.is_signed != tb.is_signed and max(ta.bits, tb.bits) == 64:
        s, u = (a, b) if ta.is_signed else (b, a)
        sop = op if ta.is_signed else _FLIP[op]
        s, u = L.let(convert(L, s, T.INT64)), L.let(convert(L, u, T.UINT64))
        neg = N.Cmp("lt", s, C(0, T.INT64), T.BOOL)
        ucmp = N.Cmp(sop, N.Cast(s, T.UINT64), u, T.BOOL)
        return N.Select(neg, C(_PYOP[sop](-1, 0), T.BOOL), ucmp, T.BOOL)
    from ...typing_rules import promote
    t = promote(ta, tb)
    return N.Cmp(op, convert(L, a, t), convert(L, b, t), T.BOOL)


def int_float_cmp(L, op, i, f):
    """Exact comparison of an integer with a float64 (as Python compares them)."""
    it = i.type
    i, f = L.let(i), L.let(f)
    fi = L.let(N.Cast(i, T.FLOAT64))
    same = L.let(N.Cmp("eq", fi, f, T.BOOL))
    # when the rounded int equals f, f is integral; it can still be 2**63 (or 2**64),
    # just above every int of the type
    top = 2.0 ** (it.bits if not it.is_signed else it.bits - 1)
    big = L.let(N.Cmp("ge", f, C(top, T.FLOAT64), T.BOOL))
    fint = N.Cast(N.Select(band(same, logical_not(big)), f, C(0.0, T.FLOAT64), T.FLOAT64), it)
    exact = N.Select(big, C(_PYOP[op](0, 1), T.BOOL), N.Cmp(op, i, fint, T.BOOL), T.BOOL)
    return N.Select(same, exact, N.Cmp(op, fi, f, T.BOOL), T.BOOL)


def tuple_eq(L, op, a, b):
    ta, tb = a.type, b.type
    if not (isinstance(ta, T.TupleType) and isinstance(tb, T.TupleType)) or len(
            ta.items) != len(tb.items):
        return C(op == "ne", T.BOOL)
    a, b = L.let(a), L.let(b)
    r = C(True, T.BOOL)
    for i, (x, y) in enumerate(zip(ta.items, tb.items)):
        r = band(r, compare(L, "eq", N.TupleGet(a, i, x), N.TupleGet(b, i, y)))
    return r if op == "eq" else logical_not(r)


def contains(L, x, tup, item_types=None):
    """``x in tup``: ``==`` with each item (in ``item_types[i]`` where given: a
    NumPy scalar ``x``, ``Inferrer.contains_types``)."""
    from ..arrays.elementwise import cast_to
    x = L.let(x)
    tup = L.let(tup)
    r = C(False, T.BOOL)
    for i, t in enumerate(tup.type.items):
        item = N.TupleGet(tup, i, t)
        ct = item_types[i] if item_types else None
        r = bor(r, compare(L, "eq", x, item) if ct is None else
                compare(L, "eq", cast_to(L, x, ct), cast_to(L, item, ct)))
    return r


def compare_chain(L, e: N.PyCompare) -> N.Expr:
    """``a < b < c``: b is evaluated once, c only if ``a < b`` holds."""
    first = L.lower(e.operands[0])
    in_types = getattr(e, "compare_types", None) or [None] * len(e.ops)

    def pair(op, a, b, k):
        ct = in_types[k]                 # NumPy scalars: NumPy's type (infer)
        if k in getattr(e, "python_check_pairs", ()):      # (infer/uncertain_kinds)
            from .kind_guards import exact_compare
            a, b = exact_compare(L, a, b)
        if op in ("in", "notin") and ct is not None:
            r = contains(L, a, b, ct)
            return r if op == "in" else logical_not(r)
        if ct is not None:
            from ..arrays.elementwise import cast_to, np_complex_order
            a, b = cast_to(L, a, ct), cast_to(L, b, ct)
            if ct.is_complex and op not in ("eq", "ne"):
                return np_complex_order(L, op, a, b)
        return compare(L, op, a, b)
    result_name = None
    prev = first
    results = []
    for k, op in enumerate(e.ops):
        nxt_stmts, nxt = L.sub_block(lambda k=k: L.lower(e.operands[k + 1]))
        if k == 0 or not nxt_stmts and result_name is None:
            if nxt_stmts and not isinstance(prev, (N.Const, N.Var)):
                prev = L.let(prev)
            L.out.extend(nxt_stmts)
            if k < len(e.ops) - 1:
                nxt = L.let(nxt)
            results.append(pair(op, prev, nxt, k))
            prev = nxt
            continue
        # the next operand has statements: evaluate it only if everything so far held
        if result_name is None:
            result_name = L.temp(T.BOOL, "c")
            acc = results[0]
            for r in results[1:]:
                acc = band(acc, r)
            L.emit(N.Assign(target=result_name, value=acc))
            results = []
        saved = L.out
        L.out = []
        L.out.extend(nxt_stmts)
        if k < len(e.ops) - 1:
            nxt = L.let(nxt)
        L.emit(N.Assign(target=result_name, value=pair(op, prev, nxt, k)))
        inner = L.out
        L.out = saved
        L.emit(N.If(cond=N.Var(result_name, T.BOOL), then=inner))
        prev = nxt
    if result_name is None:
        acc = results[0]
        for r in results[1:]:
            acc = band(acc, r)
        return acc
    return N.Var(result_name, T.BOOL)


def boolop(L, e: N.PyBoolOp) -> N.Expr:
    """``a and b`` / ``a or b``: later operands are evaluated only when needed and
    the result is the deciding operand (as Python returns it)."""
    t = e.type
    acc = L.lower(e.values[0])
    name = None
    for v in e.values[1:]:
        stmts, nxt = L.sub_block(lambda v=v: L.lower(v))
        if name is None and not stmts:
            if t == T.BOOL:
                acc = N.BinOp("and" if e.op == "and" else "or", acc, nxt, T.BOOL)
            else:
                acc = L.let(acc)
                test = truth(L, acc)
                acc = N.Select(test, nxt, acc, t) if e.op == "and" else N.Select(test, acc, nxt, t)
            continue
        if name is None:
            name = L.temp(t, "b")
            L.emit(N.Assign(target=name, value=acc))
        var = N.Var(name, t)
        test = truth(L, var)
        if e.op == "or":
            test = logical_not(test)
        L.emit(N.If(cond=test, then=stmts + [N.Assign(target=name, value=nxt)]))
    return acc if name is None else N.Var(name, t)


# ------------------------------------------------------------------ loops
def range_count(L, start, stop, step) -> N.Expr:
    """Number of iterations of ``range(start, stop, step)`` (int64; ValueError for
    step 0).  Unsigned arithmetic, so no bound overflows."""
    t = start.type
    u = T.UINT64
    I = T.INT64
    if isinstance(step, N.Const) and step.value == 0:
        L.raise_if(C(True, T.BOOL), ValueError, "range() arg 3 must not be zero")
    elif not isinstance(step, N.Const):
        L.raise_if(N.Cmp("eq", step, zero(t), T.BOOL), ValueError,
                   "range() arg 3 must not be zero")

    def ustep(s, negate):
        s = N.Cast(s, u) if s.type != u else s
        return N.BinOp("sub", C(0, u), s, u) if negate else s

    if isinstance(step, N.Const) and step.value == 0:
        return C(0, I)                      # (unreachable: raised above)
    if all(isinstance(e, N.Const) and isinstance(e.value, int) for e in (start, stop, step)):
        a, b, k = start.value, stop.value, step.value
        n = (b - a + k - 1) // k if k > 0 else (a - b - k - 1) // -k
        return C(min(max(n, 0), 2 ** 63 - 1), I)
    if isinstance(step, N.Const):
        if step.value == 1:
            return up_simple(start, stop)
        if step.value > 0:
            return up_by(start, stop, C(step.value, u))
        return up_by(stop, start, C(-step.value, u))
    pos = N.Cmp("gt", step, zero(t), T.BOOL)
    return N.Select(pos, up_by(start, stop, ustep(step, False)),
                    up_by(stop, start, ustep(step, True)), I)


def span(lo, hi):
    """``max(hi, lo) - lo`` as uint64: exact (a range's span is below 2**64),
    with no ``select`` -- LLVM reads it, and the counts below, as min/max
    arithmetic.  (With ``lo < hi ? ... : 0`` LLVM folded the test into an inner
    loop's exit branch, whose exit count it then could not compute, and LLVM 22's
    IndVarSimplify rewrote that exit test to its first iteration's value: the
    loop ran past its end; docs/limitations.md, test_cpu_range_counts.py.)"""
    t, u = lo.type, T.UINT64
    top = N.Intrinsic("umax" if getattr(t, "kind", "i") == "u" else "smax", [hi, lo], t)
    return N.BinOp("sub", N.Cast(top, u) if t != u else top,
                   N.Cast(lo, u) if t != u else lo, u)


def up_simple(start, stop):
    """``len(range(start, stop))`` as int64 (at most 2**63 - 1)."""
    if (isinstance(start, N.Const) and start.type == stop.type == T.INT64
            and start.value >= 0):
        top = N.Intrinsic("smax", [stop, start], T.INT64)   # (- start: no overflow)
        return top if start.value == 0 else N.BinOp("sub", top, start, T.INT64)
    return clamp_count(span(start, stop))


def up_by(lo, hi, k):
    """``len(range(lo, hi, k))`` for a step ``k > 1`` (a uint64; or of ``range(hi,
    lo, -k)``): the span divided by ``k``, rounded up without overflow."""
    u = T.UINT64
    diff = span(lo, hi)
    whole = N.BinOp("udiv", diff, k, u)
    part = N.Cast(N.Cmp("ne", N.BinOp("urem", diff, k, u), C(0, u), T.BOOL), u)
    return clamp_count(N.BinOp("add", whole, part, u))


def clamp_count(n):
    """An unsigned iteration count as int64, at most 2**63 - 1 (a loop cannot run
    longer; only a ``break`` ends such a loop)."""
    u = T.UINT64
    return N.Cast(N.Intrinsic("umin", [n, C(2 ** 63 - 1, u)], u), T.INT64)


def range_value(start, k, step, t):
    """``start + k * step`` (wrapping: never overflows inside the range)."""
    kk = k if t == T.INT64 else N.Cast(k, t)
    if isinstance(step, N.Const) and step.value == 1:
        if isinstance(start, N.Const) and start.value == 0:
            return kk
        return N.BinOp("add", start, kk, t)
    return N.BinOp("add", start, N.BinOp("mul", kk, step, t), t)


def tuple_item_dynamic(tup, i, t):
    """Item ``i`` (an int64 known to be in range) of a homogeneous tuple."""
    n = len(tup.type.items)
    if isinstance(tup, N.Const) and n > 8 and isinstance(t, T.Scalar) and (
            t.is_int or t.is_float) and all(it == t for it in tup.type.items):
        return N.TableLoad(tuple(tup.value), i, t)     # a table in read-only memory
    if isinstance(tup, N.Const):
        items = [C(v, it) for v, it in zip(tup.value, tup.type.items)]
    else:
        items = [N.TupleGet(tup, k, it) for k, it in enumerate(tup.type.items)]
    items = [x if x.type == t else N.Cast(x, t) for x in items]
    r = items[n - 1]
    for k in range(n - 2, -1, -1):
        r = N.Select(N.Cmp("eq", i, C(k, T.INT64), T.BOOL), items[k], r, t)
    return r


def method(L, name, args, rtype):
    v = args[0]
    if name == "conjugate":
        if v.type.is_complex:
            v = L.let(v)
            c = v.type.component
            return N.MakeComplex(N.ComplexPart(v, "real", c),
                                 N.UnOp("neg", N.ComplexPart(v, "imag", c), c), v.type)
        return convert(L, v, rtype)
    if name == "item":                  # a NumPy scalar's Python number
        return convert(L, v, rtype)
    if name == "is_integer":
        v = L.let(v)
        return band(N.Cmp("eq", N.Intrinsic("floor", [v], v.type), v, T.BOOL),
                    N.Cmp("ne", N.Intrinsic("fabs", [v], v.type), C(float("inf"), v.type),
                          T.BOOL))
    if name == "bit_length":
        return bit_length(L, v)
    raise AssertionError(name)  # pragma: no cover


def bit_length(L, v):
    """Python's ``int.bit_length()`` of an int64/uint64 (or bool) value: the bits
    of ``abs(v)`` -- the population count of ``|v|`` with every bit below its
    highest set bit set (``abs(-2**63)`` wraps to the bit pattern ``2**63``)."""
    t = v.type
    if t.is_bool:
        return N.Cast(v, T.INT64)
    w = T.Scalar("u", t.bits)
    v = L.let(v)
    if t.is_signed:
        v = N.Select(N.Cmp("lt", v, C(0, t), T.BOOL), N.UnOp("neg", v, t), v, t)
    u = L.let(N.Cast(v, w) if t.is_signed else v)
    s = 1
    while s < t.bits:
        u = L.let(N.BinOp("or", u, N.BinOp("lshr", u, C(s, w), w), w))
        s *= 2
    return convert(L, N.Intrinsic("ctpop", [u], w), T.INT64)
