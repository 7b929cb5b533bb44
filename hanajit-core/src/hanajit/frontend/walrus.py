"""The walrus operator ``(name := value)``.

The assignment runs just before the statement holding it (``Builder.pending``,
as the loops of ``frontend/comprehensions.py`` do) and the expression is the
name::

    if (n := len(a)) > 2:           n = len(a)
        ...                         if n > 2: ...

That is exact when the walrus is evaluated exactly once, first: one behind
``and``/``or``, in a branch of ``x if c else y``, or after other work of its
statement that could fail or have an effect (``a[i] + (n := f(x))``) falls back,
saying so.  A ``while`` whose test holds one is the loop ``while True: if not
test: break`` (:func:`while_loop`), so the test -- and its assignment -- runs
before every iteration, ``continue`` included; an ``else:`` runs where the test
is false, before that ``break`` (one with a ``break``/``continue`` of its own,
which would leave the enclosing loop, falls back).
In a comprehension the name binds in the enclosing function, as in Python
(``[y for v in a if (y := v * 2) > 1]`` leaves ``y`` set): the comprehension's
loop holds the assignment, and its renaming of the loop's own names leaves the
walrus's target alone.
"""
from __future__ import annotations

import ast

from ..ir import nodes as N

_SIMPLE = (ast.Name, ast.Constant, ast.Load, ast.Store, ast.Tuple, ast.UnaryOp, ast.USub,
           ast.UAdd, ast.Not)


def holds(node) -> bool:
    """Does ``node`` hold a walrus (outside nested lambdas)?"""
    return any(isinstance(n, ast.NamedExpr) for n in ast.walk(node))


def build(b, e: ast.NamedExpr) -> N.Expr:
    """``(name := value)`` for the builder ``b``: the assignment into ``b.pending``,
    the name as the expression."""
    if not isinstance(e.target, ast.Name):       # (Python allows only a name)
        b.fail(e, "assignment expression (:=)", "the target must be a name")
    _check_position(b, e)
    value = b.expr(e.value)
    name = e.target.id
    b.locals.add(name)
    b.pending.append(N.Assign(target=name, value=value, line=getattr(e, "lineno", 0)))
    return N.Var(name)


def while_loop(s: ast.While) -> ast.While:
    """``while test: body [else: orelse]`` as ``while True: if not test: orelse;
    break`` + ``body`` (the ``else:`` runs when the test is false, not after a
    ``break``: see :func:`plain_else`)."""
    stop = ast.If(test=ast.UnaryOp(ast.Not(), s.test), body=list(s.orelse) + [ast.Break()],
                  orelse=[])
    loop = ast.While(test=ast.Constant(True), body=[stop] + list(s.body), orelse=[])
    for node in (stop, stop.test, stop.body[0], loop, loop.test):
        ast.copy_location(node, s.test if node is not loop else s)
    return loop


def plain_else(orelse) -> bool:
    """Can a ``while``'s ``else:`` move into the loop: no ``break``/``continue`` of
    its own (of the enclosing loop, in Python)?"""
    def jumps(nodes):
        for n in nodes:
            if isinstance(n, (ast.Break, ast.Continue)):
                return True
            if not isinstance(n, (ast.For, ast.While, ast.FunctionDef, ast.Lambda)) \
                    and jumps(list(ast.iter_child_nodes(n))):
                return True
            if isinstance(n, (ast.For, ast.While)) and jumps(n.orelse):
                return True
        return False
    return not jumps(orelse)


def _check_position(b, e):
    stmt = b.current_stmt
    path = _path(stmt, e) if stmt is not None else None
    if path is None:
        return
    what = "assignment expression (:=)"
    for parent, child in zip(path, path[1:]):
        if isinstance(parent, ast.While) and child is parent.test:     # pragma: no cover
            b.fail(e, what, "in a while test with an else: clause")
        if isinstance(parent, ast.IfExp) and child is not parent.test \
                or isinstance(parent, ast.BoolOp) and child is not parent.values[0]:
            b.fail(e, what, "evaluated only on some paths of an expression (and/or, "
                   "x if c else y); assign the name in a statement first")
        if isinstance(parent, (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)):
            b.fail(e, what, "in a comprehension that is not built as a loop here")
        if isinstance(parent, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            continue                    # the value is evaluated before the targets
        for sibling in ast.iter_child_nodes(parent):
            if sibling is child:
                break
            if not all(isinstance(n, _SIMPLE) or isinstance(n, ast.NamedExpr)
                       and n is not e for n in ast.walk(sibling)):
                b.fail(e, what, "evaluated after other work in the same statement that "
                       "could fail; assign the name in a statement first")


def _path(root, target):
    """The nodes from ``root`` down to ``target`` (inclusive), or None."""
    if root is target:
        return [root]
    for child in ast.iter_child_nodes(root):
        if isinstance(child, ast.Lambda):
            continue
        sub = _path(child, target)
        if sub is not None:
            return [root] + sub
    return None
