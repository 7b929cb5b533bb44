"""``try`` / ``except`` / ``else`` / ``finally`` -> ``Try``, ``Caught``, ``Reraise``.

::

    try:                          Try #k:
        B                             B
    except ZeroDivisionError:     handlers (then):
        H1                            if Caught(k, ZeroDivisionError): H1
    except (ValueError, E2):          elif Caught(k, ValueError, E2): H2
        H2                            else: Reraise(k)      (no bare except)
    else:                         orelse:
        E                             E

``finally: F`` wraps that (or the bare body) in one more ``Try #j`` whose handler
notes that an exception is pending (``$fin = True``; a deopt is re-raised at once,
never caught), then ``F`` runs once for both exits and ``if $fin: Reraise(j)``.
A ``return``, ``break`` or ``continue`` that would leave a ``try`` having a
``finally`` is refused (a reason names it); inside ``F`` they behave as in Python
(the pending exception is dropped).  ``except E as e`` compiles when ``e`` is not
used (``del e`` aside): compiled code has no exception objects.
"""
from __future__ import annotations

import ast

from ..ir import nodes as N


def build_try(bld, s: ast.Try) -> list:
    """The IR statements of ``s`` (``bld`` is the frontend's ``Builder``)."""
    if s.finalbody:
        _no_exit(bld, s)
    out = bld.stmts(s.body)
    if s.handlers:
        label = _label(bld)
        then = _handlers(bld, s, label)
        out = [N.Try(body=out, then=then, orelse=bld.stmts(s.orelse), label=label)]
    elif s.orelse:          # (a syntax error without handlers; kept for safety)
        out += bld.stmts(s.orelse)
    if not s.finalbody:
        return out
    label = _label(bld)
    flag = bld.tmp("fin")
    bld.locals.add(flag)
    bld.handling.append(None)           # (a bare raise in F: refused)
    try:
        final = bld.stmts(s.finalbody)
    finally:
        bld.handling.pop()
    pending = N.If(cond=N.Caught(label, (BaseException,)),
                   then=[N.Assign(target=flag, value=N.Const(True))],
                   orelse=[N.Reraise(label=label)])
    return ([N.Assign(target=flag, value=N.Const(False)),
             N.Try(body=out, then=[pending], label=label)] + final
            + [N.If(cond=N.Var(flag), then=[N.Reraise(label=label)])])


def bare_raise(bld, s) -> list:
    """``raise`` with no exception: the one the innermost handler caught."""
    label = bld.handling[-1] if bld.handling else None
    if label is None:
        bld.fail(s, "bare raise", "outside an except clause" if not bld.handling
                 else "in a finally clause")
    return [N.Reraise(label=label)]


def delete(bld, s: ast.Delete) -> list:
    """``del e`` of a handler's ``except ... as e`` name (it is unbound anyway)."""
    if all(isinstance(t, ast.Name) and t.id in bld.exc_names for t in s.targets):
        return []
    bld.fail(s, "del statement")


def _label(bld) -> int:
    bld.n_try += 1
    return bld.n_try


def _handlers(bld, s: ast.Try, label: int) -> list:
    chain: list = [N.Reraise(label=label)]     # no clause matched: the same error
    tests = []
    for h in s.handlers:
        classes = _classes(bld, h) if h.type is not None else None
        if h.name:
            _unused_name(bld, h)
        bld.handling.append(label)
        if h.name:
            bld.exc_names.add(h.name)
        try:
            body = bld.stmts(h.body)
        finally:
            bld.handling.pop()
        tests.append((classes, body, h))
        if classes is None:
            break               # a bare except (last: Python checks it) catches the rest
    for classes, body, h in reversed(tests):
        if classes is None:
            chain = body
        else:
            chain = [N.If(cond=N.Caught(label, classes), then=body, orelse=chain,
                          line=h.lineno)]
    return chain


def _classes(bld, h: ast.ExceptHandler) -> tuple:
    nodes = h.type.elts if isinstance(h.type, ast.Tuple) else [h.type]
    out = []
    for node in nodes:
        obj = getattr(bld.expr(node), "obj", None)
        if not (isinstance(obj, type) and issubclass(obj, BaseException)):
            bld.fail(h, "except clause", f"{ast.unparse(node)} is not an exception class "
                     "known at compile time")
        out.append(obj)
    return tuple(out)


def _unused_name(bld, h: ast.ExceptHandler) -> None:
    """Refuse ``except E as e`` where ``e`` is used (anything but ``del e``)."""
    deleted = {id(t) for node in ast.walk(h) if isinstance(node, ast.Delete)
               for t in node.targets}
    for node in ast.walk(bld.fnode):
        if isinstance(node, ast.Name) and node.id == h.name and id(node) not in deleted:
            bld.fail(node, "use of a caught exception",
                     f"'except ... as {h.name}': compiled code has no exception objects "
                     f"('{h.name}' may only be left unused)")


def _no_exit(bld, s: ast.Try) -> None:
    """Refuse a return, break or continue leaving a try that has a finally."""
    parts = [s.body, s.orelse, *[h.body for h in s.handlers]]
    inner: set = set()          # the nodes in the body of a loop inside the try
    for part in parts:
        for st in part:
            for node in ast.walk(st):
                if isinstance(node, (ast.For, ast.While)):
                    inner.update(id(x) for y in node.body for x in ast.walk(y))
    for part in parts:
        for st in part:
            for node in ast.walk(st):
                if isinstance(node, ast.Return) or (
                        isinstance(node, (ast.Break, ast.Continue)) and id(node) not in inner):
                    bld.fail(node, f"{type(node).__name__.lower()} statement",
                             "leaving a try statement that has a finally clause")
