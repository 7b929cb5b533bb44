"""``UnboundLocalError`` where CPython raises it: reads of a local that some path
reaches before any assignment.

A forward analysis over the structured primitive IR finds, for every statement,
the locals *definitely* assigned before it: a branch contributes what both arms
assign (an arm that returns, raises, breaks or continues contributes
everything), a counted loop may run no iteration (nothing it assigns counts
after it, or in its body before the assignment), a ``Loop`` is left only
through its ``break``s (what every ``break`` saw); a ``try``'s handlers start from what held before
it (an exception may leave its body at any statement).  A local read where it is not
definitely assigned gets a flag ``$bound_<name>``: False on entry, True after
each assignment, and the read is preceded by
``if not flag: raise UnboundLocalError(<CPython's message>)``.  Functions where
every read is covered -- nearly all -- are left untouched.
"""
from __future__ import annotations

import re
import sys

from ..ir import nodes as N
from ..ir import types as T

TOP = None      # the set after a statement that does not fall through


def message(name: str) -> str:
    """CPython's wording, for the running version (a growable list's hidden
    locals, ``$lb_out``, by the list's name: ``frontend/growable_lists.py``; a
    str's grown by ``+=``, ``$sb_out``: ``frontend/str_rewrite.py``; a generator's
    local inlined or held, ``$g4_x``: ``frontend/generator_inlining.py``)."""
    while hidden := re.fullmatch(r"\$(?:l[bni]|s[bn]|g\d+)_(.+)", name):
        name = hidden.group(1)      # (and an inlined generator's local, $g4_x: x)
    if sys.version_info >= (3, 11):
        return f"cannot access local variable '{name}' where it is not associated with a value"
    return f"local variable '{name}' referenced before assignment"


def _meet(a, b):
    if a is TOP:
        return b
    if b is TOP:
        return a
    return a & b


def _reads(exprs) -> set:
    out = set()
    for e in exprs:
        if e is None:
            continue
        for x in N.walk_expr(e):
            if isinstance(x, N.Var):
                out.add(x.name)
    return out


class _Analysis:
    def __init__(self, fn: N.Function):
        self.fn = fn
        self.locals = set(fn.locals) - set(fn.params)
        self.flagged: dict = {}          # id(stmt) -> (stmt, names read unbound)
        self.names: set = set()

    def note(self, s, exprs, bound):
        missing = (_reads(exprs) & self.locals) - bound
        if missing:
            self.flagged[id(s)] = sorted(missing)
            self.names |= missing

    def block(self, body, bound, breaks):
        """The set after ``body`` (TOP if it never falls through); ``breaks``
        collects the sets at ``break``s of the innermost loop."""
        for s in body:
            if bound is TOP:
                return TOP              # unreachable statements: nothing to check
            bound = self.stmt(s, bound, breaks)
        return bound

    def stmt(self, s, bound, breaks):
        if isinstance(s, N.Assign):
            self.note(s, [s.value] + ([N.Var(s.target)] if s.inplace else []), bound)
            return bound | {s.target}
        if isinstance(s, N.If):
            self.note(s, [s.cond], bound)
            if s.static is True:
                return self.block(s.then, bound, breaks)
            if s.static is False:
                return self.block(s.orelse, bound, breaks)
            return _meet(self.block(s.then, bound, breaks),
                         self.block(s.orelse, bound, breaks))
        if isinstance(s, N.ForCount):
            self.note(s, [s.count], bound)
            self.block(s.body, bound | {s.counter}, [])
            return bound
        if isinstance(s, N.Loop):
            inner = []
            self.block(s.body, bound, inner)
            out = TOP
            for b in inner:
                out = _meet(out, b)
            return out
        if isinstance(s, N.Try):
            # a handler may start with any of the body's assignments undone (the
            # first statement may raise): it starts from what held before the try
            after = self.block(s.orelse, self.block(s.body, bound, breaks), breaks)
            return _meet(after, self.block(s.then, bound, breaks))
        if isinstance(s, N.Reraise):
            return TOP
        if isinstance(s, N.Break):
            breaks.append(bound)
            return TOP
        if isinstance(s, N.Continue):
            return TOP
        if isinstance(s, (N.Return, N.Raise)):
            self.note(s, N.stmt_exprs(s), bound)
            return TOP
        self.note(s, N.stmt_exprs(s), bound)
        return bound


def _read_mark(s) -> bool:
    """A read ``lower_semantics`` kept for this analysis only (``ExprStmt(Var)``: a
    local whose value its lowering did not need)."""
    return isinstance(s, N.ExprStmt) and isinstance(s.value, N.Var)


def _drop_read_marks(body) -> bool:
    kept = [s for s in body if not _read_mark(s)]
    changed = len(kept) != len(body)
    body[:] = kept
    for s in body:
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                changed |= _drop_read_marks(sub)
    return changed


def check_unbound_locals(fn: N.Function) -> bool:
    """Instrument ``fn``'s possibly-unbound reads; True if anything changed.  The
    read marks of ``lower_semantics`` (``keep_reads``) count as reads, then go."""
    a = _Analysis(fn)
    a.block(fn.body, set(fn.params), [])
    if not a.flagged:
        return _drop_read_marks(fn.body)
    flag = {name: f"$bound_{name}" for name in sorted(a.names)}
    for name in sorted(a.names):            # (one order: the same IR in every process)
        fn.locals[flag[name]] = T.BOOL

    def rewrite(body):
        out = []
        for s in body:
            for name in a.flagged.get(id(s), ()):
                out.append(N.If(cond=N.Cmp("eq", N.Var(flag[name], T.BOOL),
                                           N.Const(False, T.BOOL), T.BOOL),
                                then=[N.Raise(exc=UnboundLocalError,
                                              message=message(name), line=s.line)],
                                line=s.line))
            if _read_mark(s):
                continue
            out.append(s)
            if isinstance(s, N.Assign) and s.target in flag:
                out.append(N.Assign(target=flag[s.target], value=N.Const(True, T.BOOL),
                                    line=s.line))
            for attr in ("then", "orelse", "body"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    setattr(s, attr, rewrite(sub))
        return out

    body = rewrite(fn.body)
    fn.body = [N.Assign(target=flag[name], value=N.Const(False, T.BOOL))
               for name in sorted(a.names)] + body
    return True
