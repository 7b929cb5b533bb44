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

A local read up to three times (``re = z.real - z.real.min()`` then
``return re / re.max()``) stays lazy on the same terms when its expression is
cheap to compute again -- array ``+ - * /``, ``.real``/``.imag``, slices, and
scalars such as ``z.real.min()``, which are computed once where it is assigned
-- and every read is an operand of arithmetic or the array of a reduction
(``re.max()``): each read computes the same values, and none hands out the array
itself, whose identity two reads would otherwise not share.  Recomputing a
subtraction costs less than writing and reading back a temporary, and the page
faults of a fresh one.
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


MAX_READS = 3
_CHEAP_OPS = {"add", "sub", "mul", "truediv", "neg", "pos"}
_ARITHMETIC = (N.PyBinOp, N.PyUnOp, N.BinOp, N.UnOp)
_REDUCTIONS = {"min", "max", "sum", "mean", "prod", "any", "all"}


def candidates(fn: N.Function) -> dict:
    """Array locals assigned once and read at most :data:`MAX_READS` times, with
    their number of reads (necessary, not sufficient)."""
    reads, writes = _var_counts(fn.body)
    return {name: reads[name] for name, t in fn.locals.items()
            if isinstance(t, T.ArrayType) and name not in fn.params
            and writes.get(name) == 1 and 1 <= reads.get(name, 0) <= MAX_READS}


def _reduction(e) -> bool:
    """``x.min()`` and the like: a method reducing its array to a scalar."""
    return (isinstance(e, N.PyCall) and isinstance(e.callee, Method)
            and e.callee.name in _REDUCTIONS and len(e.args) == 1 and not e.kwargs)


def _cheap(e) -> bool:
    """Whether computing ``e`` again at each read costs less than storing it."""
    if isinstance(e, (N.Var, N.Const)):
        return True
    if isinstance(e, _ARITHMETIC):
        return e.op in _CHEAP_OPS and all(_cheap(c) for c in e.children())
    if isinstance(e, N.PyAttr):
        return e.attr in ("real", "imag") and _cheap(e.value)
    if _reduction(e):           # a scalar, computed once where ``e`` is assigned
        return True
    if isinstance(e, N.PyGetItem):
        return not isinstance(getattr(e.index, "type", None), T.ArrayType) and all(
            isinstance(sub, (N.Var, N.Const, N.PySlice, N.MakeTuple) + _ARITHMETIC)
            for sub in N.walk_expr(e.index)) and _cheap(e.value)
    return False


def _reads(e, name) -> tuple:
    """(how many times ``e`` reads ``name``, whether every read is consumed: an
    operand of arithmetic, or the array a reduction method reduces)."""
    count, consumed = 0, True

    def visit(x, parent):
        nonlocal count, consumed
        if isinstance(x, N.Var):
            if x.name == name:
                count += 1
                if not (isinstance(parent, _ARITHMETIC + (N.PyCompare,))
                        or _reduction(parent) and parent.args[0] is x):
                    consumed = False
            return
        for c in x.children():
            if c is not None:
                visit(c, x)
    visit(e, None)
    return count, consumed


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


def deferrable(stmts, k, cands) -> bool:
    """May statement ``k`` (an assignment) leave its array target lazy?

    The read must come in a later statement of the same block, with only plain
    assignments in between that write no array and assign no variable the
    assigned expression reads."""
    s = stmts[k]
    if not (isinstance(s, N.Assign) and not s.inplace and s.target in cands):
        return False
    need = cands[s.target]
    if need > 1 and not _cheap(s.value):
        return False
    reads = N.read_names(s.value)
    seen = 0
    for nxt in stmts[k + 1:]:
        if not isinstance(nxt, (N.Assign, N.ExprStmt, N.Return)) or nxt.value is None:
            return False
        if isinstance(nxt, N.Assign) and nxt.inplace:
            return False
        if not _write_free(nxt.value):
            return False
        count, consumed = _reads(nxt.value, s.target)
        if count and need > 1 and not consumed:
            return False
        seen += count
        if seen == need:
            return True           # the last read (counted by candidates())
        if not isinstance(nxt, N.Assign) or nxt.target in reads:
            return False
    return False
