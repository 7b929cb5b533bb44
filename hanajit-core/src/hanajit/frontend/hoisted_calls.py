"""Calls taken out of an expression into statements of their own, before it:
``x = out.pop() + out.pop()`` is ``$lp1 = out.pop(); $lp2 = out.pop(); x = $lp1 +
$lp2``, ``y = out.append(v)`` is ``out.append(v); y = None``, ``s = total(out) / 2``
is ``$lp1 = total(out); s = $lp1 / 2`` (``list_passing.py`` inlines it).

Python evaluates an expression's parts left to right, so a call may move before
its statement only when nothing the statement evaluates before it can see the
difference: a call is taken out only while everything evaluated before it is a
name, a constant, an attribute of a name (``np.sqrt``) or a call taken out
already; an operation (``a * b``, any other call, a subscript) evaluated before
it stops the taking out, and so do a short-circuiting operand (``x and
out.pop()``), a conditional expression's branches, a comprehension and a
lambda.  The statements: an expression, ``x = ...``, ``name op= ...`` (a name
whose value the call cannot change), ``return ...`` and an ``if``'s test.
"""
from __future__ import annotations

import ast


class _Stop(Exception):
    pass


_ORDER = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def hoist(s, wanted, state, lists=frozenset()):
    """``(statements, s)``: the calls ``wanted(call)`` (``"value"``: its result is
    used; ``"none"``: a method whose result is ``None``) of statement ``s`` taken
    out in order, and ``s`` with a temporary (or ``None``) in their place;
    ``([], s)`` when there is none to take out.  A list display compared with
    a name of ``lists`` (``out == [1, 2]``) is taken out too: a list of its own."""
    if isinstance(s, (ast.Expr, ast.Assign, ast.Return)) or isinstance(
            s, ast.AugAssign) and isinstance(s.target, ast.Name):
        field = "value"
    elif isinstance(s, ast.If):
        field = "test"
    else:
        return [], s
    root = getattr(s, field)
    if root is None:
        return [], s
    whole = isinstance(root, ast.Call) and not isinstance(s, ast.If) and (
        wanted(root) == "value" or isinstance(s, ast.Expr))  # (a statement of its own)
    pre = []
    spine = set()           # (x = out + [1] + b: built at once, growable_lists._new)
    e = root if isinstance(s, ast.Assign) else None
    while isinstance(e, ast.BinOp):
        spine.add(id(e))
        e = e.left if isinstance(e.op, ast.Add) else None

    def each(items):
        for i, x in enumerate(items):      # (in place: a stop keeps those done)
            items[i] = visit(x)

    def named(e):
        """``e`` assigned to a temporary before the statement; the temporary."""
        state["n"] += 1
        t = f"$lp{state['n']}"
        pre.append(ast.copy_location(ast.Assign(
            targets=[ast.Name(t, ast.Store())], value=e), s))
        return ast.copy_location(ast.Name(t, ast.Load()), e)

    def visit(e):
        if isinstance(e, ast.Call):
            kind = wanted(e)
            if kind:
                if kind == "none":
                    pre.append(ast.copy_location(ast.Expr(e), s))
                    return ast.copy_location(ast.Constant(None), e)
                return named(e)
            e.func = visit(e.func)
            each(e.args)
            for k in e.keywords:
                k.value = visit(k.value)
            raise _Stop
        if isinstance(e, (ast.Name, ast.Constant)):
            return e
        if isinstance(e, ast.Attribute) and isinstance(e.value, ast.Name):
            return e
        if isinstance(e, ast.BinOp):
            e.left = visit(e.left)
            e.right = visit(e.right)
            if isinstance(e.op, (ast.Add, ast.Mult)) and id(e) not in spine and any(
                    isinstance(x, ast.Name) and x.id in lists for x in (e.left, e.right)):
                t = named(e)            # return out * 2: a list of its own
                if isinstance(lists, set):
                    lists.add(t.id)
                return t
            raise _Stop
        if isinstance(e, ast.UnaryOp):
            e.operand = visit(e.operand)
            raise _Stop
        if isinstance(e, ast.Compare) and len(e.ops) == 1:
            pair = [e.left, e.comparators[0]]
            if isinstance(e.ops[0], _ORDER) and any(
                    isinstance(x, ast.Name) and x.id in lists for x in pair):
                pair = [named(x) if isinstance(x, ast.List) else x for x in pair]
            e.left = visit(pair[0])
            e.comparators = [visit(pair[1])]
            raise _Stop
        if isinstance(e, (ast.Tuple, ast.List)) and isinstance(e.ctx, ast.Load):
            each(e.elts)
            return e                    # (building a tuple does nothing one can see)
        if isinstance(e, ast.Starred):
            raise _Stop
        if isinstance(e, (ast.BoolOp, ast.IfExp)):
            first = "values" if isinstance(e, ast.BoolOp) else "test"
            if first == "values":
                e.values[0] = visit(e.values[0])
            else:
                e.test = visit(e.test)
            raise _Stop
        raise _Stop

    for c in ast.walk(root):            # out == [1, 2.5]: any display of constants
        if isinstance(c, ast.Compare) and len(c.ops) == 1 and \
                isinstance(c.ops[0], _ORDER):
            pair = [c.left, c.comparators[0]]
            if any(isinstance(x, ast.Name) and x.id in lists for x in pair):
                c.left, c.comparators[0] = [named(x) if _constants(x) else x for x in pair]
    try:
        if whole:                       # (its arguments may hold calls to take out)
            visit(root.func)
            each(root.args)
            for k in root.keywords:
                k.value = visit(k.value)
        else:
            setattr(s, field, visit(root))
    except _Stop:
        pass
    return pre, s


def _constants(e) -> bool:
    """Is ``e`` a list display of constants (``-1`` too), whose building nobody
    sees?"""
    return isinstance(e, ast.List) and all(
        isinstance(x, ast.Constant) or isinstance(x, ast.UnaryOp) and isinstance(
            x.operand, ast.Constant) for x in e.elts)
