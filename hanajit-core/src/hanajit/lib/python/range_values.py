"""``range(...)`` inside ``zip``/``enumerate`` of a ``for`` loop
(``for i, v in zip(range(n), a)``): the loop's length is the range's, its item
``start + i * step`` -- Python ints, as CPython's range yields.  The frontend
(``frontend/loop_statements.py``) calls these two through
``registry.range_callables``."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import types as T
from . import operators as ops
from ..registry import CallTemplate, Marker, register


range_len = Marker("len(range(...))")
range_item = Marker("range(...)[i]")


def _ints(args):
    if len(args) != 3 or not all(isinstance(t, T.Scalar) and (t.is_int or t.is_bool)
                                 for t in args):
        raise Incompatible(f"range() of {', '.join(map(str, args))} (CPython's range "
                           "takes integers)")
    if any(t == T.UINT64 for t in args):
        raise Incompatible("range() of a NumPy uint64 inside zip/enumerate")
    return T.INT64


@register
class RangeLen(CallTemplate):
    paths = (f"{__name__}.range_len",)

    def typer(self, inf, call, args, kwargs):
        return _ints(args)

    def lower(self, L, call, args, kwargs):
        start, stop, step = (L.let(ops.convert(L, a, T.INT64)) for a in args)
        return ops.range_count(L, start, stop, step)


@register
class RangeItem(CallTemplate):
    paths = (f"{__name__}.range_item",)

    def typer(self, inf, call, args, kwargs):
        return _ints(args)

    def lower(self, L, call, args, kwargs):
        start, i, step = (L.let(ops.convert(L, a, T.INT64)) for a in args)
        return ops.range_value(start, i, step, T.INT64)
