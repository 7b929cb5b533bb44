"""The items of ``a.tolist()`` read as the list comprehension
``[tolist_item(v) for v in a]`` (``frontend/tolist_calls.py``): each the Python
number NumPy's ``tolist`` makes of an element -- a bool, an int, a float (also of
float32 and float16: the same value), a complex.  A row (``a`` of several
dimensions: ``tolist`` gives lists of lists) and uint64 items (Python ints past
int64) fall back."""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..python import operators as ops
from ..registry import CallTemplate, CompiledOnly, register


tolist_item = CompiledOnly("a.tolist() item")


@register
class ToListItem(CallTemplate):
    paths = ("hanajit.lib.arrays.tolist_items.tolist_item",)

    def typer(self, inf, call, args, kwargs):
        (t,) = args
        if isinstance(t, T.ArrayType):
            raise Incompatible("a.tolist() of an array of several dimensions (lists of "
                               "lists) read other than returned")
        if not isinstance(t, T.Scalar) or t == T.UINT64:
            raise Incompatible(f"a.tolist() of {t} items")
        return T.BOOL if t.is_bool else T.INT64 if t.is_int else \
            T.COMPLEX128 if t.is_complex else T.FLOAT64

    def lower(self, L, call, args, kwargs):
        return L.let(ops.convert(L, args[0], call.type))
