"""``np.vectorize(f)(*args)``: the call of a vectorized function, compiled.

The frontend (``frontend/vectorize_calls.py``) builds ``np.vectorize(f)(x, y)`` --
written as one expression, or through a module-level ``vf = np.vectorize(f)`` with
no other options -- as a call of :data:`vectorized_call` with ``f`` first (a
jitted or a plain function, or a lambda: a function argument,
``infer/function_args.py``).  Its template picks the helper of
``vectorize_algorithms`` for the arguments' types and compiles it at them: one
argument of any shape, two or three arrays of one shape, or a number beside an
array.  Other combinations fall back naming them.
"""
from __future__ import annotations

import numpy as np

from ...ir import types as T
from ...typing_rules import Incompatible
from ..registry import CallTemplate, register, typed_helper


class _VectorizedCall:
    """``vectorized_call(f, *args)`` is ``np.vectorize(f)(*args)`` (the callee the
    frontend gives those calls; an object, not a function, so it is never
    compiled from source)."""

    def __call__(self, f, *args):
        return np.vectorize(f)(*args)


vectorized_call = _VectorizedCall()


def _is_array(t) -> bool:
    return isinstance(t, T.ArrayType)


@register
class Vectorized(CallTemplate):
    paths = ("hanajit.lib.python.vectorize.vectorized_call",)

    def typer(self, inf, call, args, kwargs):
        from . import vectorize_algorithms as va
        from ...typing_rules import typeof
        f = args[0] if args else None
        if isinstance(f, T.ConstType):          # (a function named: a function argument)
            f = call.args[0].type = typeof(f.value)
        if kwargs or not 2 <= len(args) <= 4 or not isinstance(f, T.FunctionArg):
            raise Incompatible("np.vectorize(f)(...) of a function and one to three "
                               "positional arguments")
        data = args[1:]
        if not all(_is_array(t) or isinstance(t, T.Scalar) for t in data):
            raise Incompatible("np.vectorize(f)(...) of arrays and numbers only")
        if len(data) == 1:
            helper = va.vectorize1 if _is_array(data[0]) else va.vectorize1_number
        elif len(data) == 2 and all(_is_array(t) for t in data):
            if data[0].ndim != data[1].ndim:
                raise Incompatible("np.vectorize(f)(x, y) of arrays of different "
                                   "numbers of dimensions")
            helper = va.vectorize2
        elif len(data) == 2:
            helper = va.vectorize2_number_first if not _is_array(data[0]) else \
                va.vectorize2_number_second
        elif all(_is_array(t) and t.ndim == data[0].ndim for t in data):
            helper = va.vectorize3
        else:
            raise Incompatible("np.vectorize(f)(x, y, z) of arrays of different numbers "
                               "of dimensions, or of numbers")
        call.plan = typed_helper(inf, helper, [f] + list(data))
        return call.plan.return_type

    def lower(self, L, call, args, kwargs):
        spec = call.plan
        return L.call_symbol(spec.symbol, [L.let(a) for a in args], spec.return_type)
