"""Inlining of small ``@jit`` helpers at the typed Python level.

A jitted callee whose body is one ``return <expression>`` (after inference, so
the expression is typed for exactly these argument types) is *expression
inlined*: at each call, ``lower_semantics`` lowers the callee's expression with
its parameters replaced by the caller's (already lowered) arguments.  An array
argument that is still a lazy (unmaterialised) expression stays lazy, so the
fusion engine sees through the helper: ``np.sum(sq(a) + 1)`` with
``sq = lambda x: x * x`` is one loop with no temporary.

Semantics are unchanged: arguments are evaluated once, left to right, before the
body (an argument used more than once, or not at all, is bound to a temporary
unless it is a constant or a variable); callees are resolved by the object
called (the spec of the call), never by name.  Recursive helpers (found by an
inlining depth limit) and expressions larger than ``MAX_NODES`` are called.
``@jit(inline="never")`` on the caller turns it off.

Example::

    @jit                          @jit
    def sq(x):                    def f(a):
        return x * x                  return np.sum(sq(a) + 1.0)
    # f lowers as np.sum(a * a + 1.0): one fused loop
"""
from __future__ import annotations

import copy

from ..ir import nodes as N

MAX_NODES = 64
MAX_DEPTH = 4


class Lowered(N.Expr):
    """An already lowered value standing for a parameter (inlining only)."""

    def __init__(self, value):
        self.value = value
        self.type = value.type


def _size(e) -> int:
    return 1 + sum(_size(c) for c in e.children() if c is not None)


def candidate(fn: N.Function):
    """The return expression of a typed function whose body is a single
    ``return``, or None."""
    body = fn.body
    if len(body) != 1 or not isinstance(body[0], N.Return) or body[0].value is None:
        return None
    expr = body[0].value
    if _size(expr) > MAX_NODES:
        return None
    return clone(expr, {})


def clone(e, subst: dict):
    """A copy of expression tree ``e`` (non-node attributes shared) with ``Var``
    nodes named in ``subst`` replaced by ``subst[name]``."""
    if isinstance(e, N.Var) and e.name in subst:
        return subst[e.name]
    c = copy.copy(e)
    kids = e.children()
    if kids:       # (a PyCall's keyword values are children: replaced in a new dict)
        c.replace_children([clone(k, subst) if k is not None else None for k in kids])
    return c


def uses(e, name) -> int:
    return sum(1 for sub in N.walk_expr(e) if isinstance(sub, N.Var) and sub.name == name)


def inline_call(L, spec, args: list):
    """Lower a call of ``spec`` (with lowered ``args``) as its inlined expression."""
    from .lower_semantics import trivial
    expr = spec.inline_expr
    subst = {}
    for p, a in zip(spec.fn.params, args):
        if not trivial(a) and uses(expr, p) != 1:
            a = L.let(a)                 # evaluated once (a lazy array materialises)
        subst[p] = Lowered(a)
    body = clone(expr, subst)
    L.inline_depth = getattr(L, "inline_depth", 0) + 1
    try:
        return L.lower(body)
    finally:
        L.inline_depth -= 1
