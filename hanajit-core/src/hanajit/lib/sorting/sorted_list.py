"""``sorted(items)`` and ``sorted(items, reverse=True)`` of numbers, for the lists
of ``frontend/sorted_lists.py``: the frontend builds the items into a 1-D array
(as a list comprehension's) and calls :data:`sorted_items` on it.

Python's ``sorted`` is stable: equal items (``-0.0`` and ``0.0``, ``1`` and
``True``) keep their order, and with ``reverse=True`` too (CPython reverses, sorts
stably and reverses back).  NumPy's stable sort of the array is that order for
every number but NaN: a NaN compares false with everything, so where it ends up
is a matter of CPython's merge algorithm; a NaN item re-runs the function in the
interpreter (``Deopt``).  Complex numbers are not ordered (Python raises
TypeError): the call falls back.
"""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, CompiledOnly, register

# ``sorted_items(a, reverse)`` in compiled code: a new sorted array of ``a``'s items
sorted_items = CompiledOnly("sorted")


@register
class SortedItems(CallTemplate):
    paths = ("hanajit.lib.sorting.sorted_list.sorted_items",)

    def typer(self, inf, call, args, kwargs):
        a = args[0] if len(args) == 2 and not kwargs else None
        if not (isinstance(a, T.ArrayType) and a.ndim == 1):
            raise Incompatible("sorted() of numbers")
        if a.dtype.is_complex:
            raise Incompatible("sorted() of complex numbers (Python raises TypeError: "
                               "complex numbers are not ordered)")
        return T.ArrayType(a.dtype, 1, "C")

    def lower(self, L, call, args, kwargs):
        from . import sorted_list_algorithms as alg
        reverse = bool(getattr(call.args[1], "value", False))
        return L.call_helper(alg.sorted_reversed if reverse else alg.sorted_forward,
                             [args[0]])

