"""``range`` objects: ``len(range(a, b, s))`` and ``range(...)[k]`` as values, and a
range held in a name (``r = range(n)``; ``for i in r``, ``len(r)``, ``r[k]``).

A rewrite of the ``def`` before it is built (as ``frontend/tolist_calls.py``):

    r = range(a, b, s)          $r_start = a; $r_stop = b; $r_step = s
                                <range_check>($r_start, $r_stop, $r_step)
    for i in r: ...             for i in range($r_start, $r_stop, $r_step): ...
    len(r)                      <range_length>($r_start, $r_stop, $r_step)
    r[k]                        <range_index>($r_start, $r_stop, $r_step, k)

The arguments are evaluated once, in order, and checked where the range is
made: a zero step raises CPython's ValueError there ("range() arg 3 must not be
zero"), non-integer arguments make the function fall back (in CPython,
TypeError).  ``len`` is CPython's length (``ceil((stop - start) / step)``, at
least 0), OverflowError past ``sys.maxsize`` as CPython's; ``r[k]`` counts a negative ``k``
from the end and raises "range object index out of range" outside
(``lib/python/range_values.py``); the items are Python ints.  A name qualifies
when every assignment to it is ``name = range(...)`` (positional arguments) and
every read is ``for ... in name`` (also in ``zip``/``enumerate``/``reversed`` of a
``for``, and a comprehension's ``for``), ``len(name)``, ``name[k]`` (not a slice)
or ``sum(name)``; other reads (``return r``, ``x in r``, ``r[1:]``, passing it on)
leave it a range object, which falls back as before.
"""
from __future__ import annotations

import ast
import builtins
import copy

from ..lib import registry
from .readonly_lists import declared_elsewhere, scan

_ITERATORS = (builtins.zip, builtins.enumerate, builtins.reversed)


def rewrite(fn: ast.FunctionDef, params, resolve_global, injected,
            held=None) -> ast.FunctionDef:
    """``fn`` with its range values rewritten (``fn`` itself when it has none).
    ``held``: :func:`_held_ranges`, when the caller knows (``scopes.survey``)."""
    if resolve_global("range") is not builtins.range or not (
            _held_ranges(fn) if held is None else held):
        return fn
    ctx, stores, loads = scan(fn, resolve_global)
    parents = ctx.parents
    scoped = declared_elsewhere(fn)

    def is_range(node):
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id == "range" and 1 <= len(node.args) <= 3 and not node.keywords \
            and not any(isinstance(a, ast.Starred) for a in node.args)

    def callee(node):
        return resolve_global(node.func.id) if isinstance(node, ast.Call) \
            and isinstance(node.func, ast.Name) else None

    def read_ok(node):
        p = parents.get(node)
        if isinstance(p, (ast.For, ast.comprehension)):
            return p.iter is node
        if isinstance(p, ast.Subscript):
            return p.value is node and isinstance(p.ctx, ast.Load) \
                and not isinstance(p.slice, ast.Slice)
        if isinstance(p, ast.Call) and p.args == [node] and not p.keywords:
            f = callee(p)
            if f is builtins.len or f is builtins.sum:
                return True
            if any(f is g for g in _ITERATORS):
                return looped(p)
            if f is builtins.zip:
                return False
        if isinstance(p, ast.Call) and node in p.args and callee(p) is builtins.zip \
                and not p.keywords:
            return looped(p)
        return False

    def looped(call):
        """Is iterator ``call`` (``zip``/``enumerate``/``reversed``) the iterable of
        a loop, directly or as the argument of others (``enumerate(reversed(r))``)?"""
        q = parents.get(call)
        if isinstance(q, (ast.For, ast.comprehension)):
            return q.iter is call
        if isinstance(q, ast.Call) and call in q.args and not q.keywords and \
                (callee(q) is builtins.zip or callee(q) is builtins.enumerate
                 and q.args[0] is call):        # (reversed() of them: TypeError)
            return looped(q)
        return False

    names = {}
    for name, targets in stores.items():
        if name in params or name in scoped:
            continue
        values = []
        for t in targets:
            p = parents.get(t)
            if not (isinstance(p, ast.Assign) and len(p.targets) == 1 and p.targets[0] is t
                    and is_range(p.value)):
                break
            values.append(p.value)
        else:
            if all(read_ok(use) for use in loads.get(name, [])):
                names[name] = values
    direct = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and is_range(n)
              and _direct_read(n, parents, callee)]
    # (ids in the copy: the rewrite walks a deep copy)
    memo: dict = {}
    fn = copy.deepcopy(fn, memo)
    direct = [memo[id(n)] for n in direct]
    names = {k: [memo[id(v)] for v in vs] for k, vs in names.items()}
    if not names and not direct:
        return fn
    check, length, index = registry.range_object_callables()
    injected.update({"__hj_range": builtins.range, "__hj_range_check": check,
                     "__hj_range_len": length, "__hj_range_index": index})
    out = _Rewrite(names, {id(n) for n in direct}, callee).visit(fn)
    return ast.fix_missing_locations(out)


def _held_ranges(fn) -> bool:
    """Does ``fn`` call ``range`` anywhere but as the iterable of a loop (one walk:
    the scan below costs far more, and most functions only loop over ranges)?"""
    loops, calls = set(), []
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.comprehension)):
            loops.add(id(node.iter))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "range":
            calls.append(node)
    return any(id(c) not in loops for c in calls)


def _direct_read(call, parents, callee) -> bool:
    """``len(range(...))`` or ``range(...)[k]``?"""
    p = parents.get(call)
    if isinstance(p, ast.Call) and p.args == [call] and not p.keywords \
            and callee(p) is builtins.len:
        return True
    return isinstance(p, ast.Subscript) and p.value is call and isinstance(p.ctx, ast.Load) \
        and not isinstance(p.slice, ast.Slice)


def _parts(call):
    """``(start, stop, step)`` expressions of a ``range(...)`` call."""
    a = list(call.args)
    if len(a) == 1:
        return ast.Constant(0), a[0], ast.Constant(1)
    return a[0], a[1], a[2] if len(a) == 3 else ast.Constant(1)


def _name(n):
    return ast.Name(n, ast.Load())


def _call(f, args):
    return ast.Call(func=_name(f), args=list(args), keywords=[])


class _Rewrite(ast.NodeTransformer):
    def __init__(self, names, direct, callee):
        self.names, self.direct, self.callee = names, direct, callee
        # per name: start/step as constants where every range(...) leaves them default
        self.held = {}
        for name, values in names.items():
            start = "$" + name + "_start" if any(len(v.args) > 1 for v in values) else None
            step = "$" + name + "_step" if any(len(v.args) > 2 for v in values) else None
            self.held[name] = (start, "$" + name + "_stop", step)

    def parts(self, name):
        start, stop, step = self.held[name]
        return (_name(start) if start else ast.Constant(0), _name(stop),
                _name(step) if step else ast.Constant(1))

    def visit_Assign(self, node):
        t = node.targets[0] if len(node.targets) == 1 else None
        if isinstance(t, ast.Name) and t.id in self.names:
            start, stop, step = self.held[t.id]
            values = [self.visit(v) for v in _parts(node.value)]
            out = [ast.Assign(targets=[ast.Name(h, ast.Store())], value=v)
                   for h, v in zip((start, stop, step), values) if h is not None]
            out.append(ast.Expr(_call("__hj_range_check", [
                _name(h) if h else v for h, v in zip((start, stop, step), values)])))
            for s in out:
                ast.copy_location(s, node)
            return [ast.fix_missing_locations(s) for s in out]
        return self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and self.callee(node) is builtins.len \
                and len(node.args) == 1:
            a = node.args[0]
            if isinstance(a, ast.Name) and a.id in self.names:
                return ast.copy_location(_call("__hj_range_len", self.parts(a.id)), node)
            if id(a) in self.direct:
                return ast.copy_location(_call("__hj_range_len", [
                    self.visit(x) for x in _parts(a)]), node)
        return self.generic_visit(node)

    def visit_Subscript(self, node):
        v = node.value
        if isinstance(v, ast.Name) and v.id in self.names and isinstance(node.ctx, ast.Load):
            return ast.copy_location(_call("__hj_range_index", list(self.parts(v.id)) + [
                self.visit(node.slice)]), node)
        if id(v) in self.direct:
            parts = [self.visit(x) for x in _parts(v)]
            return ast.copy_location(_call("__hj_range_index", parts + [
                self.visit(node.slice)]), node)
        return self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in self.names and isinstance(node.ctx, ast.Load):
            return ast.copy_location(_call("__hj_range", self.parts(node.id)), node)
        return node
