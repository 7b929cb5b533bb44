"""``np.logspace(start, stop, num=50, endpoint=True, base=10.0)`` of real
numbers as NumPy computes it: ``np.power(base, np.linspace(start, stop, num,
endpoint))`` (``log_ranges_algorithms``), float64.  The ``linspace`` values are
NumPy's bit for bit; the power is NumPy's power loop's for each element
(:class:`PowerLoop`): C's ``pow``, or on AVX-512 hosts NumPy's SIMD ``pow``
(``lowering/numpy_loops.py``).

Compiled: real scalar ``start``, ``stop`` and ``base`` (not float32 bounds, as
``np.linspace``), an integer ``num``.  Array bounds or base, complex values,
``dtype=`` and ``axis=`` fall back.

``np.geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0)`` of real
scalars follows NumPy's steps (``log_ranges_algorithms.geomspace``) on this
``logspace``, so its powers are the same; it is compiled where NumPy
computes in float64 (its ``result_type(start, stop, float(num), dtype)``) and
``dtype`` is a float type (the result cast to it, as NumPy's ``astype``).  Complex
bounds, integer dtypes and an ``axis`` other than 0 or -1 fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, PlannedCall, bound_const, register
from . import log_ranges_algorithms as la

_PARAMS = ("start", "stop", "num", "endpoint", "base", "dtype", "axis")


class Plan:
    type = T.ArrayType(T.FLOAT64, 1, "C")

    def __init__(self, types):
        for k in ("dtype", "axis"):
            if k in types:
                raise Incompatible(f"np.logspace() with {k}=")
        for k in ("start", "stop", "base"):
            t = types.get(k, T.FLOAT64)
            if not isinstance(t, T.Scalar) or t.is_complex:
                raise Incompatible(f"np.logspace() {k} of {t} (a real number)")
            if t == T.FLOAT32 and k != "base":
                raise Incompatible("np.logspace() of float32 bounds")
        num = types.get("num", T.INT64)
        if not (isinstance(num, T.Scalar) and (num.is_int or num.is_bool)):
            raise Incompatible(f"np.logspace() with num of type {num} (an integer)")
        end = types.get("endpoint", T.BOOL)
        if not isinstance(end, T.Scalar):
            raise Incompatible(f"np.logspace() with endpoint of {end}")


@register
class Logspace(PlannedCall):
    paths = ("numpy.logspace",)
    name, params = "np.logspace", _PARAMS

    def make_plan(self, call, nodes, types):
        if "start" not in types or "stop" not in types:
            raise Incompatible("np.logspace(start, stop, num=50, endpoint=True, base=10.0)")
        return Plan(types)

    def lower(self, L, call, args, kwargs):
        b = self.bound(args, kwargs)
        F = T.FLOAT64
        start, stop = (L.let(ops.convert(L, b[k], F)) for k in ("start", "stop"))
        num = L.let(ops.convert_wrap(b.get("num", C(50, T.INT64)), T.INT64))
        endpoint = L.let(ops.truth(L, b.get("endpoint", C(True, T.BOOL))))
        base = L.let(ops.convert(L, b.get("base", C(10.0, F)), F))
        return L.call_helper(la.logspace, [start, stop, num, endpoint, base])


_GEOM_PARAMS = ("start", "stop", "num", "endpoint", "dtype", "axis")


class GeomPlan:
    """``np.geomspace``'s types: NumPy computes in ``result_type(start, stop,
    float(num), zeros((), dtype))`` (compiled where that is float64) and casts to
    ``dtype`` at the end."""

    def __init__(self, call, nodes, types):
        import numpy as np
        from .creation import dtype_of
        for k in ("start", "stop"):
            t = types.get(k)
            if not isinstance(t, T.Scalar) or t.is_complex:
                raise Incompatible(f"np.geomspace() {k} of {t} (a real number)")
        num = types.get("num", T.INT64)
        if not (isinstance(num, T.Scalar) and (num.is_int or num.is_bool)):
            raise Incompatible(f"np.geomspace() with num of type {num} (an integer)")
        if not isinstance(types.get("endpoint", T.BOOL), T.Scalar):
            raise Incompatible("np.geomspace() with endpoint that is not a number")
        axis = bound_const(call, nodes, "axis", 0)
        if axis not in (0, -1) or isinstance(axis, bool):
            raise Incompatible("np.geomspace() of scalars with axis other than 0 or -1")
        dtype = bound_const(call, nodes, "dtype", None)
        want = T.FLOAT64 if dtype is None else dtype_of(dtype)
        dt = np.result_type(np.dtype(types["start"].name), np.dtype(types["stop"].name), 1.0,
                            np.dtype(want.name))
        if dt != np.float64:
            raise Incompatible(f"np.geomspace() computing in {dt} (compiled in float64)")
        if not want.is_float:
            raise Incompatible(f"np.geomspace() with dtype={want} (compiled: float dtypes)")
        self.want = want
        self.type = T.ArrayType(want, 1, "C")


@register
class Geomspace(PlannedCall):
    paths = ("numpy.geomspace",)
    name, params = "np.geomspace", _GEOM_PARAMS

    def make_plan(self, call, nodes, types):
        if "start" not in types or "stop" not in types:
            raise Incompatible("np.geomspace(start, stop, num=50, endpoint=True)")
        return GeomPlan(call, nodes, types)

    def lower(self, L, call, args, kwargs):
        from . import elementwise as ew
        from ..indexing.elements import array_cast
        b = self.bound(args, kwargs)
        F = T.FLOAT64
        start, stop = (L.let(ops.convert(L, b[k], F)) for k in ("start", "stop"))
        num = L.let(ops.convert_wrap(b.get("num", C(50, T.INT64)), T.INT64))
        endpoint = L.let(ops.truth(L, b.get("endpoint", C(True, T.BOOL))))
        out = L.call_helper(la.geomspace, [start, stop, num, endpoint])
        rt = call.type
        if rt.dtype == F:
            return out
        z = ew.to_lazy(L, L.let(out))
        return ew.materialize(L, ew.Lazy(rt, z.dims, lambda idx: array_cast(
            L, z.elem(idx), rt.dtype)))


@register
class PowerLoop(CallTemplate):
    """``power_loop(base, y)`` of ``log_ranges_algorithms``: ``np.power`` of a
    float64 number and a 1-D float64 array, each element NumPy's loop's
    (``elementwise.numpy_pow``: NumPy's SIMD function where the target calls it,
    else C's ``pow``, exactly: not the vector math of a vectorised loop)."""

    paths = ("hanajit.lib.arrays.log_ranges_algorithms.power_loop",)

    def typer(self, inf, call, args, kwargs):
        return T.ArrayType(T.FLOAT64, 1, "C")

    def lower(self, L, call, args, kwargs):
        from . import elementwise as ew

        def elem(b, v):
            r = ew.numpy_pow(b, v, T.FLOAT64)
            r.libm_exact = True
            return r
        return ew.lift(L, list(args), call.type, elem)
