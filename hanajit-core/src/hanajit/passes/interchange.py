"""Loop interchange and tiling of accumulation nests (``f.evolve()`` genes).

Runs on the entry function's typed Python-level IR, after inference and before
``lower_semantics``, and only when ``hanajit.evolve`` compiles with a ``strategy``
option: ``find_nests`` lists the nests it can prove safe to reorder (the evolve
genome gets one gene per nest), ``interchange_loops`` rewrites the ones the
strategy names.

A *nest* is a perfect nest of ``for v in range(s, n)`` loops (constant ``s >= 0``,
step 1, each ``n`` an int64 that no loop of the nest changes: rectangular bounds)
around one accumulation into an array element::

    for i: for j: for k:                        for i: for j:
        c[i, j] += a[i, k] * b[k, j]     or         s = 0.0
                                                    for k:
                                                        s += a[i, k] * b[k, j]
                                                    c[i, j] = s

The loops indexing ``c`` (one per axis, each once) are the *element* loops, the
others the *reduction* loops.  The update may read scalars no loop of the nest
assigns, loop counters, elements of other arrays indexed by counters or constants,
and ``c`` only at the element being written (and not at all in the local
accumulator form, where such a read sees the old value, not the partial sum); its operations are ``+ - *``, unary
``-`` and conversions to float: nothing that can raise, call or exit early.

Why reordering keeps every bit: each element ``c[p]`` receives the same updates,
the same expressions, in the same order -- the lexicographic order of the reduction
counters -- in any loop order that keeps the reduction loops in their relative
order; nothing else is written, and the other arrays are only read.  Tiling
(strip-mining a loop and moving the tile loop outermost) keeps that order for an
element loop, and for the outermost reduction loop (its tile loop runs in
increasing order, outside every other reduction loop).  The local accumulator form
is first promoted: ``c[p] = s0`` for every element, then ``c[p] = c[p] + ...``
(``s`` and ``c`` must have the same type, so each intermediate is the same value
stored and reloaded).

What the proof needs and cannot see at compile time is checked at run time: the
rewritten nest runs only when every loop runs at least once and every index is
within bounds (so nothing raises, and the counters and ``s`` end with the values
the original leaves: those of the last corner), and ``c`` shares no memory with any
array the update reads; otherwise the original nest runs::

    if <guard>:                             (interchanged to i, k, j)
        for i: for k: for j: c[i, j] = c[i, j] + a[i, k] * b[k, j]
    else:
        <the original nest>
"""
from __future__ import annotations

import copy
import itertools

from ..ir import nodes as N
from ..ir import types as T
from .inline import Lowered

I = T.INT64
MAX_DEPTH = 4
_OPS = ("add", "sub", "mul")


class Nest:
    """One reorderable nest found by ``find_nests``."""

    def __init__(self, stmt, loops, target, index, update, store, init=None, acc=None):
        self.stmt = stmt                  # the outermost loop statement
        self.loops = loops                # PyForRange, element loops then reductions
        self.names = [lp.target for lp in loops]
        self.target = target              # Var of the array written
        self.index = index                # counter name per axis of ``target``
        self.update = update              # the value stored each innermost iteration
        self.store = store                # the PySetItem (its index expression is kept)
        self.init = init                  # local accumulator form: s's initial value
        self.acc = acc                    # and its name
        self.reductions = [n for n in self.names if n not in index]

    def orders(self) -> list:
        """Loop orders that keep the reduction loops' relative order (identity
        first)."""
        red = self.reductions
        out = []
        for perm in itertools.permutations(self.names):
            if [n for n in perm if n in red] == red:
                out.append(perm)
        out.sort(key=lambda p: p != tuple(self.names))
        return out

    def tileable(self, order) -> list:
        """Per position of ``order``: may that loop be tiled?"""
        first = self.reductions[0] if self.reductions else None
        return [n not in self.reductions or n == first for n in order]

    def describe(self) -> str:
        return f"line {self.stmt.line} ({', '.join(self.names)})"


# ------------------------------------------------------------------ recognition
def find_nests(fn: N.Function) -> list:
    """The nests of ``fn`` that ``interchange_loops`` can reorder, in source order,
    each with the statement list holding it and its position there."""
    out = []

    def scan(body):
        for pos, s in enumerate(body):
            nest = _match(s, fn) if isinstance(s, N.PyForRange) else None
            if nest is not None:
                out.append((body, pos, nest))
                continue
            for attr in ("then", "orelse", "body"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    scan(sub)

    scan(fn.body)
    return out


def _loop_ok(s, fn) -> bool:
    return (isinstance(s, N.PyForRange) and not s.orelse
            and fn.locals.get(s.target) == I
            and isinstance(s.step, N.Const) and s.step.value == 1
            and isinstance(s.start, N.Const) and type(s.start.value) is int
            and s.start.value >= 0 and _stop_form(s.stop, fn))


def _stop_form(e, fn) -> bool:
    """An int64 bound that is cheap and pure to evaluate again: a constant, a
    variable, or ``arr.shape[k]``."""
    if getattr(e, "type", None) != I:
        return False
    if isinstance(e, N.Const):
        return type(e.value) is int
    if isinstance(e, N.Var):
        return fn.locals.get(e.name) == I
    return (isinstance(e, N.PyGetItem) and isinstance(e.index, N.Const)
            and type(e.index.value) is int and e.index.value >= 0
            and isinstance(e.value, N.PyAttr) and e.value.attr == "shape"
            and isinstance(e.value.value, N.Var)
            and isinstance(e.value.value.type, T.ArrayType)
            and e.index.value < e.value.value.type.ndim)


def _perfect(s, fn) -> list:
    """The loops of the perfect nest starting at ``s`` (at most MAX_DEPTH)."""
    loops = []
    while _loop_ok(s, fn) and len(loops) < MAX_DEPTH:
        loops.append(s)
        if len(s.body) == 1 and isinstance(s.body[0], N.PyForRange):
            s = s.body[0]
        else:
            break
    return loops


def _match(top, fn):
    loops = _perfect(top, fn)
    if not loops:
        return None
    outer = {lp.target for lp in loops}
    body, temps = _index_temps(loops[-1].body, outer, fn)
    if len(body) == 1 and isinstance(body[0], N.PySetItem):       # c[p] op= ...
        store = _with_temps(body[0], temps)
        return _check(top, fn, loops, store, store.value)
    if (len(body) == 3 and isinstance(body[0], N.Assign)
            and isinstance(body[1], N.PyForRange) and isinstance(body[2], N.PySetItem)):
        init, store = body[0], _with_temps(body[2], temps)
        acc = init.target
        red = _perfect(body[1], fn)
        if not red or len(loops) + len(red) > MAX_DEPTH:
            return None
        inner = red[-1].body
        if not (len(inner) == 1 and isinstance(inner[0], N.Assign)
                and inner[0].target == acc
                and isinstance(store.value, N.Var) and store.value.name == acc):
            return None
        if not (_leaf(init.value) and not _reads(
                init.value, {acc} | {lp.target for lp in loops + red})):
            return None
        nest = _check(top, fn, loops + red, store, inner[0].value, init.value, acc)
        if nest is None or fn.locals.get(acc) != nest.target.type.dtype \
                or init.value.type != fn.locals.get(acc) \
                or inner[0].value.type != fn.locals.get(acc) \
                or set(nest.index) != outer:
            return None
        return nest
    return None


def _index_temps(body, counters, fn):
    """``body`` without the frontend's index temporaries (``$k = i`` before
    ``c[$k] += ...``: a counter copied, assigned once and read only by the
    statement after it) and the substitution they stand for."""
    temps, out = {}, []
    for pos, s in enumerate(body):
        if (isinstance(s, N.Assign) and s.target.startswith("$") and not s.inplace
                and isinstance(s.value, N.Var) and s.value.name in counters
                and pos + 1 < len(body) and _only_use(fn, s.target, s, body[pos + 1])):
            temps[s.target] = s.value
        else:
            out.append(s)
    return out, temps


def _only_use(fn, name, assign, user) -> bool:
    inside = {id(x) for x in N.walk_stmts([user])}
    for s in N.walk_stmts(fn.body):
        if s is assign:
            continue
        if getattr(s, "target", None) == name:
            return False
        if id(s) not in inside and any(
                _reads(e, {name}) for e in N.stmt_exprs(s) if e is not None):
            return False
    return True


def _with_temps(store, temps):
    if not temps:
        return store
    def sub(e):
        if isinstance(e, N.Var) and e.name in temps:
            return N.Var(temps[e.name].name, temps[e.name].type)
        c = _shallow(e)
        kids = e.children()
        if kids:
            c.replace_children([sub(k) for k in kids])
        return c
    return N.PySetItem(target=store.target, index=sub(store.index),
                       value=sub(store.value), line=store.line)


def _leaf(e) -> bool:
    return isinstance(e, (N.Const, N.Var)) and isinstance(e.type, T.Scalar)


def _reads(e, names) -> bool:
    return any(isinstance(x, N.Var) and x.name in names for x in N.walk_expr(e))


def _index_items(e) -> list | None:
    if isinstance(e, N.MakeTuple):
        return list(e.items)
    if isinstance(e, (N.Var, N.Const)):
        return [e]
    return None


def _check(top, fn, loops, store, update, init=None, acc=None):
    names = [lp.target for lp in loops]
    if len(set(names)) != len(names):
        return None
    assigned = set(names) | ({acc} if acc else set())
    for lp in loops:                                   # rectangular bounds
        if _reads(lp.stop, assigned):
            return None
    c = store.target
    ct = getattr(c, "type", None)
    if not (isinstance(c, N.Var) and isinstance(ct, T.ArrayType) and not ct.readonly
            and (ct.dtype.is_float or ct.dtype.is_int) and not ct.dtype.is_bool):
        return None
    items = _index_items(store.index)
    if (items is None or len(items) != ct.ndim
            or not all(isinstance(x, N.Var) and x.name in names for x in items)):
        return None
    index = [x.name for x in items]
    if len(set(index)) != len(index) or update.type != ct.dtype:
        return None
    if c.name in assigned or not _pure(update, c.name, index, names, assigned, acc):
        return None
    return Nest(top, loops, c, index, update, store, init, acc)


def _pure(e, cname, index, names, assigned, acc) -> bool:
    """Can ``e`` be evaluated in any order of the nest's iterations, with the same
    value and without raising?"""
    if isinstance(e, N.Const):
        return isinstance(e.type, T.Scalar)
    if isinstance(e, N.Var):
        t = e.type
        if not isinstance(t, T.Scalar) or t.is_complex:
            return False
        return e.name in names or e.name == acc or e.name not in assigned
    if isinstance(e, N.PyBinOp):
        return (e.op in _OPS and isinstance(e.type, T.Scalar) and not e.type.is_complex
                and _pure(e.left, cname, index, names, assigned, acc)
                and _pure(e.right, cname, index, names, assigned, acc))
    if isinstance(e, N.PyUnOp):
        return (e.op in ("neg", "pos") and isinstance(e.type, T.Scalar)
                and not e.type.is_bool
                and _pure(e.operand, cname, index, names, assigned, acc))
    if isinstance(e, N.Cast):
        return (isinstance(e.type, T.Scalar) and e.type.is_float
                and not getattr(e.operand.type, "is_complex", True)
                and _pure(e.operand, cname, index, names, assigned, acc))
    if isinstance(e, N.PyGetItem):
        arr = e.value
        at = getattr(arr, "type", None)
        if not (isinstance(arr, N.Var) and isinstance(at, T.ArrayType)
                and isinstance(e.type, T.Scalar)):
            return False
        items = _index_items(e.index)
        if items is None or len(items) != at.ndim:
            return False
        for x in items:
            if isinstance(x, N.Var):
                if x.name not in names:
                    return False
            elif not (isinstance(x, N.Const) and type(x.value) is int and x.value >= 0):
                return False
        if arr.name == cname:     # c only at the element written, and not at all
            # in the local-sum form (it reads the old value there: promoting
            # ``s`` into ``c`` would make it read the partial sum)
            return acc is None and [getattr(x, "name", None) for x in items] == index
        return True
    return False


def nest_plan(genes) -> dict:
    """The ``strategy["nests"]`` option from one gene per nest, ``(order, tile,
    ...)`` (``hanajit.evolve``'s nest genes); nests whose gene is all zeros keep
    their source order and are not tiled."""
    return {k: {"order": gene[0], "tiles": tuple(gene[1:])}
            for k, gene in enumerate(genes) if any(gene)}


# ------------------------------------------------------------------ the rewrite
def interchange_loops(fn: N.Function, ctx) -> bool:
    """Record the reorderable nests of ``fn`` (``fn.nests``: per nest its place,
    its legal orders and which loops of each may be tiled) and rewrite those
    named by ``ctx.options["strategy"]["nests"]``:
    ``{k: {"order": i, "tiles": (t, ...)}}``, order ``i`` of ``Nest.orders()``
    and one tile size per loop of that order (0: not tiled)."""
    try:
        found = find_nests(fn)
    except Exception:  # noqa: BLE001 -- an IR shape the matcher did not foresee:
        found = []     # no nest genes, never a failed compilation
    fn.nests = [{"where": n.describe(), "orders": n.orders(),
                 "tileable": [tuple(n.tileable(o)) for o in n.orders()]}
                for _, _, n in found]
    plan = ((ctx.options.get("strategy") or {}).get("nests") or {}) if ctx else {}
    fn.interchange_guards = []
    changed = False
    for k, (body, pos, nest) in enumerate(found):
        gene = plan.get(k)
        if not gene:
            continue
        orders = nest.orders()
        order = orders[gene.get("order", 0) % len(orders)]
        ok = nest.tileable(order)
        given = (tuple(gene.get("tiles", ())) + (0,) * len(order))[:len(order)]
        tiles = [int(t) if t and ok[p] else 0 for p, t in enumerate(given)]
        if order == tuple(nest.names) and not any(tiles):
            continue
        body[pos] = _rewrite(fn, nest, order, tiles)
        changed = True
    return changed


def _rewrite(fn, nest, order, tiles):
    by_name = {lp.target: lp for lp in nest.loops}
    store = nest.store
    if nest.acc is None:
        inner = [N.PySetItem(target=_var(nest.target), index=_copy(store.index),
                             value=_copy(nest.update), line=store.line)]
        fast = []
    else:
        elem = lambda: N.PyGetItem(_var(nest.target), _copy(store.index),
                                   nest.target.type.dtype)
        inner = [N.PySetItem(target=_var(nest.target), index=_copy(store.index),
                             value=_subst(nest.update, nest.acc, elem),
                             line=store.line)]
        init = [N.PySetItem(target=_var(nest.target), index=_copy(store.index),
                            value=_copy(nest.init), line=store.line)]
        for name in reversed([n for n in nest.names if n in nest.index]):
            init = [_loop(by_name[name], name, _copy(by_name[name].start),
                          _copy(by_name[name].stop), init)]
        fast = init
    # point loops, innermost first, then the tile loops outside them
    body = inner
    tile_vars = {}
    for p, name in enumerate(order):
        if tiles[p]:
            tile_vars[name] = fn.new_temp(I, "tile")
    for name in reversed(order):
        lp = by_name[name]
        if name in tile_vars:
            tv, t = tile_vars[name], tiles[order.index(name)]
            end = N.BinOp("add", N.Var(tv, I), N.Const(t, I), I)
            stop = N.Select(N.Cmp("lt", end, _prim(lp.stop), T.BOOL),
                            N.BinOp("add", N.Var(tv, I), N.Const(t, I), I),
                            _prim(lp.stop), I)
            body = [_loop(lp, name, N.Var(tv, I), Lowered(stop), body)]
        else:
            body = [_loop(lp, name, _copy(lp.start), _copy(lp.stop), body)]
    for name in reversed([n for n in order if n in tile_vars]):
        lp = by_name[name]
        body = [N.PyForRange(target=tile_vars[name], start=_copy(lp.start),
                             stop=_copy(lp.stop),
                             step=N.Const(tiles[order.index(name)], I),
                             body=body, line=lp.line)]
    fast = fast + body
    if nest.acc is not None:      # s ends as the original leaves it: the last element
        last = {lp.target: N.BinOp("sub", _prim(lp.stop), N.Const(1, I), I)
                for lp in nest.loops}
        idx = [Lowered(last[n]) for n in nest.index]
        index = idx[0] if len(idx) == 1 else N.MakeTuple(idx, store.index.type)
        fast.append(N.Assign(target=nest.acc, value=N.PyGetItem(
            _var(nest.target), index, nest.target.type.dtype), line=store.line))
    guard = _guard(nest)
    fn.interchange_guards.append(guard)
    return N.If(cond=Lowered(guard), then=fast, orelse=[nest.stmt], line=nest.stmt.line)


def drop_proven_checks(fn: N.Function) -> bool:
    """After ``lower_semantics``: remove the index checks of the rewritten nests.

    The guard of a rewritten nest proves every index inside it in bounds (each
    counter stays below a bound the guard compared with every axis it indexes; a
    tile's end is ``min(tile + t, bound)``), so its ``if index >= size: raise
    IndexError`` checks can never fire -- and they keep LLVM from vectorising the
    inner loop.  Found by identity: the lowered ``If`` has the guard object itself
    as its condition."""
    guards = getattr(fn, "interchange_guards", None)
    if not guards:
        return False
    changed = False
    for s in N.walk_stmts(fn.body):
        if isinstance(s, N.If) and any(s.cond is g for g in guards):
            changed |= _strip(s.then)
    return changed


def _strip(body) -> bool:
    keep = [s for s in body if not (
        isinstance(s, N.If) and not s.orelse and len(s.then) == 1
        and isinstance(s.then[0], N.Raise) and s.then[0].exc is IndexError)]
    changed = len(keep) != len(body)
    body[:] = keep
    for s in body:
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list):
                changed |= _strip(sub)
    return changed


def _loop(lp, name, start, stop, body):
    return N.PyForRange(target=name, start=start, stop=stop, step=N.Const(1, I),
                        body=body, line=lp.line)


def _var(v):
    return N.Var(v.name, v.type)


def _copy(e):
    """A fresh copy of expression tree ``e`` (types and other fields shared)."""
    return _subst(e, None, None)


def _shallow(e):
    return copy.copy(e)


def _subst(e, name, make):
    """A copy of ``e`` with every ``Var`` ``name`` replaced by a fresh ``make()``."""
    if isinstance(e, N.Var) and e.name == name:
        return make()
    c = _shallow(e)
    kids = e.children()
    if kids:
        c.replace_children([_subst(k, name, make) for k in kids])
    return c


# ------------------------------------------------------------------ the guard
def _prim(stop):
    """A loop bound (``_stop_form``) as a primitive int64 expression."""
    if isinstance(stop, N.Const):
        return N.Const(stop.value, I)
    if isinstance(stop, N.Var):
        return N.Var(stop.name, I)
    arr = stop.value.value
    return N.ArrayAttr(N.Var(arr.name, arr.type), "shape", stop.index.value, I)


def _and(a, b):
    return b if a is None else N.BinOp("and", a, b, T.BOOL)


def _accesses(nest):
    """(array Var, index items) of every element the nest reads or writes."""
    out = [(nest.target, _index_items(nest.store.index))]
    for x in N.walk_expr(nest.update):
        if isinstance(x, N.PyGetItem):
            out.append((x.value, _index_items(x.index)))
    return out


def _guard(nest):
    """Every loop runs, every index is in bounds, ``c`` overlaps nothing read."""
    stops = {lp.target: lp for lp in nest.loops}
    g = None
    for lp in nest.loops:
        g = _and(g, N.Cmp("gt", _prim(lp.stop), N.Const(lp.start.value, I), T.BOOL))
    for arr, items in _accesses(nest):
        for axis, x in enumerate(items):
            dim = N.ArrayAttr(_var(arr), "shape", axis, I)
            if isinstance(x, N.Var):
                g = _and(g, N.Cmp("le", _prim(stops[x.name].stop), dim, T.BOOL))
            else:
                g = _and(g, N.Cmp("lt", N.Const(x.value, I), dim, T.BOOL))
    seen = set()
    for arr, _ in _accesses(nest)[1:]:
        if arr.name != nest.target.name and arr.name not in seen:
            seen.add(arr.name)
            g = _and(g, disjoint(nest.target, arr))
    return g


def extent(a):
    """(first byte, one past the last byte, non-empty) of the memory ``a`` spans."""
    t = a.type
    lo = hi = N.ArrayAttr(_var(a), "data", 0, I)
    nonempty = N.Const(True, T.BOOL)
    for k in range(t.ndim):
        span = N.BinOp("mul", N.BinOp("sub", N.ArrayAttr(_var(a), "shape", k, I),
                                      N.Const(1, I), I),
                       N.ArrayAttr(_var(a), "stride", k, I), I)
        neg = N.Cmp("lt", span, N.Const(0, I), T.BOOL)
        lo = N.BinOp("add", lo, N.Select(neg, span, N.Const(0, I), I), I)
        hi = N.BinOp("add", hi, N.Select(neg, N.Const(0, I), span, I), I)
        nonempty = N.BinOp("and", nonempty, N.Cmp(
            "gt", N.ArrayAttr(_var(a), "shape", k, I), N.Const(0, I), T.BOOL), T.BOOL)
    hi = N.BinOp("add", hi, N.Const(max(1, t.dtype.bits // 8), I), I)
    return lo, hi, nonempty


def disjoint(a, b):
    alo, ahi, ane = extent(a)
    blo, bhi, bne = extent(b)
    meet = N.BinOp("and", N.Cmp("lt", alo, bhi, T.BOOL), N.Cmp("lt", blo, ahi, T.BOOL),
                   T.BOOL)
    return N.UnOp("not", N.BinOp("and", N.BinOp("and", ane, bne, T.BOOL), meet, T.BOOL),
                  T.BOOL)
