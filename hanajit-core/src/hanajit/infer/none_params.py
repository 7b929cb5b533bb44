"""Parameters passed ``None`` that the body gives a value: the idiom

::

    def f(x, y=None):
        if y is None:
            y = 2
        return x + y

A specialisation where ``y`` is ``None`` knows every ``y is None`` test before
``y``'s first assignment, so the taken branch replaces the test, the reads of
``y`` before that assignment are the constant ``None``, and the parameter itself
is renamed (an unused ``$none_y``): from the assignment on, ``y`` is an ordinary
local of the assigned type.  (A specialisation where ``y`` is a number never
takes the branch: inference prunes it.)

Only the straight line of the body is walked, taken branches included; an
assignment to ``y`` inside a loop or a branch that depends on values leaves the
function as it was, and inference reports ``y`` holding both None and a number
(the function falls back).

Before/after, for ``f(1.0)``::

    params (x, y)                       params (x, $none_y)
    if y is None:                       y = 2
        y = 2                           return x + y
    return x + y
"""
from __future__ import annotations

from ..ir import nodes as N
from ..ir import types as T

NONE_AND_VALUE = (" (None on one path, a value on another: only a None argument "
                  "given its value before any branch compiles)")


def settle_none_params(fn: N.Function, arg_types: tuple) -> None:
    """Apply the rewrite (in place) to every parameter of type None."""
    for k, (p, t) in enumerate(zip(fn.params, arg_types)):
        if T.plain(t) != T.NONE:
            continue
        body = _settle(fn.body, p)
        if body is not None:
            fn.body = body
            fn.params[k] = f"$none_{p}"


def _settle(body: list, p: str):
    """The body with ``p`` settled, or None when the idiom does not apply."""
    out = []
    todo = list(body)
    while todo:
        s = todo.pop(0)
        taken = _static_branch(s, p)
        if taken is not None:
            todo[:0] = taken
            continue
        if isinstance(s, N.Assign) and s.target == p and not s.inplace:
            s.value = _subst(s.value, p)
            return out + [s] + todo
        if _binds(s, p):
            return None
        out.append(_subst_stmt(s, p))
    return None                     # never assigned: nothing to settle


def _static_branch(s, p):
    """The statements ``if p is None`` (or ``is not None``) runs, for a None ``p``."""
    if not isinstance(s, N.If):
        return None
    c = s.cond.operand if isinstance(s.cond, N.Truth) else s.cond
    if not (isinstance(c, N.PyCompare) and len(c.ops) == 1 and c.ops[0] in ("is", "isnot")):
        return None
    a, b = c.operands
    if not any(isinstance(x, N.Var) and x.name == p for x in (a, b)) or not any(
            isinstance(x, N.Const) and x.value is None for x in (a, b)):
        return None
    return list(s.then if c.ops[0] == "is" else s.orelse)


def _binds(s, p) -> bool:
    """Does statement ``s`` (or one nested in it) bind the name ``p``?"""
    for st in N.walk_stmts([s]):
        if any(isinstance(v, str) and v == p for v in vars(st).values()):
            return True
    return False


def _subst(e, p):
    if isinstance(e, N.Var) and e.name == p:
        return N.Const(None)
    kids = e.children()
    if kids:
        e.replace_children([_subst(c, p) for c in kids])
    return e


def _subst_stmt(s, p):
    for name, v in list(vars(s).items()):
        if isinstance(v, N.Expr):
            setattr(s, name, _subst(v, p))
        elif isinstance(v, list) and v and isinstance(v[0], N.Expr):
            setattr(s, name, [_subst(x, p) for x in v])
        elif isinstance(v, list) and v and isinstance(v[0], N.Stmt):
            setattr(s, name, [_subst_stmt(x, p) for x in v])
    return s
