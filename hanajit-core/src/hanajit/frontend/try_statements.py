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
(the pending exception is dropped).  ``except E as e`` compiles when ``e`` is only
re-raised (``raise e``: ``Reraise`` of its try, also from a nested try in the
handler), tested (``isinstance(e, X)``: ``Caught``), deleted or unused: compiled
code has no exception objects, so anything else falls back.
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
            _check_uses(bld, h)
        bld.handling.append(label)
        if h.name:
            bld.exc_names.add(h.name)
        bld.exc_bound.append((h.name, label))
        try:
            body = bld.stmts(h.body)
        finally:
            bld.handling.pop()
            bld.exc_bound.pop()
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


def _label_of(bld, name):
    """The label of the innermost handler being built that binds ``name``."""
    for bound, label in reversed(bld.exc_bound):
        if bound == name:
            return label
    return None


def raise_name(bld, s: ast.Raise):
    """``raise e`` of a handler's ``except ... as e``: its exception re-raised, or
    None for another raise."""
    if isinstance(s.exc, ast.Name) and s.cause is None:
        label = _label_of(bld, s.exc.id)
        if label is not None:
            return [N.Reraise(label=label)]
    return None


def check_cause(bld, s: ast.Raise) -> None:
    """``raise X(...) from c``: compiled code raises no exception objects, so it
    cannot set ``__cause__`` / ``__suppress_context__`` (nor ``__context__``).
    The raise is built as ``Raise(deopt=RERUN)``: when it leaves the
    function, a pure call re-runs in the interpreter, which raises CPython's
    exception with its cause, and one that cannot be re-run falls back; a ``try``
    of the function still catches it.  ``c``: ``None``, a
    handler's ``except ... as e`` name, or an exception class (or a call of one);
    ``raise e from c`` of a caught ``e`` falls back."""
    if isinstance(s.exc, ast.Name) and _label_of(bld, s.exc.id) is not None:
        bld.fail(s, "raise ... from", f"'raise {s.exc.id} from ...' of a caught exception "
                 "(compiled code has no exception objects)")
    c = s.cause
    if isinstance(c, ast.Constant) and c.value is None or \
            isinstance(c, ast.Name) and _label_of(bld, c.id) is not None:
        return
    f = c.func if isinstance(c, ast.Call) else c
    obj = getattr(bld.expr(f), "obj", None) if isinstance(f, (ast.Name, ast.Attribute)) \
        else None
    if not (isinstance(obj, type) and issubclass(obj, BaseException)):
        bld.fail(s, "raise ... from", "a cause other than None, a caught exception or an "
                 "exception class")


def isinstance_of(bld, e: ast.Call):
    """``isinstance(e, X)`` of a handler's ``except ... as e`` (``X`` a class or a
    tuple of classes known at compile time): a test of the caught code, or None."""
    if len(e.args) != 2 or e.keywords or not isinstance(e.args[0], ast.Name):
        return None
    label = _label_of(bld, e.args[0].id)
    if label is None:
        return None
    nodes = e.args[1].elts if isinstance(e.args[1], ast.Tuple) else [e.args[1]]
    classes = tuple(getattr(bld.expr(n), "obj", None) for n in nodes)
    if not all(isinstance(c, type) for c in classes):
        bld.fail(e, "use of a caught exception", "isinstance() with classes not known "
                 "at compile time")
    return N.Caught(label, classes)


def _allowed_uses(h: ast.ExceptHandler) -> set:
    """The ``id`` of each load of ``h.name`` in its body that compiles: ``raise e``,
    ``isinstance(e, ...)`` and ``del e`` (not in nested functions)."""
    out, todo = set(), list(h.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef,
                             ast.ClassDef)):
            continue
        if isinstance(node, ast.Delete) or isinstance(node, ast.Raise) and \
                node.cause is None:
            targets = node.targets if isinstance(node, ast.Delete) else [node.exc]
            out.update(id(t) for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Raise) and isinstance(node.cause, ast.Name):
            out.add(id(node.cause))             # raise X(...) from e
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id == "isinstance" and node.args:
            out.add(id(node.args[0]))
        todo.extend(ast.iter_child_nodes(node))
    return out


def _check_uses(bld, h: ast.ExceptHandler) -> None:
    """Refuse ``except E as e`` where ``e`` is used other than by
    :func:`_allowed_uses` of some handler binding it."""
    inner = [n for b in h.body for n in ast.walk(b)]
    deletes = any(isinstance(n, ast.Delete) and any(
        isinstance(t, ast.Name) and t.id == h.name for t in n.targets) for n in inner)
    if any(isinstance(n, ast.ExceptHandler) and n.name == h.name for n in inner) or \
            deletes and any(isinstance(n, ast.Name) and n.id == h.name and
                            isinstance(n.ctx, ast.Load) for n in inner):
        bld.fail(h, "use of a caught exception", f"'except ... as {h.name}' with a nested "
                 f"handler binding '{h.name}' or a 'del {h.name}' (Python unbinds it there)")
    allowed = set()
    for node in ast.walk(bld.fnode):
        if isinstance(node, ast.ExceptHandler) and node.name == h.name:
            allowed |= _allowed_uses(node)
    for node in ast.walk(bld.fnode):
        if isinstance(node, ast.Name) and node.id == h.name and id(node) not in allowed:
            bld.fail(node, "use of a caught exception",
                     f"'except ... as {h.name}': compiled code has no exception objects "
                     f"('{h.name}' may only be re-raised, tested with isinstance() or "
                     "left unused)")


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
