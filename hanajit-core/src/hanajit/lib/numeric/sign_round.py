"""``np.sign`` and ``np.round`` / ``np.around`` (``a.round()``): elementwise, on
numbers and (lifted by :mod:`ufuncs`) on arrays, with NumPy's loops' semantics.

``np.round(x, d)`` is NumPy's ``PyArray_Round``: ``rint(x * 10**d) / 10**d`` for
``d >= 0`` and ``rint(x / 10**-d) * 10**-d`` otherwise, in the array's float type
(``rint`` rounds half to even); integers are unchanged for ``d >= 0`` and go
through float64 for ``d < 0``; complex numbers round both parts.
"""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, register

F = T.FLOAT64


def _num(t):
    return isinstance(t, T.Scalar)


@register
class Sign(CallTemplate):
    """``np.sign``: -1/0/1 in the input's type, NaN for NaN, ``z/|z|`` for complex."""

    paths = ("numpy.sign",)
    ufunc = True

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not _num(args[0]):
            raise Incompatible("np.sign(x) of one number or array")
        if args[0].is_bool:
            raise Incompatible("np.sign() of booleans (NumPy has no loop for them)")
        return args[0]

    def lower(self, L, call, args, kwargs):
        x = L.let(args[0])
        t = call.type
        if t.is_complex:
            return _complex_sign(L, x, t)
        one, zero = C(1.0 if t.is_float else 1, t), ops.zero(t)
        pos = N.Cmp("gt", x, zero, T.BOOL)
        if t.is_int and not t.is_signed:
            return N.Select(pos, one, zero, t)
        minus = C(-1.0 if t.is_float else -1, t)
        inner = N.Select(N.Cmp("lt", x, zero, T.BOOL), minus, zero, t)
        if t.is_float:    # NaN: the input itself
            inner = N.Select(N.Cmp("uno", x, x, T.BOOL), x, inner, t)
        return N.Select(pos, one, inner, t)


def _complex_sign(L, x, t):
    c = t.component
    re = L.let(N.ComplexPart(x, "real", c))
    im = L.let(N.ComplexPart(x, "imag", c))
    ab = L.let(N.Intrinsic("hypot", [re, im], c))
    nan, one, zero = C(float("nan"), c), C(1.0, c), C(0.0, c)

    def inf(e):
        return N.Cmp("eq", N.Intrinsic("fabs", [e], c), C(float("inf"), c), T.BOOL)

    def unit(e):
        return N.Select(N.Cmp("gt", e, zero, T.BOOL), one, C(-1.0, c), c)
    # NumPy's CDOUBLE_sign, case by case
    ab_nan, ab_inf, ab_zero = N.Cmp("uno", ab, ab, T.BOOL), inf(ab), N.Cmp(
        "eq", ab, zero, T.BOOL)
    both_inf = ops.band(inf(re), inf(im))
    r = N.Select(ab_nan, nan, N.Select(ab_inf, N.Select(both_inf, nan, N.Select(
        inf(re), unit(re), zero, c), c), N.Select(ab_zero, zero, N.BinOp(
            "fdiv", re, ab, c), c), c), c)
    i = N.Select(ab_nan, nan, N.Select(ab_inf, N.Select(both_inf, nan, N.Select(
        inf(re), zero, unit(im), c), c), N.Select(ab_zero, zero, N.BinOp(
            "fdiv", im, ab, c), c), c), c)
    return N.MakeComplex(r, i, t)


def power_of_ten(n):
    """NumPy's ``power_of_ten``: 10.0 ** n by repeated multiplication."""
    r = 1.0
    for _ in range(n):
        r *= 10.0
    return r


def _pow10(L, d):
    """(10.0 ** |d|, d >= 0) for the lowered ``decimals`` argument ``d``."""
    if isinstance(d, N.Const):
        return C(power_of_ten(abs(d.value)), F), C(d.value >= 0, T.BOOL)
    d = L.let(ops.convert_wrap(d, T.INT64))
    nonneg = L.let(N.Cmp("ge", d, C(0, T.INT64), T.BOOL))
    mag = L.let(N.Select(nonneg, d, N.BinOp("sub", C(0, T.INT64), d, T.INT64), T.INT64))
    return L.call_helper(power_of_ten, [mag]), nonneg


def _round_float(L, x, f, nonneg, t):
    """NumPy's float rounding of ``x`` (type ``t``) by the power of ten ``f``."""
    f = L.let(N.Cast(f, t) if t != F else f)
    x = L.let(x)
    up = N.BinOp("fdiv", N.Intrinsic("rint", [N.BinOp("mul", x, f, t)], t), f, t)
    down = N.BinOp("mul", N.Intrinsic("rint", [N.BinOp("fdiv", x, f, t)], t), f, t)
    if isinstance(nonneg, N.Const):
        return up if nonneg.value else down
    return N.Select(nonneg, up, down, t)


def _float_to_int_as_numpy(L, r, t):
    """NumPy's C cast of a rounded float64 back to the integer type ``t`` on x86-64:
    through int64 and wrapping for narrow types; out-of-range 64-bit values give
    what the hardware conversion gives (INT64_MIN, or 0 for uint64)."""
    r = L.let(r)
    if t.bits < 64:
        return N.Cast(N.Cast(r, T.INT64), t)
    if t.is_signed:
        bad = ops.bor(N.Cmp("ge", r, C(2.0 ** 63, F), T.BOOL),
                      N.Cmp("lt", r, C(-2.0 ** 63, F), T.BOOL))
        return N.Select(bad, C(-2 ** 63, t), N.Cast(N.Select(bad, C(0.0, F), r, F), t), t)
    bad = N.Cmp("ge", r, C(2.0 ** 64, F), T.BOOL)
    return N.Select(bad, C(0, t), N.Cast(N.Select(bad, C(0.0, F), r, F), t), t)


@register
class Round(CallTemplate):
    """``np.round(x, decimals=0)`` / ``np.around`` / ``a.round(decimals)``."""

    paths = ("numpy.round", "numpy.around")
    ufunc = True
    scalar_params = (1, "decimals")       # an integer, never broadcast

    def typer(self, inf, call, args, kwargs):
        vals = list(args) + [kwargs[k] for k in ("decimals",) if k in kwargs]
        if not 1 <= len(vals) <= 2 or set(kwargs) - {"decimals"} or not _num(vals[0]):
            raise Incompatible("np.round(a, decimals=0) without out=")
        if len(vals) == 2 and not (_num(vals[1]) and (vals[1].is_int or vals[1].is_bool)):
            raise Incompatible("decimals must be an integer")
        if vals[0].is_bool:
            raise Incompatible("np.round() of booleans")
        return vals[0]

    def lower(self, L, call, args, kwargs):
        x = args[0]
        d = args[1] if len(args) > 1 else kwargs.get("decimals", C(0, T.INT64))
        t = call.type
        if isinstance(d, N.Const) and d.value >= 0 and t.is_int:
            return x
        f, nonneg = _pow10(L, d)
        if t.is_int:
            r = _float_to_int_as_numpy(L, _round_float(L, N.Cast(x, F), f, nonneg, F), t)
            if isinstance(nonneg, N.Const):
                return r
            return N.Select(nonneg, x, r, t)
        if t.is_complex:
            c = t.component
            x = L.let(x)
            return N.MakeComplex(
                _round_float(L, N.ComplexPart(x, "real", c), f, nonneg, c),
                _round_float(L, N.ComplexPart(x, "imag", c), f, nonneg, c), t)
        return _round_float(L, x, f, nonneg, t)


class RoundMethod(Round):
    """``a.round(decimals=0)``: the array is the first argument."""

    ufunc = False
    accepts_lazy = True

    def typer(self, inf, call, args, kwargs):
        from ..arrays import ufuncs
        if not isinstance(args[0], T.ArrayType):
            raise Incompatible("round() of a non-array")
        return ufuncs.lift_typer(_ROUND, inf, call, args, kwargs)

    def lower(self, L, call, args, kwargs):
        from ..arrays import ufuncs
        return ufuncs.lift_lower(_ROUND, L, call, args, kwargs)


_ROUND = Round()
METHODS = {"round": RoundMethod()}
