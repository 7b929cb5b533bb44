"""Mark float reduction accumulators as reassociable (``@jit(reduce_reassoc=True)``).

Runs after ``lower_semantics`` and only with the option.  In a counted loop, an
update ``acc = acc + e`` (or ``*``) where ``acc`` is read nowhere else in the loop
is a reduction; its ``BinOp`` gets ``reassoc = True`` and backends may reorder the
additions (LLVM: the ``reassoc`` fast-math flag, which lets the loop vectorizer keep
several partial sums).  Nothing else changes: no other fast-math flag, integer
reductions are exact anyway.

Example::

    for i < n:                        for i < n:
        acc = add(acc, load(x, i))  ->      acc = add[reassoc](acc, load(x, i))
"""
from __future__ import annotations

from ..ir import nodes as N


def _reads(e, name) -> int:
    return sum(1 for x in N.walk_expr(e) if isinstance(x, N.Var) and x.name == name)


def _candidates(body):
    """(name, BinOp) for every accumulator update directly in ``body`` or its ifs."""
    for s in N.walk_stmts(body):
        if isinstance(s, N.Assign) and isinstance(s.value, N.BinOp) and \
                s.value.op in ("add", "mul") and getattr(s.value.type, "is_float", False):
            b = s.value
            for acc, other in ((b.left, b.right), (b.right, b.left)):
                if isinstance(acc, N.Var) and acc.name == s.target and \
                        _reads(other, s.target) == 0:
                    yield s.target, b
                    break


def mark_reductions(fn: N.Function, ctx=None) -> bool:
    changed = False
    for loop in N.walk_stmts(fn.body):
        if not isinstance(loop, (N.ForCount, N.Loop)) or N.holds_try(loop.body):
            continue        # (a handler may read the accumulator mid-loop)
        for name, binop in _candidates(loop.body):
            reads = sum(_reads(e, name) for s in N.walk_stmts(loop.body)
                        for e in N.stmt_exprs(s) if e is not None)
            writes = sum(1 for s in N.walk_stmts(loop.body)
                         if isinstance(s, N.Assign) and s.target == name)
            if reads == 1 and writes == 1:
                binop.reassoc = True
                changed = True
    return changed
