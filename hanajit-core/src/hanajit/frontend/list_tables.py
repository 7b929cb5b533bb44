"""Lists of lists of numbers (DP tables, grids), held as three growable lists.

::

    dp = [[0] * (m + 1) for _ in range(n + 1)]     V = []; S = []; L = []
                                                   for c_ in range(n + 1):
                                                       t = [0] * (m + 1); s = len(V)
                                                       V.extend(t); S.append(s)
                                                       L.append(len(V) - s)
    dp[i][j] = dp[i - 1][j] + 1                    V[S[i] + store(L[i], j)] = ...
                                                       V[S[i] + index(L[i - 1], j)] + 1

A table ``T`` is one flat list of its items ``V`` (``__hj_ll_T_v``), the start of
each row in it ``S`` (``_s``) and each row's length ``L`` (``_n``), all growable
lists (``frontend/growable_lists.py``), so the items are of one type and kind
as a growable list's are.  :func:`rewrite` makes them where a local is assigned
only a comprehension of rows, a display of rows or ``[]`` (then
``T.append(row)``), a row being a list display, ``[v] * k`` / ``k * [v]``, a list
comprehension or a list local dead after it is appended (all its uses lie
between its own ``row = [...]`` and the append, in one block: CPython appends
the list object itself, and later changes through the name would show in the
table), and every read of it is

* ``T[i][j]`` (read, assigned, ``+=``), ``len(T)``, ``len(T[i])``, ``sum``/
  ``min``/``max``/``any``/``all`` of ``T[i]``, ``T[i].append(x)``, ``for v in T[i]``
  (also in comprehensions), ``T.append(row)``, ``T[i] = row`` (its items put after
  all others: rows are then out of order, and an append moves every row after
  the end of the one appended to; not with row names, nor inside a loop over a
  row of ``T``), ``for row in T`` (also
  ``enumerate(T)`` and in comprehensions), ``row = T[i]``, the truth of ``T``
  and ``return T`` (also in a returned tuple: ``return best, T``; the caller gets
  a list of lists: ``Function.returns_table``);
* where ``i`` of ``T[i]`` is read twice (in an expression), it is made of names,
  constants and operators only, which evaluate the same twice.

A row name (``row = T[i]``, ``for row in T``) holds the row's position, so
writes and appends through it show in the table, as in CPython; the table is
then assigned once, outside any loop (a row name must not outlive its table).
``T[i].append(x)`` inserts into ``V`` at the row's end and moves the starts of
the later rows (nothing to move for the last row: ``rows[-1].append(x)``).
Every other use leaves the function as it was (it falls back); ``[[0] * m] *
n`` (every row one list) too.  The reasons are kept for the message.
"""
from __future__ import annotations

import ast
import copy

PREFIX = "__hj_ll_"
_REDUCE = ("sum", "min", "max", "any", "all")
_REPEATED = ("'[[...] * m] * n' makes every row the same list (a write shows in "
             "every row), which a compiled table does not hold")


def label(name: str):
    """How messages name a part of a table, else None."""
    if not name.startswith(PREFIX):
        return None
    base, _, part = name[len(PREFIX):].rpartition("_")
    what = {"v": "its items", "s": "its row starts", "n": "its row lengths"}.get(part)
    return f"the list of lists '{base}' ({what})" if what else None


def parts(t):
    return PREFIX + t + "_v", PREFIX + t + "_s", PREFIX + t + "_n"


def _rvar(r):
    return PREFIX + r + "_r"


# ------------------------------------------------------------------ finding them
def _row_expr(e) -> bool:
    """A new row: a list display, ``[v] * k``, ``k * [v]``, a list comprehension."""
    if isinstance(e, ast.List):
        return not any(isinstance(x, ast.Starred) for x in e.elts)
    if isinstance(e, ast.ListComp):
        return not any(g.is_async for g in e.generators)
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
        lst = [x for x in (e.left, e.right) if isinstance(x, ast.List)]
        return len(lst) == 1 and _row_expr(lst[0]) and not any(
            isinstance(x, ast.List) for x in lst[0].elts)
    return False


def _build(v):
    """``'comp'``, ``'display'``, ``'empty'`` for a value a table may be assigned,
    ``'repeated'`` for ``[[...]] * n``, else None."""
    if isinstance(v, ast.List) and not v.elts:
        return "empty"
    if isinstance(v, ast.ListComp) and _row_expr(v.elt) and \
            not any(g.is_async for g in v.generators):
        return "comp"
    if isinstance(v, ast.List) and all(_row_expr(x) for x in v.elts):
        return "display"
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult) and any(
            isinstance(x, ast.List) and x.elts and all(_row_expr(y) for y in x.elts)
            for x in (v.left, v.right)):
        return "repeated"
    return None


def _mentions(node, name) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def _simple(e) -> bool:
    """Does ``e`` evaluate the same twice (names, constants, operators, ``len(x)``)?"""
    if isinstance(e, (ast.Name, ast.Constant)):
        return True
    if isinstance(e, ast.BinOp):
        return _simple(e.left) and _simple(e.right)
    if isinstance(e, ast.UnaryOp):
        return _simple(e.operand)
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and \
        e.func.id == "len" and len(e.args) == 1 and isinstance(e.args[0], ast.Name) \
        and not e.keywords


class _Scan:
    def __init__(self, fnode, params, skip):
        self.fnode, self.params, self.skip = fnode, params, skip
        self.parents = {}
        for node in ast.walk(fnode):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        self.names = {}
        for node in ast.walk(fnode):
            if isinstance(node, ast.Name):
                self.names.setdefault(node.id, []).append(node)
        self.reasons, self.aliases, self.dead_rows = {}, {}, set()
        self.replaced = set()           # tables with rows assigned: out of order
        self.row_loops = []             # for v in T[i]: (of the table being checked)

    def candidates(self):
        out = set()
        for name, ns in self.names.items():
            if name in self.params or name in self.skip:
                continue
            for n in ns:
                p = self.parents.get(n)
                if isinstance(n.ctx, ast.Store) and isinstance(p, ast.Assign) and \
                        p.targets == [n] and _build(p.value) in ("comp", "display",
                                                                 "repeated"):
                    out.add(name)
                if isinstance(p, ast.Attribute) and p.attr == "append" and \
                        isinstance(self.parents.get(p), ast.Call) and \
                        len(self.parents[p].args) == 1 and \
                        _row_expr(self.parents[p].args[0]):
                    out.add(name)
        return out

    def stmt_of(self, node):
        while node is not None and not isinstance(node, ast.stmt):
            node = self.parents.get(node)
        return node

    def in_loop(self, node) -> bool:
        node = self.parents.get(node)
        while node is not None and node is not self.fnode:
            if isinstance(node, (ast.For, ast.While, ast.comprehension)):
                return True
            node = self.parents.get(node)
        return False

    def check(self, t):
        """None when every use of the table ``t`` is one the module doc lists,
        else why not; the row names found are put in ``self.aliases``."""
        stores, aliases = [], {}
        self.row_loops = []
        for n in self.names[t]:
            p = self.parents.get(n)
            if isinstance(n.ctx, ast.Store):
                kind = _build(p.value) if isinstance(p, ast.Assign) and \
                    p.targets == [n] else None
                if kind == "repeated":
                    return _REPEATED
                if kind is None:
                    return f"'{t}' is also assigned something other than a new list of lists"
                if _mentions(p.value, t):
                    return f"'{t}' is built from itself"
                stores.append(p)
                continue
            if not isinstance(n.ctx, ast.Load):
                return f"'{t}' is deleted"
            why = self.use(t, n, p, aliases)
            if why is not None:
                return why
        if t in self.replaced and any(
                isinstance(x, ast.Subscript) and isinstance(x.ctx, ast.Store) and
                isinstance(x.value, ast.Name) and x.value.id == t
                for loop in self.row_loops for s in loop.body for x in ast.walk(s)):
            return f"a row of '{t}' is assigned inside a loop over a row of it (CPython's " \
                "loop goes on over the row replaced)"
        if aliases and t in self.replaced:
            return f"a row of '{t}' is assigned, and a row name ('{min(aliases)}') could " \
                "hold the row it replaces"
        for r, targets in aliases.items():
            if r in self.params or r in self.names and any(
                    x.id == r and x not in targets and isinstance(x.ctx, ast.Store)
                    for x in self.names[r]):
                return f"the row name '{r}' is also assigned something other than a row"
            if len(stores) != 1 or self.in_loop(stores[0]):
                return f"the row name '{r}' could outlive the table '{t}' (assigned more " \
                    "than once or in a loop)"
            for x in self.names[r]:
                if isinstance(x.ctx, ast.Load):
                    why = self.row_use(x, self.parents.get(x), f"the row '{r}'")
                    if why is not None:
                        return why
        self.aliases.update((r, t) for r in aliases)
        return None

    def row_use(self, n, p, what):
        """Why the row ``n`` (``T[i]`` or a row name) is not used as the doc lists."""
        q = self.parents.get(p)
        simple = not isinstance(n, ast.Subscript) or _simple(n.slice)
        if isinstance(p, ast.Subscript) and p.value is n:
            if isinstance(p.slice, ast.Slice):
                return f"{what} is sliced"
            if isinstance(p.ctx, ast.Del):
                return f"an item of {what} is deleted"
            if isinstance(p.ctx, ast.Store) and not (
                    isinstance(q, ast.Assign) and q.targets == [p]
                    or isinstance(q, ast.AugAssign) and q.target is p):
                return f"an item of {what} is assigned with others"
            return None if simple else f"the row index of {what} is not a plain expression"
        if isinstance(p, ast.Call) and p.args == [n] and not p.keywords and \
                isinstance(p.func, ast.Name) and p.func.id in ("len",) + _REDUCE:
            return None if simple else f"the row index of {what} is not a plain expression"
        if isinstance(p, ast.Attribute) and p.attr == "append" and \
                isinstance(q, ast.Call) and q.func is p and len(q.args) == 1 and \
                not q.keywords and isinstance(self.parents.get(q), ast.Expr):
            return None
        if isinstance(p, ast.For) and p.iter is n:
            self.row_loops.append(p)
            return None
        if isinstance(p, ast.comprehension) and p.iter is n:
            return None if simple else f"the row index of {what} is not a plain expression"
        return f"{what} is used other than indexed, measured, reduced, looped over or " \
            "appended to"

    def use(self, t, n, p, aliases):
        q = self.parents.get(p)
        if isinstance(p, ast.Subscript) and p.value is n:
            if isinstance(p.ctx, ast.Store) and not isinstance(p.slice, ast.Slice) and \
                    isinstance(q, ast.Assign) and q.targets == [p]:
                x = q.value                             # dp[i] = [0] * m: a new row
                if _row_expr(x) and not (isinstance(x, ast.List) and any(
                        isinstance(e, ast.List) for e in x.elts)):
                    self.replaced.add(t)
                    return None
                if isinstance(x, ast.Name) and self.dead_after(x.id, q):
                    self.dead_rows.add(id(x))
                    self.replaced.add(t)
                    return None
                return f"a row of '{t}' is assigned something other than a new row"
            if isinstance(p.slice, ast.Slice) or not isinstance(p.ctx, ast.Load):
                return f"'{t}' is sliced, or a row of it deleted or changed other than " \
                    "through its items, append() or an assignment of a new row"
            if isinstance(q, ast.Assign) and q.value is p and len(q.targets) == 1 and \
                    isinstance(q.targets[0], ast.Name):
                aliases.setdefault(q.targets[0].id, []).append(q.targets[0])
                return None
            stmt = self.parents.get(q)
            if isinstance(q, ast.Tuple) and isinstance(stmt, ast.Assign) and \
                    stmt.value is q and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Tuple) and \
                    len(stmt.targets[0].elts) == len(q.elts) and \
                    not any(isinstance(x, ast.Starred) for x in q.elts):
                target = stmt.targets[0].elts[q.elts.index(p)]
                if isinstance(target, ast.Name):        # row, up = T[i], T[i - 1]
                    aliases.setdefault(target.id, []).append(target)
                    return None
            return self.row_use(p, q, f"a row of '{t}'")
        if isinstance(p, ast.Call) and p.args == [n] and not p.keywords and \
                isinstance(p.func, ast.Name) and p.func.id == "len":
            return None
        if isinstance(p, ast.Attribute) and p.attr == "append" and \
                isinstance(q, ast.Call) and q.func is p and len(q.args) == 1 and \
                not q.keywords and isinstance(self.parents.get(q), ast.Expr):
            x = q.args[0]
            if _row_expr(x):
                return None
            if isinstance(x, ast.Name) and self.dead_after(x.id, self.parents[q]):
                self.dead_rows.add(id(x))
                return None
            return f"'{t}.append()' of something other than a new row (the same list " \
                "object would be in the table and in its name)"
        loop = p if isinstance(p, (ast.For, ast.comprehension)) else q if isinstance(
            p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id == "enumerate" \
            and p.args and p.args[0] is n and len(p.args) <= 2 and not p.keywords and \
            isinstance(q, (ast.For, ast.comprehension)) and q.iter is p else None
        if loop is not None and (loop.iter is n or loop.iter is p):
            target = loop.target
            if loop.iter is p:
                if not (isinstance(target, ast.Tuple) and len(target.elts) == 2
                        and isinstance(target.elts[0], ast.Name)):
                    return f"enumerate('{t}') is unpacked into other than two names"
                target = target.elts[1]
            if not isinstance(target, ast.Name):
                return f"a loop over '{t}' unpacks its rows"
            aliases.setdefault(target.id, []).append(target)
            return None
        if isinstance(p, ast.Return) and p.value is n or isinstance(p, ast.Tuple) and \
                isinstance(q, ast.Return) and q.value is p and \
                not any(isinstance(x, ast.Starred) for x in p.elts):
            return None
        if isinstance(p, (ast.If, ast.While)) and p.test is n or \
                isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
            return None
        return f"'{t}' is used other than indexed, measured, looped over, appended to or " \
            "returned"

    def dead_after(self, row, append) -> bool:
        """Are all uses of the list local ``row`` in the statements of one block
        from ``row = <new list>`` to ``append`` (so that none sees it after)?"""
        block = None
        for field in ("body", "orelse", "finalbody"):
            stmts = getattr(self.parents.get(append), field, None)
            if isinstance(stmts, list) and append in stmts:
                block = stmts
        if block is None or row in self.params:
            return False
        end = block.index(append)
        start = next((k for k in range(end) if isinstance(block[k], ast.Assign)
                      and len(block[k].targets) == 1
                      and isinstance(block[k].targets[0], ast.Name)
                      and block[k].targets[0].id == row
                      and _row_expr(block[k].value)
                      and not _mentions(block[k].value, row)), None)
        if start is None or any(_mentions(s, row) for s in block[:start]):
            return False
        for x in self.names.get(row, ()):       # (each store a new list: never an array)
            p = self.parents.get(x)
            if isinstance(x.ctx, ast.Store) and not (
                    isinstance(p, ast.Assign) and p.targets == [x] and _row_expr(p.value)):
                return False
        inside = sum(1 for s in block[start:end + 1] for x in ast.walk(s)
                     if isinstance(x, ast.Name) and x.id == row)
        return inside == len(self.names.get(row, ()))


def apply(b, sv, readonly):
    """Rewrite the tables of the builder ``b`` (its survey ``sv``: the new one)."""
    from .scopes import survey
    b.table_reasons, b.returns_table = {}, False
    if not sv.list_assign:
        return sv
    fnode, b.table_reasons, b.returns_table = rewrite(b.fnode, set(b.params), b.injected,
                                                      readonly)
    if fnode is b.fnode:
        return sv
    b.fnode = fnode
    return survey(fnode)


def rewrite(fnode, params: set, injected: dict, readonly=None):
    """``(fnode or a copy with its tables rewritten, {table: why not}, returns a
    table?)``.  ``readonly()``: the names the read-only display path builds."""
    for node in ast.walk(fnode):
        if isinstance(node, (ast.Try, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                             ast.ClassDef, ast.Global, ast.Nonlocal, ast.NamedExpr)) \
                and node is not fnode or type(node).__name__ == "TryStar":
            return fnode, {}, False
    scan = _Scan(fnode, params, set())
    found = scan.candidates()
    if not found:
        return fnode, {}, False
    if readonly is not None:
        scan.skip = set(readonly())
        found -= scan.skip
    tables = set()
    for t in sorted(found):
        why = scan.check(t)
        if why is None:
            tables.add(t)
        else:
            scan.reasons[t] = why
    if not tables:
        return fnode, scan.reasons, False
    from ..lib import registry
    calls = registry.growable_list_callables()
    injected[PREFIX + "index"] = calls["item_index"]
    injected[PREFIX + "store"] = calls["store_index"]
    marks = {id(n) for n in ast.walk(fnode) if id(n) in scan.dead_rows}
    fnode = copy.deepcopy(fnode)
    # (deepcopy keeps the order of ast.walk: mark the dead rows' copies by position)
    dead = {id(new) for old, new in zip(_all(scan.fnode), _all(fnode)) if id(old) in marks}
    r = _Rewrite(tables, {a: t for a, t in scan.aliases.items() if t in tables}, dead,
                 scan.replaced & tables)
    fnode.body = r.block(fnode.body)
    ast.fix_missing_locations(fnode)
    return fnode, scan.reasons, r.returned


def _all(node):
    return list(ast.walk(node))


# ------------------------------------------------------------------ rewriting
def _n(name, store=False):
    return ast.Name(name, ast.Store() if store else ast.Load())


def _assign(target, value):
    return ast.Assign(targets=[_n(target, True) if isinstance(target, str) else target],
                      value=value)


def _call(f, *args):
    return ast.Call(_n(f), list(args), [])


def _sub(name, index, store=False):
    return ast.Subscript(_n(name), index, ast.Store() if store else ast.Load())


def _add(a, b):
    return ast.BinOp(a, ast.Add(), b)


def _expr(e):
    return ast.Expr(e)


class _Rewrite(ast.NodeTransformer):
    def __init__(self, tables, aliases, dead, replaced):
        self.tables, self.aliases, self.dead = tables, aliases, dead
        self.replaced = replaced        # (rows not in order among the items)
        self.k = 0
        self.returned = False

    def tmp(self, hint):
        self.k += 1
        return f"{PREFIX}{self.k}{hint}"

    def block(self, stmts):
        out = []
        for s in stmts:
            new = self.visit(s)
            out.extend(new if isinstance(new, list) else [new] if new is not None else [])
        return out

    # -- rows
    def row(self, e):
        """``(table, index expression)`` of a row ``T[i]`` / a row name, else None."""
        if isinstance(e, ast.Name) and e.id in self.aliases:
            return self.aliases[e.id], _n(_rvar(e.id))
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and \
                e.value.id in self.tables and not isinstance(e.slice, ast.Slice):
            return e.value.id, self.visit(e.slice)
        return None

    def cell(self, rowref, j, how, store=False):
        t, i = rowref
        v, s, n = parts(t)
        index = _add(_sub(s, i), _call(PREFIX + how, _sub(n, copy.deepcopy(i)), j))
        out = _sub(v, index, store)
        out.hj_checked = True       # (in range: a start plus a checked offset)
        return out

    def items(self, rowref):
        """The row's items: ``V[S[i]:S[i] + L[i]]``."""
        t, i = rowref
        v, s, n = parts(t)
        start = _sub(s, i)
        return _sub(v, ast.Slice(start, _add(copy.deepcopy(start),
                                             _sub(n, copy.deepcopy(i))), None))

    def checked(self, rowref_node):
        """A statement-level row: its position, checked once, into a temporary."""
        t, i = self.row(rowref_node)
        if isinstance(rowref_node, ast.Name):
            return t, i, []
        k = self.tmp("r")
        return t, _n(k), [_assign(k, _call(PREFIX + "index", _call("len", _n(parts(t)[1])),
                                           i))]

    # -- expressions
    def visit_Subscript(self, e):
        rowref = self.row(e.value)
        if rowref is not None:
            store = isinstance(e.ctx, ast.Store)
            return self.cell(rowref, self.visit(e.slice), "store" if store else "index",
                             store)
        return self.generic_visit(e)

    def visit_Call(self, e):
        f = e.func
        if isinstance(f, ast.Name) and len(e.args) == 1 and not e.keywords:
            a = e.args[0]
            if f.id == "len" and isinstance(a, ast.Name) and a.id in self.tables:
                return _call("len", _n(parts(a.id)[1]))
            rowref = self.row(a)
            if rowref is not None and f.id == "len":
                return _sub(parts(rowref[0])[2], rowref[1])
            if rowref is not None and f.id in _REDUCE:
                return ast.Call(f, [self.items(rowref)], [])
        return self.generic_visit(e)

    def visit_Name(self, e):
        if isinstance(e.ctx, ast.Load) and e.id in self.tables:
            return _n(parts(e.id)[1])           # (its truth: the starts' truth)
        return e

    def visit_comprehension(self, g):
        it = g.iter
        if isinstance(it, ast.Name) and it.id in self.tables:
            g.target = _n(_rvar(g.target.id), True)
            g.iter = _call("range", _call("len", _n(parts(it.id)[1])))
        elif _enumerated(it, self.tables):
            g.target.elts[1] = _n(_rvar(g.target.elts[1].id), True)
            table = it.args[0].id
            it.args[0] = _call("range", _call("len", _n(parts(table)[1])))
            it.args[1:] = [self.visit(x) for x in it.args[1:]]
        else:
            rowref = self.row(it)
            if rowref is not None:
                g.iter = self.items(rowref)
                g.target = self.visit(g.target)
                g.ifs = [self.visit(x) for x in g.ifs]
                return g
            g.iter = self.visit(it)
        g.target = self.visit(g.target)
        g.ifs = [self.visit(x) for x in g.ifs]
        return g

    # -- statements
    def visit_Assign(self, s):
        t = s.targets[0] if len(s.targets) == 1 else None
        if isinstance(t, ast.Name) and t.id in self.tables:
            return self.build(t.id, s.value)
        if isinstance(t, ast.Name) and t.id in self.aliases:
            table, i, pre = self.checked(s.value)
            return pre + [_assign(_rvar(t.id), i)]
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                t.value.id in self.tables:
            return self.replace_row(t.value.id, t.slice, s.value)
        if isinstance(t, ast.Tuple) and isinstance(s.value, ast.Tuple) and any(
                isinstance(x, ast.Name) and x.id in self.aliases for x in t.elts):
            pre, then = [], []          # (the values first, in order; then the names)
            for x, v in zip(t.elts, s.value.elts):
                tmp = self.tmp("e")
                if isinstance(x, ast.Name) and x.id in self.aliases:
                    _table, i, more = self.checked(v)
                    pre += more + [_assign(tmp, i)]
                    then.append(_assign(_rvar(x.id), _n(tmp)))
                else:
                    pre.append(_assign(tmp, self.visit(v)))
                    then.append(_assign(self.visit(x), _n(tmp)))
            return [ast.copy_location(x, s) for x in pre + then]
        return self.generic_visit(s)

    def visit_AugAssign(self, s):
        t = s.target
        rowref = self.row(t.value) if isinstance(t, ast.Subscript) else None
        if rowref is not None:
            s.value = self.visit(s.value)
            s.target = self.cell(rowref, self.visit(t.slice), "index", True)
            return s
        return self.generic_visit(s)

    def visit_Expr(self, s):
        c = s.value
        if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and \
                c.func.attr == "append" and len(c.args) == 1:
            obj = c.func.value
            if isinstance(obj, ast.Name) and obj.id in self.tables:
                return self.new_row(obj.id, c.args[0])
            if self.row(obj) is not None:
                return self.push(obj, c.args[0])
        return self.generic_visit(s)

    def visit_Return(self, s):
        if isinstance(s.value, ast.Name) and s.value.id in self.tables:
            self.returned = True
            return ast.Return(ast.Tuple([_n(x) for x in parts(s.value.id)], ast.Load()))
        if isinstance(s.value, ast.Tuple) and any(isinstance(x, ast.Name) and x.id in
                                                  self.tables for x in s.value.elts):
            elts, at = [], []           # return best, dp: (best, items, starts, lengths)
            for x in s.value.elts:
                if isinstance(x, ast.Name) and x.id in self.tables:
                    at.append(len(elts))
                    elts += [_n(y) for y in parts(x.id)]
                else:
                    elts.append(self.visit(x))
            self.returned = tuple(at)
            return ast.Return(ast.Tuple(elts, ast.Load()))
        return self.generic_visit(s)

    def visit_For(self, s):
        it = s.iter
        k = self.tmp("k")
        pre = [_assign(k, ast.Constant(0))]
        if isinstance(it, ast.Name) and it.id in self.tables or _enumerated(it, self.tables):
            table = it.id if isinstance(it, ast.Name) else it.args[0].id
            bound = _call("len", _n(parts(table)[1]))
            if isinstance(it, ast.Name):
                binds = [_assign(_rvar(s.target.id), _n(k))]
            else:
                c = self.tmp("c")
                pre.append(_assign(c, self.visit(it.args[1]) if len(it.args) > 1
                                   else ast.Constant(0)))
                binds = [_assign(s.target.elts[0], _add(_n(k), _n(c))),
                         _assign(_rvar(s.target.elts[1].id), _n(k))]
            item = binds
        else:
            rowref_node = it if self.row(copy.deepcopy(it)) is not None else None
            if rowref_node is None:
                return self.generic_visit(s)
            table, i, more = self.checked(it)
            if isinstance(it, ast.Name):        # for v in row: the row it holds now
                r = self.tmp("r")
                more = [_assign(r, i)]
                i = _n(r)
            pre += more
            v, st, n = parts(table)
            bound = _sub(n, i)
            item = [_assign(self.visit(s.target), _sub(v, _add(_sub(st, copy.deepcopy(i)),
                                                            _n(k))))]
        body = item + [ast.AugAssign(_n(k, True), ast.Add(), ast.Constant(1))] + \
            self.block(s.body)
        test = ast.Compare(_n(k), [ast.Lt()], [bound])
        loop = ast.While(test=test, body=body, orelse=self.block(s.orelse))
        return [ast.copy_location(x, s) for x in pre + [loop]]

    # -- building
    def build(self, t, value):
        v, s, n = parts(t)
        out = [_assign(x, ast.List([], ast.Load())) for x in (v, s, n)]
        if isinstance(value, ast.ListComp):
            comp = _renamed(value, self.tmp("c"))
            body = self.add_row(t, comp.elt)
            for g in reversed(comp.generators):
                for cond in reversed(g.ifs):
                    body = [ast.If(test=self.visit(cond), body=body, orelse=[])]
                body = [ast.For(target=g.target, iter=self.visit(g.iter), body=body,
                                orelse=[])]
            out += body
        else:
            for row in value.elts:
                out += self.add_row(t, row)
        return out

    def row_items(self, t, row):
        """``(statements, start)``: put the new row's items after all others (its
        items evaluated before anything changes), ``start`` the local holding
        where they begin."""
        v = parts(t)[0]
        st = self.tmp("s")
        row = self.visit(row)
        pre = []
        if not isinstance(row, (ast.List, ast.Name)):   # [v] * k, a comprehension
            tmp = self.tmp("t")
            pre = [_assign(tmp, row)]
            row = _n(tmp)
        out = pre + [_assign(st, _call("len", _n(v)))]
        if not (isinstance(row, ast.List) and not row.elts):
            out.append(_expr(ast.Call(ast.Attribute(_n(v), "extend", ast.Load()), [row],
                                      [])))
        return out, st

    def add_row(self, t, row):
        """Append the new row ``row``."""
        v, s, n = parts(t)
        out, st = self.row_items(t, row)
        return out + [_expr(ast.Call(ast.Attribute(_n(s), "append", ast.Load()),
                                     [_n(st)], [])),
                      _expr(ast.Call(ast.Attribute(_n(n), "append", ast.Load()),
                                     [ast.BinOp(_call("len", _n(v)), ast.Sub(), _n(st))],
                                     []))]

    def replace_row(self, t, index, x):
        """``T[i] = row``: the row's items put after all others (evaluated first, as
        CPython does), then row ``i`` made to start there."""
        v, s, n = parts(t)
        if id(x) in self.dead:
            x = ast.Name(x.id, ast.Load())
        out, st = self.row_items(t, x)
        k = self.tmp("k")
        return out + [
            _assign(k, _call(PREFIX + "store", _call("len", _n(s)), self.visit(index))),
            _assign(_sub(s, _n(k), True), _n(st)),
            _assign(_sub(n, _n(k), True), ast.BinOp(_call("len", _n(v)), ast.Sub(),
                                                    _n(st)))]

    def new_row(self, t, x):
        if id(x) in self.dead:              # rows.append(row): row is never used again
            return self.add_row(t, ast.Name(x.id, ast.Load()))
        return self.add_row(t, x)

    def push(self, obj, x):
        """``T[i].append(x)``: insert at the row's end, move the later rows."""
        table, i, pre = self.checked(obj)
        v, s, n = parts(table)
        if isinstance(obj, ast.Name):
            r = self.tmp("r")
            pre, i = [_assign(r, i)], _n(r)
        xv, q = self.tmp("x"), self.tmp("q")
        at = _add(_sub(s, copy.deepcopy(i)), _sub(n, copy.deepcopy(i)))
        if table in self.replaced:      # rows out of order: those after the end move
            end = self.tmp("p")
            moved = ast.If(test=ast.BoolOp(ast.And(), [
                ast.Compare(_n(q), [ast.NotEq()], [copy.deepcopy(i)]),
                ast.Compare(_sub(s, _n(q)), [ast.GtE()], [_n(end)])]),
                body=[ast.AugAssign(_sub(s, _n(q), True), ast.Add(), ast.Constant(1))],
                orelse=[])
            return pre + [
                _assign(xv, self.visit(x)), _assign(end, at),
                _expr(ast.Call(ast.Attribute(_n(v), "insert", ast.Load()),
                               [_n(end), _n(xv)], [])),
                ast.AugAssign(_sub(n, copy.deepcopy(i), True), ast.Add(), ast.Constant(1)),
                ast.For(target=_n(q, True), iter=_call("range", _call("len", _n(s))),
                        body=[moved], orelse=[])]
        return pre + [
            _assign(xv, self.visit(x)),
            _expr(ast.Call(ast.Attribute(_n(v), "insert", ast.Load()), [at, _n(xv)], [])),
            ast.AugAssign(_sub(n, copy.deepcopy(i), True), ast.Add(), ast.Constant(1)),
            ast.For(target=_n(q, True), iter=_call("range", _add(copy.deepcopy(i),
                                                                  ast.Constant(1)),
                                                   _call("len", _n(s))),
                    body=[ast.AugAssign(_sub(s, _n(q), True), ast.Add(), ast.Constant(1))],
                    orelse=[])]


def _enumerated(it, tables) -> bool:
    return isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and \
        it.func.id == "enumerate" and it.args and isinstance(it.args[0], ast.Name) and \
        it.args[0].id in tables


def _renamed(comp, tag):
    """A copy of the comprehension with its targets renamed apart (they are local
    to it in Python; here its loops are the function's)."""
    comp = copy.deepcopy(comp)
    names = {n.id for g in comp.generators for n in ast.walk(g.target)
             if isinstance(n, ast.Name)}
    new = {x: f"{tag}_{x}" for x in names}

    class R(ast.NodeTransformer):
        def visit_Name(self, n):
            if n.id in new:
                n.id = new[n.id]
            return n
    first = comp.generators[0].iter
    for node in [comp.elt] + [g for g in comp.generators]:
        if node is comp.generators[0]:
            R().visit(node.target)
            for c in node.ifs:
                R().visit(c)
        else:
            R().visit(node)
    assert comp.generators[0].iter is first
    return comp
