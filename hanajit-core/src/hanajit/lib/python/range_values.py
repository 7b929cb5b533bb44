"""``range(...)`` inside ``zip``/``enumerate`` of a ``for`` loop
(``for i, v in zip(range(n), a)``): the loop's length is the range's, its item
``start + i * step`` -- Python ints, as CPython's range yields.  The frontend
(``frontend/loop_statements.py``) calls these two through
``registry.range_callables``; ``range_check``/``range_length``/``range_index``
are a range held in a name, ``len`` of one and ``r[k]``
(``frontend/range_objects.py``, ``registry.range_object_callables``)."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from . import operators as ops
from ..registry import CallTemplate, CompiledOnly, register


range_len = CompiledOnly("len(range(...))")
range_item = CompiledOnly("range(...)[i]")


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



range_index = CompiledOnly("range(...)[k]")
range_length = CompiledOnly("len(range(...))")
range_check = CompiledOnly("range(...)")


def _count(L, start, stop, step):
    """CPython's length of ``range(start, stop, step)`` as a uint64 (never
    clamped: ``range(-2**63, 2**63 - 1)`` has 2**64 - 1 items); ValueError for a
    zero step (``ops.range_count`` raises it first)."""
    I, U = T.INT64, T.UINT64
    ops.range_count(L, start, stop, step)           # (the zero-step check)
    pos = L.let(N.Cmp("gt", step, ops.C(0, I), T.BOOL))
    lo = L.let(N.Select(pos, start, stop, I))
    hi = L.let(N.Select(pos, stop, start, I))
    s = L.let(N.Select(pos, N.Cast(step, U), N.BinOp("sub", ops.C(0, U), N.Cast(step, U), U),
                       U))
    diff = N.BinOp("sub", N.Cast(hi, U), N.Cast(lo, U), U)
    n = N.BinOp("add", N.BinOp("udiv", N.BinOp("sub", diff, ops.C(1, U), U), s, U),
                ops.C(1, U), U)
    return L.let(N.Select(N.Cmp("lt", lo, hi, T.BOOL), n, ops.C(0, U), U))


@register
class RangeCheck(CallTemplate):
    """``r = range(a, b, s)`` held in a name (``frontend/range_objects.py``): the
    arguments are integers, and a zero step is CPython's ValueError, there."""

    paths = (f"{__name__}.range_check",)

    def typer(self, inf, call, args, kwargs):
        _ints(args)
        return T.NONE

    def lower(self, L, call, args, kwargs):
        start, stop, step = (L.let(ops.convert(L, a, T.INT64)) for a in args)
        ops.range_count(L, start, stop, step)
        return ops.C(None, T.NONE)


@register
class RangeLength(CallTemplate):
    """``len(r)`` of a range: CPython's length, OverflowError past ``2**63 - 1``
    (``sys.maxsize``)."""

    paths = (f"{__name__}.range_length",)

    def typer(self, inf, call, args, kwargs):
        return _ints(args)

    def lower(self, L, call, args, kwargs):
        start, stop, step = (L.let(ops.convert(L, a, T.INT64)) for a in args)
        n = _count(L, start, stop, step)
        L.raise_if(N.Cmp("gt", n, ops.C(2**63 - 1, T.UINT64), T.BOOL), OverflowError,
                   "Python int too large to convert to C ssize_t")
        return N.Cast(n, T.INT64)


@register
class RangeIndex(CallTemplate):
    """``r[k]`` of a range held in a name, or of ``range(...)[k]``
    (``frontend/range_objects.py``): CPython's ``range.__getitem__`` -- a
    negative ``k`` counts from the end, IndexError outside the range (any
    length: the count and the index are unsigned, the item wraps into place)."""

    paths = (f"{__name__}.range_index",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 4:
            raise Incompatible("range(...)[k]")
        _ints([args[3]] * 3)            # (the index: an integer too)
        return _ints(args[:3])

    def lower(self, L, call, args, kwargs):
        I, U = T.INT64, T.UINT64
        start, stop, step, k = (L.let(ops.convert(L, a, I)) for a in args)
        n = _count(L, start, stop, step)
        neg = L.let(N.Cmp("lt", k, ops.C(0, I), T.BOOL))
        ku = L.let(N.Cast(k, U))
        back = N.BinOp("sub", ops.C(0, U), ku, U)          # -k, for a negative k
        outside = N.Select(neg, N.Cmp("gt", back, n, T.BOOL), N.Cmp("ge", ku, n, T.BOOL),
                           T.BOOL)
        L.raise_if(outside, IndexError, "range object index out of range")
        at = L.let(N.Cast(N.Select(neg, N.BinOp("add", ku, n, U), ku, U), I))
        return ops.range_value(start, at, step, I)
