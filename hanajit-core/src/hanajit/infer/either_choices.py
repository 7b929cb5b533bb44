"""``a if c else b`` whose arms are a NumPy scalar and a Python number, as a whole
assigned or returned value: split into an ``if`` statement.

``v = a[i] if i < n else 0.0`` -- in the interpreter ``v`` is an ``np.float64``
on some runs and the Python float ``0.0`` on others; one compiled value cannot
say which arm ran.  As ``if i < n: v = a[i] else: v = 0.0`` each assignment has
one kind, which the per-call states of ``result_flags``/``widened_locals``
follow (``return v`` is boxed as the arm that ran).  The same for ``return a
if c else b`` (two returns, each boxed by its own kind) and for the augmented
form ``s += d if d > 0 else 0.0`` (``s = s + (...)``: both branches read ``s``,
a local the condition cannot rebind; walrus targets are hoisted to statements by
the frontend).  Nested choices split again.  Other places such a choice appears
(an operand of a larger expression) keep the rules of ``uncertain_kinds``.
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T
from .uncertain_kinds import definite

_BLOCKS = ("then", "orelse", "body")


def split(fn: N.Function, is_strong) -> bool:
    """Rewrite ``fn``'s body as the module doc says; True if anything changed."""
    changed = [False]
    fn.body = _walk(fn.body, is_strong, changed)
    return changed[0]


def _mixed(e, is_strong) -> bool:
    return isinstance(e, N.PyIfExp) and isinstance(e.type, T.Scalar) and \
        bool(is_strong(e)) and not definite(e, is_strong)


def _walk(body, is_strong, changed):
    out = []
    for s in body:
        for attr in _BLOCKS:
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                setattr(s, attr, _walk(sub, is_strong, changed))
        new = _split(s, is_strong)
        if new is None:
            out.append(s)
            continue
        changed[0] = True
        new.then = _walk(new.then, is_strong, changed)
        new.orelse = _walk(new.orelse, is_strong, changed)
        out.append(new)
    return out


def _split(s, is_strong):
    """The ``If`` that replaces ``s``, or None."""
    if isinstance(s, N.Return) and _mixed(s.value, is_strong):
        e = s.value
        return N.If(cond=e.cond, then=[N.Return(value=e.a, line=s.line)],
                    orelse=[N.Return(value=e.b, line=s.line)], line=s.line)
    if not isinstance(s, N.Assign) or not s.target:
        return None
    v = s.value
    if _mixed(v, is_strong):
        return N.If(cond=v.cond, line=s.line,
                    then=[N.Assign(target=s.target, value=v.a, line=s.line)],
                    orelse=[N.Assign(target=s.target, value=v.b, line=s.line)])
    if isinstance(v, N.PyBinOp) and isinstance(v.left, N.Var) and \
            v.left.name == s.target and _mixed(v.right, is_strong) and \
            isinstance(v.type, T.Scalar):
        e = v.right

        def arm(x):
            return N.Assign(target=s.target, line=s.line, inplace=s.inplace,
                            value=N.PyBinOp(v.op, N.Var(s.target, v.left.type), x))
        return N.If(cond=e.cond, then=[arm(e.a)], orelse=[arm(e.b)], line=s.line)
    return None
