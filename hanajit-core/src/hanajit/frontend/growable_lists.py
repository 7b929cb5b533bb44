"""List locals that grow: ``out = []`` ... ``out.append(x)`` ... ``return out``.

A local name qualifies when every assignment to it is ``name = []``,
``name = list()``, ``name = [x, y, ...]``, a list comprehension or
``list(iterable)`` (or ``name += iterable``), and every read of it is one this
module builds (``growable_list_uses.find`` says why another is not):

* changes, as statements: ``append``, ``extend``, ``insert``, ``pop`` (also
  ``x = name.pop(i)``, ``return name.pop()``, ``other.append(name.pop())``),
  ``remove``, ``del name[i]``, ``clear``, ``reverse``, ``sort`` (``reverse=`` a
  constant), ``name[i] = v``, ``name[i] op= v``;
* reads: ``len``, ``name[i]``, ``for x in name`` (also in ``enumerate`` and in
  comprehensions; items appended by the loop are seen, as in CPython), ``x in
  name``, ``name.index(x)``, ``name.count(x)``, ``sum``/``min``/``max``/``any``/
  ``all``/``sorted``/``math.prod``/``math.fsum`` of it, NumPy functions
  (``np.array(name)``: a new array), its truth; ``return name`` (also in a
  returned tuple); slices ``name[a:b]`` returned, looped over, reduced or given
  to NumPy.

The list is three hidden locals (``lib/python/growable_lists.py``): a buffer
array with spare room ``$lb_name``, the count of items ``$ln_name`` and
``$li_name``, which every item put in is assigned to first, so that its type --
the buffer's dtype -- is the join of the items' types and its kinds say whether
they are Python numbers or NumPy scalars (a returned list holds the same,
``Function.list_items``).  Items of two kinds (``1`` and ``2.5``) fall back.
``append`` stores the item inline and calls the helper that grows the buffer
only when it is full.

A name bound to another such list (``prev = cur``, ``prev, cur = cur, prev``)
is the same list, as in CPython: the names share the buffer (items set in place
show through both), each holds a key of the list it holds (``$lk_name``, from a
count of the lists made), and a change that moves the buffer or its count is
copied to every other name with the same key (:func:`_synced`).  Names bound to
one another share one item local.
"""
from __future__ import annotations

import ast
import builtins
import copy
import math

from . import comprehensions as comps
from .growable_list_uses import CHANGES, LOOKUPS, is_numpy_array, joined_parts, leftmost, \
    list_of, popped_value, rebindings
from .source import resolved
from . import tuple_lists
from ..ir import nodes as N


class Grown:
    """The hidden locals of one list (``group``: the names it may be bound to,
    ``a = b``, which share its item local)."""

    def __init__(self, name, adds, group=()):
        self.name = name
        self.buf, self.n = f"$lb_{name}", f"$ln_{name}"
        self.item = f"$li_{min(group or [name])}"
        self.key = f"$lk_{name}"    # which list the name holds (with peers only)
        self.peers = sorted(p for p in group if p != name)
        self.adds = adds            # does anything put items in?


# ------------------------------------------------------------------ the builder
def setup(b, lists: dict) -> dict:
    """``{name: Grown}`` for the builder ``b``; its hidden locals and callables."""
    from ..lib import registry
    out = {}
    groups = _groups(lists, rebindings(b.fnode, lists))
    for name in lists:
        group = groups.get(name, ())
        adds = any(lists[p] for p in group) or lists[name]
        g = out[name] = Grown(name, adds, group)
        b.injected[tuple_lists.label(name)] = registry.growable_list_callables()["list_new"]
        b.locals.update((g.buf, g.n, g.item) + ((g.key, _COUNT) if g.peers else ()))
        b.locals.discard(name)
    if out:
        for k, f in registry.growable_list_callables().items():
            b.injected["__hj_" + k] = f
        b.injected["__hj_len"] = builtins.len
        b.injected["__hj_range"] = builtins.range
    return out


_COUNT = "$lkc"                     # the lists made so far (their keys)


def _groups(lists, pairs) -> dict:
    """``{name: frozenset of names}`` of the names bound to one another."""
    parent = {n: n for n in lists}

    def root(n):
        while parent[n] != n:
            n = parent[n]
        return n
    for x, y in pairs:
        parent[root(x)] = root(y)
    out = {}
    for n in lists:
        out.setdefault(root(n), set()).add(n)
    return {n: frozenset(out[root(n)]) for n in lists if len(out[root(n)]) > 1}


def prologue(b) -> list:
    """The IR giving each list name bound to another a key no list has (before
    any is made: a name may be unbound when a peer changes)."""
    keyed = sorted(g.key for g in b.grow_lists.values() if g.peers)
    if not keyed:
        return []
    stmts = [_assign(k, ast.Constant(-1 - i)) for i, k in enumerate(keyed)]
    stmts.append(_assign(_COUNT, ast.Constant(0)))
    for st in stmts:
        ast.copy_location(st, b.fnode.body[0])
        ast.fix_missing_locations(st)
    return b.stmts(stmts)


def _fresh(g) -> list:
    """A new list bound to ``g``'s name: its own key."""
    if not g.peers:
        return []
    return [_assign(g.key, _name(_COUNT)), _assign(_COUNT, _plus(_COUNT, 1))]


def _synced(b, g) -> list:
    """After a change of ``g``'s list that may move its buffer or change its count:
    each other name holding the same list (the same key) gets them too.  (Items
    set in place need none: the names share the buffer.)"""
    out = []
    for p in g.peers:
        q = b.grow_lists[p]
        same = ast.Compare(_name(q.key), [ast.Eq()], [_name(g.key)])
        out.append(ast.If(test=same, body=[_assign(q.buf, _name(g.buf)),
                                           _assign(q.n, _name(g.n))], orelse=[]))
    return out


def _bind(b, g, value) -> list:
    """``name = value``: ``other`` (a list name: the same list), or a new list."""
    if isinstance(value, ast.Name):
        src = b.grow_lists.get(value.id)
        if src is None:
            b.fail(value, "list", f"'{g.name} = {value.id}': '{value.id}' is not a list "
                   "held here")
        out = [_assign(g.buf, _name(src.buf)), _assign(g.n, _name(src.n))]
        return out + ([_assign(g.key, _name(src.key))] if g.peers else [])
    return _new(b, g, value) + _fresh(g)


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def _assign(target, value):
    if isinstance(target, str):
        target = _name(target, True)
    return ast.Assign(targets=[target], value=value)


def _call(f, *args):
    return ast.Call(_name(f), list(args), [])


def _plus(n, k):
    return ast.BinOp(_name(n), ast.Add() if k > 0 else ast.Sub(), ast.Constant(abs(k)))


def _checked(name, index, items_like=None):
    """``name[index]`` of an index known to be in range (of the array ``name``
    holding items like the list's whose item local is ``items_like``)."""
    node = ast.Subscript(_name(name), index, ast.Load())
    node.hj_checked = True
    node.hj_items_like = items_like
    return node


def _sliced(b, e):
    """The list of ``e`` when it is ``out[a:b]`` of a growable list, else None."""
    if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Slice) and \
            isinstance(e.value, ast.Name) and e.value.id in b.grow_lists:
        return b.grow_lists[e.value.id]
    return None


def _push(g, value, buf=None, n=None) -> list:
    """``out.append(value)`` (into the buffer ``buf`` holding ``n`` items, the
    list's own by default): a bigger buffer only when full."""
    buf, n = buf or g.buf, n or g.n
    full = ast.Compare(_name(n), [ast.Eq()], [_call("__hj_len", _name(buf))])
    return [_assign(g.item, value),
            ast.If(test=full, body=[_assign(buf, _call("__hj_list_grow", _name(buf),
                                                       _name(n)))], orelse=[]),
            _assign(ast.Subscript(_name(buf), _name(n), ast.Store()), _name(g.item)),
            _assign(n, _plus(n, 1))]


def _temp(b, hint):
    t = b.tmp(hint)
    b.locals.add(t)
    return t


def _extend(b, g, seq) -> list:
    """``out.extend(seq)`` / ``out += seq``: displays item by item, anything else
    a loop appending (its items seen by the loop as CPython's ``extend`` sees
    them; ``out.extend(out)`` the items there before)."""
    if isinstance(seq, (ast.List, ast.Tuple)) and \
            not any(isinstance(e, ast.Starred) for e in seq.elts):
        temps = [_temp(b, "e") for _ in seq.elts]
        out = [_assign(t, e) for t, e in zip(temps, seq.elts)]
        for t in temps:
            out += _push(g, _name(t))
        return out
    if isinstance(seq, ast.ListComp):           # out.extend([f(v) for v in a])
        if any(isinstance(n, ast.Name) and n.id == g.name for n in ast.walk(seq)):
            b.fail(seq, "list comprehension", f"extending '{g.name}' by a comprehension "
                   "that reads it")
        outer = comps.renamed(b, copy.deepcopy(seq))
        out = comps.loops(outer.generators, _push(g, outer.elt), None)
        comps.locate(out, seq)
        return out
    if isinstance(seq, ast.Name) and seq.id == g.name:
        m, j = _temp(b, "m"), _temp(b, "j")
        return [_assign(m, _name(g.n)), ast.For(
            target=_name(j, True), iter=_call("__hj_range", _name(m)),
            body=_push(g, _checked(g.name, _name(j))), orelse=[])]
    x = _temp(b, "x")
    return [ast.For(target=_name(x, True), iter=seq, body=_push(g, _name(x)), orelse=[])]


def _pop(b, g, call, then) -> list:
    """``out.pop(i)``: the item into a temporary, then ``then(temporary)``."""
    i = call.args[0] if call.args else ast.Constant(-1)
    t, v = _temp(b, "p"), _temp(b, "v")
    return [_assign(t, _call("__hj_pop_index", _name(g.n), i)),
            _assign(v, _checked(g.name, _name(t))),
            ast.Expr(_call("__hj_remove_at", _name(g.buf), _name(g.n), _name(t))),
            _assign(g.n, _plus(g.n, -1))] + _synced(b, g) + then(_name(v))


def _method(s):
    """``(name, method, call)`` of a statement ``name.method(...)`` (or of the
    value of ``x = name.pop()`` / ``return name.pop()``), else None."""
    call = s.value if isinstance(s, (ast.Expr, ast.Return, ast.Assign)) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and \
            isinstance(call.func.value, ast.Name):
        return call.func.value.id, call.func.attr, call
    return None


def statement(b, s):
    """The IR of statement ``s`` when it changes or loops over a growable list
    of the builder ``b``, else None."""
    keyed = _sort_by_key(b, s)
    if keyed is not None:
        return keyed + _located(b, s, _synced(b, b.grow_lists[_method(s)[0]]))
    _returned_twice(b, s)
    stmts = _statement(b, s)
    if stmts is None:
        return None
    return _located(b, s, stmts)


def _located(b, s, stmts) -> list:
    """The IR of new statements ``stmts``, at ``s``'s place in the source."""
    for st in stmts:
        ast.copy_location(st, s)
        ast.fix_missing_locations(st)
    return b.stmts(stmts)


def _returned_twice(b, s) -> None:
    """``return a, b`` of two names that may hold one list fails: the caller
    would get two lists where CPython gives one list twice."""
    if not (isinstance(s, ast.Return) and isinstance(s.value, ast.Tuple)):
        return
    seen = {}
    for e in s.value.elts:
        g = b.grow_lists.get(e.id) if isinstance(e, ast.Name) else None
        if g is None:
            continue
        if g.item in seen:
            b.fail(s, "return of lists", f"'{seen[g.item]}' and '{e.id}' may be the "
                   "same list, which the caller would get as two lists")
        seen[g.item] = e.id


def _sort_by_key(b, s):
    """``out.sort(key=f[, reverse=r])``: the IR of ``buf = sorted(out, key=f,
    reverse=r)`` (``frontend/sorted_lists.py``: stable, the keys computed first
    as CPython computes them), else None."""
    from . import sorted_lists
    m = _method(s)
    if not (isinstance(s, ast.Expr) and m is not None and m[0] in b.grow_lists
            and m[1] == "sort" and any(k.arg == "key" for k in m[2].keywords)):
        return None
    node = ast.copy_location(ast.Call(_name("sorted"), [_name(m[0])], m[2].keywords), s)
    call = sorted_lists.parse(node, lambda n: builtins.sorted if n == "sorted"
                              else b._global_object(n))
    if call is None or call.key is None:
        b.fail(s, "list", f"'{m[0]}.sort()' with a key= other than a lambda or a "
               "function's name")
    return [N.Assign(target=b.grow_lists[m[0]].buf, value=sorted_lists.build(b, call))]


def _popped(b, s):
    """``(list, pop call, rebuild(v))`` of a statement whose first step is
    ``list.pop(...)``: ``rebuild`` makes the statement with the popped item ``v``
    in its place."""
    call = leftmost(popped_value(s))
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "pop" and isinstance(call.func.value, ast.Name)
            and call.func.value.id in b.grow_lists):
        return None
    if isinstance(s, ast.Expr) and s.value is call:
        return b.grow_lists[call.func.value.id], call, lambda v: []

    def rebuild(v):
        call.hj_pop = True
        try:
            new = copy.deepcopy(s)
        finally:
            del call.hj_pop
        return [_Swap(v).visit(new)]
    return b.grow_lists[call.func.value.id], call, rebuild


class _Swap(ast.NodeTransformer):
    """Put ``v`` where the marked ``pop`` call was."""

    def __init__(self, v):
        self.v = v

    def visit(self, node):
        if getattr(node, "hj_pop", False):
            return self.v
        return super().visit(node)


def _statement(b, s):
    lists = b.grow_lists
    popped = _popped(b, s)
    if popped is not None:
        return _pop(b, *popped)
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
            isinstance(s.targets[0], ast.Name) and s.targets[0].id in b.grow_refused \
            and s.targets[0].id not in b.list_names and s.targets[0].id not in b.comp_lists:
        name = s.targets[0].id
        b.fail(s, "list", f"'{name}' is a list that compiled code does not hold: "
               f"{b.grow_refused[name]}")
    m = _method(s)
    if m is not None and m[0] in lists and m[1] in CHANGES:
        return _changed(b, lists[m[0]], m[1], m[2]) + _synced(b, lists[m[0]])
    if isinstance(s, ast.Assign) and len(s.targets) == 1:
        t = s.targets[0]
        if isinstance(t, ast.Tuple) and any(isinstance(x, ast.Name) and x.id in lists
                                            for x in t.elts):
            return _new_unpacked(b, t, s.value)
        if isinstance(t, ast.Name) and t.id in lists:
            return _bind(b, lists[t.id], s.value)
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                t.value.id in lists:
            g = lists[t.value.id]
            k = _temp(b, "k")
            return [_assign(g.item, s.value),
                    _assign(k, _position(t, "__hj_store_index", g)),
                    _assign(ast.Subscript(_name(g.buf), _name(k), ast.Store()),
                            _name(g.item))]
    if isinstance(s, ast.AugAssign):
        t = s.target
        if isinstance(t, ast.Name) and t.id in lists and isinstance(s.op, ast.Mult):
            return _new_joined(b, lists[t.id], ast.BinOp(_name(t.id), ast.Mult(), s.value)) \
                + _synced(b, lists[t.id])
        if isinstance(t, ast.Name) and t.id in lists:
            if not isinstance(s.op, ast.Add):
                b.fail(s, "augmented assignment of a list")
            if isinstance(s.value, ast.Name) and s.value.id not in lists:
                b.fail(s, "augmented assignment of a list", f"'{t.id} += {s.value.id}': "
                       f"'{s.value.id}' is not a list here (a NumPy array would add "
                       "itself to the list's items)")
            return _extend(b, lists[t.id], s.value) + _synced(b, lists[t.id])
        if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and \
                t.value.id in lists:
            g = lists[t.value.id]
            k = _temp(b, "k")
            return [_assign(k, _position(t, "__hj_item_index", g)),
                    _assign(g.item, ast.BinOp(_checked(g.name, _name(k)), s.op, s.value)),
                    _assign(ast.Subscript(_name(g.buf), _name(k), ast.Store()),
                            _name(g.item))]
    if isinstance(s, ast.Delete) and len(s.targets) == 1 and \
            isinstance(s.targets[0], ast.Subscript) and \
            isinstance(s.targets[0].value, ast.Name) and s.targets[0].value.id in lists:
        t, g = s.targets[0], lists[s.targets[0].value.id]
        k = _temp(b, "k")
        return [_assign(k, _call("__hj_store_index", _name(g.n), t.slice)),
                ast.Expr(_call("__hj_remove_at", _name(g.buf), _name(g.n), _name(k))),
                _assign(g.n, _plus(g.n, -1))] + _synced(b, g)
    if isinstance(s, ast.For):
        return _loop(b, s)
    return None


def _position(t, check, g):
    """The position ``out[i]`` (a store) writes: ``i`` checked by ``check``, or
    as it is where it is known to be in range (``hj_checked``: a table's cell,
    ``frontend/list_tables.py``)."""
    if getattr(t, "hj_checked", False):
        return t.slice
    return _call(check, _name(g.n), t.slice)


def _changed(b, g, attr, call) -> list:
    """``name.attr(...)`` of a method that changes the list (not ``pop``)."""
    if attr == "append":
        return _push(g, call.args[0])
    if attr == "extend":
        return _extend(b, g, call.args[0])
    if attr == "insert":
        i = _temp(b, "i")
        return [_assign(i, call.args[0]), _assign(g.item, call.args[1]),
                _assign(g.buf, _call("__hj_list_insert", _name(g.buf), _name(g.n),
                                     _name(i), _name(g.item))),
                _assign(g.n, _plus(g.n, 1))]
    if attr == "remove":
        t = _temp(b, "r")
        return [_assign(t, _call("__hj_remove_index", _name(g.buf), _name(g.n),
                                 call.args[0])),
                ast.Expr(_call("__hj_remove_at", _name(g.buf), _name(g.n), _name(t))),
                _assign(g.n, _plus(g.n, -1))]
    if attr == "clear":
        return [_assign(g.n, ast.Constant(0))]
    if attr == "reverse":
        return [ast.Expr(_call("__hj_list_reverse", _name(g.buf), _name(g.n)))]
    reverse = call.keywords[0].value.value if call.keywords else False
    part = ast.Subscript(_name(g.buf), ast.Slice(None, _name(g.n), None), ast.Load())
    return [_assign(g.buf, _call("__hj_sorted", part, ast.Constant(bool(reverse))))]


def _new(b, g, value) -> list:
    """``name = []`` / ``list()`` / ``[x, y]``: the items evaluated first;
    ``[f(x) for x in ...]`` / ``list(iterable)``: built apart, then bound (the
    comprehension may read the list it replaces: ``out = [v for v in out if v]``)."""
    if isinstance(value, ast.BinOp):
        return _new_joined(b, g, value)
    seq = list_of(value, b._global_object)
    if isinstance(value, ast.ListComp) or seq is not None:
        if seq is not None:
            x = _temp(b, "x")
            value = ast.ListComp(elt=_name(x), generators=[ast.comprehension(
                target=_name(x, True), iter=seq, ifs=[], is_async=0)])
        outer = comps.renamed(b, copy.deepcopy(value))
        nb, nn = _temp(b, "nb"), _temp(b, "nn")
        out = [_assign(nb, _call(tuple_lists.label(g.name), _name(g.item))),
               _assign(nn, ast.Constant(0))]
        out += comps.loops(outer.generators, _push(g, outer.elt, nb, nn), None)
        out += [_assign(g.buf, _name(nb)), _assign(g.n, _name(nn))]
        comps.locate(out, value)
        return out
    elts = value.elts if isinstance(value, ast.List) else []
    temps = [_temp(b, "e") for _ in elts]
    out = [_assign(t, e) for t, e in zip(temps, elts)]
    if not g.adds:                  # (never given items: any type; NumPy's float64)
        out.append(_assign(g.item, ast.Constant(0.0)))
    out += [_assign(g.buf, _call(tuple_lists.label(g.name), _name(g.item))),
            _assign(g.n, ast.Constant(0))]
    for t in temps:
        out += _push(g, _name(t))
    return out


def _new_joined(b, g, value) -> list:
    """``name = a + b`` / ``a * k`` / ``k * a`` / ``[i] + [0] * m`` (lists or
    displays): the operands evaluated left to right (each count as its product
    is made), then a new buffer of their items (``out = out * 2`` reads the old
    one), then bound."""
    parts = joined_parts(value, b.grow_lists)
    out, temps = [], {}
    for x, count in parts:
        order = [x] if count is None else [value.left, value.right] if len(parts) == 1 \
            else _operands(value, x)
        for y in order:
            if isinstance(y, ast.List):
                temps[id(y)] = [_temp(b, "e") for _ in y.elts]
                out += [_assign(t, e) for t, e in zip(temps[id(y)], y.elts)]
            elif y is count:
                temps[id(y)] = _temp(b, "c")
                out.append(_assign(temps[id(y)], _call("__hj_repeat_count", y)))
    if all(isinstance(x, ast.List) and not x.elts for x, _ in parts):
        return out + _new(b, g, ast.List([], ast.Load()))      # [] * n
    nb, nn = _temp(b, "nb"), _temp(b, "nn")
    out += [_assign(nb, _call(tuple_lists.label(g.name), _name(g.item))),
            _assign(nn, ast.Constant(0))]
    for x, count in parts:
        if isinstance(x, ast.List):
            body = []
            for t in temps[id(x)]:
                body += _push(g, _name(t), nb, nn)
        else:
            m, j = _temp(b, "m"), _temp(b, "j")
            body = [_assign(m, _name(b.grow_lists[x.id].n)), ast.For(
                target=_name(j, True), iter=_call("__hj_range", _name(m)),
                body=_push(g, _checked(x.id, _name(j)), nb, nn), orelse=[])]
        if count is not None:
            body = [ast.For(target=_name(_temp(b, "r"), True), iter=_call(
                "__hj_range", _name(temps[id(count)])), body=body, orelse=[])]
        out += body
    return out + [_assign(g.buf, _name(nb)), _assign(g.n, _name(nn))]


def _operands(value, x) -> list:
    """The two operands, in order, of the product in ``value`` that repeats ``x``."""
    for node in ast.walk(value):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult) and \
                x in (node.left, node.right):
            return [node.left, node.right]
    raise AssertionError("no product repeats the list")


def _new_unpacked(b, targets, values) -> list:
    """``a, out = x, []`` / ``prev, cur = cur, prev``: the values evaluated first
    (a list name's hidden locals read), then assigned in order."""
    lists = b.grow_lists
    out, then = [], []
    for t, v in zip(targets.elts, values.elts):
        g = lists.get(t.id) if isinstance(t, ast.Name) else None
        if g is not None and isinstance(v, ast.Name):
            src = lists.get(v.id)
            if src is None:
                b.fail(v, "list", f"'{t.id} = {v.id}': '{v.id}' is not a list held here")
            parts = [(g.buf, src.buf), (g.n, src.n)] + ([(g.key, src.key)] if g.peers
                                                        else [])
            for dst, part in parts:
                e = _temp(b, "e")
                out.append(_assign(e, _name(part)))
                then.append(_assign(dst, _name(e)))
        elif g is not None:                         # (a display: its items first)
            items = [_temp(b, "e") for _ in getattr(v, "elts", ())]
            out += [_assign(e, x) for e, x in zip(items, v.elts)] if items else []
            shown = ast.List([_name(e) for e in items], ast.Load()) if items else v
            then += _new(b, g, shown) + _fresh(g)
        else:
            e = _temp(b, "e")
            out.append(_assign(e, v))
            then.append(_assign(t, _name(e)))
    return out + then


def _loop(b, s):
    """``for x in name`` (or ``enumerate(name[, start])``): a loop by position
    that reads the count each time, so it sees the items the body appends (or
    stops early after a ``pop``), as CPython's list iterator does."""
    it, start = s.iter, None
    if isinstance(it, ast.Call) and _callee(b, it.func) is enumerate \
            and it.args and isinstance(it.args[0], ast.Name) \
            and it.args[0].id in b.grow_lists:
        start = it.args[1] if len(it.args) > 1 else ast.Constant(0)
        it = it.args[0]
    pre = []
    copied = list_of(it, b._global_object)
    if isinstance(copied, ast.Name) and copied.id in b.grow_lists:   # list(out): out[:]
        it = ast.copy_location(ast.Subscript(copied, ast.Slice(None, None, None),
                                             ast.Load()), it)
    g = _sliced(b, it)
    if g is not None:               # for v in out[a:b]: a copy of those items
        seq = _temp(b, "s")
        pre.append(_assign(seq, ast.Call(ast.Attribute(it, "copy", ast.Load()), [], [])))
    elif isinstance(it, ast.Name) and it.id in b.grow_lists:
        g, seq = b.grow_lists[it.id], it.id
    else:
        return None
    k = _temp(b, "k")
    item = _checked(seq, _name(k), g.item)
    pre.append(_assign(k, ast.Constant(0)))
    if start is not None:
        c = _temp(b, "c")
        pre.append(_assign(c, start))
        item = ast.Tuple([ast.BinOp(_name(k), ast.Add(), _name(c)), item], ast.Load())
    body = [_assign(s.target, item), _assign(k, _plus(k, 1))] + s.body
    test = ast.Compare(_name(k), [ast.Lt()], [_call("__hj_len", _name(seq))])
    return pre + [ast.While(test=test, body=body, orelse=s.orelse)]


# --------------------------------------------------------------- expressions
def _callee(b, f):
    if isinstance(f, ast.Name) and f.id in b.injected:
        return b.injected[f.id]
    return resolved(f, b._global_object)


def item(b, e):
    """``name[i]`` of a growable list (a load); ``name[a:b]``, the array of those
    items; an item of a copy of them (``hj_items_like``)."""
    if getattr(e, "hj_items_like", None) and e.value.id not in b.grow_lists:
        return N.PyGetItem(b.expr(e.value), b.expr(e.slice), kind="list",
                           items_like=e.hj_items_like)
    g = b.grow_lists[e.value.id]
    if isinstance(e.slice, ast.Slice):
        return N.PyGetItem(_items(g), b.index(e.slice))
    index = b.expr(e.slice)
    if not getattr(e, "hj_checked", False):
        index = N.PyCall(callee=b.injected["__hj_item_index"], args=[N.Var(g.n), index],
                         name="list index")
    return N.PyGetItem(N.Var(g.buf), index, kind="list", items_like=g.item)


def _items(g):
    """``buf[:n]``: the items, as an array."""
    return N.PyGetItem(N.Var(g.buf), N.PySlice(N.Const(None), N.Var(g.n), N.Const(None)))


def call(b, e):
    """``len(name)``, ``name.index(x)``, ``name.count(x)``, ``np.array(name)``,
    ``any(name)`` ... of a growable list, else None."""
    lists = b.grow_lists
    f = e.func
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in lists:
        g = lists[f.value.id]
        if f.attr not in LOOKUPS:
            b.fail(e, f"list method .{f.attr}()", "its result is used inside an expression")
        return N.PyCall(callee=b.injected["__hj_" + LOOKUPS[f.attr]], args=[
            N.Var(g.buf), N.Var(g.n)] + [b.expr(a) for a in e.args],
            name=f"list.{f.attr}")
    if not (e.args and (isinstance(e.args[0], ast.Name) and e.args[0].id in lists
                        or _sliced(b, e.args[0]) is not None)):
        return None
    g = lists[e.args[0].id] if isinstance(e.args[0], ast.Name) else None
    obj = _callee(b, f)
    if g is None and (obj is len or is_numpy_array(obj)):
        return None                 # len(out[a:b]), np.array(out[a:b]): of the array
    if obj is len:
        return N.Var(g.n)
    if obj is bool and g is not None and len(e.args) == 1 and not e.keywords:
        return non_empty(b, e.args[0])              # bool(out)
    if is_numpy_array(obj) and len(e.args) == 1 and not e.keywords:
        return as_array(b, e.args[0])
    if (obj is min or obj is max) and any(k.arg == "key" for k in e.keywords):
        return None                     # min(out, key=f): key_functions' loop over it
    if obj in (any, all, math.prod, math.fsum, min, max) or obj is sum:
        x = _temp(b, "x")
        gen = ast.GeneratorExp(elt=_name(x), generators=[ast.comprehension(
            target=_name(x, True), iter=e.args[0], ifs=[], is_async=0)])
        new = ast.Call(f, [gen] + e.args[1:], e.keywords)
        ast.copy_location(new, e)
        ast.fix_missing_locations(new)
        return b.expr(new)
    return None


def as_array(b, e):
    """NumPy's array of the list ``e`` (or of ``e[a:b]``: a new one; float64 when
    empty: re-runs in the interpreter for other items), or None for anything else."""
    if _sliced(b, e) is not None:
        part = b.expr(e)
        return N.PyCall(callee=b.injected["__hj_list_array"], args=[
            part, N.PyCall(callee=len, args=[part], name="len")], name="np.asarray")
    if not (isinstance(e, ast.Name) and e.id in b.grow_lists):
        return None
    g = b.grow_lists[e.id]
    return N.PyCall(callee=b.injected["__hj_list_array"], args=[N.Var(g.buf), N.Var(g.n)],
                    name="np.asarray")


def contains(b, e):
    """``x in name`` / ``x not in name``, else None."""
    if not (len(e.ops) == 1 and isinstance(e.ops[0], (ast.In, ast.NotIn))
            and isinstance(e.comparators[0], ast.Name)
            and e.comparators[0].id in b.grow_lists):
        return None
    g = b.grow_lists[e.comparators[0].id]
    found = N.PyCall(callee=b.injected["__hj_list_contains"], args=[
        N.Var(g.buf), N.Var(g.n), b.expr(e.left)], name="in")
    return found if isinstance(e.ops[0], ast.In) else N.PyUnOp("not", found)


_ORDER = {ast.Eq: 0, ast.NotEq: 1, ast.Lt: 2, ast.LtE: 3, ast.Gt: 4, ast.GtE: 5}


def compare(b, e):
    """``out == other``, ``out < other`` ... of a growable list (``other`` one too:
    a display compared is one, ``hoisted_calls.py``), else None."""
    if not (len(e.ops) == 1 and type(e.ops[0]) in _ORDER):
        return None
    pair = [e.left, e.comparators[0]]
    if not any(isinstance(x, ast.Name) and x.id in b.grow_lists for x in pair):
        return None
    args, items = [], []
    for x in pair:
        if not (isinstance(x, ast.Name) and x.id in b.grow_lists):
            b.fail(e, "list comparison", "a list compared with something not known to "
                   "be a list here")
        g = b.grow_lists[x.id]
        args += [N.Var(g.buf), N.Var(g.n)]
        items.append(g.item)
    node = N.PyCall(callee=b.injected["__hj_list_compare"], args=args + [
        N.Const(_ORDER[type(e.ops[0])])], name="list comparison")
    node.hj_items = items           # (NumPy scalar items: lib/python/growable_lists.py)
    return node


def non_empty(b, e):
    """``name`` in a truth context: it has items."""
    if isinstance(e, ast.Name) and e.id in b.grow_lists:
        return N.PyCompare(["ne"], [N.Var(b.grow_lists[e.id].n), N.Const(0)])
    return None


def value(b, e, built):
    """The array of items the caller gets for ``return name`` (``built["item"]``:
    the local holding its items), else None."""
    g = _sliced(b, e)
    if g is not None:               # return out[a:b]
        built["item"] = g.item
        return b.expr(e)
    if not (isinstance(e, ast.Name) and e.id in b.grow_lists):
        return None
    g = b.grow_lists[e.id]
    built["item"] = g.item
    return _items(g)


def is_slice(b, e) -> bool:
    """Is ``e`` ``out[a:b]`` of a growable list (a list the caller may get)?"""
    return _sliced(b, e) is not None
