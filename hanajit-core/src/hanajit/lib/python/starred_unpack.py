"""``first, *rest = t`` of a tuple ``t`` (``frontend/starred_targets.py``): the
frontend calls :data:`starred_unpack` ``(t, before, after)`` and assigns its
items; the starred part is the tuple of the middle items, standing for the list
Python makes where that list is only read.  The length must be known when the
function is typed: an array, or a tuple too short (CPython's ValueError), falls
back."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from .operators import C
from ..registry import CallTemplate, CompiledOnly, register

starred_unpack = CompiledOnly("starred unpacking")


def _counts(call):
    return call.args[1].value, call.args[2].value


@register
class StarredUnpack(CallTemplate):
    paths = (f"{__name__}.starred_unpack",)

    def typer(self, inf, call, args, kwargs):
        t = args[0]
        before, after = _counts(call)
        if not isinstance(t, T.TupleType):
            raise Incompatible(f"starred unpacking of {t} (compiled for tuples, whose "
                               "length is known)")
        n = len(t.items)
        if n < before + after:
            raise Incompatible(f"not enough values to unpack (expected at least "
                               f"{before + after}, got {n})")
        items = t.items
        return T.TupleType(items[:before] + (T.TupleType(items[before:n - after]),)
                           + items[n - after:])

    def lower(self, L, call, args, kwargs):
        before, after = _counts(call)
        t = args[0]
        tt = t.type
        if isinstance(t, N.Const):
            items = [C(v, it) for v, it in zip(t.value, tt.items)]
        else:
            t = L.let(t)
            items = [N.TupleGet(t, k, it) for k, it in enumerate(tt.items)]
        n = len(items)
        mid = call.type.items[before]
        return N.MakeTuple(items[:before] + [N.MakeTuple(items[before:n - after], mid)]
                           + items[n - after:], call.type)
