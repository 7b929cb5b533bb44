"""The compiled-only callables of the loops ``frontend/comprehension_products.py``
builds for ``math.prod`` and ``math.fsum``:

* ``same_kind(start, product)``: has the product (one type for the whole loop)
  the type of ``math.prod``'s start, Python number or NumPy scalar alike?  Types
  answer it while inferring; where they differ, a ``prod`` of no items re-runs in
  the interpreter, which returns the start itself.
* ``fsum_add(state, item)``: ``math.fsum``'s step, the item converted with
  ``float()`` (ints, bools, floats and NumPy real scalars; a complex item falls
  back, as CPython raises TypeError for it); returns the state array.
* ``fsum_total(state)``: the correctly rounded sum, a Python float.
"""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, CompiledOnly, StaticQuestion, register
from . import operators as ops

same_kind = CompiledOnly("same_kind")
fsum_add = CompiledOnly("fsum_add")
fsum_total = CompiledOnly("fsum_total")


@register
class SameKind(StaticQuestion):
    paths = ("hanajit.lib.python.math_products.same_kind",)
    arity = 2

    def answer(self, inf, call, args):
        return args[0] == args[1] and inf.weak(call.args[0]) == inf.weak(call.args[1])


def _state(t):
    return isinstance(t, T.ArrayType) and t.ndim == 1 and t.dtype == T.FLOAT64


@register
class FsumAdd(CallTemplate):
    paths = ("hanajit.lib.python.math_products.fsum_add",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 2 or kwargs or not _state(args[0]):
            raise Incompatible("fsum_add(state, item)")
        t = args[1]
        if not (isinstance(t, T.Scalar) and not t.is_complex):
            raise Incompatible(f"math.fsum() of {t} items (real numbers only)")
        return args[0]

    def lower(self, L, call, args, kwargs):
        from . import fsum_algorithm as alg
        x = ops.convert(L, args[1], T.FLOAT64)
        return L.call_helper(alg.fsum_add, [args[0], x])


@register
class FsumTotal(CallTemplate):
    paths = ("hanajit.lib.python.math_products.fsum_total",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not _state(args[0]):
            raise Incompatible("fsum_total(state)")
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        from . import fsum_algorithm as alg
        return L.call_helper(alg.fsum_total, [args[0]])
