"""Python builtins on scalars and tuples: abs, min, max, round, int, float, bool,
complex, divmod, pow, len, enumerate, zip, and NumPy scalar constructors."""
from __future__ import annotations

from ...typing_rules import Incompatible, arith_operands, unify
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from . import array_min_max, helpers, int_overflow
from . import operators as ops
from .operators import C, convert
from ..registry import CallTemplate, register


def _scalar(t):
    return isinstance(t, T.Scalar)


def _flatten(args):
    """min/max/... of one tuple argument means its items."""
    if len(args) == 1 and isinstance(args[0], T.TupleType):
        return list(args[0].items)
    return args


@register
class Abs(CallTemplate):
    paths = ("builtins.abs", "numpy.abs", "numpy.absolute")
    ufunc = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not _scalar(args[0]):
            raise Incompatible("abs() takes one number")
        t = args[0]
        # abs() of a NumPy scalar is NumPy's absolute: a bool stays a bool and a
        # complex overflowing to inf does not raise
        arg = call.args[0]
        call.numpy_semantics = (call.name != "abs" or inf.is_strong(arg)
                                or isinstance(getattr(arg, "type", None), T.ArrayType))
        if t.is_bool:
            return T.BOOL if call.numpy_semantics else T.INT64
        return t.component if t.is_complex else t

    def lower(self, L, call, args, kwargs):
        x = args[0]
        t = call.type
        if x.type.is_complex:
            from ..complex.absolute_forms import cabs, loop_abs
            x = L.let(x)
            c = x.type.component
            if call.name != "abs" or getattr(call, "elementwise", False):
                # NumPy's absolute loop (np.abs of a number too: a 0-d array)
                return loop_abs(L, x, x.type, getattr(call, "cabs_backwards", None))
            r = L.let(cabs(L, x, x.type, "hypot"))     # CPython's and NumPy's scalar abs
            if not call.numpy_semantics:
                finite = ops.band(
                    N.Cmp("lt", N.Intrinsic("fabs", [N.ComplexPart(x, "real", c)], c),
                          C(float("inf"), c), T.BOOL),
                    N.Cmp("lt", N.Intrinsic("fabs", [N.ComplexPart(x, "imag", c)], c),
                          C(float("inf"), c), T.BOOL))
                L.raise_if(ops.band(finite, N.Cmp("eq", r, C(float("inf"), c), T.BOOL)),
                           OverflowError, "absolute value too large")
            return r
        x = convert(L, x, t)
        if t.is_float:
            return N.Intrinsic("fabs", [x], t)
        if t.is_bool or not t.is_signed:
            return x
        x = L.let(x)
        if not call.numpy_semantics:               # abs(-2**63) is 2**63
            from .int_overflow import neg
            return N.Select(N.Cmp("lt", x, C(0, t), T.BOOL), neg(L, x, t), x, t)
        if getattr(call, "python_check", False):   # (infer/uncertain_kinds)
            from .kind_guards import neg
            x = L.let(neg(L, x, t))
        return N.Select(N.Cmp("lt", x, C(0, t), T.BOOL), N.UnOp("neg", x, t), x, t)

    def loop_flags(self, L, call, args):
        """Before the loop over arrays: where NumPy's complex64 loop takes
        ``hypot`` for an array read backwards, the flag of that
        (``absolute_forms.backwards_flag``)."""
        from ..complex.absolute_forms import backwards_flag
        call.cabs_backwards = backwards_flag(L, args[0])


class MinMax(CallTemplate):
    def __init__(self, name, op):
        self.name, self.op = name, op
        self.paths = (f"builtins.{name}",)

    def typer(self, inf, call, args, kwargs):
        if args and isinstance(args[0], T.ArrayType):
            call.plan = "array"
            return array_min_max.array_typer(self.name, args, kwargs)
        if kwargs:
            raise Incompatible(f"{self.name}() keyword arguments")
        items = _flatten(args)
        if not items or not all(_scalar(t) and not t.is_complex for t in items):
            raise Incompatible(f"{self.name}() of {args}")
        t = None
        for x in items:
            t = unify(t, x)
        # Python compares ``item > current`` with the objects themselves: where a
        # NumPy scalar takes part, in NumPy's type (np.float32(0.1) > 0.1 is
        # False), so which item wins can depend on which one is current
        from ..arrays.elementwise import comparison_type
        if len(args) == 1:
            node = call.args[0]
            nodes = node.items if isinstance(node, N.MakeTuple) else [node] * len(items)
        else:
            nodes = call.args
        strong = [inf.is_strong(n) for n in nodes]
        call.compare_types = [[
            comparison_type(items[k], items[j], not strong[k], not strong[j])
            if strong[k] or strong[j] else None for j in range(k)]
            for k in range(len(items))]
        return t

    def lower(self, L, call, args, kwargs):
        if call.plan == "array":
            return array_min_max.array_lower(L, self.name, args[0])
        if len(args) == 1:
            tup = L.let(args[0])
            items = [N.TupleGet(tup, i, t) for i, t in enumerate(tup.type.items)]
        else:
            items = list(args)
        t = call.type
        vals = [L.let(x) for x in items]
        cts = call.compare_types
        if (len(vals) == 2 and t.is_int and not t.is_bool and cts[1][0] in (None, t)
                and all(v.type == t for v in vals)):
            # two ints of one type: equal ones are the same value, so which one
            # wins a tie cannot show -- the min/max primitive, whose value range
            # passes/version_bounds can follow (clamped indices)
            signed = "s" if t.is_signed else "u"
            return N.Intrinsic(signed + ("min" if self.op == "lt" else "max"), vals, t)
        cur = C(0, T.INT64)                  # the index of the current item
        for k in range(1, len(vals)):
            better = None
            for j in range(k):
                ct = cts[k][j]
                x, y = (vals[k], vals[j]) if ct is None else (
                    ew.cast_to(L, vals[k], ct), ew.cast_to(L, vals[j], ct))
                b = ops.compare(L, self.op, x, y)
                if k > 1:
                    b = ops.band(N.Cmp("eq", cur, C(j, T.INT64), T.BOOL), b)
                better = b if better is None else ops.bor(better, b)
            cur = L.let(N.Select(better, C(k, T.INT64), cur, T.INT64))
        if t.is_float:
            # the winner comes back in the one type of the result; an int that
            # type cannot hold exactly (max(2**53 + 1, 1.0), an int64 with a
            # uint64) re-runs the call in the interpreter, which returns it
            inexact = None
            for k, v in enumerate(vals):
                if v.type.is_int and not v.type.is_bool:
                    lost = ops.logical_not(ops.compare(L, "eq", v, convert(L, v, t)))
                    if len(vals) > 1:
                        lost = ops.band(N.Cmp("eq", cur, C(k, T.INT64), T.BOOL), lost)
                    inexact = lost if inexact is None else ops.bor(inexact, lost)
            if inexact is not None:
                L.raise_if(inexact, helpers.Deopt,
                           f"{self.name}() of an int that {t} does not hold exactly")
        out = convert(L, vals[0], t)
        for k in range(1, len(vals)):
            out = N.Select(N.Cmp("eq", cur, C(k, T.INT64), T.BOOL), convert(L, vals[k], t),
                           out, t)
        return out


register(MinMax("min", "lt"))
register(MinMax("max", "gt"))


@register
class Round(CallTemplate):
    paths = ("builtins.round",)

    def typer(self, inf, call, args, kwargs):
        nd = kwargs.get("ndigits")
        if len(args) == 2:
            nd = args[1]
        if not args or not _scalar(args[0]) or args[0].is_complex:
            raise Incompatible("round() takes a real number")
        x = args[0]
        strong = inf.is_strong(call.args[0])
        # a NumPy bool has no __round__ (TypeError); a NumPy number's round(x, n)
        # is np.round's, in x's type (x * 10**n, rint, / 10**n)
        call.plan = ("TypeError" if x.is_bool and strong else
                     "numpy" if strong and nd is not None and nd != T.NONE else None)
        if nd is None or nd == T.NONE:
            return T.INT64          # a Python int, of NumPy integers too
        if not (nd.is_int or nd.is_bool):
            raise Incompatible("round() ndigits must be an integer")
        if x.is_float:
            return T.FLOAT64 if x.bits == 64 else x
        return T.INT64 if x.is_bool else x

    def lower(self, L, call, args, kwargs):
        x = args[0]
        nd = args[1] if len(args) == 2 else kwargs.get("ndigits")
        if call.plan == "TypeError":
            L.emit(N.Raise(exc=TypeError, line=L.line,
                           message="type numpy.bool doesn't define __round__ method"))
            return ops.zero(call.type)
        if x.type.is_float and (nd is None or nd.type == T.NONE):
            return ops.float_to_int(L, N.Intrinsic("rint", [x], x.type), T.INT64)
        if nd is None or nd.type == T.NONE:
            return convert(L, int_overflow.uint64_as_python_int(L, x, "round() of a uint64"),
                           call.type)
        if call.plan == "numpy":
            return _numpy_round(L, x, nd)
        if x.type.is_float:
            from . import round_float as prf
            r = L.call_helper(prf.float_round, [convert(L, x, T.FLOAT64),
                                                 convert(L, nd, T.INT64)])
            return convert(L, r, call.type)
        x = convert(L, x, T.INT64) if x.type.is_bool else x
        from . import round_int
        return convert(L, L.call_helper(round_int.int_round,
                                        [convert(L, x, T.INT64), convert(L, nd, T.INT64)]),
                       call.type)


def _numpy_round(L, x, nd):
    """``round(x, nd)`` of a NumPy scalar: NumPy's ``PyArray_Round``.  Floats
    multiply by 10**nd in their own type (the power rounded to it), ``rint`` and
    divide back (nd < 0: the other way round); integers are unchanged for nd >= 0,
    else go through float64 and are cast back -- a result outside the type (NumPy:
    an unspecified value and a warning) re-runs in the interpreter."""
    from .round_int import numpy_power_of_ten
    F = T.FLOAT64
    nd = L.let(convert(L, nd, T.INT64))
    # NumPy takes ndigits as a C int
    L.raise_if(N.Cmp("gt", nd, C(2 ** 31 - 1, T.INT64), T.BOOL), OverflowError,
               "signed integer is greater than maximum")
    L.raise_if(N.Cmp("lt", nd, C(-2 ** 31, T.INT64), T.BOOL), OverflowError,
               "signed integer is less than minimum")
    neg = L.let(N.Cmp("lt", nd, C(0, T.INT64), T.BOOL))
    digits = N.Select(neg, N.BinOp("sub", C(0, T.INT64), nd, T.INT64), nd, T.INT64)
    p10 = L.let(L.call_helper(numpy_power_of_ten, [digits]))
    t = x.type if x.type.is_float else F
    f = L.let(p10 if t == F else N.Cast(p10, t))
    v = L.let(x if x.type.is_float else N.Cast(x, F))
    y = L.let(N.Intrinsic("rint", [N.Select(neg, N.BinOp("fdiv", v, f, t),
                                            N.BinOp("mul", v, f, t), t)], t))
    y = L.let(N.Select(neg, N.BinOp("mul", y, f, t), N.BinOp("fdiv", y, f, t), t))
    if x.type.is_float:
        return y
    lo, hi = T.int_range(x.type)
    inside = L.let(ops.band(N.Cmp("ge", y, C(float(lo), F), T.BOOL),
                            N.Cmp("lt", y, C(float(hi + 1), F), T.BOOL)))
    L.emit(N.If(cond=ops.band(neg, ops.logical_not(inside)), line=L.line, then=[N.Raise(
        exc=OverflowError, deopt=True, line=L.line,
        message=f"round() of a NumPy {x.type} beyond its type")]))
    rounded = N.Cast(N.Select(inside, y, C(0.0, F), F), x.type)
    return N.Select(neg, rounded, x, x.type)


class Conv(CallTemplate):
    """int(), float(), bool(), and NumPy scalar types used as functions."""

    def __init__(self, paths, to, name):
        self.paths, self.to, self.name = paths, to, name

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) > 1:
            raise Incompatible(f"{self.name}() takes at most one argument")
        zero_d = bool(args) and isinstance(args[0], T.ArrayType) and args[0].ndim == 0
        if zero_d:                      # float(np.array(2.5)): its element
            args = [args[0].dtype]
        if args and not _scalar(args[0]):
            if not (self.to == T.BOOL and isinstance(args[0], (T.TupleType, T.NoneType))):
                raise Incompatible(f"{self.name}() of {args[0]}")
        if args and args[0].is_complex and not self.to.is_complex and self.to != T.BOOL:
            raise Incompatible(f"{self.name}() of a complex number")
        # ``np.int8(n)`` of a Python int: NumPy 2 raises OverflowError when it
        # does not fit (of a NumPy integer it wraps, as a cast)
        call.plan = ("python int" if args and args[0].is_int and self.to.is_int
                     and self.name != "int" and not zero_d
                     and not inf.is_strong(call.args[0]) else None)
        return self.to

    def lower(self, L, call, args, kwargs):
        if not args:
            return ops.zero(self.to)
        x = args[0]
        if isinstance(x.type, T.ArrayType):         # a 0-d array: its element
            x = L.let(N.Load(L.let(x), [], x.type.dtype))
        if self.to == T.BOOL:
            return ops.truth(L, x)
        if x.type.is_int and self.to.is_int:
            if call.plan == "python int":
                x = ew.python_int_fits(L, [ops.convert_wrap(x, T.INT64)], self.to)[0]
            elif self.name == "int":
                x = int_overflow.uint64_as_python_int(L, x, "int() of a uint64")
            return ops.convert_wrap(x, self.to)
        return convert(L, x, self.to)


register(Conv(("builtins.int",), T.INT64, "int"))
register(Conv(("builtins.float",), T.FLOAT64, "float"))
register(Conv(("builtins.bool", "numpy.bool_"), T.BOOL, "bool"))
for _t in T.SCALARS:
    if _t.kind != "b":
        register(Conv((f"numpy.{_t.name}",), _t, _t.name))
register(Conv(("numpy.double",), T.FLOAT64, "double"))
register(Conv(("numpy.single",), T.FLOAT32, "single"))


@register
class Complex(CallTemplate):
    paths = ("builtins.complex",)

    def typer(self, inf, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("real", "imag") if k in kwargs]
        if len(vals) > 2 or not all(_scalar(t) for t in vals):
            raise Incompatible("complex() takes up to two numbers")
        if len(vals) == 2 and any(t.is_complex for t in vals):
            raise Incompatible("complex() of complex parts")
        return T.COMPLEX128

    def lower(self, L, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("real", "imag") if k in kwargs]
        if not vals:
            return C(0j, T.COMPLEX128)
        if len(vals) == 1:
            return convert(L, vals[0], T.COMPLEX128)
        return N.MakeComplex(convert(L, vals[0], T.FLOAT64), convert(L, vals[1], T.FLOAT64),
                             T.COMPLEX128)


@register
class DivMod(CallTemplate):
    paths = ("builtins.divmod",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 2 or not all(_scalar(t) and not t.is_complex for t in args):
            raise Incompatible("divmod() takes two real numbers")
        if _numpy_operands(inf, call, args) and args[0].is_bool and args[1].is_bool:
            raise Incompatible("divmod() of NumPy booleans")
        t = arith_operands(args[0], args[1], call.args[0], call.args[1])
        return T.TupleType((t, t))

    def lower(self, L, call, args, kwargs):
        a, b = (L.let(x) for x in args)
        t = call.type.items[0]
        if call.numpy_semantics:     # np.divmod's: x // 0 is 0 (inf for floats)
            a, b = ew.python_int_fits(L, [a, b], t)
            q = L.let(ew.np_scalar_binop(L, "floordiv", a, b, t))
            r = L.let(ew.np_scalar_binop(L, "mod", a, b, t))
        else:
            if t.is_float:          # float.__divmod__'s own message
                L.raise_if(N.Cmp("eq", ops.convert(L, b, t), C(0.0, t), T.BOOL),
                           ZeroDivisionError, "float divmod()")
            q = L.let(ops.binop(L, "floordiv", a, b, t, call.args[0], call.args[1]))
            r = L.let(ops.binop(L, "mod", a, b, t, call.args[0], call.args[1]))
        return N.MakeTuple([q, r], call.type)


def _numpy_operands(inf, call, args) -> bool:
    """Is either operand of ``divmod``/``pow`` a NumPy scalar?  Then the call has
    NumPy's semantics, as the operators do (``lower_semantics.e_PyBinOp``), and
    NEP 50 promotion: the note is kept on the call for the lowering."""
    call.numpy_semantics = inf.is_strong(call.args[0]) or inf.is_strong(call.args[1])
    inf.mark_weak(call.args[0], args[0])
    inf.mark_weak(call.args[1], args[1])
    return call.numpy_semantics


@register
class Pow(CallTemplate):
    """``pow(x, y)`` is built as ``x ** y`` (``frontend.builder``); what reaches
    here has a modulus or keywords."""

    paths = ("builtins.pow",)

    def typer(self, inf, call, args, kwargs):
        raise Incompatible("pow() with a modulus is not supported")


@register
class Len(CallTemplate):
    paths = ("builtins.len",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or not isinstance(args[0], (T.TupleType, T.ArrayType)):
            raise Incompatible(f"len() of {args[0] if args else 'nothing'}")
        if isinstance(args[0], T.ArrayType) and args[0].ndim == 0:
            raise Incompatible("len() of a 0-d array")
        return T.INT64

    def lower(self, L, call, args, kwargs):
        if isinstance(args[0].type, T.ArrayType):
            return N.ArrayAttr(args[0], "shape", 0, T.INT64)
        return C(len(args[0].type.items), T.INT64)


@register
class Enumerate(CallTemplate):
    paths = ("builtins.enumerate",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], T.TupleType):
            raise Incompatible("enumerate() of a tuple only")
        return T.TupleType(tuple(T.TupleType((T.INT64, t)) for t in args[0].items))

    def lower(self, L, call, args, kwargs):
        tup = L.let(args[0])
        return N.MakeTuple([N.MakeTuple([C(i, T.INT64), N.TupleGet(tup, i, t)], it)
                            for i, (t, it) in enumerate(zip(tup.type.items, call.type.items))],
                           call.type)


@register
class Zip(CallTemplate):
    paths = ("builtins.zip",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or not args or not all(isinstance(t, T.TupleType) for t in args):
            raise Incompatible("zip() of tuples only")
        n = min(len(t.items) for t in args)
        return T.TupleType(tuple(T.TupleType(tuple(t.items[i] for t in args)) for i in range(n)))

    def lower(self, L, call, args, kwargs):
        tups = [L.let(a) for a in args]
        return N.MakeTuple([N.MakeTuple([N.TupleGet(t, i, t.type.items[i]) for t in tups], it)
                            for i, it in enumerate(call.type.items)], call.type)
