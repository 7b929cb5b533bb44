"""``np.nansum``/``np.nanprod``/``np.nanmean`` with ``axis`` (and ``keepdims``,
``dtype`` where ``np.sum`` takes them), as ``numpy/lib/_nanfunctions_impl.py``
computes them: for float data a copy of the array in NumPy's order ``'K'`` with
the NaNs replaced by 0 (1 for the product), reduced by ``np.sum``/``np.prod``'s
own NumPy-ordered code (``arrays.reductions``); the mean is that sum over the
count of non-NaN elements (an int64 sum of ``~isnan``), divided in float64 and
rounded back to the data's type, 0/0 giving NaN.  Integer and bool data have no
NaN: the plain reduction.  A float array of two or more dimensions that is
neither C- nor Fortran-contiguous (its ``'K'`` copy's order is decided at run
time) falls back."""
from __future__ import annotations

import copy

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..arrays.reductions import REDUCTIONS
from ..python import operators as ops
from ..python.math_functions import numpy_predicate
from ..python.operators import C

I = T.INT64
_BASE = {"nansum": "sum", "nanprod": "prod", "nanmean": "mean"}


def wanted(name, call, args, kwargs) -> bool:
    """Is this an axis form this module lowers?"""
    return name in _BASE and isinstance(args[0] if args else None, T.ArrayType) and (
        len(args) > 1 or bool(kwargs))


def typer(name, inf, call, args, kwargs):
    t = args[0]
    if t.dtype.is_complex:
        raise Incompatible(f"np.{name}() of complex arrays")
    if set(kwargs) - {"axis", "keepdims"}:
        raise Incompatible(f"np.{name}() arguments {sorted(set(kwargs) - {'axis', 'keepdims'})}")
    if t.dtype.is_float and t.ndim > 1 and t.layout not in ("C", "F"):
        raise Incompatible(f"np.{name}(a, axis) of a view neither C- nor Fortran-"
                           "contiguous (NumPy's copy decides its order at run time)")
    return REDUCTIONS[_BASE[name]].typer(inf, call, args, kwargs)


def _replaced(L, a, value):
    """A new array of ``a``'s values with the NaNs replaced by ``value``, laid out
    as NumPy's ``np.array(a, copy=True)`` (C, or Fortran for a Fortran array)."""
    from ..arrays.methods import copy_array
    t = a.type

    def elem(x):
        x = L.let(x)
        return N.Select(numpy_predicate(L, "isnan", x), C(value, t.dtype), x, t.dtype)
    layout = "F" if t.ndim > 1 and t.layout == "F" else "C"
    return L.let(copy_array(L, ew.lift(L, [a], t.copy(layout="C", readonly=False), elem),
                            t.copy(layout=layout, readonly=False)))


def lower(name, L, call, args, kwargs):
    a = L.let(ew.materialize(L, args[0]))
    et = a.type.dtype
    base = REDUCTIONS[_BASE[name]]
    if not et.is_float:
        return base.lower(L, call, [a] + list(args[1:]), kwargs)
    rest = list(args[1:])
    if name != "nanmean":
        return base.lower(L, call, [_replaced(L, a, 1.0 if name == "nanprod" else 0.0)] + rest,
                          kwargs)
    tot = L.let(REDUCTIONS["sum"].lower(L, call, [_replaced(L, a, 0.0)] + rest, kwargs))
    counted = copy.copy(call)
    rt = call.type
    counted.type = rt.copy(dtype=I) if isinstance(rt, T.ArrayType) else I

    def not_nan(x):
        return ops.convert(L, ops.logical_not(numpy_predicate(L, "isnan", L.let(x))), I)
    ones = ew.lift(L, [a], a.type.copy(dtype=I), not_nan)
    cnt = L.let(REDUCTIONS["sum"].lower(L, counted, [ones] + rest, kwargs))
    f64 = T.FLOAT64

    def mean(s, n):
        q = N.BinOp("fdiv", ops.convert(L, s, f64), ops.convert(L, n, f64), f64)
        return ops.convert(L, q, et)
    if not isinstance(rt, T.ArrayType):
        return mean(tot, cnt)
    return ew.materialize(L, ew.lift(L, [tot, cnt], rt, mean))
