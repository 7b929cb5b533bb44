"""``min(seq, key=f)`` and ``max(seq, key=f)`` as loops, and the key of
``sorted(seq, key=f)`` (``frontend/sorted_lists.py``).

``f`` is a lambda of one parameter (its body inlined with the parameter renamed
to the loop's item), or a name or attribute naming a function -- jitted, plain
(compiled as a callee), ``abs`` -- called once per item.  ``seq`` is anything a
``for`` loop compiles over (a tuple, a ``range``, a 1-D array, a read-only list
display, ``zip``/``enumerate`` of those); several positional arguments
(``min(x, y, key=f)``) are the tuple of them.  The loop follows CPython's
``min_max`` (``Python/bltinmodule.c``)::

    m = max(seq, key=f)         $first = True
                                for $item in seq:
                                    $k = f($item)
                                    if $first:
                                        $acc = $item; $best = $k; $first = False
                                    elif $k > $best:          (< for min)
                                        $acc = $item; $best = $k
                                if $first: raise ValueError("max() iterable argument is empty")
                                m = $acc

so the first of equal keys wins and a NaN key (which compares false) neither
replaces nor is replaced once held, as in CPython; ``default=`` is the result
for an empty sequence (a ``default`` of another type than the items -- ``None``
-- makes the function fall back: a variable has one type).  The loop runs before
the statement holding the call (``comprehensions.check_position`` refuses the
places where that could differ).
"""
from __future__ import annotations

import ast
import builtins
import copy
import sys

from . import comprehensions
from ..ir import nodes as N
from ..lib import registry


def handles(func, call) -> bool:
    """Is ``call`` (of ``func``) a ``min``/``max`` with a ``key=`` built here?"""
    return (func is builtins.min or func is builtins.max) and bool(call.args) \
        and any(k.arg == "key" for k in call.keywords) \
        and not any(isinstance(a, ast.Starred) for a in call.args)


def key_of(b, key, item: ast.expr, what: str) -> ast.expr:
    """The expression ``key(item)``: a lambda's body with its parameter renamed to
    ``item`` (a name), or a call of a named function."""
    if isinstance(key, ast.Lambda):
        a = key.args
        if len(a.args) != 1 or a.posonlyargs or a.vararg or a.kwonlyargs or a.kwarg \
                or a.defaults or a.kw_defaults:
            b.fail(key, f"{what} key", "a lambda of one parameter without defaults")
        param = a.args[0].arg
        body = copy.deepcopy(key.body)
        for node in ast.walk(body):
            if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp,
                                 ast.DictComp, ast.NamedExpr)):
                b.fail(key, f"{what} key", "a lambda holding a nested scope or :=")
        return _Rename(param, item.id).visit(body)
    if isinstance(key, (ast.Name, ast.Attribute)):
        return ast.Call(func=copy.deepcopy(key), args=[item], keywords=[])
    b.fail(key, f"{what} key", "a lambda, or a name of a function")


class _Rename(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, node):
        if node.id == self.old:
            return ast.copy_location(ast.Name(self.new, node.ctx), node)
        return node


def empty_message(name) -> str:
    if sys.version_info >= (3, 12):
        return f"{name}() iterable argument is empty"
    return f"{name}() arg is an empty sequence"


def min_max(b, call, func) -> N.Expr:
    """Build the loop of ``min``/``max(..., key=f)`` into ``b.pending``; return the
    IR expression of its result."""
    name = func.__name__
    kwargs = {k.arg: k.value for k in call.keywords}
    if set(kwargs) - {"key", "default"}:
        b.fail(call, f"{name}() with key=", f"the keyword argument "
               f"{sorted(set(kwargs) - {'key', 'default'})[0]!r}")
    if len(call.args) > 1 and "default" in kwargs:
        b.fail(call, f"{name}() with key=", "default= with several positional "
               "arguments (CPython's TypeError)")
    if isinstance(kwargs["key"], ast.Constant) and kwargs["key"].value is None:
        b.fail(call, f"{name}() with key=None")
    comprehensions.check_position(b, call, "sequence", name)
    seq = call.args[0] if len(call.args) == 1 else ast.Tuple(
        elts=list(call.args), ctx=ast.Load())
    acc, first, item, k, best = (b.tmp(h) for h in (name, "first", "item", "key", "best"))
    b.locals.update((acc, first, item, k, best))
    pre = []
    if "default" in kwargs:
        default = b.tmp("default")
        b.locals.add(default)
        pre.append(_assign(default, kwargs["default"]))
    pre.append(_assign(first, ast.Constant(True)))
    better = ast.Gt() if name == "max" else ast.Lt()
    take = [_assign(acc, _name(item)), _assign(best, _name(k))]
    body = [_assign(k, key_of(b, kwargs["key"], _name(item), f"{name}()")),
            ast.If(test=_name(first), body=take + [_assign(first, ast.Constant(False))],
                   orelse=[ast.If(test=ast.Compare(_name(k), [better], [_name(best)]),
                                  body=copy.deepcopy(take), orelse=[])])]
    if isinstance(seq, (ast.Tuple, ast.List)) and not any(
            isinstance(e, ast.Starred) for e in seq.elts):
        # a display (``min(x, y, key=f)``): its items evaluated first, checked to
        # be of one type and kind (``lib/python/key_functions.py``), then unrolled
        held = [b.tmp("e") for _ in seq.elts]
        b.locals.update(held)
        b.injected["__hj_same_kinds"] = registry.key_callables()[0]
        loop = [_assign(h, e) for h, e in zip(held, seq.elts)] + [ast.Expr(ast.Call(
            _name("__hj_same_kinds"), [_name(h) for h in held], []))]
        loop += [s for h in held for s in [_assign(item, _name(h))] + copy.deepcopy(body)]
    else:
        loop = [ast.For(target=ast.Name(item, ast.Store()), iter=seq, body=body, orelse=[])]
    empty = [_assign(acc, _name(default))] if "default" in kwargs else [ast.Raise(
        exc=ast.Call(ast.Name("ValueError", ast.Load()),
                     [ast.Constant(empty_message(name))], []), cause=None)]
    stmts = pre + loop + [ast.If(test=_name(first), body=empty, orelse=[])]
    comprehensions.locate(stmts, call)
    b.pending.extend(b.stmts(stmts))
    return N.Var(acc)


def _assign(target, value):
    return ast.Assign(targets=[ast.Name(target, ast.Store())], value=value)


def _name(n):
    return ast.Name(n, ast.Load())
