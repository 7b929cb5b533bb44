"""``np.fromiter(iterable, dtype, count=-1)`` built as NumPy's loop::

    b = np.fromiter((f(i) for i in range(n) if g(i)), np.float32, count)

    $count = count
    $buf = np.empty($count if $count >= 0 else 16, np.float32)
    $k = 0
    if 0 < $count or $count == -1:
        for $c_i in range(n):
            if g($c_i):
                if $k == len($buf): <move the items into np.empty(2 * $k, dtype)>
                $buf[$k] = f($c_i)           # NumPy's setitem conversion (PyArray_Pack)
                $k = $k + 1
                if $k == $count: break       # (the outer loops too: no item more is read)
    if $count >= 0 and $k < $count: raise ValueError("iterator too short: ...")
    if $k != len($buf): <move the items into np.empty($k, dtype)>
    b = $buf

The iterable is a generator expression (items read lazily, as NumPy reads them:
with ``count`` no item after the last one is computed), a list comprehension
(without ``count``: the list is built first) or any other iterable hanajit loops
over (``range``, a 1-D array), read as ``(x for x in iterable)``.  Every item is
stored as NumPy stores it (``OverflowError`` for a Python int out of range, the
ValueError of a NaN made an integer); ``dtype`` must be a constant (None is
float64, as in NumPy).  The statements go before the one holding the call, whose
position is checked as ``frontend/comprehensions.py`` checks reductions'."""
from __future__ import annotations

import ast
import builtins
import copy

from . import comprehensions as comps
from ..ir import nodes as N

_HELPERS = {"__hj_len": builtins.len, "__hj_range": builtins.range}
_SHORT = "iterator too short: Expected {} but iterator had only {} items."


def is_fromiter(obj) -> bool:
    return getattr(obj, "__name__", None) == "fromiter" and \
        (getattr(obj, "__module__", None) or "").startswith("numpy")


def build(b, e) -> N.Expr:
    """The value of the call ``e`` of ``np.fromiter`` for the builder ``b``."""
    import numpy
    names = ("iter", "dtype", "count")
    bound = dict(zip(names, e.args))
    for k in e.keywords:
        if k.arg in bound or k.arg not in names:
            b.fail(e, "call of np.fromiter", f"the keyword argument {k.arg!r}")
        bound[k.arg] = k.value
    if len(e.args) > 3 or "iter" not in bound or "dtype" not in bound:
        b.fail(e, "call of np.fromiter", "np.fromiter(iterable, dtype, count=-1)")
    it = bound["iter"]
    if isinstance(it, ast.ListComp) and "count" in bound:
        b.fail(e, "np.fromiter() of a list comprehension with count",
               "the list is built whole before NumPy reads count items")
    comp = it if isinstance(it, (ast.GeneratorExp, ast.ListComp)) else _items(it)
    if any(g.is_async for g in comp.generators):
        b.fail(comp, "asynchronous generator expression")
    comps.check_position(b, e, "iterable", "np.fromiter")
    empty = "__hj_fromiter_empty"
    b.injected.update(_HELPERS)
    b.injected[empty] = numpy.empty
    v = {k: b.tmp(k) for k in ("count", "buf", "new", "j", "k")}
    b.locals.update(v.values())
    comp = comps.renamed(b, copy.deepcopy(comp))
    count = bound.get("count", ast.Constant(-1))
    dtype = bound["dtype"]

    def name(n):
        return ast.Name(v[n], ast.Load())

    def alloc(size):
        return ast.Call(ast.Name(empty, ast.Load()), [size, copy.deepcopy(dtype)], [])

    def moved(size):
        return [_assign(v["new"], alloc(size)),
                ast.For(target=ast.Name(v["j"], ast.Store()),
                        iter=ast.Call(ast.Name("__hj_range", ast.Load()), [name("k")], []),
                        body=[ast.Assign(
                            targets=[ast.Subscript(name("new"), name("j"), ast.Store())],
                            value=ast.Subscript(name("buf"), name("j"), ast.Load()))],
                        orelse=[]),
                _assign(v["buf"], name("new"))]

    def length():
        return ast.Call(ast.Name("__hj_len", ast.Load()), [name("buf")], [])

    def cmp(a, op, c):
        return ast.Compare(a, [op], [c])

    stop = cmp(name("k"), ast.Eq(), name("count"))
    push = [ast.If(test=cmp(name("k"), ast.Eq(), length()),
                   body=moved(ast.BinOp(ast.Constant(2), ast.Mult(), name("k"))), orelse=[]),
            ast.Assign(targets=[ast.Subscript(name("buf"), name("k"), ast.Store())],
                       value=comp.elt),
            _assign(v["k"], ast.BinOp(name("k"), ast.Add(), ast.Constant(1))),
            ast.If(test=copy.deepcopy(stop), body=[ast.Break()], orelse=[])]
    reads = ast.BoolOp(ast.Or(), [cmp(ast.Constant(0), ast.Lt(), name("count")),
                                  cmp(name("count"), ast.Eq(), ast.Constant(-1))])
    stmts = [_assign(v["count"], count),
             _assign(v["buf"], alloc(ast.IfExp(
                 test=cmp(name("count"), ast.GtE(), ast.Constant(0)), body=name("count"),
                 orelse=ast.Constant(16)))),
             _assign(v["k"], ast.Constant(0)),
             ast.If(test=reads, body=comps.loops(comp.generators, push, stop), orelse=[])]
    comps.locate(stmts, e)
    out = b.stmts(stmts)
    short = N.PyBoolOp("and", [N.PyCompare(["ge"], [N.Var(v["count"]), N.Const(0)]),
                               N.PyCompare(["lt"], [N.Var(v["k"]), N.Var(v["count"])])])
    out.append(N.If(cond=N.Truth(short), then=[N.Raise(
        exc=ValueError, message=_SHORT, args=[N.Var(v["count"]), N.Var(v["k"])])]))
    shrink = [ast.If(test=cmp(name("k"), ast.NotEq(), length()), body=moved(name("k")),
                     orelse=[])]
    comps.locate(shrink, e)
    out += b.stmts(shrink)
    for s in out:
        s.line = s.line or e.lineno
    b.pending.extend(out)
    return N.Var(v["buf"])


def _items(iterable):
    """``(x for x in iterable)``: how NumPy reads any iterable."""
    item = ast.copy_location(ast.Name("item", ast.Store()), iterable)
    return ast.copy_location(ast.GeneratorExp(
        elt=ast.copy_location(ast.Name("item", ast.Load()), iterable),
        generators=[ast.comprehension(target=item, iter=iterable, ifs=[], is_async=0)]),
        iterable)


def _assign(target, value):
    return ast.Assign(targets=[ast.Name(target, ast.Store())], value=value)
