"""``np.piecewise(x, condlist, funclist)``'s conditions: ``piecewise_conds(x,
conds, nfuncs)`` (a compiled-only callable ``frontend/piecewise_calls.py`` emits)
is NumPy's ``asarray(condlist, dtype=bool)``, with the "otherwise" condition
``~np.any(condlist, axis=0)`` appended when ``funclist`` has one more item, and
NumPy's ValueError when it has any other number.

Compiled: conditions that are arrays of ``x``'s number of dimensions (any dtype,
read as bool); ones of another shape raise in NumPy (``asarray`` or the boolean
index), which the interpreter re-runs to raise.  Python bools, scalars and
conditions of other dimensions (NumPy's single-condition and row-selecting
readings) fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible
from ...errors import RERUN
from ...ir import nodes as N
from ...ir import types as T
from ..python import operators as ops
from ..python.operators import C
from ..registry import CallTemplate, CompiledOnly, register
from .creation import allocate
from .reductions import loops

I = T.INT64
piecewise_conds = CompiledOnly("piecewise_conds")


@register
class PiecewiseConds(CallTemplate):
    paths = ("hanajit.lib.arrays.piecewise.piecewise_conds",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 3 or kwargs:
            raise Incompatible("piecewise_conds(x, conds, nfuncs)")
        x, conds = args[0], args[1]
        if not isinstance(x, T.ArrayType) or x.ndim == 0:
            raise Incompatible(f"np.piecewise() of {x} (an array of 1 or more dimensions)")
        if not isinstance(conds, T.TupleType) or not conds.items or not all(
                isinstance(c, T.ArrayType) and c.ndim == x.ndim for c in conds.items):
            raise Incompatible("np.piecewise() with conditions other than arrays of x's "
                               "dimensions")
        if not isinstance(call.args[2], N.Const):
            raise Incompatible("piecewise_conds(): the number of functions is a constant")
        n, n2 = len(conds.items), call.args[2].value
        call.plan = n + 1 if n == n2 - 1 else n
        return T.ArrayType(T.BOOL, x.ndim + 1, "C")

    def lower(self, L, call, args, kwargs):
        x, conds = L.let(args[0]), L.let(args[1])
        n, n2, m = len(conds.type.items), call.args[2].value, call.plan
        nd = x.type.ndim
        dims = [L.let(N.ArrayAttr(x, "shape", k, I)) for k in range(nd)]
        items = [L.let(N.TupleGet(conds, k, t)) for k, t in enumerate(conds.type.items)]
        bad = C(False, T.BOOL)
        for c in items:
            for k in range(nd):
                bad = ops.bor(bad, N.Cmp("ne", N.ArrayAttr(c, "shape", k, I), dims[k], T.BOOL))
        # (NumPy's ValueError or IndexError, which the interpreter raises)
        L.emit(N.If(cond=bad, then=[N.Raise(exc=ValueError, deopt=RERUN, line=L.line,
                                             message="np.piecewise(): conditions of "
                                                     "another shape than x")]))
        if n not in (n2, n2 - 1):
            L.emit(N.If(cond=C(True, T.BOOL), then=[N.Raise(exc=ValueError, line=L.line, message=(
                f"with {n} condition(s), either {n} or {n + 1} functions are expected"))]))
        out = L.let(allocate(L, call.type, [C(m, I)] + dims))

        def body(idx):
            anyc = C(False, T.BOOL)
            for k, c in enumerate(items):
                v = L.let(ops.truth(L, N.Load(c, idx, c.type.dtype)))
                L.emit(N.Store(array=out, indices=[C(k, I)] + idx, value=v))
                anyc = ops.bor(anyc, v)
            if m > n:
                L.emit(N.Store(array=out, indices=[C(n, I)] + idx,
                               value=ops.logical_not(anyc)))
        loops(L, dims, body)
        return out
