"""``np.angle(z, deg=False)``: ``np.arctan2(z.imag, z.real)`` of a complex ``z``
and ``np.arctan2(0, z)`` of a real one, times ``180/pi`` in the result's type
when ``deg`` is true -- the same operations as NumPy's ``angle``.  Float types
stay, 16-bit integers give float32 and wider ones float64; 8-bit integers and
booleans fall back (NumPy computes them in float16)."""
from __future__ import annotations

import math

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..arrays.creation import bind_kw
from ..python.operators import C
from ..registry import CallTemplate, register


def _result(e: T.Scalar) -> T.Scalar:
    """The float type of NumPy's ``arctan2(0, z)`` loop for ``z``'s type: 8-bit
    integers go to float16, which hanajit does not have."""
    if e.is_complex:
        return e.component
    if e.is_float:
        return e
    if e.bits == 8 or e.is_bool:
        raise Incompatible(f"np.angle() of {e} (NumPy computes it in float16)")
    return T.FLOAT32 if e.bits == 16 else T.FLOAT64


@register
class Angle(CallTemplate):
    paths = ("numpy.angle",)

    def typer(self, inf, call, args, kwargs):
        from ..statistics.var_std_norm import const_arg
        if not args or len(args) > 2:
            raise Incompatible("np.angle(z, deg=False)")
        bind_kw(call, args, kwargs, ("z", "deg"))
        if const_arg(call, 1, "deg", False) not in (False, True):
            raise Incompatible("np.angle(): deg must be a constant bool")
        e = ew.elem_type(args[0])
        if not isinstance(e, T.Scalar):
            raise Incompatible(f"np.angle() of {args[0]}")
        rt = _result(e)
        z = args[0]
        return T.ArrayType(rt, z.ndim, "C") if isinstance(z, T.ArrayType) else rt

    def lower(self, L, call, args, kwargs):
        from ..statistics.var_std_norm import const_arg
        deg = bool(const_arg(call, 1, "deg", False))
        rt = call.type
        r = rt.dtype if isinstance(rt, T.ArrayType) else rt

        def elem(v):
            if v.type.is_complex:
                v = L.let(v)
                y = ops.convert(L, N.ComplexPart(v, "imag", v.type.component), r)
                x = ops.convert(L, N.ComplexPart(v, "real", v.type.component), r)
            else:
                y, x = C(0.0, r), ops.convert(L, v, r)
            a = N.Intrinsic("atan2", [L.let(y), L.let(x)], r)
            return N.BinOp("mul", a, C(180 / math.pi, r), r) if deg else a
        z = args[0]
        if isinstance(rt, T.ArrayType):
            return ew.lift(L, [z], rt, elem)
        return elem(z)
