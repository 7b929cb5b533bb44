"""Compiled parts of ``min``/``max``/``sorted`` with ``key=``
(``frontend/key_functions.py``, ``frontend/sorted_lists.py``).

* :data:`same_kinds` ``(x, y, ...)``: the items of ``min(x, y, key=f)`` held in
  one variable (the loop's best so far) must be of one type and kind (Python
  number or NumPy scalar): the compiled variable could not give back the
  interpreter's object otherwise (``min(-2, 3.5, key=abs)`` is the int ``-2``),
  so other items make the function fall back.  Typed only; nothing runs.
* :data:`sorted_by_key` ``(items, keys, reverse)``: ``sorted(seq, key=f)``: the
  items (a 1-D array) in the stable order of their keys (a 1-D array of the
  same length, ``f`` of each item in order, as CPython computes them before
  sorting), CPython's ``reverse`` (reversed, sorted stably, reversed back).  A
  NaN key re-runs the function in the interpreter (where it goes is CPython's
  merge algorithm's doing), complex keys fall back (CPython's TypeError).
"""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from . import operators as ops
from ..registry import CallTemplate, CompiledOnly, register

same_kinds = CompiledOnly("min()/max() items")
sorted_by_key = CompiledOnly("sorted(key=)")


@register
class SameKinds(CallTemplate):
    paths = (f"{__name__}.same_kinds",)

    def typer(self, inf, call, args, kwargs):
        kinds = {(t, inf.is_strong(a)) for t, a in zip(args, call.args)}
        if len(kinds) > 1:
            raise Incompatible("min()/max() with key= of items of different types ("
                               f"{', '.join(sorted(str(t) for t, _ in kinds))}, or Python "
                               "numbers and NumPy scalars): the result is one of them")
        return T.NONE

    def lower(self, L, call, args, kwargs):
        return ops.C(None, T.NONE)


@register
class SortedByKey(CallTemplate):
    paths = (f"{__name__}.sorted_by_key",)

    def typer(self, inf, call, args, kwargs):
        items, keys = (args + [None, None])[:2]
        if not (len(args) == 3 and not kwargs and all(
                isinstance(a, T.ArrayType) and a.ndim == 1 for a in (items, keys))):
            raise Incompatible("sorted() with key= of numbers and number keys")
        if keys.dtype.is_complex:
            raise Incompatible("sorted() with complex keys (Python raises TypeError: "
                               "complex numbers are not ordered)")
        return T.ArrayType(items.dtype, 1, "C")

    def lower(self, L, call, args, kwargs):
        from . import key_function_algorithms as alg
        reverse = bool(getattr(call.args[2], "value", False))
        return L.call_helper(alg.sorted_by_key_reversed if reverse
                             else alg.sorted_by_key, list(args[:2]))
