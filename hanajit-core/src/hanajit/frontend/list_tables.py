"""Lists of lists of numbers (DP tables, grids), held as four growable lists.

::

    dp = [[0] * (m + 1) for _ in range(n + 1)]     V = []; S = []; L = []; R = []
                                                   for c_ in range(n + 1):
                                                       t = [0] * (m + 1); s = len(V)
                                                       V.extend(t); S.append(s)
                                                       L.append(len(V) - s)
                                                       R.append(len(S) - 1)
    dp[i][j] = dp[i - 1][j] + 1                    V[S[R[i]] + store(L[R[i]], j)] = ...

A table ``T`` is a store of row lists (objects: their items ``V``, starts ``S``
and lengths ``L``) and the object each of its rows is (``R``), all growable lists
(``frontend/growable_lists.py``), so the items are of one type and kind as a
growable list's are; ``frontend/table_rewrite.py`` rewrites its uses.
:func:`rewrite` makes them where a local is assigned only a comprehension of
rows, a display of rows, ``[[...]] * n`` (the same objects again) or ``[]``
(then ``T.append(row)``), a row being a list display, ``[v] * k`` / ``k * [v]``,
a list comprehension, a list local dead after it is appended (all its uses lie
between its own ``row = [...]`` and the append, in one block: its items are
copied), a row of the table or a row name (the same object), and every read of
it is

* ``T[i][j]`` (read, assigned, ``+=``), ``len(T)``, ``len(T[i])``, ``sum``/
  ``min``/``max``/``any``/``all`` of ``T[i]``, ``T[i].append(x)``, ``for v in T[i]``
  (also in comprehensions), ``T.append(row)``, ``T[i] = row`` (a new object, or
  the object of ``T[j]`` or of a row name), ``for row in T`` (also
  ``enumerate(T)`` and in comprehensions), ``row = T[i]``, the truth of ``T``
  and ``return T`` (also in a returned tuple: ``return best, T``; the caller gets
  a list of lists, rows that are one object one list: ``Function.returns_table``);
* where ``i`` of ``T[i]`` is read twice (in an expression), it is made of names,
  constants and operators only, which evaluate the same twice.

A row name (``row = T[i]``, ``for row in T``, and a list local put into the
table and used again: ``rows.append(cur)`` then ``cur[i] = v``, each of its
assignments a new row or a row) holds the row's object, so writes and appends
through it show in the table, as in CPython; the table is then assigned once,
outside any loop (a row name must not outlive its table).  ``T[i].append(x)``
writes into room after the object's items, moving a full object to the end of
``V`` with as much room again (``table_rewrite``).  Every other use leaves the
function as it was (it falls back); the reasons are kept for the message.
"""
from __future__ import annotations

import ast
import copy

from .table_rewrite import PREFIX, REDUCE as _REDUCE, Rewrite, parts


def label(name: str):
    """How messages name a part of a table, else None."""
    if not name.startswith(PREFIX):
        return None
    base, _, part = name[len(PREFIX):].rpartition("_")
    what = {"v": "its items", "s": "its row starts", "n": "its row lengths",
            "o": "its rows", "c": "its rows' room"}.get(part)
    return f"the list of lists '{base}' ({what})" if what else None


__all__ = ["PREFIX", "apply", "label", "parts", "rewrite"]


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
        self.shared = set()     # tables whose rows may not be their own new objects

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
                        self.row_like(self.parents[p].args[0]):
                    out.add(name)
        return out

    def row_like(self, x) -> bool:
        """A new row, or a name assigned one (``rows.append(cur)``)?"""
        return _row_expr(x) or isinstance(x, ast.Name) and any(
            isinstance(n.ctx, ast.Store) and isinstance(self.parents.get(n), ast.Assign)
            and _row_expr(self.parents[n].value) for n in self.names.get(x.id, ()))

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
        self.kept = set()               # list locals put in and used again: row names
        for n in self.names[t]:
            p = self.parents.get(n)
            if isinstance(n.ctx, ast.Store):
                kind = _build(p.value) if isinstance(p, ast.Assign) and \
                    p.targets == [n] else None
                if kind is None:
                    return f"'{t}' is also assigned something other than a new list of lists"
                if kind == "repeated":
                    self.shared.add(t)
                if _mentions(p.value, t):
                    return f"'{t}' is built from itself"
                stores.append(p)
                continue
            if not isinstance(n.ctx, ast.Load):
                return f"'{t}' is deleted"
            why = self.use(t, n, p, aliases)
            if why is not None:
                return why
        for r in self.kept:
            aliases.setdefault(r, [])
        changed = True
        while changed:                  # (prev = cur of a row name: one too)
            changed = False
            for r in list(aliases):
                for x in self.names.get(r, ()):
                    pair = self.paired(x)
                    if isinstance(x.ctx, ast.Load) and pair is not None and \
                            pair[1] is x and isinstance(pair[0], ast.Name) and \
                            pair[0].id not in aliases:
                        aliases[pair[0].id] = []
                        changed = True
        for r, targets in aliases.items():
            if r in self.params or r in self.skip or r in self.aliases or r == t or not any(
                    isinstance(x.ctx, ast.Store) for x in self.names.get(r, ())):
                return f"the row name '{r}' is not a local, or a row of another table"
            if len(stores) != 1 or self.in_loop(stores[0]):
                return f"the row name '{r}' could outlive the table '{t}' (assigned more " \
                    "than once or in a loop)"
            for x in self.names.get(r, ()):
                q = self.parents.get(x)
                pair = self.paired(x)
                if isinstance(x.ctx, ast.Store):
                    v = pair[1] if pair is not None and pair[0] is x else None
                    if x in targets or v is not None and (
                            _row_expr(v) or isinstance(v, ast.Name) and v.id in aliases):
                        continue
                    return f"the row name '{r}' is also assigned something other than a row"
                if not isinstance(x.ctx, ast.Load):
                    return f"the row name '{r}' is deleted"
                if self.put_in(t, x, q) or pair is not None and pair[1] is x and \
                        isinstance(pair[0], ast.Name) and pair[0].id in aliases:
                    continue
                why = self.row_use(x, q, f"the row '{r}'")
                if why is not None:
                    return why
        self.aliases.update((r, t) for r in aliases)
        return None

    def paired(self, x):
        """``(target, value)`` of the name ``x`` in ``a = b`` or at its place in
        ``a, b = c, d``; else None."""
        q = self.parents.get(x)
        if isinstance(q, ast.Assign) and len(q.targets) == 1 and \
                (q.targets[0] is x or q.value is x):
            return q.targets[0], q.value
        stmt = self.parents.get(q)
        if isinstance(q, ast.Tuple) and isinstance(stmt, ast.Assign) and \
                len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Tuple) and \
                isinstance(stmt.value, ast.Tuple) and \
                len(stmt.targets[0].elts) == len(stmt.value.elts) and \
                not any(isinstance(e, ast.Starred) for e in stmt.value.elts):
            k = q.elts.index(x)
            return stmt.targets[0].elts[k], stmt.value.elts[k]
        return None

    def put_in(self, t, x, q) -> bool:
        """Is the load ``x`` (its parent ``q``) put into the table ``t`` as a row:
        ``t.append(x)``, ``t[i] = x``?"""
        if isinstance(q, ast.Call) and q.args == [x] and isinstance(q.func, ast.Attribute) \
                and q.func.attr == "append" and isinstance(q.func.value, ast.Name) and \
                q.func.value.id == t:
            return True
        return isinstance(q, ast.Assign) and q.value is x and len(q.targets) == 1 and \
            isinstance(q.targets[0], ast.Subscript) and \
            isinstance(q.targets[0].value, ast.Name) and q.targets[0].value.id == t

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
                if self.put_value(t, q.value, q):       # dp[i] = [0] * m, dp[j], row
                    self.shared.add(t)
                    return None
                return f"a row of '{t}' is assigned something other than a row"
            if isinstance(p.slice, ast.Slice) or not isinstance(p.ctx, ast.Load):
                return f"'{t}' is sliced, or a row of it deleted or changed other than " \
                    "through its items, append() or an assignment of a row"
            if self.put_in(t, p, q):
                return None                             # dp[i] = dp[j], dp.append(dp[j])
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
            if self.put_value(t, q.args[0], self.parents[q]):
                return None
            return f"'{t}.append()' of something other than a new row, a row or a list " \
                "local holding only rows"
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

    def put_value(self, t, x, stmt) -> bool:
        """Can ``x`` be put into the table ``t`` as a row by ``stmt``: a new row (a
        new object), a row of ``t`` or a list local (its object: a row name, which
        :meth:`check` verifies), or a list local never used again (its items)?"""
        if _row_expr(x):
            return not (isinstance(x, ast.List) and any(isinstance(e, ast.List)
                                                        for e in x.elts))
        if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name) and \
                x.value.id == t and not isinstance(x.slice, ast.Slice):
            self.shared.add(t)
            return True
        if not isinstance(x, ast.Name):
            return False
        if self.dead_after(x.id, stmt):
            self.dead_rows.add(id(x))
        else:
            self.kept.add(x.id)
            self.shared.add(t)
        return True

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
    r = Rewrite(tables, {a: t for a, t in scan.aliases.items() if t in tables}, dead,
                tables - scan.shared)
    fnode.body = r.block(fnode.body)
    ast.fix_missing_locations(fnode)
    return fnode, scan.reasons, r.returned


def _all(node):
    return list(ast.walk(node))
