"""``np.iinfo(t)`` and ``np.finfo(t)`` (``t`` a NumPy type or dtype, or ``a.dtype``) and the attributes read from them, and ``a.dtype.itemsize``, as
compile-time constants: ``iinfo``'s ``min``/``max``/``bits`` and ``finfo``'s
``bits`` are Python ints, ``finfo``'s ``eps``/``max``/``min``/``tiny``/
``smallest_normal``/``resolution``/``epsneg`` NumPy scalars of the type's real
part (float32 or float64), exactly NumPy's values (``iinfo(np.uint64).max``,
beyond int64, falls back).  Other attributes, and the
info objects used otherwise than through one of these attributes (held in a
name: ``f = np.finfo(t)``), fall back."""
from __future__ import annotations

import numpy as np

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, bind_arguments, register

_IINFO = ("min", "max", "bits")
_FINFO = ("bits", "eps", "max", "min", "tiny", "smallest_normal", "resolution", "epsneg")
_DTYPE = ("itemsize",)


def _dtype(t):
    if isinstance(t, T.ConstType):
        try:
            return np.dtype(t.value)
        except TypeError:
            return None
    return None


class _Info(CallTemplate):
    def typer(self, inf, call, args, kwargs):
        b = bind_arguments(f"np.{self.name}", ("type",), args, kwargs)
        dt = _dtype(b.get("type"))
        if dt is None:
            raise Incompatible(f"np.{self.name}() of {b.get('type')} (a NumPy type or "
                               "dtype; NumPy's ValueError for an array)")
        try:
            info = getattr(np, self.name)(dt)
        except ValueError as exc:
            raise Incompatible(f"np.{self.name}({dt}): {exc}") from None
        return T.ConstType(info)

    def lower(self, L, call, args, kwargs):
        raise Incompatible(f"np.{self.name}() other than for one of its attributes "
                           f"(np.{self.name}(t).max)")


@register
class IInfo(_Info):
    name, paths = "iinfo", ("numpy.iinfo",)


@register
class FInfo(_Info):
    name, paths = "finfo", ("numpy.finfo",)


def constant_attribute(owner, attr: str):
    """``(value, type)`` of the attribute ``attr`` of the compile-time object
    ``owner`` (an ``iinfo``/``finfo``/dtype), or None where it is not one of those
    compiled."""
    if isinstance(owner, np.iinfo):
        names = _IINFO
    elif isinstance(owner, np.finfo):
        names = _FINFO
    elif isinstance(owner, np.dtype):
        names = _DTYPE
    else:
        return None
    if attr not in names:
        return None
    value = getattr(owner, attr)
    if type(value) is int:
        return (value, T.INT64) if -2 ** 63 <= value < 2 ** 63 else None
    if isinstance(value, np.generic):
        t = T.from_numpy_dtype(value.dtype)
        if t is not None and t in (T.FLOAT32, T.FLOAT64):
            return value, t
    return None

