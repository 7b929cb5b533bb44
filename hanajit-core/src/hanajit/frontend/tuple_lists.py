"""List locals of tuples of numbers, held as one list per tuple position.

Grid and graph code keeps a stack or queue of coordinates::

    stack = [(sr, sc)]                  __hj_tl_stack_0 = [sr]; ..._1 = [sc]
    while stack:                        while __hj_tl_stack_0:
        r, c = stack.pop()                  t1 = ..._0.pop(); t2 = ..._1.pop(); r = t1; c = t2
        stack.append((r + 1, c))            t3 = r + 1; t4 = c; ..._0.append(t3); ..._1.append(t4)

A compiled list holds numbers (``frontend/growable_lists.py``), so :func:`rewrite`
makes each such list ``k`` lists of numbers, one per tuple position, where a
local is assigned only ``[]`` or displays of ``k``-tuples (a tuple display, or a
name unpacked into ``k`` values: ``q = [start]``) and every read of it is one of

* ``name.append(t)`` as a statement, ``t`` a ``k``-tuple display or a name;
* ``a, b = name.pop()`` / ``name.pop(i)`` / ``name[i]`` (``k`` names, or one
  name that gets the tuple back), the index evaluated once, first;
* ``len(name)`` and the truth of ``name`` (``while name:``, ``if not name:``);
* ``for a, b in name:`` (or ``for t in name:``) with no ``else``: a loop over
  positions that sees items appended by its body, as CPython's list iterator.

The items' expressions are evaluated into temporaries before anything is
appended (CPython's order: the tuple, then the append).  Any other use of the
local (returning it, passing it, sorting it, indexing it elsewhere) leaves the
function as it was: it falls back with the growable list's reason.  The
function is left alone too when it has a ``try`` statement (a handler could see
the lists part-way through an append) or a nested function.
"""
from __future__ import annotations

import ast
import copy

PREFIX = "__hj_tl_"


def label(name: str) -> str:
    """How messages name the list local ``name`` (a part of a split one: which)."""
    from .list_tables import label as table_label
    if table_label(name):
        return table_label(name)
    if name.startswith(PREFIX):
        base, _, j = name[len(PREFIX):].rpartition("_")
        return f"the list '{base}' (item {j} of its tuples)"
    return f"the list '{name}'"


def rewrite(fnode: ast.FunctionDef, params: set) -> ast.FunctionDef:
    """``fnode``, or a copy with its lists of tuples split (see the module doc)."""
    for node in ast.walk(fnode):
        if isinstance(node, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                             ast.ClassDef, ast.Global, ast.Nonlocal)) and node is not fnode:
            return fnode
        if type(node).__name__ == "TryStar":
            return fnode
    found = _candidates(fnode, params)
    if not found:
        return fnode
    fnode = copy.deepcopy(fnode)
    _Split(found).visit(fnode)
    ast.fix_missing_locations(fnode)
    return fnode


# ------------------------------------------------------------------ finding them
def _width(node):
    """The tuple width a display item or appended value gives: ``k`` for a
    ``k``-tuple display (no starred items), ``None`` for a plain name (any
    width: unpacked), ``-1`` for anything else."""
    if isinstance(node, ast.Tuple) and len(node.elts) >= 2 and \
            not any(isinstance(e, ast.Starred) for e in node.elts):
        return len(node.elts)
    if isinstance(node, ast.Name):
        return None
    return -1


def _candidates(fnode, params) -> dict:
    """``{name: k}`` for the locals every use of which is one the module doc lists."""
    parents = {}
    for node in ast.walk(fnode):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    widths, bad = {}, set(params)

    def note(name, w):
        if w == -1:
            bad.add(name)
        elif w is not None:
            widths.setdefault(name, set()).add(w)

    uses = {}
    for node in ast.walk(fnode):
        if isinstance(node, ast.Name):
            uses.setdefault(node.id, []).append(node)
    for name, names in uses.items():
        if name in bad:
            continue
        for n in names:
            if not _use_ok(n, parents, note):
                bad.add(name)
                break
    out = {}
    for name, ws in widths.items():
        if name not in bad and len(ws) == 1 and any(
                isinstance(n.ctx, ast.Store) for n in uses[name]):
            out[name] = ws.pop()
    return out


def _mentions(node, name) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _targets_ok(targets, index, name) -> bool:
    """``a, b = ...`` of plain names (or one name), none of them ``name`` nor read
    by ``index``."""
    if len(targets) != 1:
        return False
    t = targets[0]
    names = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
    if not all(isinstance(x, ast.Name) and x.id != name for x in names):
        return False
    return index is None or not any(_mentions(index, x.id) for x in names)


def _use_ok(n, parents, note) -> bool:
    name = n.id
    p = parents.get(n)
    if isinstance(n.ctx, ast.Store):            # name = [] / [(a, b), c]
        if not (isinstance(p, ast.Assign) and p.targets == [n] and
                isinstance(p.value, ast.List)):
            return False
        for e in p.value.elts:
            note(name, _width(e))
            if _mentions(e, name):
                return False
        return True
    if not isinstance(n.ctx, ast.Load):
        return False
    # len(name)
    if isinstance(p, ast.Call) and p.args == [n] and not p.keywords and \
            isinstance(p.func, ast.Name) and p.func.id == "len":
        return True
    # while name: / if name: / not name
    if isinstance(p, (ast.While, ast.If)) and p.test is n or \
            isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
        return True
    # for a, b in name: (no else)
    if isinstance(p, ast.For) and p.iter is n:
        t = p.target
        if p.orelse or not _targets_ok([t], None, name):
            return False
        if isinstance(t, ast.Tuple):
            note(name, len(t.elts))
        return True
    if isinstance(p, ast.Attribute) and p.value is n:
        call = parents.get(p)
        if not (isinstance(call, ast.Call) and call.func is p and not call.keywords):
            return False
        stmt = parents.get(call)
        if p.attr == "append" and len(call.args) == 1 and isinstance(stmt, ast.Expr):
            v = call.args[0]
            note(name, _width(v))
            return not _mentions(v, name)
        if p.attr == "pop" and len(call.args) <= 1 and isinstance(stmt, ast.Assign) \
                and stmt.value is call:
            index = call.args[0] if call.args else None
            if index is not None and _mentions(index, name):
                return False
            return _unpacking(stmt, index, name, note)
        return False
    if isinstance(p, ast.Subscript) and p.value is n and isinstance(p.ctx, ast.Load):
        stmt = parents.get(p)
        if isinstance(stmt, ast.Assign) and stmt.value is p and \
                not isinstance(p.slice, ast.Slice) and not _mentions(p.slice, name):
            return _unpacking(stmt, p.slice, name, note)
    return False


def _unpacking(stmt, index, name, note) -> bool:
    if not _targets_ok(stmt.targets, index, name):
        return False
    t = stmt.targets[0]
    if isinstance(t, (ast.Tuple, ast.List)):
        note(name, len(t.elts))
    return True


# ------------------------------------------------------------------ splitting
class _Split(ast.NodeTransformer):
    def __init__(self, found):
        self.found = found
        self.count = 0

    def part(self, name, j, ctx=None):
        return ast.Name(f"{PREFIX}{name}_{j}", ctx or ast.Load())

    def temp(self):
        self.count += 1
        return f"{PREFIX}t{self.count}"

    def _items(self, name, value, node):
        """Statements evaluating ``value`` (a k-tuple display or a name) into
        k temporaries, and their names."""
        k = self.found[name]
        names = [self.temp() for _ in range(k)]
        if isinstance(value, ast.Tuple):
            return [ast.copy_location(ast.Assign([ast.Name(t, ast.Store())], e), node)
                    for t, e in zip(names, value.elts)], names
        target = ast.Tuple([ast.Name(t, ast.Store()) for t in names], ast.Store())
        return [ast.copy_location(ast.Assign([target], value), node)], names

    def _expr(self, node):
        """A statement's own expression, its lists' names replaced."""
        return self.visit(node)

    def visit_Assign(self, node):
        t = node.targets[0] if len(node.targets) == 1 else None
        v = node.value
        if isinstance(t, ast.Name) and t.id in self.found and isinstance(v, ast.List):
            name, k = t.id, self.found[t.id]
            out, cols = [], [[] for _ in range(k)]
            for e in v.elts:
                stmts, names = self._items(name, self._expr(e), node)
                out += stmts
                for j, tn in enumerate(names):
                    cols[j].append(ast.Name(tn, ast.Load()))
            out += [ast.copy_location(ast.Assign([self.part(name, j, ast.Store())],
                                                 ast.List(cols[j], ast.Load())), node)
                    for j in range(k)]
            return out
        got = self._read(v)
        if got is not None:
            name, index, op = got
            k = self.found[name]
            out = []
            if index is not None:
                it = self.temp()
                out.append(ast.copy_location(ast.Assign([ast.Name(it, ast.Store())],
                                                        self._expr(index)), node))
                index = ast.Name(it, ast.Load())
            names = [self.temp() for _ in range(k)]
            for j, tn in enumerate(names):
                if op == "pop":
                    call = ast.Call(ast.Attribute(self.part(name, j), "pop", ast.Load()),
                                    [index] if index is not None else [], [])
                else:
                    call = ast.Subscript(self.part(name, j), index, ast.Load())
                out.append(ast.copy_location(ast.Assign([ast.Name(tn, ast.Store())], call),
                                             node))
            if isinstance(t, (ast.Tuple, ast.List)):
                out += [ast.copy_location(ast.Assign([ast.Name(x.id, ast.Store())],
                                                     ast.Name(tn, ast.Load())), node)
                        for x, tn in zip(t.elts, names)]
            else:
                out.append(ast.copy_location(ast.Assign([ast.Name(t.id, ast.Store())], ast.Tuple(
                    [ast.Name(tn, ast.Load()) for tn in names], ast.Load())), node))
            return out
        return self.generic_visit(node)

    def _read(self, v):
        """``(name, index, "pop"/"item")`` for ``name.pop([i])`` / ``name[i]``."""
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
                v.func.attr == "pop" and isinstance(v.func.value, ast.Name) and \
                v.func.value.id in self.found:
            return v.func.value.id, (v.args[0] if v.args else None), "pop"
        if isinstance(v, ast.Subscript) and isinstance(v.value, ast.Name) and \
                v.value.id in self.found:
            return v.value.id, v.slice, "item"
        return None

    def visit_Expr(self, node):
        c = node.value
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and \
                c.func.attr == "append" and isinstance(c.func.value, ast.Name) and \
                c.func.value.id in self.found:
            name = c.func.value.id
            stmts, names = self._items(name, self._expr(c.args[0]), node)
            return stmts + [ast.copy_location(ast.Expr(ast.Call(
                ast.Attribute(self.part(name, j), "append", ast.Load()),
                [ast.Name(tn, ast.Load())], [])), node) for j, tn in enumerate(names)]
        return self.generic_visit(node)

    def visit_For(self, node):
        it = node.iter
        if not (isinstance(it, ast.Name) and it.id in self.found):
            return self.generic_visit(node)
        name, k = it.id, self.found[it.id]
        i = self.temp()
        body = [self.visit(s) for s in node.body]
        flat = []
        for s in body:
            flat.extend(s if isinstance(s, list) else [s])
        items = [ast.Subscript(self.part(name, j), ast.Name(i, ast.Load()), ast.Load())
                 for j in range(k)]
        t = node.target
        if isinstance(t, ast.Tuple):
            head = [ast.Assign([ast.Name(x.id, ast.Store())], item)
                    for x, item in zip(t.elts, items)]
        else:
            head = [ast.Assign([ast.Name(t.id, ast.Store())], ast.Tuple(items, ast.Load()))]
        head.append(ast.AugAssign(ast.Name(i, ast.Store()), ast.Add(), ast.Constant(1)))
        loop = ast.While(ast.Compare(ast.Name(i, ast.Load()), [ast.Lt()], [ast.Call(
            ast.Name("len", ast.Load()), [self.part(name, 0)], [])]), head + flat, [])
        start = ast.Assign([ast.Name(i, ast.Store())], ast.Constant(0))
        return [ast.copy_location(x, node) for x in (start, loop)]

    def visit_Name(self, node):
        if node.id in self.found and isinstance(node.ctx, ast.Load):
            return ast.copy_location(self.part(node.id, 0), node)   # len(), truth
        return node
