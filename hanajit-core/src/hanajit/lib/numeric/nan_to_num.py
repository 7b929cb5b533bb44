"""``np.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None)``: a copy of
``x`` with NaN, +inf and -inf replaced (by default by 0.0 and the largest and
most negative finite values of the dtype), in the real and imaginary parts of a
complex ``x``; an integer or boolean ``x`` is returned unchanged.  The
replacements are cast to the part's type as NumPy's ``copyto`` casts them.
``copy=False`` falls back."""
from __future__ import annotations

import numpy as np

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..arrays.creation import bind_kw
from ..python.operators import C
from ..registry import CallTemplate, register

_PARAMS = ("x", "copy", "nan", "posinf", "neginf")


def _replace(L, v, c, nan, posinf, neginf):
    """``v`` (of the real type ``c``) with NaN / +inf / -inf replaced."""
    v = L.let(v)
    inf = C(float("inf"), c)
    return N.Select(N.Cmp("uno", v, v, T.BOOL), nan,
                    N.Select(N.Cmp("eq", v, inf, T.BOOL), posinf,
                             N.Select(N.Cmp("eq", v, N.UnOp("neg", inf, c), T.BOOL),
                                      neginf, v, c), c), c)


@register
class NanToNum(CallTemplate):
    paths = ("numpy.nan_to_num",)

    def typer(self, inf, call, args, kwargs):
        from ..statistics.var_std_norm import const_arg
        if len(args) > len(_PARAMS) or not args:
            raise Incompatible("np.nan_to_num(x, copy=True, nan=0.0, posinf=None, "
                               "neginf=None)")
        a = bind_kw(call, args, kwargs, _PARAMS)
        if const_arg(call, 1, "copy", True) is not True:
            raise Incompatible("np.nan_to_num(copy=False)")
        x = a["x"]
        e = ew.elem_type(x)
        if not isinstance(e, T.Scalar):
            raise Incompatible(f"np.nan_to_num() of {x}")
        for k in ("nan", "posinf", "neginf"):
            v = a.get(k)
            if v is not None and v != T.NONE and not (
                    isinstance(v, T.Scalar) and not v.is_complex):
                raise Incompatible(f"np.nan_to_num({k}=) of {v}")
        return x.copy(layout="C", readonly=False) if isinstance(x, T.ArrayType) else e

    def lower(self, L, call, args, kwargs):
        a = bind_kw(call, args, kwargs, _PARAMS)
        x, rt = a["x"], call.type
        t = rt.dtype if isinstance(rt, T.ArrayType) else rt
        if not (t.is_float or t.is_complex):
            if isinstance(rt, T.ArrayType):
                return ew.materialize(L, ew.lift(L, [x], rt, lambda v: v))
            return x
        c = t.component if t.is_complex else t
        info = np.finfo(np.float32 if c.bits == 32 else np.float64)

        def given(k, default):
            v = a.get(k)
            if v is None or v.type == T.NONE:
                return C(default, c)
            return L.let(ops.convert(L, v, c))
        nan = given("nan", 0.0)
        posinf, neginf = given("posinf", float(info.max)), given("neginf", float(info.min))

        def elem(v):
            if not t.is_complex:
                return _replace(L, v, c, nan, posinf, neginf)
            v = L.let(v)
            return N.MakeComplex(
                _replace(L, N.ComplexPart(v, "real", c), c, nan, posinf, neginf),
                _replace(L, N.ComplexPart(v, "imag", c), c, nan, posinf, neginf), t)
        if isinstance(rt, T.ArrayType):
            return ew.materialize(L, ew.lift(L, [x], rt, elem))
        return elem(ops.convert(L, x, t))
