"""Dict locals of numbers, rewritten before the function is built.

A local ``d`` qualifies when every assignment to it is ``d = {}``, ``d = dict()``
or a display ``{k: v, ...}`` and every read of it is one of::

    d[k]   d[k] = v   d[k] += v   del d[k]   k in d   k not in d   len(d)
    d.get(k, default)   d.pop(k)   d.pop(k, default)   d.setdefault(k, v)
    d.clear()   for k in d   for .. in d.keys() / d.values() / d.items()
    sum(d.values())   max(d, key=d.get)   min(d, key=d.get)   if d:   not d
    d.popitem()   e = d.copy()   e = dict(d)   d.update(e)   x = list(d)
    x = sorted(d.values())   return sorted(d)   return d   return d, x

(``default`` a constant or a name: Python evaluates it before the lookup).  The
dict becomes hidden locals -- ``$d.K``, ``$d.V`` (keys and values, in insertion
order), ``$d.I`` (hash index and alive flags), ``$d.S`` (counts) -- and each use a
call of a ``lib/python/dicts`` marker on them, so the rest of hanajit sees arrays
and scalars only.  Every key and value stored is first assigned to ``$d.k`` /
``$d.v``: type inference unifies those, which decides the arrays' dtypes (and
whether the caller gets Python numbers or NumPy scalars back).  Dict
comprehensions are loops by then (``frontend/dict_comprehensions.py``); copies
and ``update`` are ``frontend/dict_copies.py``.

Anything else -- ``e = d`` (an alias), ``f(d)``, a dict argument, a dict in a
nested function, ``for`` ... ``else`` over a dict -- leaves
the dict as it is, and the function falls back naming the construct.
"""
from __future__ import annotations

import ast
import copy

from . import dict_copies
from .dict_copies import dict_arrays, dict_call
from .readonly_lists import declared_elsewhere, scan
from .scopes import is_dict_value

_METHODS = ("get", "pop", "setdefault", "clear", "keys", "values", "items", "popitem",
            "copy", "update")


def _marker_names():
    from ..lib import registry
    return {f"dict.{k}": v for k, v in registry.dict_markers().items()}


def _name(n, ctx=None):
    return ast.Name(n, ctx or ast.Load())


def _const(v):
    return ast.Constant(v)


_is_dict_value = is_dict_value


def _method(node, parents):
    """``(call, attr)`` when ``node`` (a load of the dict) is ``d.attr(...)``."""
    p = parents.get(node)
    if isinstance(p, ast.Attribute) and p.value is node and p.attr in _METHODS:
        q = parents.get(p)
        if isinstance(q, ast.Call) and q.func is p and not q.keywords:
            return q, p.attr
    return None, None


def _simple(e) -> bool:
    """An expression evaluated before a lookup or after it alike."""
    return isinstance(e, (ast.Constant, ast.Name)) or (
        isinstance(e, ast.UnaryOp) and isinstance(e.operand, ast.Constant))


class Uses:
    """Why a dict local is not compiled (a reason), or the ways it is used."""

    def __init__(self, fn, resolve_global):
        ctx, self.stores, self.loads = scan(fn, resolve_global)
        self.parents = ctx.parents
        self.resolve = resolve_global
        self.fn = fn

    kind = "dict"

    def problem(self, name, node) -> str:
        """'' when this load of the local ``name`` is a supported use, else why
        not: in a nested scope or a prange loop, or :meth:`use_problem`."""
        return self.scope_problem(name, node) or self.use_problem(
            name, node, self.parents.get(node), getattr(node, "lineno", 0))

    def use_problem(self, name, node, p, line) -> str:
        """Why this load ``node`` of dict ``name`` (its parent ``p``) is not
        compiled, or ''."""
        parents = self.parents
        if isinstance(p, ast.Subscript) and p.value is node:
            if isinstance(p.slice, ast.Slice):
                return f"a slice of dict '{name}' (line {line})"
            if isinstance(p.slice, ast.Constant) and \
                    not isinstance(p.slice.value, (int, float)) or \
                    isinstance(p.slice, (ast.Tuple, ast.JoinedStr)):
                return (f"dict '{name}' indexed by {ast.unparse(p.slice)[:20]} (only "
                        f"numbers are compiled as keys; line {line})")
            q = parents.get(p)
            if isinstance(p.ctx, ast.Store):
                if isinstance(q, ast.Assign) and q.targets == [p] or \
                        isinstance(q, ast.AugAssign) and q.target is p:
                    return ""
                return f"dict '{name}' item stored by this statement (line {line})"
            return ""                                   # d[k], del d[k]
        call, attr = _method(node, parents)
        if call is not None:
            return self._method_problem(name, call, attr, line)
        if self.in_or_len(node, p):
            return ""
        if isinstance(p, ast.Call) and dict_copies.listed(
                parents.get(p), self.resolve) is node:
            return ""                                   # x = list(d), return sorted(d)
        if dict_copies.copy_source(parents.get(p), self.resolve) == name \
                or dict_copies.update_of(parents.get(p)) is not None \
                and parents.get(p).value.args == [node]:
            return ""                                   # e = dict(d), x.update(d)
        if isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and \
                self.resolve(p.func.id) in (max, min) and p.args == [node] and \
                len(p.keywords) == 1 and p.keywords[0].arg == "key" and \
                _is_get(p.keywords[0].value, name):
            return ""                                   # max(d, key=d.get), min
        if isinstance(p, ast.Attribute) and p.attr == "get" and p.value is node:
            q = parents.get(p)
            if isinstance(q, ast.keyword) and q.arg == "key":
                return ""
        if isinstance(p, ast.For) and p.iter is node:
            return "" if not p.orelse else f"for ... else over dict '{name}' (line {line})"
        if isinstance(p, (ast.If, ast.While, ast.IfExp, ast.Assert)) and p.test is node \
                or isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
            return ""
        if isinstance(p, ast.Return) or isinstance(p, ast.Tuple) and \
                isinstance(parents.get(p), ast.Return):
            return ""
        what = type(p).__name__ if p is not None else "expression"
        return (f"dict '{name}' used other than by its own operations (line {line}, "
                f"in a {what}: aliased, passed on or kept elsewhere)")

    def assigned_values(self, targets) -> list:
        """The value each store ``targets`` assigns (``x = v``, ``x: T = v``), or
        None for another store (a loop target, a tuple's item ...)."""
        values = []
        for t in targets:
            p = self.parents.get(t)
            ok = isinstance(p, ast.Assign) and p.targets == [t] or \
                isinstance(p, ast.AnnAssign) and p.target is t and p.value is not None
            values.append(p.value if ok else None)
        return values

    def scope_problem(self, name, node) -> str:
        """Why this read of the local ``name`` (a ``self.kind``: "dict", "set") is
        not compiled: in a nested scope or a prange loop; or ''."""
        line, kind = getattr(node, "lineno", 0), self.kind
        for anc in self._ancestors(node):
            if isinstance(anc, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef,
                                ast.SetComp, ast.DictComp)):
                return f"{kind} '{name}' read in a nested scope (line {line})"
            if isinstance(anc, ast.For) and is_prange(anc.iter):
                return f"{kind} '{name}' used in a prange loop (line {line})"
        return ""

    def in_or_len(self, node, p) -> bool:
        """Is the read ``node`` (its parent ``p``) ``x in d``, ``x not in d`` or
        ``len(d)``?"""
        return isinstance(p, ast.Compare) and len(p.ops) == 1 and \
            p.comparators[0] is node and isinstance(p.ops[0], (ast.In, ast.NotIn)) or \
            isinstance(p, ast.Call) and p.args == [node] and not p.keywords and \
            isinstance(p.func, ast.Name) and self.resolve(p.func.id) is len

    def rebound_while_iterated(self, name, target) -> str:
        """Why ``name = {...}`` at ``target`` is not compiled: inside a loop over
        the dict ``name`` (the loop goes on over the old dict), or ''."""
        for anc in self._ancestors(target):
            it = anc.iter if isinstance(anc, ast.For) else None
            if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute):
                it = it.func.value
            if isinstance(it, ast.Name) and it.id == name:
                return (f"dict '{name}' assigned a new dict inside a loop over it "
                        f"(line {target.lineno})")
        return ""

    def _method_problem(self, name, call, attr, line) -> str:
        parents = self.parents
        n = len(call.args)
        q = parents.get(call)
        where = f"{name}.{attr}() (line {line})"
        if attr == "get":
            if n == 2 and _simple(call.args[1]):
                return ""
            return f"{where}: only d.get(k, default) with a constant or a name default"
        if attr == "pop":
            if n == 1 or n == 2 and _simple(call.args[1]):
                return ""
            return f"{where}: only d.pop(k) or d.pop(k, default) with a simple default"
        if attr == "setdefault":
            if n == 2 and (isinstance(q, ast.Expr) or isinstance(q, ast.Assign)
                           and q.value is call):
                return ""
            return f"{where}: only as a statement or an assignment's value"
        if attr == "clear":
            return "" if n == 0 and isinstance(q, ast.Expr) else f"{where}"
        if attr == "popitem":
            return "" if n == 0 else f"{where}"
        if attr == "copy":
            return "" if dict_copies.copy_source(q, self.resolve) == name else \
                f"{where}: only as the value of an assignment to a name"
        if attr == "update":
            return "" if dict_copies.update_of(q) is not None else \
                f"{where}: only d.update(other) of a dict local, as a statement"
        if n == 0 and isinstance(q, ast.For) and q.iter is call and not q.orelse:
            return ""                                   # for k, v in d.items()
        if attr == "values" and n == 0 and isinstance(q, ast.Call) and \
                q.args == [call] and not q.keywords and isinstance(q.func, ast.Name) \
                and self.resolve(q.func.id) is sum:
            return ""
        if attr in ("keys", "values") and n == 0 and isinstance(q, ast.Call) and \
                dict_copies.listed(parents.get(q), self.resolve) is call:
            return ""                                   # x = list(d.values())
        return (f"{where}: keys/values/items only in a for loop, sum(d.values()) and "
                "x = list(d.keys()/values()) or sorted(...) (assigned or returned)")

    def _ancestors(self, node):
        p = self.parents.get(node)
        while p is not None and p is not self.fn:
            yield p
            p = self.parents.get(p)


def _is_get(e, name) -> bool:
    return isinstance(e, ast.Attribute) and e.attr == "get" and \
        isinstance(e.value, ast.Name) and e.value.id == name


def is_prange(it) -> bool:
    f = it.func if isinstance(it, ast.Call) else None
    return (isinstance(f, ast.Name) and f.id == "prange") or \
        (isinstance(f, ast.Attribute) and f.attr == "prange")


def find(fn, params, resolve_global) -> tuple[set, dict]:
    """``(names, reasons)``: the dict locals compiled, and for each other local
    assigned a dict, why it is not."""
    uses = Uses(fn, resolve_global)
    scoped = declared_elsewhere(fn)
    names, reasons = set(), {}
    for name, targets in uses.stores.items():
        values = uses.assigned_values(targets)
        if not any(v is not None and (_is_dict_value(v) or
                                      dict_copies.copy_source(p, resolve_global) in
                                      uses.stores) for v, p in zip(values, (
                uses.parents.get(t) for t in targets))):
            continue
        if resolve_global("dict") is not dict and any(
                isinstance(v, ast.Call) for v in values):
            continue                                    # (``dict`` is another name)
        if name in params or name in scoped:
            reasons[name] = f"dict '{name}' is a parameter or used by a nested scope"
            continue
        copied = [dict_copies.copy_source(uses.parents.get(t), resolve_global)
                  for t in targets]
        if not all(v is not None and (_is_dict_value(v) or c is not None)
                   for v, c in zip(values, copied)):
            reasons[name] = f"'{name}' is assigned a dict and something else"
            continue
        problems = [_not_numbers(name, v) for v in values]
        problems += [uses.problem(name, n) for n in uses.loads.get(name, [])]
        problems += [uses.rebound_while_iterated(name, t) for t in targets]
        problems = [p for p in problems if p]
        if problems:
            reasons[name] = problems[0]
        else:
            names.add(name)
    dict_copies.drop_unpaired(uses, names, reasons, resolve_global)
    return names, reasons


def _not_numbers(name, display) -> str:
    """Why the display assigned to ``name`` is not a dict of numbers (a string,
    None or tuple constant as a key or value), or ''."""
    if not isinstance(display, ast.Dict):
        return ""
    for e in display.keys + display.values:
        if isinstance(e, ast.Constant) and not isinstance(e.value, (int, float, complex)) \
                or isinstance(e, (ast.Tuple, ast.List, ast.Dict, ast.JoinedStr)):
            return (f"dict '{name}' holds {ast.unparse(e)[:20]} (only numbers are "
                    "compiled as keys and values)")
    return ""


class Rewriter(ast.NodeTransformer):
    """Rewrites the uses of the dict locals ``names`` (expressions) and builds the
    statements of their assignments (:meth:`stmts`)."""

    def __init__(self, names):
        self.names = names
        self.n = 0
        self.returns = []           # per return: None or [(position, dict name)]

    def arrays(self, d, ctx=None):
        return dict_arrays(d, isinstance(ctx, ast.Store))

    def a(self, d, x):
        return _name(f"${d}_{x}")

    def tmp(self, hint):
        self.n += 1
        return f"$dict_{hint}{self.n}"

    def is_dict(self, e) -> bool:
        return isinstance(e, ast.Name) and e.id in self.names

    # ---------------------------------------------------------------- expressions
    def visit_Subscript(self, e):
        if self.is_dict(e.value) and isinstance(e.ctx, ast.Load):
            d = e.value.id
            return ast.copy_location(dict_call("getitem", *self.arrays(d), self.visit(e.slice),
                                           _const(f"${d}_v")), e)
        return self.generic_visit(e)

    def visit_Call(self, e):
        f = e.func
        if isinstance(f, ast.Attribute) and self.is_dict(f.value):
            d, attr = f.value.id, f.attr
            K, V, I, S = self.arrays(d)
            args = [self.visit(a) for a in e.args]
            vn = _const(f"${d}_v")
            if attr == "get" or attr == "pop" and len(args) == 2:
                hit = dict_call("last", V, S, vn) if attr == "get" else \
                    dict_call("take", K, V, I, S, vn)
                test = ast.Compare(dict_call("find", copy.deepcopy(K), copy.deepcopy(I),
                                         copy.deepcopy(S), args[0]),
                                   [ast.GtE()], [_const(0)])
                return ast.copy_location(ast.IfExp(test, hit, args[1]), e)
            if attr == "pop":
                return ast.copy_location(dict_call("pop", K, V, I, S, args[0], vn), e)
            if attr == "popitem":       # (the key's call first: it removes the item)
                pos = dict_call("popitem", K, I, S)
                return ast.copy_location(ast.Tuple([
                    dict_call("key_at", copy.deepcopy(K), pos, _const(f"${d}_k")),
                    dict_call("last", V, copy.deepcopy(S), vn)], ast.Load()), e)
        if isinstance(f, ast.Name) and len(e.args) == 1 and self.is_dict(e.args[0]):
            d = e.args[0].id
            if f.id == "len":
                return ast.copy_location(dict_call("len", self.a(d, "S")), e)
            if f.id in ("max", "min"):
                return ast.copy_location(dict_call("arg" + f.id, *self.arrays(d),
                                               _const(f"${d}_k")), e)
        if isinstance(f, ast.Name) and f.id == "sum" and len(e.args) == 1:
            a = e.args[0]
            if isinstance(a, ast.Call) and isinstance(a.func, ast.Attribute) and \
                    self.is_dict(a.func.value) and a.func.attr == "values":
                d = a.func.value.id
                return ast.copy_location(dict_call("sum", self.a(d, "V"), self.a(d, "I"),
                                               self.a(d, "S"), _const(f"${d}_v")), e)
        return self.generic_visit(e)

    def visit_Compare(self, e):
        if len(e.ops) == 1 and isinstance(e.ops[0], (ast.In, ast.NotIn)) and \
                self.is_dict(e.comparators[0]):
            d = e.comparators[0].id
            found = dict_call("find", self.a(d, "K"), self.a(d, "I"), self.a(d, "S"),
                          self.visit(e.left))
            op = ast.GtE() if isinstance(e.ops[0], ast.In) else ast.Lt()
            return ast.copy_location(ast.Compare(found, [op], [_const(0)]), e)
        return self.generic_visit(e)

    def truth(self, e):
        if self.is_dict(e):
            return ast.copy_location(ast.Compare(dict_call("len", self.a(e.id, "S")),
                                                 [ast.NotEq()], [_const(0)]), e)
        return self.visit(e)

    def visit_UnaryOp(self, e):
        if isinstance(e.op, ast.Not):
            return ast.copy_location(ast.UnaryOp(ast.Not(), self.truth(e.operand)), e)
        return self.generic_visit(e)

    def visit_IfExp(self, e):
        return ast.copy_location(ast.IfExp(self.truth(e.test), self.visit(e.body),
                                           self.visit(e.orelse)), e)

    # ---------------------------------------------------------------- statements
    def stmts(self, body) -> list:
        out = []
        for s in body:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s) -> list:
        out = self._stmt(s)
        for x in out:
            ast.copy_location(x, s)
            ast.fix_missing_locations(x)
        return out

    def store(self, d, key, value) -> list:
        """``$d_v = value; $d_k = key``, a resize when the key is new and no entry
        is left, the value put (Python evaluates the value of ``d[k] = v`` first)."""
        K, V, I, S = self.arrays(d)
        resize = ast.Assign([ast.Tuple(self.arrays(d, ast.Store())[:3], ast.Store())],
                            dict_call("resize", *self.arrays(d)))
        return [ast.Assign([_name(f"${d}_v", ast.Store())], value),
                ast.Assign([_name(f"${d}_k", ast.Store())], key),
                ast.If(dict_call("room", K, I, S, self.a(d, "k")), [resize], []),
                ast.Expr(dict_call("put", *self.arrays(d), self.a(d, "k"), self.a(d, "v")))]

    def new(self, d, n) -> ast.stmt:
        return ast.Assign([ast.Tuple(self.arrays(d, ast.Store()), ast.Store())],
                          dict_call("new", _const(f"${d}_k"), _const(f"${d}_v"), _const(n)))

    def _stmt(self, s) -> list:
        if isinstance(s, ast.AnnAssign) and self.is_dict(s.target):
            source = dict_copies.copy_source(s, None)      # e: dict[int, int] = d.copy()
            if source is not None:
                return dict_copies.copy(self, s.target.id, source, s.value)
            return self.display(s.target.id, s.value)      # d: dict[int, float] = {}
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            t = s.targets[0]
            if self.is_dict(t):
                source = dict_copies.copy_source(s, None)
                if source is not None:                  # e = d.copy(), e = dict(d)
                    return dict_copies.copy(self, t.id, source, s.value)
                return self.display(t.id, s.value)
            if isinstance(t, ast.Subscript) and self.is_dict(t.value):
                return self.store(t.value.id, self.visit(t.slice), self.visit(s.value))
            if isinstance(t, ast.Name) and dict_copies.listed(s, None) is not None:
                return dict_copies.listed_stmts(self, s, t.id)
            setdef = self.setdefault(s.value)
            if setdef is not None:
                return setdef[0] + [ast.Assign([self.visit(t)], setdef[1])]
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Subscript) and \
                self.is_dict(s.target.value):
            d = s.target.value.id
            key = self.tmp("key")
            got = dict_call("getitem", *self.arrays(d), _name(key), _const(f"${d}_v"))
            return [ast.Assign([_name(key, ast.Store())], self.visit(s.target.slice))] + \
                self.store(d, _name(key), ast.BinOp(got, s.op, self.visit(s.value)))
        if isinstance(s, ast.Delete):
            out = []
            for t in s.targets:
                if isinstance(t, ast.Subscript) and self.is_dict(t.value):
                    d = t.value.id
                    out.append(ast.Expr(dict_call("delete", self.a(d, "K"), self.a(d, "I"),
                                              self.a(d, "S"), self.visit(t.slice))))
                else:
                    out.append(ast.Delete([t]))
            return out
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and \
                isinstance(s.value.func, ast.Attribute) and self.is_dict(s.value.func.value):
            d, attr = s.value.func.value.id, s.value.func.attr
            if attr == "clear":
                return [self.new(d, 0)]
            if attr == "setdefault":
                return self.setdefault(s.value)[0]
            if attr == "update":
                return dict_copies.update(self, d, s.value.args[0].id)
        if isinstance(s, ast.For):
            loop = self.loop(s)
            if loop is not None:
                return loop
        if isinstance(s, ast.Return) and dict_copies.listed(s, None) is not None:
            return dict_copies.listed_stmts(self, s, self.tmp("list"))
        if isinstance(s, ast.Return) and s.value is not None:
            return [self.returned(s)]
        return [self.compound(s)]

    def compound(self, s):
        """``s`` with its expressions rewritten and its bodies rebuilt."""
        for field, value in ast.iter_fields(s):
            if field in ("body", "orelse", "finalbody") and isinstance(value, list):
                setattr(s, field, self.stmts(value))
            elif field == "handlers":
                for h in value:
                    h.body = self.stmts(h.body)
            elif field == "test":
                setattr(s, field, self.truth(value))
            elif isinstance(value, ast.AST):
                setattr(s, field, self.visit(value))
            elif isinstance(value, list):
                setattr(s, field, [self.visit(v) if isinstance(v, ast.AST) else v
                                   for v in value])
        return s

    def display(self, d, value) -> list:
        keys = value.keys if isinstance(value, ast.Dict) else []
        vals = value.values if isinstance(value, ast.Dict) else []
        out, items = [], []
        for k, v in zip(keys, vals):          # every item evaluated first, in order
            pair = []
            for e in (k, v):
                e = self.visit(e)
                if not isinstance(e, ast.Constant):
                    t = self.tmp("item")
                    out.append(ast.Assign([_name(t, ast.Store())], e))
                    e = _name(t)
                pair.append(e)
            items.append(pair)
        out.append(self.new(d, len(items)))
        for k, v in items:
            out.extend(self.store(d, k, v))
        return out

    def setdefault(self, call):
        """``(statements, value)`` of ``d.setdefault(k, v)``, or None."""
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and call.func.attr == "setdefault" and self.is_dict(call.func.value)):
            return None
        d = call.func.value.id
        k, v = self.tmp("key"), self.tmp("value")
        K, V, I, S = self.arrays(d)
        test = ast.Compare(dict_call("find", K, I, S, _name(k)), [ast.Lt()], [_const(0)])
        stmts = [ast.Assign([_name(k, ast.Store())], self.visit(call.args[0])),
                 ast.Assign([_name(v, ast.Store())], self.visit(call.args[1])),
                 ast.If(test, self.store(d, _name(k), _name(v)), [])]
        return stmts, dict_call("last", self.a(d, "V"), self.a(d, "S"), _const(f"${d}_v"))

    def loop(self, s):
        """``for target in d`` (``d.keys()``, ``d.values()``, ``d.items()``) as
        CPython's dict iterator, or None for another loop."""
        it, what = s.iter, "keys"
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and \
                self.is_dict(it.func.value):
            it, what = it.func.value, it.func.attr
        if not self.is_dict(it):
            return None
        d = it.id
        K, V, I, S = self.arrays(d)
        pos, used, left = self.tmp("pos"), self.tmp("used"), self.tmp("left")
        key = dict_call("key_at", K, _name(pos), _const(f"${d}_k"))
        value = dict_call("value_at", V, _name(pos), _const(f"${d}_v"))
        item = key if what == "keys" else value if what == "values" else \
            ast.Tuple([key, value], ast.Load())
        body = [ast.Assign([_name(pos, ast.Store())],
                           dict_call("next", I, S, _name(pos), _name(used), _name(left))),
                ast.If(ast.Compare(_name(pos), [ast.Lt()], [_const(0)]), [ast.Break()], []),
                ast.Assign([_name(left, ast.Store())],
                           ast.BinOp(_name(left), ast.Sub(), _const(1))),
                ast.Assign([s.target], item),
                ast.Assign([_name(pos, ast.Store())],
                           ast.BinOp(_name(pos), ast.Add(), _const(1)))]
        return [ast.Assign([_name(pos, ast.Store())], _const(0)),
                ast.Assign([_name(used, ast.Store())], dict_call("len", self.a(d, "S"))),
                ast.Assign([_name(left, ast.Store())], _name(used)),
                ast.While(_const(True), body + self.stmts(s.body), [])]

    def returned(self, s):
        v = s.value
        if self.is_dict(v):
            self.returns.append([(None, v.id)])
            s.value = dict_call("result", *self.arrays(v.id))
            return s
        if isinstance(v, ast.Tuple) and any(self.is_dict(e) for e in v.elts):
            self.returns.append([(k, e.id) for k, e in enumerate(v.elts) if self.is_dict(e)])
            s.value = ast.Tuple([dict_call("result", *self.arrays(e.id)) if self.is_dict(e)
                                 else self.visit(e) for e in v.elts], ast.Load())
            return s
        self.returns.append(None)
        s.value = self.visit(v)
        return s


def rewrite(fn, params, resolve_global, injected, found=None):
    """``(fnode, names, reasons, returns)``: ``fn`` with its dict locals rewritten
    (a copy; ``fn`` itself when it has none), which they are, why the others are
    not compiled, and the dicts each ``return`` gives (:class:`Rewriter`).
    ``found``: whether ``fn`` assigns a dict at all, when the caller knows
    (``scopes.survey``)."""
    if not (any(isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None
                and _is_dict_value(s.value) for s in ast.walk(fn))
            if found is None else found):
        return fn, set(), {}, []
    names, reasons = find(fn, params, resolve_global)
    if not names:
        return fn, names, reasons, []
    fn = copy.deepcopy(fn)
    injected.update(_marker_names())
    r = Rewriter(names)
    fn.body = r.stmts(fn.body)
    ast.fix_missing_locations(fn)
    return fn, names, reasons, r.returns


def mark_returns(b, fn, returns) -> None:
    """``fn.dict_returns``: ``(position, key carrier, value carrier)`` of each dict
    the caller gets (position None: the result itself is the dict); a fallback
    when the returns give dicts differently."""
    if not any(returns):
        return
    shapes = {tuple((k, f"${d}_k", f"${d}_v") for k, d in r) if r else None
              for r in returns}
    if len(shapes) > 1:
        b.fail(b.fnode, "dict returned", "the function's returns give different dicts "
               "or a dict and something else")
    if b.returns.get("list") or b.returns.get("tuple"):
        b.fail(b.fnode, "dict returned", "beside a list")
    fn.dict_returns = shapes.pop()
    fn.returns_list = True      # (boxed in Python: lib/python/dict_results)
