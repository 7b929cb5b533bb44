"""Fusion across local temporaries: which array assignments may stay lazy.

``t = a * 2 + b`` followed by ``return np.sum(np.exp(t))`` fuses into one loop
when nothing can tell the difference: ``t`` is a local (not a parameter) that is
assigned exactly once and read exactly once in the whole function, the read is
in a later statement of the same block (an assignment, expression or return --
no nested block, so it runs exactly once per run of the assignment), the
statements in between are plain assignments to variables the expression does
not read, and nothing up to the read can write to an array (no call of a jitted
function, no array method that writes, no ``out=``, no ``np.copyto``).  Then the
value of ``t`` computed lazily at its use equals the value it would have had at
its assignment.  ``lower_semantics`` keeps such a ``t`` as a lazy expression
instead of materialising it.
"""
from __future__ import annotations

from ..ir.frontend_nodes import Method
from ..ir import nodes as N
from ..ir import types as T

_READONLY_METHODS = {"sum", "mean", "min", "max", "prod", "any", "all", "argmin",
                     "argmax", "std", "var", "cumsum", "cumprod", "copy", "astype",
                     "reshape", "ravel", "flatten", "transpose", "dot"}


def _var_counts(body):
    reads, writes = {}, {}
    for s in N.walk_stmts(body):
        if isinstance(s, N.Assign):
            writes[s.target] = writes.get(s.target, 0) + 1 + (1 if s.inplace else 0)
        for e in N.stmt_exprs(s):
            if e is None:
                continue
            for sub in N.walk_expr(e):
                if isinstance(sub, N.Var):
                    reads[sub.name] = reads.get(sub.name, 0) + 1
        target = getattr(s, "target", None)
        if isinstance(target, str) and isinstance(s, N.PyForRange):
            writes[target] = writes.get(target, 0) + 2
    return reads, writes


def candidates(fn: N.Function) -> set:
    """Array locals assigned once and read once (necessary, not sufficient)."""
    reads, writes = _var_counts(fn.body)
    return {name for name, t in fn.locals.items()
            if isinstance(t, T.ArrayType) and name not in fn.params
            and writes.get(name) == 1 and reads.get(name) == 1}


def _write_free(e) -> bool:
    for sub in N.walk_expr(e):
        if isinstance(sub, N.PyCall):
            if getattr(sub, "spec", None) is not None or "out" in sub.kwargs:
                return False
            if isinstance(sub.callee, Method) and sub.callee.name not in _READONLY_METHODS:
                return False
            if getattr(sub.callee, "__name__", "") in ("copyto", "put", "place", "putmask"):
                return False
    return True


def _names(e) -> set:
    return {sub.name for sub in N.walk_expr(e) if isinstance(sub, N.Var)}


def deferrable(stmts, k, cands) -> bool:
    """May statement ``k`` (an assignment) leave its array target lazy?

    The read must come in a later statement of the same block, with only plain
    assignments in between that write no array and assign no variable the
    assigned expression reads."""
    s = stmts[k]
    if not (isinstance(s, N.Assign) and not s.inplace and s.target in cands):
        return False
    reads = _names(s.value)
    for nxt in stmts[k + 1:]:
        if not isinstance(nxt, (N.Assign, N.ExprStmt, N.Return)) or nxt.value is None:
            return False
        if isinstance(nxt, N.Assign) and nxt.inplace:
            return False
        if not _write_free(nxt.value):
            return False
        if s.target in _names(nxt.value):
            return True           # the one read (counted by candidates())
        if not isinstance(nxt, N.Assign) or nxt.target in reads:
            return False
    return False
