"""List comprehensions assigned to a name that is only read: built as arrays.

``xs = [f(i) for i in range(n)]`` makes a list; compiled code has no list type,
but a list that is never changed, aliased or passed on behaves as an array of
its items wherever it is only read.  A local name qualifies when its one
assignment is ``name = [<comprehension of numbers>]`` (not nested) and every
read of it is one of:

* ``name[i]`` with an integer index: ``IndexError("list index out of range")``
  as a list raises, and the item is the comprehension's item -- a Python number
  where that was one (NEP 50's weak operand), a NumPy scalar where it was one
  (``PyGetItem.items_like`` names the local that decides);
* ``len(name)``, ``for x in name`` (also in ``enumerate``/``zip``), ``sum``,
  ``min`` and ``max`` of it (loops over the items, ``frontend/comprehensions.py``);
* an argument of a NumPy function or an index array (``np.mean(name)``,
  ``a[name]``), which NumPy reads as ``np.array(name)``;
* ``return name``: the caller gets a list (``Function.returns_list``), and so
  from ``return a.tolist()`` (a copy of the array ``a``, with Python numbers);
* its truth (``if name:``, ``not name``): whether it has items.

Anything else -- ``append``, item assignment, a slice, ``x in name`` (a list
compares by identity first), ``name and x``, aliasing, a call of another
function, a read in a
``prange`` loop or in a nested function -- leaves the comprehension unsupported,
so the function runs in the interpreter, as before.  The array is built as
``frontend/comprehension_arrays.py`` builds one for NumPy.  With no items, a
list handed to NumPy is a float64 array whatever the items would have been, so
when such a read exists the call deoptimises (re-runs in the interpreter) on an
empty list; otherwise an empty list is an empty array of the items' type.
"""
from __future__ import annotations

import ast
import math

from . import comprehension_arrays, growable_lists, sorted_lists, split_lists
from .readonly_lists import ancestors, declared_elsewhere, is_prange, scan
from ..ir import nodes as N
from ..ir.frontend_nodes import Method

_NESTED = (ast.ListComp, ast.List, ast.Tuple, ast.Starred, ast.GeneratorExp, ast.Set,
           ast.Dict, ast.SetComp, ast.DictComp)
_REDUCERS = (len, sum, min, max, math.prod, math.fsum)


def find(fn: ast.FunctionDef, params, resolve_global) -> dict:
    """``{name: empty_deopts}`` for the local names holding a list comprehension
    that is only read; ``empty_deopts`` when some read hands it to NumPy."""
    ctx, stores, loads = scan(fn, resolve_global)
    parents = ctx.parents
    scoped = declared_elsewhere(fn)
    out = {}
    for name, targets in stores.items():
        if name in params or name in scoped or len(targets) != 1:
            continue
        p = parents.get(targets[0])
        if not (isinstance(p, ast.Assign) and len(p.targets) == 1
                and p.targets[0] is targets[0]):
            continue
        sort = sorted_lists.parse(p.value, resolve_global)     # xs = sorted(...)
        comp = sort.comp if sort is not None else p.value
        if not isinstance(comp, ast.ListComp):
            continue
        if isinstance(comp.elt, _NESTED) or any(g.is_async for g in comp.generators):
            continue
        uses = loads.get(name, [])
        kinds = [_read(use, parents, ctx, resolve_global, fn) for use in uses]
        if uses and all(kinds):
            out[name] = "numpy" in kinds
    return out


def _read(node, parents, ctx, resolve_global, fn):
    """How ``node`` (a load of the name) reads the list: ``"item"``, ``"numpy"``,
    ``"return"``, or None when it does more than read."""
    for anc in ancestors(node, parents, fn):
        if isinstance(anc, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        if isinstance(anc, ast.For) and is_prange(anc.iter, resolve_global):
            return None
    p = parents.get(node)
    if isinstance(p, ast.Return) and p.value is node or isinstance(p, ast.Tuple) and \
            isinstance(parents.get(p), ast.Return) and parents.get(p).value is p:
        return "return"                 # return name / return name, n
    if isinstance(p, ast.Compare):
        return None                     # x in name: identity first, in a list
    if isinstance(p, (ast.If, ast.While, ast.IfExp, ast.Assert)) and p.test is node \
            or isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
        return "item"                   # if name: / not name: it is not empty
    if isinstance(p, ast.comprehension):
        return "item" if p.iter is node else None           # (x for x in name)
    if isinstance(p, ast.Call) and node in p.args:
        obj = _callee(p.func, resolve_global)
        if obj in (enumerate, zip):                         # for .. in zip(name, b)
            q = parents.get(p)
            looped = isinstance(q, (ast.For, ast.comprehension)) and q.iter is p
            return "item" if looped and not p.keywords else None
        if obj is sorted:                                   # sorted(name): a loop
            return "item" if sorted_lists.parse(p, resolve_global) else None
        if any(obj is r for r in _REDUCERS):
            one = len(p.args) == 1 or obj is sum and len(p.args) == 2
            keywords = all(k.arg == "start" for k in p.keywords) if obj is math.prod \
                else not p.keywords
            return "item" if p.args[0] is node and one and keywords else None
    if not ctx.read_only(node, nested=False):
        return None
    if isinstance(p, ast.Subscript):
        return "item" if p.value is node else "numpy"       # name[i] / a[name]
    if isinstance(p, ast.For):
        return "item"
    return "numpy"              # a[name, j], a NumPy function's argument or keyword


def _callee(func, resolve_global):
    """The object a call's ``func`` names: a global (``sum``) or an attribute of
    a global module (``math.prod``); None for anything else."""
    if isinstance(func, ast.Name):
        return resolve_global(func.id)
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return getattr(resolve_global(func.value.id), func.attr, None)
    return None




def build(b, name, comp) -> list:
    """``name = comp`` (or ``name = sorted(...)``) for the builder ``b``: the array
    of the comprehension's items (its loop in ``b.pending``); records the local
    holding each item."""
    built = {}
    sort = sorted_lists.parse(comp, b._global_object)
    if sort is not None:
        value = sorted_lists.build(b, sort, b.comp_lists[name], names=built)
    else:
        value = comprehension_arrays.build_array(b, comp, None, as_list=True,
                                                 empty_deopts=b.comp_lists[name],
                                                 names=built)
    b.comp_items[name] = built["item"]
    return [N.Assign(target=name, value=value)]


def _list_value(b, value, built):
    """The array of ``value`` when it is a list the caller gets (a list
    comprehension, ``sorted(...)``, a name holding one), else None;
    ``built["item"]`` names the local holding its items."""
    sort = sorted_lists.parse(value, b._global_object)
    if sort is not None:
        return sorted_lists.build(b, sort, names=built)
    if isinstance(value, ast.ListComp):
        return comprehension_arrays.build_array(b, value, None, as_list=True, names=built)
    if _tolist(value):              # ``return a.tolist()``: a copy of ``a``, as lists
        built["item"] = "$tolist"   # (never assigned: Python numbers)
        return N.PyCall(callee=Method("copy"), args=[b.expr(value.func.value)], name="copy")
    grown = growable_lists.value(b, value, built)
    if grown is not None:
        return grown
    if isinstance(value, ast.Name) and value.id in b.comp_lists:
        if value.id not in b.comp_items:
            b.fail(b.current_stmt, "list comprehension",
                   f"'{value.id}' returned before it is assigned")
        built["item"] = b.comp_items[value.id]
        return N.Var(value.id)
    return None


def _tolist(value) -> bool:
    return (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "tolist" and not value.args and not value.keywords)


def _is_list(b, value) -> bool:
    return isinstance(value, ast.ListComp) or _tolist(value) or (
        isinstance(value, ast.Name) and (value.id in b.comp_lists
                                         or value.id in b.grow_lists)) or \
        growable_lists.is_slice(b, value) or \
        sorted_lists.parse(value, b._global_object) is not None


def returned(b, value):
    """``return <list comprehension>``, ``return sorted(...)`` or ``return name``
    of such a list -- or a tuple holding some (``return [..], n``) -- for the
    builder ``b``: the array (or tuple) the caller gets with those items as lists
    (``Function.returns_list``), or None.  The locals holding the items are noted
    in ``b.returns`` (``"list"``: a list each; ``"tuple"``: ``{position: local}``
    each), which :func:`mark_returns` reads.  (A split's parts, which the caller
    gets as a list: ``split_lists``.)"""
    if split_lists.returned(b, value):
        return b.expr(value)
    if isinstance(value, ast.Tuple) and any(_is_list(b, e) for e in value.elts) \
            and not any(isinstance(e, ast.Starred) for e in value.elts):
        items, lists = [], {}
        for k, elt in enumerate(value.elts):
            built: dict = {}
            v = _list_value(b, elt, built)
            if v is None:               # evaluated in order with the lists' loops
                t = b.tmp("r")
                b.locals.add(t)
                b.pending.append(N.Assign(target=t, value=b.expr(elt)))
                v = N.Var(t)
            else:
                lists[k] = built["item"]
            items.append(v)
        b.returns.setdefault("tuple", []).append(lists)
        return N.MakeTuple(items)
    built = {}
    out = _list_value(b, value, built)
    if out is None:
        return None
    b.returns.setdefault("list", []).append(built["item"])
    return out


def mark_returns(b, fn) -> None:
    """``fn.returns_list`` (and which locals hold the items: ``list_items``, or
    ``tuple_lists`` for the positions of a returned tuple) when the returns of
    the builder ``b`` give lists; a fallback when they also give anything else."""
    lists, tuples = b.returns.get("list"), b.returns.get("tuple")
    if split_lists.mark(b, fn):
        return
    if not lists and not tuples:
        return
    if b.returns.get("other") or (lists and tuples) or \
            len({tuple(sorted(t)) for t in tuples or ()}) > 1:
        b.fail(b.fnode, "list comprehension returned",
               "the function returns something else on another path")
    fn.returns_list = True      # the dispatcher hands back the array as a list
    fn.list_items = lists or []
    if tuples:
        fn.tuple_lists = tuple((k, [t[k] for t in tuples]) for k in sorted(tuples[0]))


def item(b, name, index) -> N.Expr:
    """``name[index]`` (or the item a loop over it reads): a list's IndexError,
    and the comprehension's own kind of item (``PyGetItem.items_like``)."""
    if name not in b.comp_items:
        b.fail(b.current_stmt, "list comprehension", f"'{name}' read before it is assigned")
    return N.PyGetItem(N.Var(name), index, kind="list", items_like=b.comp_items[name])


def non_empty(b, e):
    """``name`` in a truth context (``if xs:``, ``not xs``) for the builder ``b``:
    ``len(name) != 0``, as a list's truth; None for anything else."""
    if isinstance(e, ast.Name) and e.id in b.comp_lists:
        return N.PyCompare(["ne"], [N.PyCall(callee=len, args=[N.Var(e.id)], name="len"),
                                    N.Const(0)])
    return None
