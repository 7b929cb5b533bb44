"""``math.hypot(*coordinates)``, ``math.dist(p, q)``, ``math.gamma(x)`` and
``math.lgamma(x)``: typed here, computed by CPython's own algorithms ported in
``vector_norm_algorithm`` (3.11+'s ``vector_norm``) and ``gamma_algorithm``
(``m_tgamma``/``m_lgamma``), never by the C library, so the bits are CPython's.

Real numbers only (a complex argument falls back: CPython raises TypeError);
``dist`` takes tuples (and list displays typed as tuples) or 1-D arrays of
real numbers.  Python 3.10's ``vector_norm`` differs (a three-way compensated
sum); there ``hypot`` and ``dist`` fall back.  (``hypot`` never raises: an
overflow is inf, as in CPython.)
"""
from __future__ import annotations

import sys

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register
from . import operators as ops
from .operators import C

PORTED = sys.version_info >= (3, 11)


def _real(t):
    return isinstance(t, T.Scalar) and not t.is_complex


def _float_array(L, values):
    """A new 1-D float64 array holding ``values`` (converted with ``float()``)."""
    from ..arrays.creation import allocate
    arr = allocate(L, T.ArrayType(T.FLOAT64, 1, "C"), [C(len(values), T.INT64)])
    for i, v in enumerate(values):
        L.emit(N.Store(array=arr, indices=[C(i, T.INT64)],
                       value=ops.convert(L, v, T.FLOAT64)))
    return arr


class Hypot(CallTemplate):
    paths = ("math.hypot",)

    def typer(self, inf, call, args, kwargs):
        if kwargs:
            raise Incompatible("math.hypot() takes no keyword arguments")
        for t in args:
            if not _real(t):
                raise Incompatible(f"math.hypot() of {t} (real numbers only)")
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        from . import vector_norm_algorithm as alg
        if not args:
            return C(0.0, T.FLOAT64)
        if len(args) == 2:
            xs = [L.let(ops.convert(L, a, T.FLOAT64)) for a in args]
            return L.call_helper(alg.hypot2, xs)
        return L.call_helper(alg.hypot_of, [_float_array(L, list(args))])


def _point(t):
    if isinstance(t, T.TupleType) and not isinstance(t, T.NamedTupleType):
        return all(_real(x) for x in t.items)
    return isinstance(t, T.ArrayType) and t.ndim == 1 and not t.dtype.is_complex


@register
class Dist(CallTemplate):
    paths = ("math.dist",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 2:
            raise Incompatible("math.dist(p, q) takes two points")
        if not PORTED:
            raise Incompatible("math.dist() before Python 3.11")
        for t in args:
            if not _point(t):
                raise Incompatible(f"math.dist() of {t} (tuples or 1-D arrays of real "
                                   "numbers)")
        p, q = args
        if (isinstance(p, T.TupleType) and isinstance(q, T.TupleType)
                and len(p.items) != len(q.items)):
            raise Incompatible("math.dist() of points of different dimensions")
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        from . import vector_norm_algorithm as alg
        pts = []
        for a in args:
            if isinstance(a.type, T.TupleType):
                tup = L.let(a)
                a = _float_array(L, [N.TupleGet(tup, i, t)
                                     for i, t in enumerate(a.type.items)])
            pts.append(a)
        return L.call_helper(alg.dist_of, pts)


class Lanczos(CallTemplate):
    """``math.gamma``/``math.lgamma`` of a real number."""

    def __init__(self, name):
        self.name = name
        self.paths = (f"math.{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or not _real(args[0]):
            raise Incompatible(f"math.{self.name}() of {args} (one real number)")
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        from . import gamma_algorithm as alg
        x = L.let(ops.convert(L, args[0], T.FLOAT64))
        return L.call_helper(getattr(alg, self.name), [x])


register(Lanczos("gamma"))
register(Lanczos("lgamma"))


if PORTED:          # (before 3.11: math_functions' hypot of two arguments)
    register(Hypot)
