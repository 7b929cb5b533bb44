"""NumPy's operator ufuncs called by name: ``np.add(a, b)`` is ``a + b`` with
NumPy's semantics, ``np.power``, ``np.negative``, ``np.less``, ``np.logical_and``
and the rest.

On arrays they are the array operators (``elementwise.np_binop``: broadcasting,
NEP 50 promotion, in NumPy's element semantics).  On scalars they are the same
loops on 0-d arrays, so even Python numbers get NumPy's semantics: ``np.divide(1,
0)`` is inf and ``np.floor_divide(7, 0)`` is 0 (NumPy warns; Python raises),
``np.add(True, True)`` is True, and the result is a NumPy scalar for what
follows.  ``np.power`` with one exponent takes NumPy's fast paths on floats
(``np.power(x, 0.5)`` is ``sqrt(x)``; ``elementwise.np_power_one_exponent``).
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register
from .ufunc_loops import shaped

BINARY = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "truediv",
    "true_divide": "truediv", "floor_divide": "floordiv", "power": "pow",
    "remainder": "mod", "mod": "mod", "less": "lt", "less_equal": "le",
    "greater": "gt", "greater_equal": "ge", "equal": "eq", "not_equal": "ne",
    "bitwise_and": "bitand", "bitwise_or": "bitor", "bitwise_xor": "bitxor",
    "left_shift": "lshift", "right_shift": "rshift",
}
LOGICAL = {"logical_and": "and", "logical_or": "or", "logical_xor": "xor"}
_DEFAULT = {"b": T.BOOL, "i": T.INT64, "u": T.INT64, "f": T.FLOAT64, "c": T.COMPLEX128}


def _operand_types(inf, call, args):
    """The operands as ``result_dtype`` takes them: arrays as they are; with no
    array, the first NumPy scalar (or else the first Python number, at its
    default dtype) stands as a 0-d array -- NumPy converts scalars to 0-d arrays,
    a Python number staying weak (NEP 50)."""
    whole = [n.type if isinstance(getattr(n, "type", None), T.ArrayType) else a
             for n, a in zip(call.args, args)]
    weak = [not isinstance(w, T.ArrayType) and inf.weak(n) for w, n in zip(whole, call.args)]
    if not any(isinstance(w, T.ArrayType) for w in whole):
        k = next((i for i, w in enumerate(weak) if not w), 0)
        base = whole[k] if not weak[k] else _DEFAULT[whole[k].kind]
        whole[k], weak[k] = T.ArrayType(base, 0, "C"), False
    return whole, weak


class _Ufunc(CallTemplate):
    """Common checks: positional operands only, numbers or arrays of them."""

    nargs = 2
    accepts_out = True          # out=arr: ufuncs.out_typer / out_lower

    def __init__(self, name, op=None):
        self.name = name
        self.op = op
        self.paths = (f"numpy.{name}",)

    def check(self, call, args, kwargs):
        if kwargs or len(args) != self.nargs:
            raise Incompatible(f"np.{self.name}() takes {self.nargs} positional "
                               "operand(s) here (no out=, where=, dtype=)")
        for a in args:
            if not isinstance(ew.elem_type(a), T.Scalar):
                raise Incompatible(f"np.{self.name}() of {a}")

    shaped = staticmethod(shaped)   # ``t``, or an array of it broadcast from the arrays


class BinaryUfunc(_Ufunc):
    def typer(self, inf, call, args, kwargs):
        self.check(call, args, kwargs)
        (a, b), (wa, wb) = _operand_types(inf, call, args)
        for node, t in zip(call.args, args):
            inf.mark_weak(node, t)
        call.compare_in = ew.comparison_type(a, b, wa, wb)
        return self.shaped(args, ew.result_dtype(self.op, a, b, wa, wb))

    def lower(self, L, call, args, kwargs):
        rt = call.type
        t = rt.dtype if isinstance(rt, T.ArrayType) else rt
        work = t
        if self.op in ("lt", "le", "gt", "ge", "eq", "ne"):
            work = None         # (np_binop promotes the operands itself)
        a, b = ew.python_int_fits(L, list(args), work) if work is not None else args
        one_exponent = self.op == "pow" and ew.one_exponent(b.type, t)

        path = "array" if isinstance(rt, T.ArrayType) else "scalar_ufunc"
        plain_if = None
        if self.op == "mul" and path == "array":
            from ..complex.product_forms import plain_flag
            plain_if = plain_flag(L, [a, b], t,
                                         out=getattr(call, "out_array", None))

        def elem(x, y):
            if one_exponent:
                return ew.np_power_one_exponent(L, x, y, t)
            return ew.np_binop(L, self.op, x, y, t, path=path,
                               compare_in=getattr(call, "compare_in", None),
                               plain_if=plain_if)
        if isinstance(rt, T.ArrayType):
            return ew.lift(L, [a, b], rt, elem)
        return elem(L.let(a), L.let(b))


class LogicalUfunc(_Ufunc):
    def typer(self, inf, call, args, kwargs):
        self.check(call, args, kwargs)
        return self.shaped(args, T.BOOL)

    def lower(self, L, call, args, kwargs):
        def elem(x, y):
            return N.BinOp(self.op, ops.truth(L, x), ops.truth(L, y), T.BOOL)
        if isinstance(call.type, T.ArrayType):
            return ew.lift(L, list(args), call.type, elem)
        return elem(L.let(args[0]), L.let(args[1]))


class UnaryUfunc(_Ufunc):
    """negative, positive, square, reciprocal (floats and complex), logical_not,
    conjugate/conj, invert/bitwise_not."""

    nargs = 1

    def typer(self, inf, call, args, kwargs):
        self.check(call, args, kwargs)
        t = ew.elem_type(args[0])
        if not isinstance(args[0], T.ArrayType) and inf.weak(call.args[0]):
            t = _DEFAULT[t.kind]
        name = self.name
        if name == "logical_not":
            t = T.BOOL
        elif name in ("square", "conjugate", "conj") and t.is_bool:
            t = T.INT8          # (NumPy has no bool loop: the first that takes it)
        elif name in ("negative", "positive") and t.is_bool:
            raise Incompatible(f"np.{name}() of booleans (NumPy raises TypeError)")
        elif name in ("invert", "bitwise_not") and not (t.is_int or t.is_bool):
            raise Incompatible(f"np.{name}() of {t}")
        elif name == "reciprocal" and not (t.is_float or t.is_complex):
            raise Incompatible("np.reciprocal() of integers")
        return self.shaped(args, t)

    def lower(self, L, call, args, kwargs):
        rt = call.type
        t = rt.dtype if isinstance(rt, T.ArrayType) else rt

        array = isinstance(rt, T.ArrayType)
        plain_if = None
        if array and self.name == "square":
            from ..complex.product_forms import plain_flag
            plain_if = plain_flag(L, [args[0]], t, square=True,
                                         out=getattr(call, "out_array", None))

        def elem(x):
            return _unary(L, self.name, x, t, array, plain_if)
        if isinstance(rt, T.ArrayType):
            return ew.lift(L, [args[0]], rt, elem)
        return elem(L.let(args[0]))


def _unary(L, name, x, t, array, plain_if=None):
    if name == "logical_not":
        return ops.logical_not(ops.truth(L, x))
    x = L.let(ops.convert_wrap(x, t) if x.type != t else x)
    if name in ("negative", "positive", "invert", "bitwise_not"):
        op = {"negative": "neg", "positive": "pos"}.get(name, "invert")
        return ew.np_unop(L, op, x, t)
    if name == "square":
        if t.is_complex:
            from ..complex.power import complex_square
            return complex_square(L, x, t, "square" if array else "scalar_square",
                                  plain_if)
        return ew.np_binop(L, "mul", x, x, t)
    if name == "reciprocal":
        if t.is_complex:
            return complex_reciprocal(L, x, t)
        return N.BinOp("fdiv", C(1.0, t), x, t)
    if name in ("conjugate", "conj"):
        if not t.is_complex:
            return x
        c = t.component
        return N.MakeComplex(N.ComplexPart(x, "real", c),
                             _neg(N.ComplexPart(x, "imag", c), c), t)
    raise AssertionError(name)  # pragma: no cover


def _neg(e, t):
    return N.UnOp("neg", e, t)


def complex_reciprocal(L, x, t):
    """NumPy's complex reciprocal loop: Smith's method on ``1 / x``."""
    c = t.component
    xr, xi = L.let(N.ComplexPart(x, "real", c)), L.let(N.ComplexPart(x, "imag", c))
    small_imag = N.Cmp("le", N.Intrinsic("fabs", [xi], c), N.Intrinsic("fabs", [xr], c),
                       T.BOOL)
    # |xi| <= |xr|: r = xi/xr, d = xr + xi*r, (1/d, -r/d); else r = xr/xi,
    # d = xr*r + xi, (r/d, -1/d)
    r1 = L.let(N.BinOp("fdiv", xi, xr, c))
    d1 = L.let(N.BinOp("add", xr, N.BinOp("mul", xi, r1, c), c))
    r2 = L.let(N.BinOp("fdiv", xr, xi, c))
    d2 = L.let(N.BinOp("add", N.BinOp("mul", xr, r2, c), xi, c))
    one = C(1.0, c)
    re = N.Select(small_imag, N.BinOp("fdiv", one, d1, c), N.BinOp("fdiv", r2, d2, c), c)
    im = N.Select(small_imag, _neg(N.BinOp("fdiv", r1, d1, c), c),
                  _neg(N.BinOp("fdiv", one, d2, c), c), c)
    return N.MakeComplex(re, im, t)


class DivMod(_Ufunc):
    """``np.divmod(a, b)``: ``(np.floor_divide(a, b), np.remainder(a, b))``, each
    as NumPy's own ufunc computes it (arrays of the broadcast shape, or NumPy
    scalars)."""

    accepts_out = False

    def __init__(self):
        super().__init__("divmod")
        self.parts = (BinaryUfunc("floor_divide", "floordiv"), BinaryUfunc("remainder", "mod"))

    def typer(self, inf, call, args, kwargs):
        import copy
        calls = [copy.copy(call) for _ in self.parts]     # (each part's notes its own)
        types = tuple(p.typer(inf, c, args, kwargs) for p, c in zip(self.parts, calls))
        call.divmod_parts = calls
        return T.TupleType(types)

    def lower(self, L, call, args, kwargs):
        args = [L.let(a) for a in args]
        values = []
        for part, c, t in zip(self.parts, call.divmod_parts, call.type.items):
            c.type = t
            values.append(L.let(ew.materialize(L, part.lower(L, c, args, kwargs))))
        return N.MakeTuple(values, call.type)


class Sinc(CallTemplate):
    """``np.sinc(x)``: NumPy's ``sin(y) / y`` with ``y = pi * where(x == 0, 1e-20,
    x)``, in the float type of ``x`` (float64 for integers and bools)."""

    ufunc = True
    paths = ("numpy.sinc",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not isinstance(args[0], T.Scalar) \
                or args[0].is_complex:
            raise Incompatible("np.sinc() of a real number or array")
        t = args[0]
        return t if t.is_float else T.FLOAT64

    def lower(self, L, call, args, kwargs):
        import math
        t = call.type
        x = L.let(ops.convert(L, args[0], t))
        y = L.let(N.BinOp("mul", C(math.pi, t), N.Select(
            N.Cmp("eq", x, C(0.0, t), T.BOOL), C(1.0e-20, t), x, t), t))
        return N.BinOp("fdiv", N.Intrinsic("sin", [y], t), y, t)


register(DivMod())
register(Sinc())
for _name, _op in BINARY.items():
    register(BinaryUfunc(_name, _op))
for _name, _op in LOGICAL.items():
    register(LogicalUfunc(_name, _op))
for _name in ("negative", "positive", "square", "reciprocal", "logical_not",
              "conjugate", "conj", "invert", "bitwise_not"):
    register(UnaryUfunc(_name))
