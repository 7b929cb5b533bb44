"""Which list locals grow, and why the others do not (``frontend/growable_lists.py``
builds them): :func:`find` reads every assignment and every read of each name
assigned a new list."""
from __future__ import annotations

import ast
import math

from .readonly_lists import ancestors, declared_elsewhere, is_prange, scan
from .source import resolved

CHANGES = {"append": (1, 1), "extend": (1, 1), "insert": (2, 2), "clear": (0, 0),
            "reverse": (0, 0), "sort": (0, 0), "pop": (0, 1), "remove": (1, 1)}
LOOKUPS = {"index": "list_index", "count": "list_count"}
_ORDER = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)
LOOPED = (sum, min, max, any, all, sorted, math.prod, math.fsum)


def find(fn, params, resolve_global, assigns=None) -> tuple[dict, dict]:
    """``({name: adds}, {name: reason})``: the list locals built here, and why
    each other local assigned a list display is not.  ``assigns``:
    :func:`_assigns_lists`, when the caller knows (``scopes.survey``)."""
    if not (_assigns_lists(fn) if assigns is None else assigns):
        return {}, {}
    ctx, stores, loads = scan(fn, resolve_global)
    parents = ctx.parents
    for node, parent in parents.items():
        if isinstance(node, ast.Tuple):
            node.hj_parent = parent         # (``a, b = [], []``)
    scoped = declared_elsewhere(fn)
    lists, refused, joins = {}, {}, {}
    listed = _candidates(stores, parents, params, resolve_global)
    rebinds = []                    # (target, source) of ``a = b``, ``a, b = b, a``
    for name, targets in stores.items():
        made = [t for t in targets if _made(parents.get(t), t, resolve_global)
                or _joined(parents.get(t), t, listed)]
        for t in targets:
            source = rebound_from(parents.get(t), t, listed)
            if source is not None:
                made.append(t)
                rebinds.append((name, source))
        if not made or name in params:
            continue
        joins[name] = [parents[t].value for t in made if _joined(parents[t], t, listed)]
        if name in scoped:
            refused[name] = "it is used by a nested function or declared global"
            continue
        reason, adds = None, False
        for t in targets:
            p = parents.get(t)
            if t in made and rebound_from(p, t, listed) is not None:
                pass                                # a = b: checked below
            elif t in made and isinstance(p, ast.Tuple):
                adds = adds or bool(_unpacked(p, t, resolve_global).elts)
            elif t in made:
                adds = adds or isinstance(p, ast.Assign) and (
                    isinstance(p.value, ast.List) and bool(p.value.elts)
                    or isinstance(p.value, (ast.ListComp, ast.Call))
                    or isinstance(p.value, ast.BinOp) and _adds(p.value))
            elif isinstance(p, ast.AugAssign) and isinstance(p.op, ast.Mult):
                pass                                # out *= k: its own items again
            elif isinstance(p, ast.AugAssign) and isinstance(p.op, ast.Add):
                adds = True
                if not _listlike(p.value, resolve_global):
                    reason = ("'+=' of something not known to be a list here (a NumPy "
                              "array would add itself to the list's items)")
            else:
                reason = "it is also assigned something that is not a new list"
        for use in loads.get(name, []):
            if reason is not None:
                break
            reason, added = _use(use, parents, resolve_global, fn)
            adds = adds or added
        if reason is None:
            lists[name] = adds
        else:
            refused[name] = reason
    held = None
    while held != len(lists):           # (each refusal may refuse more)
        held = len(lists)
        _check_joins(lists, refused, joins)
        _check_rebinds(lists, refused, rebinds)
    return lists, refused


def _candidates(stores, parents, params, resolve_global) -> set:
    """The names assigned a new list somewhere, or ``a + b`` / ``a * k`` of one,
    or another such name (``prev = cur``)."""
    out = {name for name, targets in stores.items() if name not in params and any(
        _made(parents.get(t), t, resolve_global) for t in targets)}
    while True:
        more = {name for name, targets in stores.items() if name not in params
                and name not in out and any(_joined(parents.get(t), t, out)
                                            or rebound_from(parents.get(t), t, out)
                                            for t in targets)}
        if not more:
            return out
        out |= more


def _joined(p, target, listed) -> bool:
    """Is ``p`` ``name = a + b`` / ``name = a * k`` / ``k * a`` with ``a`` (or
    ``b``) a list display or a name of ``listed`` (lists or not:
    :func:`_check_joins`)?"""
    if not (isinstance(p, ast.Assign) and len(p.targets) == 1 and p.targets[0] is target
            and isinstance(p.value, ast.BinOp) and isinstance(p.value.op, (ast.Add,
                                                                            ast.Mult))):
        return False
    sides = [p.value.left, p.value.right]
    while isinstance(p.value.op, ast.Add) and isinstance(sides[0], ast.BinOp) and \
            isinstance(sides[0].op, ast.Add):
        sides[:1] = [sides[0].left, sides[0].right]
    if any(isinstance(x, ast.List) and any(isinstance(e, ast.Starred) for e in x.elts)
           for x in sides):
        return False
    return any(isinstance(x, ast.List) or isinstance(x, ast.Name) and x.id in listed
               for x in sides)


def _adds(v) -> bool:
    """Does ``a + b`` / ``a * k`` put items in (not ``[] * n``, ``[] + []``)?"""
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult):
        return not any(isinstance(x, ast.List) and not x.elts for x in (v.left, v.right))
    if isinstance(v, ast.BinOp):
        return _adds(v.left) or _adds(v.right)
    return not (isinstance(v, ast.List) and not v.elts)


def joined_parts(v, lists):
    """``[(operand, count)]`` of ``a + b + ...`` whose terms are lists (names of
    ``lists`` or displays), each maybe repeated (``[i] + [0] * m``: ``count`` the
    ``m``, else None), or of ``a * k``; else None."""
    def is_list(x):
        return isinstance(x, ast.List) and not any(
            isinstance(e, ast.Starred) for e in x.elts) or \
            isinstance(x, ast.Name) and x.id in lists
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add):
        left, right = joined_parts(v.left, lists), joined_parts(v.right, lists)
        return left + right if left is not None and right is not None else None
    if is_list(v):
        return [(v, None)]
    if not (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Mult)):
        return None
    left, right = v.left, v.right
    if is_list(left) and not is_list(right) and not isinstance(right, ast.Tuple):
        return [(left, right)]
    if is_list(right) and not is_list(left) and not isinstance(left, ast.Tuple):
        return [(right, left)]
    return None


def _check_joins(lists, refused, joins) -> None:
    """Refuse each list assigned ``a + b`` or ``a * k`` whose operands are not
    lists held here, and each list read there (until none changes)."""
    changed = True
    while changed:
        changed = False
        for name, values in joins.items():
            if name not in lists:
                for v in values:
                    for x in ast.walk(v):
                        if isinstance(x, ast.Name) and x.id in lists:
                            del lists[x.id]
                            refused[x.id] = (f"it is used in a '+' or '*' whose "
                                             f"result '{name}' is not a list held here")
                            changed = True
                continue
            if any(joined_parts(v, lists) is None for v in values):
                del lists[name]
                refused[name] = ("it is also assigned a '+' or '*' of something not "
                                 "known to be a list here")
                changed = True


def rebound_from(p, target, listed):
    """The name ``target`` is bound to when ``p`` (its parent) is ``target =
    name`` or a tuple ``..., target, ... = ..., name, ...`` of the same length,
    ``name`` one of ``listed``; else None."""
    if isinstance(p, ast.Tuple):
        stmt = getattr(p, "hj_parent", None)
        if not (isinstance(stmt, ast.Assign) and stmt.targets == [p]
                and isinstance(stmt.value, ast.Tuple)
                and len(stmt.value.elts) == len(p.elts)):
            return None
        v = next(v for t, v in zip(p.elts, stmt.value.elts) if t is target)
    elif isinstance(p, ast.Assign) and p.targets == [target]:
        v = p.value
    else:
        return None
    return v.id if isinstance(v, ast.Name) and v.id in listed else None


def rebindings(fn, names) -> list:
    """``[(target, source)]``: each ``target = source`` (also in a tuple
    assignment) between two of ``names``."""
    out = []
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        t, v = node.targets[0], node.value
        pairs = zip(t.elts, v.elts) if isinstance(t, ast.Tuple) and \
            isinstance(v, ast.Tuple) and len(t.elts) == len(v.elts) else [(t, v)]
        out += [(t.id, v.id) for t, v in pairs if isinstance(t, ast.Name)
                and isinstance(v, ast.Name) and t.id in names and v.id in names]
    return out


def _check_rebinds(lists, refused, rebinds) -> None:
    """Refuse both names of each ``a = b`` one of which is not a list held here
    (until none changes)."""
    changed = True
    while changed:
        changed = False
        for a, b in rebinds:
            for x, y in ((a, b), (b, a)):
                if x in lists and y not in lists:
                    del lists[x]
                    why = refused.get(y, "it is not a list held here")
                    refused[x] = f"'{a} = {b}' makes it one list with '{y}', which " \
                        f"compiled code does not hold: {why}"
                    changed = True


def _assigns_lists(fn) -> bool:
    """Could ``fn`` make a list local -- does an assignment's value hold a list
    display, a list comprehension or a call of ``list``?  (One walk, before the
    scan, which costs far more.)"""
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for v in ast.walk(node.value):
                if isinstance(v, (ast.List, ast.ListComp)) or (
                        isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
                        and v.func.id == "list"):
                    return True
    return False


def _made(p, target, resolve_global) -> bool:
    """Is ``p`` (the parent of a store of a name) ``name = []``/``[x, ...]``/``list()``
    (or ``a, name = ..., []``)?"""
    if isinstance(p, ast.Tuple):
        return _unpacked(p, target, resolve_global) is not None
    if not (isinstance(p, ast.Assign) and len(p.targets) == 1 and p.targets[0] is target):
        return False
    v = p.value
    if isinstance(v, ast.List):
        return not any(isinstance(e, ast.Starred) for e in v.elts)
    if isinstance(v, ast.ListComp):
        return not any(g.is_async for g in v.generators)
    return _empty_list(v, resolve_global) or list_of(v, resolve_global) is not None


def _empty_list(v, resolve_global) -> bool:
    return isinstance(v, ast.List) and not v.elts or (
        isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and not v.args
        and not v.keywords and resolve_global(v.func.id) is list)


def list_of(v, resolve_global):
    """The iterable of ``list(iterable)``, else None."""
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and len(v.args) == 1 \
            and not v.keywords and not isinstance(v.args[0], ast.Starred) \
            and resolve_global(v.func.id) is list:
        return v.args[0]
    return None


def _unpacked(tup, target, resolve_global):
    """The value a name gets in ``a, b = [], [x, y]`` (a list display), else None."""
    stmt = getattr(tup, "hj_parent", None)
    if not (isinstance(stmt, ast.Assign) and stmt.targets == [tup]
            and isinstance(stmt.value, ast.Tuple)
            and len(stmt.value.elts) == len(tup.elts)):
        return None
    for t, v in zip(tup.elts, stmt.value.elts):
        if t is target:
            return v if _empty_list(v, resolve_global) or isinstance(v, ast.List) and \
                not any(isinstance(e, ast.Starred) for e in v.elts) else None
    return None


def _use(node, parents, resolve_global, fn):
    """``(reason or None, adds)`` for a load of the list's name."""
    for anc in ancestors(node, parents, fn):
        if isinstance(anc, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef)):
            return "it is read by a nested function", False
        if isinstance(anc, ast.For) and is_prange(anc.iter, resolve_global):
            return "it is used in a prange loop, whose iterations would share it", False
    p = parents.get(node)
    q = parents.get(p)
    if isinstance(p, ast.Attribute) and p.value is node:
        call = q if isinstance(q, ast.Call) and q.func is p else None
        if call is None:
            return f"its attribute .{p.attr} is read", False
        if any(isinstance(a, ast.Starred) for a in call.args):
            return "a method is called with *args", False
        if p.attr in LOOKUPS:
            most = 3 if p.attr == "index" else 1    # out.index(x, start, stop)
            return (None if 1 <= len(call.args) <= most and not call.keywords
                    else f"{p.attr}() with these arguments"), False
        if p.attr not in CHANGES:
            return f".{p.attr}() is called on it", False
        lo, hi = CHANGES[p.attr]
        keywords = [k.arg for k in call.keywords]
        if not lo <= len(call.args) <= hi or keywords and (
                p.attr != "sort" or not set(keywords) <= {"reverse", "key"}
                or len(set(keywords)) < len(keywords)
                or any(k.arg == "reverse" and not isinstance(k.value, ast.Constant)
                       for k in call.keywords)):
            return f".{p.attr}() with these arguments", False
        stmt = parents.get(call)
        if p.attr == "pop" and _popped_where(call, stmt, parents):
            return None, False
        if not isinstance(stmt, ast.Expr):
            return f"the result of .{p.attr}() is used inside an expression", False
        return None, p.attr in ("append", "extend", "insert")
    if isinstance(p, ast.Subscript) and p.value is node:
        if isinstance(p.slice, ast.Slice):
            return _slice_use(p, q, parents, resolve_global), False
        if isinstance(p.ctx, ast.Load):
            return None, False
        if isinstance(p.ctx, ast.Store) and (
                isinstance(q, ast.Assign) and q.targets == [p]
                or isinstance(q, ast.AugAssign) and q.target is p):
            return None, True
        if isinstance(p.ctx, ast.Del) and isinstance(q, ast.Delete) and len(q.targets) == 1:
            return None, False                  # del out[i]
        return "an item is deleted with others", False
    while isinstance(q, ast.BinOp) and isinstance(q.op, ast.Add) and q.left is p and \
            isinstance(p, ast.BinOp) and isinstance(p.op, ast.Add):
        p, q = q, parents.get(q)                # (out + [1] + b)
    if isinstance(p, ast.BinOp) and isinstance(q, ast.Assign) and q.value is p and \
            _joined(q, q.targets[0], {node.id}):
        return None, False                      # new = out + other, out * 2 (checked)
    if isinstance(p, ast.AugAssign) and p.value is node and isinstance(p.op, ast.Add) \
            and isinstance(p.target, ast.Name) and p.target.id == node.id:
        return None, True                       # out += out
    if isinstance(p, ast.Call) and p.args == [node] and isinstance(p.func, ast.Attribute) \
            and p.func.attr == "extend" and isinstance(p.func.value, ast.Name):
        return None, False                      # other.extend(out)
    if isinstance(p, ast.Call) and isinstance(q, ast.Assign) and q.value is p and \
            list_of(p, resolve_global) is node and len(q.targets) == 1 and \
            isinstance(q.targets[0], ast.Name):
        return None, False                      # other = list(out): a copy
    if isinstance(p, ast.Call) and isinstance(q, (ast.For, ast.comprehension)) and \
            q.iter is p and list_of(p, resolve_global) is node:
        return None, False                      # for v in list(out): a copy
    if isinstance(p, ast.Call) and node in p.args:
        obj = resolved(p.func, resolve_global)
        one = len(p.args) == 1 and not p.keywords
        if (obj is len or obj is bool) and one:
            return None, False
        if (obj is min or obj is max) and p.args == [node] and p.keywords and \
                {k.arg for k in p.keywords} <= {"key", "default"}:
            return None, False                  # min(out, key=f): a loop over it
        if obj is enumerate and p.args[0] is node and len(p.args) <= 2 and not p.keywords:
            loop = q if isinstance(q, (ast.For, ast.comprehension)) and q.iter is p else None
            return (None if loop is not None else "enumerate() of it is not looped over"), \
                False
        if any(obj is f for f in LOOPED) and p.args[0] is node and (
                one or obj is sum and len(p.args) == 2 and not p.keywords
                or obj is sorted and {k.arg for k in p.keywords} <= {"reverse", "key"}):
            returned = isinstance(q, ast.Return) or isinstance(q, ast.Tuple) and \
                isinstance(parents.get(q), ast.Return)
            named = isinstance(q, ast.Assign) and q.value is p and len(q.targets) == 1 \
                and isinstance(q.targets[0], ast.Name)      # (frontend/sorted_lists.py)
            if obj is sorted and not (returned or named or isinstance(q, ast.For)
                                      and q.iter is p):
                return "sorted() of it is used other than returned, assigned to a name or " \
                    "looped over", False
            return None, False
        if is_numpy_array(obj):
            return (None if one else f"np.{obj.__name__}() of it with a dtype or other "
                    "arguments (NumPy converts Python items with other rules)"), False
        if _numpy_reader(obj):
            return None, False                  # np.mean(out): NumPy's np.asarray(out)
        if isinstance(p.func, ast.Attribute) and p.func.attr in CHANGES:
            return f"it is put into another list (.{p.func.attr}() of it) and used again " \
                "before it is assigned a new list (CPython's list of lists holds the list " \
                "object itself), or the other list is not a compiled list of lists", False
        name = getattr(obj, "__name__", None) or "a function"
        why = getattr(p, "hj_not_inlined", None)    # (frontend/list_passing.py)
        return f"it is passed to {name}()" + (f" ({why})" if why else ""), False
    if isinstance(p, ast.For) and p.iter is node or isinstance(q, ast.For) and q.iter is p \
            and isinstance(p, ast.Call):
        loop = p if isinstance(p, ast.For) else q
        if any(isinstance(n, ast.Name) and n.id == node.id and isinstance(n.ctx, ast.Store)
               for s in loop.body for n in ast.walk(s)):
            return "it is assigned again inside a loop over it", False
    if isinstance(p, (ast.For, ast.comprehension)) and p.iter is node:
        return None, False
    if isinstance(p, ast.Compare) and len(p.ops) == 1 and p.comparators[0] is node \
            and isinstance(p.ops[0], (ast.In, ast.NotIn)):
        return None, False
    if isinstance(p, (ast.If, ast.While, ast.IfExp, ast.Assert)) and p.test is node \
            or isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not) \
            or isinstance(p, ast.BoolOp) and _truth_context(p, parents):
        return None, False
    if isinstance(p, ast.Return) or isinstance(p, ast.Tuple) and isinstance(q, ast.Return) \
            and not any(isinstance(e, ast.Starred) for e in p.elts):
        return None, False
    if isinstance(p, ast.Assign) and p.value is node and len(p.targets) == 1 and \
            isinstance(p.targets[0], ast.Name):
        return None, False                      # other = out: checked in find
    if isinstance(p, ast.Tuple) and isinstance(q, ast.Assign) and q.value is p and \
            len(q.targets) == 1 and isinstance(q.targets[0], ast.Tuple) and \
            len(q.targets[0].elts) == len(p.elts) and isinstance(
                q.targets[0].elts[p.elts.index(node)], ast.Name):
        return None, False                      # a, b = b, a: checked in find
    if isinstance(p, ast.Assign):
        return "it is aliased (another name holds the same list)", False
    if isinstance(p, (ast.Tuple, ast.List)):
        return "it is stored in a tuple or list", False
    if isinstance(p, ast.Compare) and len(p.ops) == 1 and isinstance(p.ops[0], _ORDER) \
            and isinstance(p.left, ast.Name) and isinstance(p.comparators[0], ast.Name):
        return None, False                      # out == other (checked when built)
    if isinstance(p, ast.Compare):
        return "it is compared other than with ==, !=, <, <=, >, >= to another list", False
    return f"it is used in {type(p).__name__.lower()} position", False


_NESTED = ("a list of lists compiles where it is built of new rows (a comprehension or "
           "display of rows, or [] and .append(row)) and used by indexing, len(), loops, "
           "appends, reductions of its rows or return (docs/semantics.md, lists of lists); "
           "one repeated ([[0] * m] * n: every row one list) or used otherwise runs in the "
           "interpreter")


def nested_reason(fn, display):
    """The reason a list display that is an item of a list (``[[0] * m for ...]``,
    ``[[1, 2], [3, 4]]``, ``[[0] * m] * n``) is not compiled, else None."""
    for node in ast.walk(fn):
        items = node.elts if isinstance(node, ast.List) else [node.elt] if isinstance(
            node, ast.ListComp) else []
        for x in items:
            while isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mult):
                x = x.left if isinstance(x.left, ast.List) else x.right
            if any(_at(y, display) for y in [x] + (
                    x.elts if isinstance(x, ast.List) else [])):
                return _NESTED
    return None


def _at(x, display) -> bool:
    """Is ``x`` the display (or a copy of it at the same place in the source)?"""
    return x is display or isinstance(x, ast.List) and getattr(x, "lineno", None) == \
        getattr(display, "lineno", 0) and x.col_offset == getattr(display, "col_offset", -1)


def _truth_context(e, parents) -> bool:
    """Is ``and``/``or`` expression ``e`` read only for its truth (the test of an
    ``if``, ``while``, conditional expression or ``assert``, through other
    ``and``/``or``/``not``), so that a list operand of it is too?"""
    while True:
        p = parents.get(e)
        if isinstance(p, ast.BoolOp) or isinstance(p, ast.UnaryOp) and \
                isinstance(p.op, ast.Not):
            e = p
            continue
        return isinstance(p, (ast.If, ast.While, ast.IfExp, ast.Assert)) and p.test is e


def _slice_use(p, q, parents, resolve_global):
    """None where ``out[a:b]`` (a new list of some items) is only read: returned,
    looped over, reduced (``sum``, ``min`` ...) or handed to NumPy; else why not."""
    if isinstance(p.ctx, ast.Store) or isinstance(p.ctx, ast.Del):
        return "a slice of it is assigned or deleted"
    if isinstance(q, ast.Return) or isinstance(q, ast.Tuple) and \
            isinstance(parents.get(q), ast.Return):
        return None
    if isinstance(q, (ast.For, ast.comprehension)) and q.iter is p:
        return None
    if isinstance(q, ast.Call) and q.args and q.args[0] is p:
        obj = resolved(q.func, resolve_global)
        if len(q.args) == 1 and not q.keywords and (
                any(obj is f for f in LOOPED if f is not sorted) or obj is len
                or is_numpy_array(obj)):
            return None
        if _numpy_reader(obj) and not is_numpy_array(obj):
            return None
    return "a slice of it is used other than returned, looped over, reduced or given " \
        "to NumPy"


def _listlike(v, resolve_global) -> bool:
    """Is ``out += v`` an ``extend``: ``v`` a list or tuple display, a list
    comprehension, a ``range``, or a name (a list itself, checked when built)?
    (``list += array`` is NumPy's ``array + list``.)"""
    if isinstance(v, (ast.List, ast.Tuple, ast.ListComp, ast.Name)):
        return True
    return isinstance(v, ast.Call) and resolved(v.func, resolve_global) is range


def _popped_where(call, stmt, parents) -> bool:
    """Is ``out.pop()`` evaluated first in its statement (which
    ``growable_lists.statement`` builds after it)?  See :func:`popped_value`."""
    while stmt is not None and not isinstance(stmt, ast.stmt):
        stmt = parents.get(stmt)
    return stmt is not None and leftmost(popped_value(stmt)) is call


def popped_value(stmt):
    """The expression of ``stmt`` whose first step may be a ``pop``: the value of
    ``x = ...`` (one target), ``x op= ...`` (a name), ``return ...``, a statement,
    or the item of ``other.append(...)``; else None."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 or isinstance(
            stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) or isinstance(
            stmt, ast.Return):
        return stmt.value
    if isinstance(stmt, ast.Expr):
        v = stmt.value
        if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
                v.func.attr == "append" and isinstance(v.func.value, ast.Name) and \
                len(v.args) == 1 and not v.keywords:
            return v.args[0]
        return v
    return None


def leftmost(e):
    """The part of ``e`` Python evaluates first, following left operands (``pop() *
    n``), the test of a conditional expression and the first argument of a call of
    a name (``float(pop())``)."""
    while e is not None:
        if isinstance(e, ast.BinOp):
            e = e.left
        elif isinstance(e, ast.UnaryOp):
            e = e.operand
        elif isinstance(e, ast.Compare):
            e = e.left
        elif isinstance(e, ast.BoolOp):
            e = e.values[0]
        elif isinstance(e, ast.IfExp):
            e = e.test
        elif isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.args and \
                not isinstance(e.args[0], ast.Starred):
            e = e.args[0]
        else:
            return e
    return None


_WRITERS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal",
                      "put_along_axis"})


def _numpy_reader(obj) -> bool:
    """A NumPy function that reads a positional list argument as ``np.asarray``
    (not a ufunc's method such as ``np.add.at``, nor one that writes into it)."""
    module = getattr(obj, "__module__", None) or ""
    return callable(obj) and not isinstance(obj, type) and (
        module == "numpy" or module.startswith("numpy.")) and \
        getattr(obj, "__name__", "") not in _WRITERS and \
        not hasattr(obj, "__self__")


def is_numpy_array(obj) -> bool:
    import numpy
    return obj is numpy.array or obj is numpy.asarray
