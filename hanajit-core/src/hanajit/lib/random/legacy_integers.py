"""``RandomState.tomaxint(size=None)`` and ``RandomState.random_integers(low,
high=None, size=None)`` (also ``np.random.random_integers``), as ``mtrand.pyx``
has them, on the state's bit generator (``legacy_algorithms.py``).

``tomaxint`` is ``random_positive_int`` (one 64-bit word shifted right once): a
Python int without ``size``, else an int64 array.  ``random_integers`` warns
NumPy's DeprecationWarning ("Please call randint(low, high + 1) instead", the
bounds as ``str`` writes them: a call back into Python, ``prims.warn``), then
is ``randint(low, high + 1, size, dtype='l')``: an ``np.int64`` without
``size``, int64 items, the bounds' checks (none for an array of no items)
before the array's.  ``low`` and ``high`` are integers other than bool and
uint64 (``str(True)`` differs), else the call falls back.
"""
from __future__ import annotations

from ...ir import types as T
from ...typing_rules import Incompatible
from ..python import operators as ops
from ..registry import CallTemplate, bind_arguments, register
from . import legacy_algorithms as hl
from .generator import call_void, is_absent, is_absent_expr, is_integer_type, new_array, sized
from .legacy import OnState

I = T.INT64


class ToMaxInt(OnState, CallTemplate):
    """``RandomState.tomaxint(size=None)``."""

    method, paths, name = True, (), "tomaxint"

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        return sized(bind_arguments("RandomState.tomaxint", ("size",), args[1:], kwargs), I)

    def lower(self, L, call, args, kwargs):
        size = bind_arguments("RandomState.tomaxint", ("size",), args[1:], kwargs).get("size")
        st = self.state(L, args)
        if is_absent_expr(size):
            return L.call_helper(hl.tomaxint, [st])
        out, flat = new_array(L, call.type, size)
        call_void(L, hl.fill_tomaxint, [st, flat])
        return out


class RandomIntegers(OnState, CallTemplate):
    """``random_integers(low, high=None, size=None)``."""

    name = "random_integers"

    def __init__(self, method=False):
        self.method = method
        self.paths = () if method else ("numpy.random.random_integers",)

    def bind(self, args, kwargs):
        return bind_arguments("numpy.random.random_integers", ("low", "high", "size"),
                              self.rest(args), kwargs)

    def typer(self, inf, call, args, kwargs):
        self.receiver_ok(inf, args)
        bound = self.bind(args, kwargs)
        for p in ("low", "high"):
            t = bound.get(p)
            if p == "high" and is_absent(t):
                continue
            if not is_integer_type(t) or t.is_bool:
                raise Incompatible(f"random_integers() with {p} of type {t}")
        if inf.ctx is None or not inf.ctx.capabilities.host_calls:
            raise Incompatible("random_integers() warns through Python, which code "
                               "running outside this process (this target) cannot call")
        return sized(bound, I)

    def lower(self, L, call, args, kwargs):
        bound = self.bind(args, kwargs)
        low = L.let(ops.convert(L, bound["low"], I))
        if is_absent_expr(bound.get("high")):
            call_void(L, hl.warn_random_integers_high, [low])
            low, high = ops.C(1, I), low
        else:
            high = L.let(ops.convert(L, bound["high"], I))
            call_void(L, hl.warn_random_integers, [low, high])
        st = self.state(L, args)
        size = bound.get("size")
        if is_absent_expr(size):
            return L.call_helper(hl.random_integers, [st, low, high])
        out, flat = new_array(L, call.type, size, before=lambda n: call_void(
            L, hl.check_random_integers, [low, high, n]))
        call_void(L, hl.fill_random_integers, [st, flat, low, high])
        return out


register(RandomIntegers())
