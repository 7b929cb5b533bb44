"""An entry function returns the flags that say how to box its result.

``infer/result_flags.py`` plans, per scalar leaf of the result that the
interpreter returns as a NumPy scalar on some calls and as a Python number on
others, a bool local set before every ``return``.  This pass (the entry only,
on targets whose code returns into this process: ``Capabilities.host_calls``)
inserts those flags, makes each ``return v`` a ``return (v, $np0, ...)`` and the
result type :class:`~hanajit.ir.types.FlaggedResult`, which the target's boxing
reads (``hanajit_cpu.cwrapper.numpy_boxer``).  It runs first, on the statements
inference planned for.  An entry some compiled function calls
(recursion) keeps its plain result: its callers read that type.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T


def wanted(ctx, spec, entry) -> bool:
    """The entry, with flags to return, boxed here, and called by nothing."""
    fn = spec.fn
    if spec is not entry or fn is None or fn.flagged_result is None:
        return False
    if not ctx.capabilities.host_calls or ctx.options.get("c_exports"):
        return False
    return fn.flagged_result.applies_to(fn) and not any(
        _calls(other.fn, spec) for other in ctx.specs.values() if other.fn is not None)


def _calls(fn, spec) -> bool:
    if spec.symbol in N.callees(fn):
        return True
    for s in N.walk_stmts(fn.body):
        for e in N.stmt_exprs(s):
            if e is not None and any(getattr(sub, "spec", None) is spec
                                     for sub in N.walk_expr(e)):
                return True
    return False


def return_flags(fn: N.Function, ctx=None) -> None:
    plan = fn.flagged_result
    flags = plan.apply(fn)
    rt = fn.return_type
    flagged = T.TupleType((rt,) + (T.BOOL,) * len(flags))
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.Return) and s.value is not None:
            s.value = N.MakeTuple([s.value] + [N.Var(f, T.BOOL) for f in flags], flagged)
    fn.return_type = flagged
    fn.numpy_result = T.FlaggedResult(plan.marks, len(flags))
