"""``np.isclose`` and ``np.allclose`` as NumPy 2 defines them::

    y = y as an inexact array (result_type(y, 1.)), a Python int as float(y)
    (abs(x - y) <= atol + rtol * abs(y)) & isfinite(y) | (x == y)
    | isnan(x) & isnan(y)            # equal_nan=True

with each step in NumPy's (NEP 50) types: ``x - y`` in the operands' common
type, the bound in ``abs(y)``'s (a Python ``rtol``/``atol`` adapting to it; a
Python ``y`` keeps the bound a Python float), the comparisons cast as NumPy casts
(``elementwise.comparison_type``).  ``rtol`` and ``atol`` are numbers,
``equal_nan`` a constant.  ``np.allclose`` is ``bool(all(isclose(...)))``.
"""
from __future__ import annotations

from ...typing_rules import Incompatible, promote
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.math_functions import numpy_predicate
from ..python.operators import C
from ..arrays.reductions import loops
from ..registry import CallTemplate, register

I = T.INT64
_PARAMS = ("a", "b", "rtol", "atol", "equal_nan")
_DEFAULTS = {"rtol": 1e-05, "atol": 1e-08, "equal_nan": False}


def _real(t: T.Scalar) -> T.Scalar:
    return t.component if t.is_complex else t


class IsClose(CallTemplate):
    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def bind(self, call, args, kwargs):
        """{parameter: (type, node)} of the call (defaults as None nodes)."""
        if len(args) > len(_PARAMS) or set(kwargs) - set(_PARAMS):
            raise Incompatible(f"np.{self.name}(a, b, rtol, atol, equal_nan)")
        bound = dict(zip(_PARAMS, zip(args, call.args)))
        for k, t in kwargs.items():
            if k in bound:
                raise Incompatible(f"np.{self.name}(): {k} given twice")
            bound[k] = (t, call.kwargs[k])
        if "a" not in bound or "b" not in bound:
            raise Incompatible(f"np.{self.name}() needs a and b")
        return bound

    def typer(self, inf, call, args, kwargs):
        bound = self.bind(call, args, kwargs)
        (xt, xn), (yt0, yn) = bound["a"], bound["b"]
        for t in (xt, yt0):
            if not isinstance(ew.elem_type(t), T.Scalar):
                raise Incompatible(f"np.{self.name}() of {t}")
        for k in ("rtol", "atol"):
            if k in bound:
                t, n = bound[k]
                if not (isinstance(t, T.Scalar) and not t.is_complex and inf.weak(n)):
                    raise Incompatible(f"np.{self.name}(): {k} must be a Python number")
        if "equal_nan" in bound and not (isinstance(bound["equal_nan"][1], N.Const)
                                         and isinstance(bound["equal_nan"][1].value, bool)):
            raise Incompatible(f"np.{self.name}(): equal_nan must be True or False")
        x_weak = not isinstance(xt, T.ArrayType) and inf.weak(xn)
        y_weak = not isinstance(yt0, T.ArrayType) and inf.weak(yn)
        ye = ew.elem_type(yt0)
        # y made inexact: result_type(y, 1.) -- or a Python float for a Python int
        yt = T.FLOAT64 if y_weak and not ye.is_complex else (
            ye if y_weak else ew.adapt_weak(ye, T.FLOAT64))
        y_whole = yt0.copy(dtype=yt) if isinstance(yt0, T.ArrayType) else yt
        xe = ew.elem_type(xt)
        dt = ew.result_dtype("sub", xt, y_whole, x_weak, y_weak) \
            if not (x_weak and y_weak) else promote(xe, yt)
        bound_t = T.FLOAT64 if y_weak else _real(yt)
        d_whole = T.ArrayType(_real(dt), 1, "C") if not (x_weak and y_weak) else _real(dt)
        call.isclose = {
            "y": yt, "diff": dt, "bound": bound_t,
            "le_in": ew.comparison_type(d_whole, bound_t, x_weak and y_weak, y_weak)
            or promote(_real(dt), bound_t),
            "eq_in": ew.comparison_type(xt, y_whole, x_weak, y_weak),
            "equal_nan": bound["equal_nan"][1].value if "equal_nan" in bound else False,
        }
        if self.name == "allclose":
            return T.BOOL
        if isinstance(xt, T.ArrayType) or isinstance(yt0, T.ArrayType):
            return T.ArrayType(T.BOOL, ew.broadcast_ndim(xt, yt0), "C")
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        info = call.isclose
        names = list(_PARAMS[:len(args)]) + list(kwargs)
        values = dict(zip(names, list(args) + list(kwargs.values())))
        rtol = L.let(ops.convert(L, values["rtol"], T.FLOAT64)) if "rtol" in values \
            else C(_DEFAULTS["rtol"], T.FLOAT64)
        atol = L.let(ops.convert(L, values["atol"], T.FLOAT64)) if "atol" in values \
            else C(_DEFAULTS["atol"], T.FLOAT64)
        yt, dt, bt = info["y"], info["diff"], info["bound"]

        def elem(x, y):
            y = L.let(ew.cast_to(L, y, yt))
            d = L.let(_abs(L, ew.cast_to(L, ew.np_binop(L, "sub", x, y, dt), dt)))
            bound = N.BinOp("add", ops.convert(L, atol, bt),
                            N.BinOp("mul", ops.convert(L, rtol, bt), _abs(L, y), bt), bt)
            le = ew.np_binop(L, "le", d, L.let(bound), T.BOOL, compare_in=info["le_in"])
            r = ops.bor(ops.band(le, numpy_predicate(L, "isfinite", y)),
                        ew.np_binop(L, "eq", x, y, T.BOOL, compare_in=info["eq_in"]))
            if info["equal_nan"]:
                r = ops.bor(r, ops.band(numpy_predicate(L, "isnan", x), numpy_predicate(L, "isnan", y)))
            return r

        pair = list(values[k] for k in ("a", "b"))
        if self.name == "isclose" and not isinstance(call.type, T.ArrayType):
            return elem(L.let(pair[0]), L.let(pair[1]))
        if not any(isinstance(v.type, T.ArrayType) for v in pair):
            return elem(L.let(pair[0]), L.let(pair[1]))
        z = ew.lift(L, pair, T.ArrayType(T.BOOL, ew.broadcast_ndim(
            *(v.type for v in pair)), "C"), elem)
        if self.name == "isclose":
            return z
        acc = L.temp(T.BOOL, "close")
        L.emit(N.Assign(target=acc, value=C(True, T.BOOL)))

        def body(idx):
            L.emit(N.Assign(target=acc, value=ops.band(N.Var(acc, T.BOOL), z.elem(idx))))
        loops(L, z.dims, body)
        return N.Var(acc, T.BOOL)


def _abs(L, v):
    t = v.type
    if t.is_complex:                          # NumPy's absolute loop
        from ..complex.absolute_forms import loop_abs
        return loop_abs(L, v, t)
    if t.is_float:
        return N.Intrinsic("fabs", [v], t)
    return v


register(IsClose("isclose"))
register(IsClose("allclose"))


@register
class ArrayEqual(CallTemplate):
    """``np.array_equal(a1, a2, equal_nan=False)`` of two arrays: False when the
    shapes differ, else whether every pair is ``==`` in NumPy's comparison type
    (``elementwise.comparison_type``); ``equal_nan`` (a constant) also takes two
    NaNs as equal.  A Python bool."""

    paths = ("numpy.array_equal",)

    def typer(self, inf, call, args, kwargs):
        if len(args) + len(kwargs) > 3 or set(kwargs) - {"equal_nan"} or len(args) < 2 \
                or not all(isinstance(a, T.ArrayType) for a in args[:2]):
            raise Incompatible("np.array_equal(a1, a2, equal_nan=False) of two arrays")
        node = call.kwargs.get("equal_nan", call.args[2] if len(call.args) > 2 else None)
        if node is not None and not (isinstance(node, N.Const) and type(node.value) is bool):
            raise Incompatible("equal_nan= must be a constant bool")
        if any(a.dtype.is_complex for a in args[:2]):
            raise Incompatible("np.array_equal() of complex arrays")
        call.plan = bool(node is not None and node.value)
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        a, b = L.let(args[0]), L.let(args[1])
        if a.type.ndim != b.type.ndim:
            return C(False, T.BOOL)
        same = C(True, T.BOOL)
        for k in range(a.type.ndim):
            same = ops.band(same, N.Cmp("eq", N.ArrayAttr(a, "shape", k, I),
                                        N.ArrayAttr(b, "shape", k, I), T.BOOL))
        acc = L.temp(T.BOOL, "equal")
        L.emit(N.Assign(target=acc, value=L.let(same)))
        cmp = ew.comparison_type(a.type, b.type, False, False)
        dims = [L.let(N.ArrayAttr(a, "shape", k, I)) for k in range(a.type.ndim)]

        def body(idx):
            x = L.let(N.Load(a, list(idx), a.type.dtype))
            y = L.let(N.Load(b, list(idx), b.type.dtype))
            eq = ew.np_binop(L, "eq", x, y, T.BOOL, compare_in=cmp)
            if call.plan and cmp is not None:
                eq = ops.bor(eq, ops.band(numpy_predicate(L, "isnan", x),
                                          numpy_predicate(L, "isnan", y)))
            L.emit(N.Assign(target=acc, value=ops.band(N.Var(acc, T.BOOL), eq)))
        stmts, _ = L.sub_block(lambda: loops(L, dims, body))
        L.emit(N.If(cond=N.Var(acc, T.BOOL), then=stmts, orelse=[]))
        return N.Var(acc, T.BOOL)
