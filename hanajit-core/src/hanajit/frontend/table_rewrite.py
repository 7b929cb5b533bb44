"""The rewrite of the lists of lists that ``frontend/list_tables.py`` found, into
statements on their four growable lists.

A table ``T`` is a store of row lists (objects) and the table's rows, each the
number of an object: ``V`` (``__hj_ll_T_v``) holds the objects' items, object by
object in the order they were made, ``S`` (``_s``) and ``L`` (``_n``) each
object's start among them and length, and ``R`` (``_o``) the object each row of
the table is::

    dp = [[0] * m] * n         V = []; S = []; L = []; R = []
                               t = [0] * m; s = len(V); V.extend(t)
                               S.append(s); L.append(len(V) - s)
                               for c in range(n): R.append(len(S) - 1)
    dp[i][j] = v               V[S[R[i]] + store(L[R[i]], j)] = v
    dp[i] = dp[j]              o = R[j]; R[store(len(R), i)] = o
    row = dp[i]                row_r = R[index(len(R), i)]     (a row name: an object)
    dp[i].append(x)            o = R[index(len(R), i)]
                               if L[o] == C[o]: (full: moved to the end of V
                                   unless there, and room added: C[o] = 2 L[o] + 1)
                               V[S[o] + L[o]] = x; L[o] += 1

So rows that are one list in CPython (``[[0] * m] * n``, ``dp[i] = dp[j]``,
``rows.append(cur)`` of a row name then changed through it) are one object: a
write or an append through one shows in all.  An object's place in ``V`` holds
``C[o]`` items (``_c``: its length when made); an append into a full one moves
its items to the end of ``V`` (unless they are last there) and adds as much room
again, so appends cost O(1) amortised, as CPython's (inserting in place moved
every later object: a table of rows grown one by one was quadratic), and the
places an object left stay unused (at most twice its size in all).  A row
assigned a new list makes a new object; the old one stays (a row name or a loop
may still hold it, as in CPython).
"""
from __future__ import annotations

import ast
import copy

PREFIX = "__hj_ll_"
REDUCE = ("sum", "min", "max", "any", "all")


def parts(t):
    """The table ``t``'s items, object starts, object lengths and rows' objects."""
    return PREFIX + t + "_v", PREFIX + t + "_s", PREFIX + t + "_n", PREFIX + t + "_o"


def capacity(t):
    """The table ``t``'s object capacities: the items each object's place in
    ``V`` holds room for (its length, or more once appended to)."""
    return PREFIX + t + "_c"


def rvar(r):
    """The local holding the object of the row name ``r``."""
    return PREFIX + r + "_r"


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


def _method(obj, name, *args):
    return _expr(ast.Call(ast.Attribute(_n(obj), name, ast.Load()), list(args), []))


def _len(name):
    return _call("len", _n(name))


class Rewrite(ast.NodeTransformer):
    """``tables``: the tables; ``aliases``: row name -> its table; ``dead``: the
    ids of list locals appended (or assigned as a row) and never used again;
    ``direct``: the tables whose row ``i`` is always object ``i`` (only new rows
    appended: their rows are read without ``R``)."""

    def __init__(self, tables, aliases, dead, direct=frozenset()):
        self.tables, self.aliases, self.dead = tables, aliases, dead
        self.direct = direct
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
        """``(table, object expression)`` of a row ``T[i]`` / a row name, else None."""
        if isinstance(e, ast.Name) and e.id in self.aliases:
            return self.aliases[e.id], _n(rvar(e.id))
        if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and \
                e.value.id in self.tables and not isinstance(e.slice, ast.Slice):
            t = e.value.id
            if t in self.direct:                # (S[i], L[i]: checked as R[i] is)
                return t, self.visit(e.slice)
            return t, _sub(parts(t)[3], self.visit(e.slice))
        return None

    def cell(self, rowref, j, how, store=False):
        t, o = rowref
        v, s, n, _ = parts(t)
        index = _add(_sub(s, o), _call(PREFIX + how, _sub(n, copy.deepcopy(o)), j))
        out = _sub(v, index, store)
        out.hj_checked = True       # (in range: a start plus a checked offset)
        return out

    def items(self, rowref):
        """The row's items: ``V[S[o]:S[o] + L[o]]``."""
        t, o = rowref
        v, s, n, _ = parts(t)
        start = _sub(s, o)
        return _sub(v, ast.Slice(start, _add(copy.deepcopy(start),
                                             _sub(n, copy.deepcopy(o))), None))

    def checked(self, rowref_node):
        """A statement-level row: its object, the row checked once, into a
        temporary (a row name: its local)."""
        t, o = self.row(rowref_node)
        if isinstance(rowref_node, ast.Name):
            return t, o, []
        r = parts(t)[3]
        k = self.tmp("r")
        index = _call(PREFIX + "index", _len(r), self.visit(rowref_node.slice))
        return t, _n(k), [_assign(k, index if t in self.direct else _sub(r, index))]

    def object_of(self, t, x):
        """``(statements, object)`` of a value put into the table ``t`` as a row:
        a row of it or a row name (that object), else a new row (a new object)."""
        if id(x) in self.dead:              # rows.append(row): row is never used again
            x = ast.Name(x.id, ast.Load())
        elif self.row(x) is not None:
            _, o, pre = self.checked(x)
            if not pre:
                k = self.tmp("r")
                pre, o = [_assign(k, o)], _n(k)
            return pre, o
        return self.new_object(t, x)

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
                return _len(parts(a.id)[3])
            rowref = self.row(a)
            if rowref is not None and f.id == "len":
                return _sub(parts(rowref[0])[2], rowref[1])
            if rowref is not None and f.id in REDUCE:
                return ast.Call(f, [self.items(rowref)], [])
        return self.generic_visit(e)

    def visit_Name(self, e):
        if isinstance(e.ctx, ast.Load) and e.id in self.tables:
            return _n(parts(e.id)[3])           # (its truth: the rows' truth)
        return e

    def visit_comprehension(self, g):
        it = g.iter
        if isinstance(it, ast.Name) and it.id in self.tables:
            g.target = _n(rvar(g.target.id), True)
            g.iter = _n(parts(it.id)[3])
        elif _enumerated(it, self.tables):
            g.target.elts[1] = _n(rvar(g.target.elts[1].id), True)
            it.args[0] = _n(parts(it.args[0].id)[3])
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
            pre, o = self.object_of(self.aliases[t.id], s.value)
            return pre + [_assign(rvar(t.id), o)]
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                t.value.id in self.tables:
            return self.replace_row(t.value.id, t.slice, s.value)
        if isinstance(t, ast.Tuple) and isinstance(s.value, ast.Tuple) and any(
                isinstance(x, ast.Name) and x.id in self.aliases for x in t.elts):
            pre, then = [], []          # (the values first, in order; then the names)
            for x, v in zip(t.elts, s.value.elts):
                tmp = self.tmp("e")
                if isinstance(x, ast.Name) and x.id in self.aliases:
                    more, o = self.object_of(self.aliases[x.id], v)
                    pre += more + [_assign(tmp, o)]
                    then.append(_assign(rvar(x.id), _n(tmp)))
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
                pre, o = self.object_of(obj.id, c.args[0])
                return pre + [_method(parts(obj.id)[3], "append", o)]
            if self.row(obj) is not None:
                return self.push(obj, c.args[0])
        return self.generic_visit(s)

    def visit_Return(self, s):
        if isinstance(s.value, ast.Name) and s.value.id in self.tables:
            self.returned = True
            return ast.Return(ast.Tuple([_n(x) for x in parts(s.value.id)], ast.Load()))
        if isinstance(s.value, ast.Tuple) and any(isinstance(x, ast.Name) and x.id in
                                                  self.tables for x in s.value.elts):
            elts, at = [], []           # return best, dp: (best, items, starts, ...)
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
        if isinstance(it, ast.Name) and it.id in self.tables or _enumerated(it, self.tables):
            # for row in T: over the rows' objects (a growable list's loop sees rows
            # appended meanwhile, as CPython's list iterator does)
            if isinstance(it, ast.Name):
                s.target, s.iter = _n(rvar(s.target.id), True), _n(parts(it.id)[3])
            else:
                s.target.elts[1] = _n(rvar(s.target.elts[1].id), True)
                it.args[0] = _n(parts(it.args[0].id)[3])
                it.args[1:] = [self.visit(x) for x in it.args[1:]]
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
            return s
        if self.row(copy.deepcopy(it)) is None:
            return self.generic_visit(s)
        table, o, pre = self.checked(it)
        if isinstance(it, ast.Name):            # for v in row: the object it holds now
            r = self.tmp("r")
            pre, o = [_assign(r, o)], _n(r)
        k = self.tmp("k")
        v, st, n, _ = parts(table)
        item = [_assign(self.visit(s.target), _sub(v, _add(_sub(st, copy.deepcopy(o)),
                                                        _n(k))))]
        body = item + [ast.AugAssign(_n(k, True), ast.Add(), ast.Constant(1))] + \
            self.block(s.body)
        test = ast.Compare(_n(k), [ast.Lt()], [_sub(n, o)])
        loop = ast.While(test=test, body=body, orelse=self.block(s.orelse))
        return [ast.copy_location(x, s) for x in pre + [_assign(k, ast.Constant(0)), loop]]

    # -- building
    def build(self, t, value):
        v, s, n, r = parts(t)
        out = [_assign(x, ast.List([], ast.Load())) for x in (v, s, n, r, capacity(t))]
        if isinstance(value, ast.ListComp):
            comp = _renamed(value, self.tmp("c"))
            body = self.add_row(t, comp.elt)
            for g in reversed(comp.generators):
                for cond in reversed(g.ifs):
                    body = [ast.If(test=self.visit(cond), body=body, orelse=[])]
                body = [ast.For(target=g.target, iter=self.visit(g.iter), body=body,
                                orelse=[])]
            return out + body
        if isinstance(value, ast.BinOp):        # [[0] * m] * n: the same objects again
            shown, times = (value.left, value.right) if isinstance(value.left, ast.List) \
                else (value.right, value.left)
            if times is value.left:             # (n * [[0] * m]: n evaluated first)
                first = self.tmp("c")
                out.append(_assign(first, self.visit(times)))
                times = _n(first)
            objects = []
            for row in shown.elts:
                more, o = self.new_object(t, row)
                keep = self.tmp("o")
                out += more + [_assign(keep, o)]
                objects.append(keep)
            c = self.tmp("c")
            out.append(ast.For(target=_n(c, True), iter=_call("range", self.visit(times)),
                               body=[_method(r, "append", _n(o)) for o in objects],
                               orelse=[]))
            return out
        for row in value.elts:
            out += self.add_row(t, row)
        return out

    def new_object(self, t, row):
        """``(statements, object)``: a new row list of ``t`` -- its items put
        after all others (evaluated before anything changes) -- its number."""
        v, s, n, _ = parts(t)
        st = self.tmp("s")
        row = self.visit(row)
        pre = []
        if not isinstance(row, (ast.List, ast.Name)):   # [v] * k, a comprehension
            tmp = self.tmp("t")
            pre = [_assign(tmp, row)]
            row = _n(tmp)
        out = pre + [_assign(st, _len(v))]
        if not (isinstance(row, ast.List) and not row.elts):
            out.append(_method(v, "extend", row))
        out += [_method(s, "append", _n(st)),
                _method(n, "append", ast.BinOp(_len(v), ast.Sub(), _n(st))),
                _method(capacity(t), "append", ast.BinOp(_len(v), ast.Sub(), _n(st)))]
        return out, ast.BinOp(_len(s), ast.Sub(), ast.Constant(1))

    def add_row(self, t, row):
        """Append the new row ``row``."""
        out, o = self.new_object(t, row)
        return out + [_method(parts(t)[3], "append", o)]

    def replace_row(self, t, index, x):
        """``T[i] = x``: ``x`` first (a new row's items put after all others, or
        the object of a row), as CPython evaluates it, then row ``i`` that object."""
        r = parts(t)[3]
        out, o = self.object_of(t, x)
        keep, k = self.tmp("o"), self.tmp("k")
        return out + [_assign(keep, o),
                      _assign(k, _call(PREFIX + "store", _len(r), self.visit(index))),
                      _assign(_sub(r, _n(k), True), _n(keep))]

    def push(self, obj, x):
        """``T[i].append(x)``: into the room after the object's items; a full
        object moved to the end of ``V`` (unless there) and given as much room
        again (the module docstring)."""
        table, o, pre = self.checked(obj)
        v, s, n, _ = parts(table)
        c = capacity(table)
        r = self.tmp("r")
        pre = pre + [_assign(r, o)]
        xv, q, st = self.tmp("x"), self.tmp("q"), self.tmp("s")

        def at(name):
            return _sub(name, _n(r))

        def differs(a, b):
            return ast.Compare(a, [ast.NotEq()], [b])
        move = ast.If(
            test=differs(_add(at(s), at(c)), _len(v)),
            body=[_assign(st, _len(v)),
                  ast.For(target=_n(q, True), iter=_call("range", at(n)),
                          body=[ast.Expr(ast.Call(ast.Attribute(_n(v), "append", ast.Load()),
                                                  [_sub(v, _add(at(s), _n(q)))], []))],
                          orelse=[]),
                  _assign(_sub(s, _n(r), True), _n(st))],
            orelse=[])
        room = ast.For(target=_n(q, True),
                       iter=_call("range", _add(at(n), ast.Constant(1))),
                       body=[ast.Expr(ast.Call(ast.Attribute(_n(v), "append", ast.Load()),
                                               [_n(xv)], []))],
                       orelse=[])
        full = ast.If(
            test=ast.Compare(at(n), [ast.Eq()], [at(c)]),
            body=[move, room,
                  _assign(_sub(c, _n(r), True),
                          _add(ast.BinOp(ast.Constant(2), ast.Mult(), at(n)),
                               ast.Constant(1)))],
            orelse=[])
        return pre + [
            _assign(xv, self.visit(x)), full,
            _assign(_sub(v, _add(at(s), at(n)), True), _n(xv)),
            ast.AugAssign(_sub(n, _n(r), True), ast.Add(), ast.Constant(1))]


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
