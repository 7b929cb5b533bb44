"""``math.gcd(*ints)``, ``math.lcm(*ints)``, ``math.isqrt(n)`` and
``math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)``: typed here, computed by
``math_int_algorithms`` (Python ints in, a Python int or bool out; NumPy
integer scalars are taken by value, as ``__index__`` does; a float argument
falls back, as CPython raises TypeError for it)."""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register
from . import operators as ops
from .operators import C


def integers_only(name, args):
    for t in args:
        if not (isinstance(t, T.Scalar) and (t.is_int or t.is_bool)):
            raise Incompatible(f"math.{name}() of {t} (integers only)")
        if t == T.UINT64:
            raise Incompatible(f"math.{name}() of uint64 (an int beyond int64)")


class IntFold(CallTemplate):
    """``math.gcd``/``math.lcm`` of any number of integers, folded pairwise."""

    def __init__(self, name, helper, empty):
        self.name, self.helper, self.empty = name, helper, empty
        self.paths = (f"math.{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs:
            raise Incompatible(f"math.{self.name}() takes no keyword arguments")
        integers_only(self.name, args)
        return T.INT64

    def lower(self, L, call, args, kwargs):
        from . import math_int_algorithms as alg
        vals = [L.let(ops.convert_wrap(a, T.INT64)) for a in args]
        if not vals:
            return C(self.empty, T.INT64)
        out = vals[0]
        if len(vals) == 1:            # gcd(a) and lcm(a) are |a|
            return L.call_helper(alg.gcd2, [out, C(0, T.INT64)])
        for v in vals[1:]:
            out = L.call_helper(getattr(alg, self.helper), [out, v])
        return out


@register
class Isqrt(CallTemplate):
    paths = ("math.isqrt",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1:
            raise Incompatible("math.isqrt(n)")
        integers_only("isqrt", args)
        return T.INT64

    def lower(self, L, call, args, kwargs):
        from . import math_int_algorithms as alg
        return L.call_helper(alg.isqrt, [ops.convert_wrap(args[0], T.INT64)])


@register
class IsClose(CallTemplate):
    paths = ("math.isclose",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or set(kwargs) - {"rel_tol", "abs_tol"}:
            raise Incompatible("math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)")
        for t in list(args) + list(kwargs.values()):
            if not (isinstance(t, T.Scalar) and not t.is_complex):
                raise Incompatible(f"math.isclose() of {t}")
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        from . import math_int_algorithms as alg
        F = T.FLOAT64
        vals = [ops.convert(L, a, F) for a in args]
        rel = ops.convert(L, kwargs["rel_tol"], F) if "rel_tol" in kwargs else C(1e-09, F)
        tol = ops.convert(L, kwargs["abs_tol"], F) if "abs_tol" in kwargs else C(0.0, F)
        return L.call_helper(alg.isclose, [*vals, rel, tol])


register(IntFold("gcd", "gcd2", 0))
register(IntFold("lcm", "lcm2", 1))
