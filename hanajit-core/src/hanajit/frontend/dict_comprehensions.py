"""Dict comprehensions assigned to a name or returned: the loops that build them.

CPython builds ``{k: v for ...}`` as an empty dict and one store per item, the
key evaluated before the value; so does this rewrite, into a dict local
(``frontend/dict_locals.py`` then compiles it, with its item kinds and errors)::

    d = {i: a[i] * 2 for i in range(n) if a[i] > 0}      d = {}
                                                          for $dc1_i in range(n):
                                                              if a[$dc1_i] > 0:
                                                                  d[$dc1_i] = a[$dc1_i] * 2

``return {...}`` builds a hidden local and returns it.  The comprehension's
targets are renamed (``$dc1_i``): they are its own names in Python, and the
first iterable is evaluated in the function's scope (it keeps their names).
Falls back, naming why: a comprehension that reads the name it is assigned to
(Python reads the old value), one in a ``try`` (an exception would leave the
name half built where Python leaves it as it was), or one holding a lambda, a
walrus or a yield.  A dict comprehension elsewhere keeps the builder's reason.
"""
from __future__ import annotations

import ast
import copy

_WHAT = "dict comprehension"


def rewrite(builder, fnode: ast.FunctionDef) -> ast.FunctionDef:
    """A copy of ``fnode`` with its assigned and returned dict comprehensions as
    loops (``fnode`` itself when it holds none of those)."""
    if not any(_comp_of(s) is not None for s in ast.walk(fnode)):
        return fnode
    fnode = copy.deepcopy(fnode)
    r = _Rewrite(builder)
    fnode.body = r.block(fnode.body, in_try=False)
    ast.fix_missing_locations(fnode)
    return fnode


def _comp_of(s):
    """The dict comprehension ``s`` assigns to a name or returns, or None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
            isinstance(s.targets[0], ast.Name) or \
            isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) or \
            isinstance(s, ast.Return):
        return s.value if isinstance(s.value, ast.DictComp) else None
    return None


class Rename(ast.NodeTransformer):
    """Renames the names ``names`` maps (also ``set_locals``' comprehensions)."""

    def __init__(self, names):
        self.names = names

    def visit_Name(self, node):
        if node.id in self.names:
            node.id = self.names[node.id]
        return node


class _Rewrite:
    def __init__(self, builder):
        self.b = builder
        self.n = 0

    def block(self, body, in_try) -> list:
        out = []
        for s in body:
            comp = _comp_of(s)
            if comp is not None:
                out.extend(self.build(s, comp, in_try))
                continue
            inner_try = in_try or type(s).__name__ in ("Try", "TryStar")
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(s, field, self.block(inner, inner_try))
            for h in getattr(s, "handlers", None) or []:
                h.body = self.block(h.body, inner_try)
            out.append(s)
        return out

    def build(self, s, comp, in_try) -> list:
        self.n += 1
        n = self.n
        returned = isinstance(s, ast.Return)
        name = f"$dc{n}" if returned else (s.targets[0] if isinstance(s, ast.Assign)
                                           else s.target).id
        for node in ast.walk(comp):
            if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom,
                                 ast.Await)):
                self.b.fail(comp, _WHAT, "holding a lambda, a walrus (:=) or a yield")
            if isinstance(node, (ast.DictComp, ast.SetComp)) and node is not comp:
                self.b.fail(comp, _WHAT, "holding a dict or set comprehension (a dict "
                            "holds numbers only)")
            if isinstance(node, ast.Name) and node.id == name:
                self.b.fail(comp, _WHAT, f"reading '{name}', the name it is assigned to "
                            "(Python reads the old value)")
        if in_try and not returned:
            self.b.fail(comp, _WHAT, "assigned inside a try (an exception would leave "
                        f"'{name}' half built)")
        targets = {}
        for g in comp.generators:
            if g.is_async:
                self.b.fail(comp, _WHAT, "async for")
            for t in ast.walk(g.target):
                if isinstance(t, ast.Name):
                    targets[t.id] = f"$dc{n}_{t.id}"
        ren = Rename(targets)
        gens = [(ren.visit(g.target), g.iter if k == 0 else ren.visit(g.iter),
                 [ren.visit(c) for c in g.ifs]) for k, g in enumerate(comp.generators)]
        key, value = ren.visit(comp.key), ren.visit(comp.value)
        body = []
        if not isinstance(key, (ast.Constant, ast.Name)):     # the key first, as Python
            k = f"$dc{n}_key"
            body.append(ast.Assign([ast.Name(k, ast.Store())], key))
            key = ast.Name(k, ast.Load())
        body.append(ast.Assign([ast.Subscript(ast.Name(name, ast.Load()), key, ast.Store())],
                               value))
        for target, it, ifs in reversed(gens):
            for c in reversed(ifs):
                body = [ast.If(c, body, [])]
            body = [ast.For(target, it, body, [])]
        new = ast.Dict([], [])
        head = ast.Assign([ast.Name(name, ast.Store())], new) if not \
            isinstance(s, ast.AnnAssign) else \
            ast.AnnAssign(s.target, s.annotation, new, s.simple)
        out = [head] + body
        if returned:
            out.append(ast.Return(ast.Name(name, ast.Load())))
        for x in out:
            for node in ast.walk(x):
                if isinstance(node, (ast.stmt, ast.expr)) and \
                        getattr(node, "lineno", None) is None:
                    ast.copy_location(node, s)
        return out
