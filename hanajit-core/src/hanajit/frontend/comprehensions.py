"""Generator expressions reduced by ``sum``/``any``/``all``/``min``/``max``, as loops.

The frontend has no generator or list objects, but a comprehension consumed at
once by one of these builtins needs neither: the builder (``Builder.e_Call``)
hands the call here, and it becomes a loop written as Python statements, built
by the builder like any other code and placed before the statement that holds
the call (``Builder.pending``); the call itself becomes the loop's result::

    s = sum(x * x for x in a if x > 0)      $sum1 = 0
                                             for $c2_x in a:
                                                 if $c2_x > 0:
                                                     $sum1 = $sum1 + $c2_x * $c2_x
                                             s = $sum1

* ``sum(g, start=0)`` adds left to right from ``start``, CPython's order (the
  loop is the ``+`` of Python or NumPy scalars the items are, so int overflow,
  float rounding and NEP 50 promotion are those of ``s = s + x``).
* ``any(g)`` / ``all(g)`` stop at the first true / false item (later items are
  never evaluated, as in CPython); of a list comprehension every item is
  evaluated first, as the list is built before ``any`` sees it.
* ``min(g)`` / ``max(g)`` keep the first of equal items, compare ``item < best``
  / ``item > best`` as CPython does (so NaN never replaces an item), take
  ``default=`` and raise CPython's ValueError for an empty iterable.
* ``math.prod(it, start=1)`` and ``math.fsum(it)`` of any iterable, as ``sum``
  (``frontend/comprehension_products.py`` builds their loops).

The comprehension's own names are renamed (``$c2_x``) so they never touch the
function's locals.  Hoisting the loop before its statement is exact only when
nothing the statement evaluates before the call could fail or have an effect,
and when the call is evaluated exactly once: a call behind ``and``/``or``, in a
branch of ``x if c else y`` or in a ``while`` test is refused (the function
falls back, with the reason), as is one that follows work which could raise
(``a[i] + sum(...)``: assign the sum to a name first).
"""
from __future__ import annotations

import ast
import builtins
import copy
import math
import sys

from . import comprehension_products as products
from ..ir import nodes as N
from ..lib import registry
from ..ir.frontend_nodes import Method  # noqa: F401 - (comprehension_arrays)

REDUCERS = (builtins.sum, builtins.any, builtins.all, builtins.min, builtins.max)
# reducers of any iterable, taking it as their one positional argument
PRODUCTS = (math.prod, math.fsum)

_SIMPLE = (ast.Name, ast.Constant, ast.Attribute, ast.Load, ast.Store, ast.Tuple,
           ast.UnaryOp, ast.USub, ast.UAdd, ast.Not, ast.Compare, ast.cmpop,
           ast.Add, ast.Sub, ast.Mult)


def is_reduction(func, call) -> bool:
    """Is ``call`` (of the builtin ``func``) a reduction of one comprehension, or a
    ``sum``, ``math.prod`` or ``math.fsum`` of any iterable (``sum(a)`` is
    ``sum(x for x in a)``)?"""
    if func is builtins.sum and 1 <= len(call.args) <= 2 \
            and not any(isinstance(a, ast.Starred) for a in call.args):
        return True
    if any(func is r for r in PRODUCTS) and call.args \
            and not any(isinstance(a, ast.Starred) for a in call.args):
        return True
    return (any(func is r for r in REDUCERS) and len(call.args) == 1
            and isinstance(call.args[0], (ast.GeneratorExp, ast.ListComp)))


def reduces(b, func, call) -> bool:
    """Does the builder ``b`` build ``func(...)`` as a loop: a reduction of a
    comprehension (:func:`is_reduction`), or ``min``/``max`` of a list
    comprehension held by a name (``frontend/comprehension_lists.py``)?"""
    if is_reduction(func, call):
        return True
    return ((func is builtins.min or func is builtins.max) and len(call.args) == 1
            and not call.keywords and isinstance(call.args[0], ast.Name)
            and call.args[0].id in b.comp_lists)


def _items(iterable):
    """``x for x in iterable``: the generator expression a ``sum`` of any
    iterable adds up."""
    item = ast.copy_location(ast.Name("item", ast.Store()), iterable)
    return ast.copy_location(ast.GeneratorExp(
        elt=ast.copy_location(ast.Name("item", ast.Load()), iterable),
        generators=[ast.comprehension(target=item, iter=iterable, ifs=[], is_async=0)]),
        iterable)


def _shown(e) -> str:
    """The source of a reduction's argument as a fallback reason shows it: the
    sequence of ``(x for x in seq)`` (how ``sum(out)`` of a list is rewritten),
    ``...`` for long text or the compiler's own names."""
    g = e.generators[0] if isinstance(e, ast.GeneratorExp) and len(e.generators) == 1 \
        else None
    if g is not None and not g.ifs and isinstance(e.elt, ast.Name) and \
            isinstance(g.target, ast.Name) and e.elt.id == g.target.id:
        e = e.generators[0].iter
    text = ast.unparse(e)
    return "..." if len(text) > 40 or "$" in text else text


def reduce_comprehension(b, call, func):
    """Build the loop of ``func(<comprehension>, ...)`` into ``b.pending``; return
    the IR expression of its result."""
    comp = call.args[0]
    what = "generator expression" if isinstance(comp, ast.GeneratorExp) \
        else "list comprehension" if isinstance(comp, ast.ListComp) else "sequence"
    if what == "sequence":
        comp = _items(comp)
    name = func.__name__
    check_position(b, call, what, name)
    kwargs = {k.arg: k.value for k in call.keywords}
    if len(call.args) == 2 and name == "sum":
        kwargs["start"] = call.args[1]      # sum(g, start)
    elif len(call.args) > 1:
        b.fail(call, f"math.{name}() with {len(call.args)} positional arguments",
               "CPython raises TypeError (it takes one; prod's start is keyword-only)")
    allowed = {"sum": {"start"}, "prod": {"start"}, "min": {"default"},
               "max": {"default"}}.get(name, set())
    if set(kwargs) - allowed:
        b.fail(call, f"{name}() of a {what}",
               f"the keyword argument {sorted(set(kwargs) - allowed)[0]!r}")
    if any(g.is_async for g in comp.generators):
        b.fail(comp, f"asynchronous {what}")
    memo: dict = {}
    copied = copy.deepcopy(comp, memo)
    # read-only list displays inside stay read-only in the copy (``sum([x, y])``)
    b.list_displays |= {id(memo[i]) for i in list(b.list_displays) if i in memo}
    comp = renamed(b, copied)

    acc = b.tmp(name)
    b.locals.add(acc)
    b.hidden_words[acc] = f"{name}({_shown(call.args[0]) if call.args else ''})"
    pre, inner, after, tail = [], [], [], []
    display = call.args[0]
    if name in ("prod", "fsum") and isinstance(display, (ast.Tuple, ast.List)) \
            and not any(isinstance(e, ast.Starred) for e in display.elts):
        stmts = products.unrolled(b, name, acc, kwargs.get("start", ast.Constant(1)),
                                  display.elts)
        locate(stmts, call)
        b.pending.extend(b.stmts(stmts))
        return N.Var(acc)
    if name == "prod":
        tail = products.prod_loop(b, acc, kwargs.get("start", ast.Constant(1)), comp.elt,
                                  pre, inner)
    elif name == "fsum":
        products.fsum_loop(b, acc, [comp.elt], pre, inner, after)
    elif name == "sum":
        start = kwargs.get("start", ast.Constant(0))
        if COMPENSATED_SUM:
            after += _compensated(b, acc, start, comp.elt, pre, inner)
        else:
            pre.append(_assign(acc, start))
            inner.append(_assign(acc, ast.BinOp(_name(acc), ast.Add(), comp.elt)))
    elif name in ("any", "all"):
        found = name == "any"
        pre.append(_assign(acc, ast.Constant(not found)))
        test = comp.elt if found else ast.UnaryOp(ast.Not(), comp.elt)
        stop = isinstance(comp, ast.GeneratorExp)
        inner.append(ast.If(test=test, body=[_assign(acc, ast.Constant(found))]
                            + ([ast.Break()] if stop else []), orelse=[]))
    else:
        first, item = b.tmp("first"), b.tmp("item")
        b.locals.update((first, item))
        if "default" in kwargs:
            default = b.tmp("default")
            b.locals.add(default)
            pre.append(_assign(default, kwargs["default"]))
        pre.append(_assign(first, ast.Constant(True)))
        better = ast.Gt() if name == "max" else ast.Lt()
        inner += [_assign(item, comp.elt), ast.If(
            test=_name(first),
            body=[_assign(acc, _name(item)), _assign(first, ast.Constant(False))],
            orelse=[ast.If(test=ast.Compare(_name(item), [better], [_name(acc)]),
                           body=[_assign(acc, _name(item))], orelse=[])])]
        empty = ([_assign(acc, _name(default))] if "default" in kwargs else [ast.Raise(
            exc=ast.Call(ast.Name("ValueError", ast.Load()),
                         [ast.Constant(_empty_message(name))], []), cause=None)])
        after.append(ast.If(test=_name(first), body=empty, orelse=[]))
    stop_test = None
    if name in ("any", "all") and isinstance(comp, ast.GeneratorExp):
        stop_test = _name(acc) if name == "any" else ast.UnaryOp(ast.Not(), _name(acc))
    loop = loops(comp.generators, inner, stop_test)
    stmts = pre + loop + after
    locate(stmts, call)
    b.pending.extend(b.stmts(stmts) + tail)
    return N.Var(acc)


# CPython 3.12+ adds Python floats in ``sum`` with Neumaier's compensation
COMPENSATED_SUM = sys.version_info >= (3, 12)


def _compensated(b, acc, start, elt, pre, inner) -> list:
    """The additions of CPython 3.12's ``sum`` (``Python/bltinmodule.c``) from
    ``start``: while the total and the item are Python floats (``compensates``,
    decided by types), Neumaier's step, keeping the rounding error in ``$c``; any
    other item the plain ``+``.  A Python-int start (``python_int``) is CPython's
    int path: its first float item is added with the plain ``+`` too.  Returns
    the statements after the loop: the correction is added once at the end when
    it is non-zero and finite, as CPython does::

        t = total + x
        if abs(total) >= abs(x): c += (total - t) + x
        else:                    c += (x - t) + total
        total = t
    """
    from ..lib import registry
    import math
    c, x, t, s0, exact = (b.tmp(k) for k in ("comp", "x", "t", "start", "exact"))
    b.locals.update((c, x, t, s0, exact))
    compensates, python_int = registry.compensated_sum_callables()
    b.injected.update({"__hj_compensates": compensates, "__hj_python_int": python_int,
                       "__hj_abs": builtins.abs, "__hj_isfinite": math.isfinite})
    pre += [_assign(s0, start), _assign(acc, _name(s0)),
            _assign(exact, ast.Call(_name("__hj_python_int"), [_name(s0)], []))]

    def add(*terms):
        out = _name(terms[0]) if isinstance(terms[0], str) else terms[0]
        for op, term in zip(terms[1::2], terms[2::2]):
            out = ast.BinOp(out, op, _name(term) if isinstance(term, str) else term)
        return out

    def absolute(n):
        return ast.Call(_name("__hj_abs"), [_name(n)], [])

    def asks(*names):
        return ast.Call(_name("__hj_compensates"), [_name(n) for n in names], [])

    pre.append(_assign(c, ast.Constant(0.0)))
    inner += [
        _assign(x, elt),
        ast.If(test=asks(acc, x), body=[ast.If(test=_name(exact), body=[
            _assign(acc, add(acc, ast.Add(), x)),           # int + float: plain
            _assign(exact, ast.Constant(False))], orelse=[
            _assign(t, add(acc, ast.Add(), x)),
            ast.If(test=ast.Compare(absolute(acc), [ast.GtE()], [absolute(x)]),
                   body=[_assign(c, add(c, ast.Add(), add(acc, ast.Sub(), t, ast.Add(), x)))],
                   orelse=[_assign(c, add(c, ast.Add(), add(x, ast.Sub(), t, ast.Add(), acc)))]),
            _assign(acc, _name(t))])],
            orelse=[_assign(acc, add(acc, ast.Add(), x))])]
    finite = ast.BoolOp(ast.And(), [
        ast.Compare(_name(c), [ast.NotEq()], [ast.Constant(0.0)]),
        ast.Call(_name("__hj_isfinite"), [_name(c)], [])])
    return [ast.If(test=asks(acc, x), body=[          # (the loop's own question)
        ast.If(test=finite, body=[_assign(acc, add(acc, ast.Add(), c))], orelse=[])],
        orelse=[])]


def locate(stmts, node):
    """Give generated statements (and their parts) the line of ``node``."""
    for s in stmts:
        for part in ast.walk(s):
            if getattr(part, "lineno", None) is None and "lineno" in part._attributes:
                ast.copy_location(part, node)


def loops(generators, inner, stop_test):
    """Nested ``for``/``if`` statements of the generators around ``inner``; after
    each inner loop, ``if stop_test: break`` leaves the outer ones too."""
    body = inner
    for k, g in reversed(list(enumerate(generators))):
        for cond in reversed(g.ifs):
            body = [ast.If(test=cond, body=body, orelse=[])]
        loop = ast.For(target=g.target, iter=g.iter, body=body, orelse=[])
        body = [loop]
        if stop_test is not None and k > 0:
            body.append(ast.If(test=copy.deepcopy(stop_test), body=[ast.Break()],
                               orelse=[]))
    return body


def _empty_message(name) -> str:
    if sys.version_info >= (3, 12):
        return f"{name}() iterable argument is empty"
    return f"{name}() arg is an empty sequence"


def _assign(target, value):
    return ast.Assign(targets=[ast.Name(target, ast.Store())], value=value)


def _name(n):
    return ast.Name(n, ast.Load())


def renamed(b, comp):
    """``comp`` with the names its generators bind renamed to fresh locals; the
    first iterable stays in the enclosing scope, as in Python."""
    mapping = {}
    for k, g in enumerate(comp.generators):
        if k > 0:
            g.iter = _Rename(mapping).visit(g.iter)
        for node in ast.walk(g.target):
            if isinstance(node, ast.Name):
                mapping[node.id] = b.tmp("c") + "_" + node.id
                b.locals.add(mapping[node.id])
            elif not isinstance(node, (ast.Tuple, ast.List, ast.Store)):
                b.fail(g.target, "comprehension target", "only names and tuples of names")
        g.target = _Rename(dict(mapping)).visit(g.target)
        g.ifs = [_Rename(dict(mapping)).visit(c) for c in g.ifs]
    comp.elt = _Rename(mapping).visit(comp.elt)
    return comp


class _Rename(ast.NodeTransformer):
    """Rename names by ``mapping``, respecting comprehensions nested inside that
    bind the same names (their own generators rename them when built)."""

    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        if node.id in self.mapping:
            return ast.copy_location(ast.Name(self.mapping[node.id], node.ctx), node)
        return node

    def _comp(self, node):
        inner = dict(self.mapping)
        for k, g in enumerate(node.generators):
            g.iter = _Rename(inner).visit(g.iter)
            for n in ast.walk(g.target):
                if isinstance(n, ast.Name):
                    inner.pop(n.id, None)
            g.ifs = [_Rename(inner).visit(c) for c in g.ifs]
        for field in ("elt", "key", "value"):
            if getattr(node, field, None) is not None:
                setattr(node, field, _Rename(inner).visit(getattr(node, field)))
        return node

    visit_GeneratorExp = visit_ListComp = visit_SetComp = visit_DictComp = _comp

    def visit_Lambda(self, node):
        return node         # refused by the builder anyway


def check_position(b, call, what, name):
    """Refuse a call whose loop, run before its statement, could behave otherwise."""
    stmt = b.current_stmt
    if stmt is None:
        return
    path = _path(stmt, call)
    if path is None:
        return
    construct = f"{name}() of a {what}"
    # sum/any/all of a name (a tuple, range, array or list local of numbers) cannot
    # fail and changes nothing: run first, it reads what it would read in place
    # when what comes before it changes nothing either (``return x, t[0], sum(t)``)
    quiet = name in ("sum", "any", "all") and what == "sequence" and len(call.args) == 1 \
        and not call.keywords and (isinstance(call.args[0], ast.Name) or isinstance(
            call.args[0], ast.Call) and _named(b, call.args[0]) is builtins.range
            and all(isinstance(x, (ast.Name, ast.Constant)) for x in call.args[0].args))
    for parent, child in zip(path, path[1:]):
        if isinstance(parent, ast.While) and child is parent.test:
            b.fail(call, construct, "in a while-loop test; compute it in the loop body")
        if isinstance(parent, ast.IfExp) and child is not parent.test \
                or isinstance(parent, ast.BoolOp) and child is not parent.values[0]:
            b.fail(call, construct, "evaluated only on some paths of an expression "
                   "(and/or, x if c else y); assign it to a name first")
        if isinstance(parent, (ast.Assign, ast.AnnAssign)):
            continue                    # the value is evaluated before the targets
        for sibling in ast.iter_child_nodes(parent):
            if sibling is child:
                break
            if not _simple(b, sibling) and not (quiet and _no_effects(b, sibling)):
                b.fail(call, construct, "evaluated after other work in the same "
                       "statement that could fail; assign it to a name first")


def _simple(b, node) -> bool:
    """Can evaluating ``node`` neither fail nor have an effect (names, constants,
    attributes, ``+ - *``, comparisons, and reductions hoisted before it)?"""
    if isinstance(node, ast.Call) and reduces(b, _callee(b, node), node):
        return True
    from .key_functions import handles           # min(seq, key=f): a loop before too
    if isinstance(node, ast.Call) and handles(_callee(b, node), node):
        return True
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
            and isinstance(node.args[0], ast.ListComp) and _array_constructor(b, node):
        return True                             # np.array([...]): built before
    return isinstance(node, _SIMPLE) and all(
        _simple(b, c) for c in ast.iter_child_nodes(node))


def _no_effects(b, node) -> bool:
    """Does evaluating ``node`` change nothing (it may raise: an index, ``//``),
    calling nothing but ``len``/``abs``/``int``/``float``/``bool``?"""
    for n in ast.walk(node):
        if isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
        if isinstance(n, ast.Call) and not any(
                _named(b, n) is f for f in (len, abs, int, float, bool, builtins.range)
                + registry.range_object_callables()):     # (len(r), r[k] of a range)
            return False
    return True


def _named(b, call):
    """A call's callee, also one the frontend injected (``__hj_range_len``)."""
    f = call.func
    if isinstance(f, ast.Name) and f.id in getattr(b, "injected", {}):
        return b.injected[f.id]
    return _callee(b, call)


def _callee(b, call):
    from .comprehension_arrays import callee
    return callee(b, call)


def _array_constructor(b, call) -> bool:
    from .comprehension_arrays import CONSTRUCTORS, callee
    obj = callee(b, call)
    return getattr(obj, "__name__", None) in CONSTRUCTORS and getattr(
        obj, "__module__", "").startswith("numpy")


def _path(root, target):
    """The nodes from ``root`` down to ``target`` (inclusive), or None."""
    if root is target:
        return [root]
    for child in ast.iter_child_nodes(root):
        if isinstance(child, (ast.GeneratorExp, ast.ListComp, ast.Lambda)) \
                and child is not target and not any(x is target for x in ast.walk(child)):
            continue
        sub = _path(child, target)
        if sub is not None:
            return [root] + sub
    return None
