"""Python-level IR markers that the frontend builds and later stages consume.

``ObjRef`` is a compile-time Python object in an expression (a module, a function,
a dtype); ``Method`` and ``Unpack`` are callee markers of ``PyCall`` (a method
call ``value.name(...)``, a tuple-unpacking check); :func:`falls_through` says
whether control reaches the end of a statement list.  They live below the
frontend so inference, the passes and ``lib/`` use them without importing it.
"""
from __future__ import annotations

from . import nodes as N
from . import types as T


class ObjRef(N.Expr):
    """A compile-time Python object (module, function, class, dtype)."""

    def __init__(self, obj, name):
        self.obj = obj
        self.name = name
        self.type = None


class Method:
    """Callee marker for ``value.name(...)`` method calls."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<method {self.name}>"


class Unpack:
    """Callee marker: check a value unpacks into ``n`` items (tuple unpacking)."""

    def __init__(self, n):
        self.n = n


def falls_through(body) -> bool:
    """Can control reach the end of ``body`` (so the function returns None)?"""
    for s in body:
        if isinstance(s, (N.Return, N.Raise, N.Break, N.Continue, N.Reraise)):
            return False
        if isinstance(s, N.If) and s.static is not None and not falls_through(
                s.then if s.static else s.orelse):
            return False            # (decided by types: the other branch never runs)
        if isinstance(s, N.If) and s.orelse and not falls_through(s.then) \
                and not falls_through(s.orelse):
            return False
        if isinstance(s, N.Try) and not falls_through(s.then) and not (
                falls_through(s.body) and falls_through(s.orelse)):
            return False
        if isinstance(s, N.PyWhile) and _always_true(s.cond) and not _breaks(s.body):
            return False
    return True


def returned_parameter(fn: N.Function):
    """The index of the array parameter that every ``return`` of ``fn`` returns,
    when the parameter is never rebound (``a += b`` on an array writes into it and
    keeps it); else None."""
    returns = [s for s in N.walk_stmts(fn.body) if isinstance(s, N.Return)]
    names = {s.value.name if isinstance(s.value, N.Var) else None for s in returns}
    if len(names) != 1 or None in names:
        return None
    name = names.pop()
    if name not in fn.params or not isinstance(fn.locals.get(name), T.ArrayType):
        return None
    for s in N.walk_stmts(fn.body):
        if (isinstance(s, N.Assign) and s.target == name and not s.inplace) or (
                isinstance(s, N.PyForRange) and s.target == name):
            return None
    return fn.params.index(name)


def _always_true(c) -> bool:
    if isinstance(c, N.Truth):
        c = c.operand
    return isinstance(c, N.Const) and bool(c.value)


def _breaks(body) -> bool:
    """Does ``body`` hold a ``break`` of this loop (not of a nested one)?"""
    for s in body:
        if isinstance(s, N.Break):
            return True
        if isinstance(s, (N.If, N.Try)) and (_breaks(s.then) or _breaks(s.orelse)
                                             or (isinstance(s, N.Try) and _breaks(s.body))):
            return True
    return False
