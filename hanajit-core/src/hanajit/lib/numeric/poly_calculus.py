"""``np.polyder(p, m=1)``, ``np.polyint(p, m=1)`` and ``np.unwrap(p, discont=None,
axis=-1, period=2*pi)`` (NumPy's source, ``poly_calculus_algorithms``).

* ``polyder``/``polyint``: ``p`` a 1-D array (or a list display) of numbers,
  ``m`` a constant int >= 1 (NumPy's ValueError for a negative one);
  ``polyder`` multiplies by an int64 ``arange`` (float32 coefficients give
  float64, as in NumPy), ``polyint`` divides by one and appends the constant 0.
  ``m=0`` (NumPy returns ``p`` itself), ``k=`` and ``poly1d`` fall back.
* ``unwrap``: a 1-D float64 array; ``discont`` None or a number, ``period`` a
  number, ``axis`` 0 or -1.  Other dtypes (NumPy computes in the promoted type
  of the differences and ``period``) and N-D arrays fall back."""
from __future__ import annotations

import math

from ...typing_rules import Incompatible, promote
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, bind_arguments, bound_const, register
from . import poly_calculus_algorithms as hp

I = T.INT64


class _Poly(CallTemplate):
    array_like = (0, "p")
    accepts_lazy = True

    def __init__(self, name):
        self.name = name
        self.paths = (f"numpy.{name}",)

    def _m(self, call):
        nodes = bind_arguments(f"np.{self.name}", ("p", "m", "k"), call.args, call.kwargs)
        if "k" in nodes:
            raise Incompatible(f"np.{self.name}() with k=")
        m = bound_const(call, nodes, "m", 1)
        if type(m) is not int:
            raise Incompatible(f"np.{self.name}(): m must be a constant int")
        if m < 0:
            raise Incompatible(f"np.{self.name}(): m < 0 (NumPy: ValueError)")
        if m == 0:
            raise Incompatible(f"np.{self.name}(p, 0) (NumPy returns p itself)")
        return m

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments(f"np.{self.name}", ("p", "m", "k"), args, kwargs)
        p = b.get("p")
        if not (isinstance(p, T.ArrayType) and p.ndim == 1):
            raise Incompatible(f"np.{self.name}(): p must be a 1-D array")
        m = self._m(call)
        t = p.dtype
        for _ in range(m):
            if self.name == "polyder":
                t = promote(t, I)
            else:
                t = T.COMPLEX128 if t.is_complex else T.FLOAT64
        return T.ArrayType(t, 1, "C")

    def lower(self, L, call, args, kwargs):
        b = bind_arguments(f"np.{self.name}", ("p", "m", "k"), args, kwargs)
        p = L.let(ew.materialize(L, b["p"]))
        helper = hp.polyder_once if self.name == "polyder" else hp.polyint_once
        for _ in range(self._m(call)):
            p = L.let(L.call_helper(helper, [p]))
        return p


@register
class Unwrap(CallTemplate):
    paths = ("numpy.unwrap",)
    accepts_lazy = True
    PARAMS = ("p", "discont", "axis", "period")

    def typer(self, inf, call, args, kwargs):
        b = bind_arguments("np.unwrap", self.PARAMS, args, kwargs)
        p = b.get("p")
        if not (isinstance(p, T.ArrayType) and p.ndim == 1 and p.dtype == T.FLOAT64):
            raise Incompatible("np.unwrap() of a 1-D float64 array only")
        nodes = bind_arguments("np.unwrap", self.PARAMS, call.args, call.kwargs)
        if bound_const(call, nodes, "axis", -1) not in (0, -1):
            raise Incompatible("np.unwrap(): axis must be 0 or -1 of a 1-D array")
        for k in ("discont", "period"):
            t = b.get(k)
            if t is not None and t != T.NONE and not (
                    isinstance(t, T.Scalar) and (t.is_int or t.is_float)
                    and not t.is_bool):
                raise Incompatible(f"np.unwrap(): {k} must be a number")
        if b.get("period", T.FLOAT64) == T.NONE:
            raise Incompatible("np.unwrap(): period must be a number")
        return T.ArrayType(T.FLOAT64, 1, "C")

    def lower(self, L, call, args, kwargs):
        from ...ir import nodes as N
        b = bind_arguments("np.unwrap", self.PARAMS, args, kwargs)
        p = L.let(ew.materialize(L, b["p"]))
        period = b.get("period", C(2 * math.pi, T.FLOAT64))
        period = L.let(ops.convert(L, period, T.FLOAT64))
        d = b.get("discont")
        if d is None or d.type == T.NONE:
            d = N.BinOp("fdiv", period, C(2.0, T.FLOAT64), T.FLOAT64)
        d = L.let(ops.convert(L, d, T.FLOAT64))
        return L.call_helper(hp.unwrap, [p, d, period])


for _name in ("polyder", "polyint"):
    register(_Poly(_name))
