"""``np.may_share_memory(a, b)`` and ``np.shares_memory(a, b)`` of arrays
(``memory_extents``: NumPy's byte extents).

``may_share_memory`` (NumPy's default ``max_work=None``: bounds only) is True
exactly where the extents overlap.  ``shares_memory`` is False where they do
not and True where they do and both arrays are contiguous; any other case
(strided views with interleaved elements) needs NumPy's exact solver and re-runs
the call in the interpreter.  A scalar argument (a new array in NumPy) shares
nothing: False; ``max_work=`` falls back."""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ...typing_rules import Incompatible
from ..python.operators import C
from ..registry import CallTemplate, register


class MemoryOverlap(CallTemplate):
    def __init__(self, name, exact):
        self.name, self.exact = name, exact
        self.paths = (f"numpy.{name}",)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 2:
            raise Incompatible(f"numpy.{self.name}(a, b) (max_work= falls back)")
        for t in args:
            if not isinstance(t, (T.ArrayType, T.Scalar)):
                raise Incompatible(f"numpy.{self.name}() of {t}")
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        from . import memory_extents as alg
        if not all(isinstance(a.type, T.ArrayType) for a in args):
            return C(False, T.BOOL)
        r = L.let(L.call_helper(alg.overlap, list(args)))
        if self.exact:
            L.emit(N.If(cond=N.Cmp("eq", r, C(2, r.type), T.BOOL),
                        then=[N.Raise(exc=ValueError, deopt=True, line=L.line,
                                      message="shares_memory of interleaved views")],
                        line=L.line))
            return N.Cmp("eq", r, C(1, r.type), T.BOOL)
        return N.Cmp("ne", r, C(0, r.type), T.BOOL)


register(MemoryOverlap("may_share_memory", False))
register(MemoryOverlap("shares_memory", True))
