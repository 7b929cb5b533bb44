"""Walks over the IR: the statements of a body, nested ones included, the
expressions a statement holds, and every expression of a tree.  Re-exported by
``ir.nodes`` (``N.walk_stmts`` ...), whose classes they dispatch on."""
from __future__ import annotations

from .nodes import (Assign, Call, Expr, ExprStmt, ForCount, ForeignCall, If, PyForRange,
                    PySetItem, PyWhile, Raise, Return, Stmt, Store, Try, Var)


_NESTED = ("then", "orelse", "body")
_nested_by_class: dict = {}     # statement class -> the fields of _NESTED it may hold


def walk_stmts(body):
    """Yield every statement in ``body``, depth first, nested ones included (a
    statement's ``then``, ``orelse`` and ``body``, in that order).  One explicit
    stack of iterators: a nested generator per body cost a frame per level and
    per statement, and this walk runs over whole modules dozens of times per
    compilation (twice as fast)."""
    stack = [iter(body)]
    nested = _nested_by_class
    while stack:
        for s in stack[-1]:
            yield s
            names = nested.get(s.__class__)
            if names is None:      # (an IR node's fields; any other class: all three)
                fields = getattr(s.__class__, "_fields", None)
                names = nested[s.__class__] = _NESTED if fields is None else \
                    tuple(a for a in _NESTED if a in fields)
            if names:
                subs = [sub for sub in [getattr(s, a, None) for a in names]
                        if isinstance(sub, list) and sub]
                if subs:
                    stack.extend(iter(sub) for sub in reversed(subs))
                    break
        else:
            stack.pop()


def holds_try(body) -> bool:
    """Does ``body`` (nested bodies included) hold a ``Try``?  Passes that move
    statements across others, or prove facts from a loop body having run to its
    end, leave such a body as it is: control may leave it at any raising
    statement for a handler that goes on."""
    return any(isinstance(s, Try) for s in walk_stmts(body))


def splice(body: list, old, new: list) -> bool:
    """Replace statement ``old`` (by identity, nested bodies included) with the
    statements ``new``; False when ``body`` does not hold it."""
    for k, s in enumerate(body):
        if s is old:
            body[k:k + 1] = new
            return True
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list) and splice(sub, old, new):
                return True
    return False


def stmt_exprs(s: Stmt) -> list:
    """The expressions directly held by a statement."""
    if isinstance(s, (Assign, ExprStmt)):
        return [s.value]
    if isinstance(s, (If, PyWhile)):
        return [s.cond]
    if isinstance(s, ForCount):
        return [s.count]
    if isinstance(s, PyForRange):
        return [s.start, s.stop, s.step]
    if isinstance(s, Return):
        return [s.value] if s.value is not None else []
    if isinstance(s, Store):
        return [s.array] + list(s.indices) + [s.value]
    if isinstance(s, PySetItem):
        return [s.target, s.index, s.value]
    if isinstance(s, (Raise, ForeignCall)):
        return list(s.args)
    return []


def walk_expr(e: Expr):
    """Yield ``e`` and every expression below it, depth first, left to right (one
    explicit stack: nested generators cost a frame per level and per item)."""
    stack = [e]
    while stack:
        e = stack.pop()
        yield e
        kids = e.children()
        if kids:
            stack.extend(reversed(kids))


def read_names(e: Expr) -> set:
    """The names of the variables ``e`` reads."""
    return {x.name for x in walk_expr(e) if isinstance(x, Var)}


def callees(fn) -> list:
    """The names of the functions ``fn``'s body calls (``Call`` nodes), each once,
    in the order of their first call."""
    out = {}
    stack = []
    for s in walk_stmts(fn.body):
        # (walk_expr over each expression, inlined: this runs over whole modules,
        # several times per compilation)
        stack.extend(reversed([e for e in stmt_exprs(s) if e is not None]))
        while stack:
            e = stack.pop()
            if isinstance(e, Call):
                out.setdefault(e.func, None)
            kids = e.children()
            if kids:
                stack.extend(reversed(kids))
    return list(out)


def call_graph(module) -> dict:
    """``{name: callees(function)}`` for every function of ``module``."""
    return {name: callees(fn) for name, fn in module.functions.items()}


class LazyGraph(dict):
    """:func:`call_graph` of a module, each function's callees found when first
    asked for (``graph[name]``)."""

    def __init__(self, module):
        super().__init__()
        self.module = module

    def __missing__(self, name):
        out = self[name] = callees(self.module.functions[name])
        return out


def kept_graph(module) -> dict:
    """The call graph ``CompileContext.build_module`` keeps on ``module`` while its
    module passes run (a :class:`LazyGraph`, made again after a pass that rewrites
    bodies: the passes that ask for every function's callees ask once between
    them), or a fresh one."""
    graph = module.__dict__.get("kept_graph")
    return graph if graph is not None else LazyGraph(module)


def reach(module, start: str, stop=(), graph=None) -> list:
    """``start`` and every function of ``module`` it reaches through calls, depth
    first in call order; a name in ``stop`` is neither kept nor entered
    (``graph``: the module's :func:`call_graph`, when the caller has it)."""
    seen, order, todo = set(), [], [start]
    while todo:
        name = todo.pop()
        if name in seen or name in stop or name not in module.functions:
            continue
        seen.add(name)
        order.append(name)
        todo.extend(reversed(graph[name] if graph is not None
                             else callees(module.functions[name])))
    return order
