"""Set operators and methods between set locals (``frontend/set_locals.py``):
recognised, put in a form the set locals' rewrite compiles, and rewritten into
calls of ``lib/python/sets`` markers computed by ``lib/python/set_operations``.

First each statement is prepared (before the set locals are found):
``set(a)`` of a set becomes ``a.copy()`` (CPython's ``set_merge`` of ``a``, not
adds), and a set expression -- ``a | b``, ``a & b``, ``a - b``, ``a ^ b``,
``a.union(b, ...)``, ``a.intersection(...)``, ``a.difference(...)``,
``a.symmetric_difference(b)``, ``a.copy()`` -- that is not the whole value of
``c = ...`` with names for operands is computed first into a hidden set local
``$set_opN`` (nested expressions innermost first; a statement also calling
``s.pop()`` is left as it is).  Then these uses compile, every set named a
compiled set local::

    c = a | b       c = a.union(b, d)    ...  (the operators and methods above)
    a |= b   a &= b   a -= b   a ^= b          (statements)
    a.update(b, ...)   a.intersection_update(...)   a.difference_update(...)
    a.symmetric_difference_update(b)           (statements)
    a == b   a != b   a <= b   a < b   a >= b   a > b
    a.issubset(b)   a.issuperset(b)   a.isdisjoint(b)

each as CPython computes it (``Objects/setobject.c``), including its checks for
the same set named twice (``a |= a`` changes nothing, ``a -= a`` clears it).
"""
from __future__ import annotations

import ast

OPERATORS = {ast.BitOr: "union", ast.BitAnd: "intersection", ast.Sub: "difference",
             ast.BitXor: "symmetric_difference"}
NEW_METHODS = ("union", "intersection", "difference", "symmetric_difference", "copy")
UPDATE_METHODS = {"update": "union", "intersection_update": "intersection",
                  "difference_update": "difference",
                  "symmetric_difference_update": "symmetric_difference"}
AUG = {ast.BitOr: "update", ast.BitAnd: "intersection_update",
       ast.Sub: "difference_update", ast.BitXor: "symmetric_difference_update"}
BOOL_METHODS = ("issubset", "issuperset", "isdisjoint")
COMPARE = {ast.Eq: 0, ast.NotEq: 1, ast.LtE: 2, ast.Lt: 3, ast.GtE: 4, ast.Gt: 5}
_ONE_ARG = ("symmetric_difference", "symmetric_difference_update")


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def set_expr(v, sets):
    """``(method, [operand names])`` of a set expression whose operands are
    names, the first in ``sets``; or None.  ``a | b`` is ``("union", [a, b])``."""
    if isinstance(v, ast.BinOp) and type(v.op) in OPERATORS and \
            isinstance(v.left, ast.Name) and isinstance(v.right, ast.Name) and \
            v.left.id in sets:
        return OPERATORS[type(v.op)], [v.left.id, v.right.id]
    m = method_call(v, sets, NEW_METHODS)
    if m is not None and (m[0] != "copy" or len(m[1]) == 1) and \
            (m[0] != "symmetric_difference" or len(m[1]) == 2):
        return m
    return None


def method_call(v, sets, methods):
    """``(method, [set, arg names...])`` of ``s.method(x, ...)`` (``s`` in
    ``sets``, the arguments names), or None."""
    if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
            isinstance(v.func.value, ast.Name) and v.func.value.id in sets and \
            v.func.attr in methods and not v.keywords and \
            all(isinstance(a, ast.Name) for a in v.args):
        return v.func.attr, [v.func.value.id] + [a.id for a in v.args]
    return None


def _nested_expr(v, sets, resolve) -> bool:
    """Is ``v`` a set expression (of sets in ``sets``, possibly nested)?"""
    if isinstance(v, ast.BinOp) and type(v.op) in OPERATORS:
        return all(_operand(x, sets, resolve) for x in (v.left, v.right))
    if _set_of_set(v, sets, resolve):
        return True
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and \
        v.func.attr in NEW_METHODS and not v.keywords and \
        (isinstance(v.func.value, ast.Name) and v.func.value.id in sets or
         _nested_expr(v.func.value, sets, resolve)) and \
        all(_operand(a, sets, resolve) for a in v.args)


def _made(v, resolve) -> bool:
    """A set display, comprehension or ``set(...)`` call (an operand of a set
    expression computed first into a set local of its own)."""
    return isinstance(v, (ast.Set, ast.SetComp)) or isinstance(v, ast.Call) and \
        isinstance(v.func, ast.Name) and v.func.id == "set" and len(v.args) <= 1 and \
        not v.keywords and resolve("set") is set


def _operand(v, sets, resolve) -> bool:
    return isinstance(v, ast.Name) and v.id in sets or _made(v, resolve) or \
        _nested_expr(v, sets, resolve)


def _set_of_set(v, sets, resolve) -> bool:
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and \
        v.func.id == "set" and len(v.args) == 1 and not v.keywords and \
        isinstance(v.args[0], ast.Name) and v.args[0].id in sets and \
        resolve("set") is set


def candidates(fn, resolve, makes_set) -> set:
    """The names assigned a set (a display, ``set(...)``, a comprehension), a
    set expression of such names, or such a name (``t = s``: one set)."""
    assigned = [(n.targets[0].id, n.value) for n in ast.walk(fn)
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and
                isinstance(n.targets[0], ast.Name)]
    assigned += [(n.target.id, n.value) for n in ast.walk(fn)
                 if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and
                 n.value is not None]
    sets = {k for k, v in assigned if makes_set(v, resolve)}
    while True:
        more = {k for k, v in assigned if k not in sets and (
            _nested_expr(v, sets, resolve) or isinstance(v, ast.Name) and v.id in sets)}
        if not more:
            return sets
        sets |= more


class _Hoist(ast.NodeTransformer):
    """Set expressions into hidden locals, innermost first; ``set(a)`` of a set
    as ``a.copy()``."""

    def __init__(self, sets, resolve, tmp, top):
        self.sets, self.resolve, self.tmp, self.top = sets, resolve, tmp, top
        self.pre = []

    def visit_Lambda(self, e):
        return e

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_Lambda

    def generic_visit(self, e):
        original = e
        e = super().generic_visit(e)
        if _set_of_set(e, self.sets, self.resolve):
            e = ast.copy_location(ast.Call(ast.Attribute(e.args[0], "copy", ast.Load()),
                                           [], []), e)
        if isinstance(e, ast.Compare) and len(e.ops) == 1 and type(e.ops[0]) in COMPARE \
                and any(isinstance(x, ast.Name) and x.id in self.sets
                        for x in (e.left, e.comparators[0])):
            e.left, e.comparators = self.made(e.left), [self.made(e.comparators[0])]
        if method_call(e, self.sets, tuple(UPDATE_METHODS) + BOOL_METHODS + NEW_METHODS) \
                is None and isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) \
                and isinstance(e.func.value, ast.Name) and e.func.value.id in self.sets \
                and e.func.attr in tuple(UPDATE_METHODS) + BOOL_METHODS and \
                not e.keywords and all(_operand(a, self.sets, self.resolve) for a in e.args):
            e.args = [self.made(a) for a in e.args]     # a.update(set(x)), a.isdisjoint({..})
        if not _nested_expr(e, self.sets, self.resolve):
            return e
        if isinstance(e, ast.BinOp):            # a | set(x): set(x) into a local first
            e.left, e.right = self.made(e.left), self.made(e.right)
        elif isinstance(e.func, ast.Attribute):
            e.args = [self.made(a) for a in e.args]
        return e if original is self.top else self.hoist(e)

    def made(self, e):
        return self.hoist(e) if _made(e, self.resolve) else e

    def hoist(self, e):
        t = self.tmp("op")
        self.pre.append(ast.copy_location(ast.Assign([_name(t, True)], e), e))
        self.sets.add(t)
        return ast.copy_location(_name(t), e)


def prepare(s, sets, resolve, tmp) -> list:
    """``s`` with its set expressions hoisted: the statements to run instead."""
    if not any(isinstance(n, (ast.BinOp, ast.Call, ast.Compare, ast.AugAssign))
               for n in ast.walk(s)):
        return [s]
    if any(isinstance(n, ast.Attribute) and n.attr == "pop" for n in ast.walk(s)) or \
            any(isinstance(n, (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await))
                for n in ast.walk(s)):
        return [s]
    if isinstance(s, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr, ast.Return)):
        top = s.value if isinstance(s, (ast.Assign, ast.AnnAssign)) and \
            isinstance(s.targets[0] if isinstance(s, ast.Assign) else s.target,
                       ast.Name) else None
        h = _Hoist(sets, resolve, tmp, top)
        if isinstance(s, ast.AugAssign) and type(s.op) in OPERATORS and \
                isinstance(s.target, ast.Name) and s.target.id in sets:
            h.top = None
            s.value = h.made(h.visit(s.value))
            return h.pre + [s]
        s = h.visit(s)
        return h.pre + [s]
    if isinstance(s, (ast.If, ast.For)):
        h = _Hoist(sets, resolve, tmp, None)
        if isinstance(s, ast.If):
            s.test = h.visit(s.test)
        else:
            s.iter = h.visit(s.iter)
        return h.pre + [s]
    return [s]


def operand_partners(name, node, parents, sets):
    """The other sets a load ``node`` of set ``name`` combines with, when it is
    an operand of a compiled set operation (they must be compiled sets too); or
    None when it is not such a use."""
    p = parents.get(node)
    q = parents.get(p)
    if isinstance(p, ast.BinOp) and set_expr(p, sets) is not None:
        if isinstance(q, ast.Assign) and q.value is p and len(q.targets) == 1:
            return set(set_expr(p, sets)[1]) | {q.targets[0].id}
        return None
    if isinstance(p, ast.AugAssign) and p.value is node and type(p.op) in OPERATORS and \
            isinstance(p.target, ast.Name):
        return {p.target.id}
    if isinstance(p, ast.Compare) and len(p.ops) == 1 and type(p.ops[0]) in COMPARE and \
            isinstance(p.left, ast.Name) and isinstance(p.comparators[0], ast.Name):
        return {p.left.id, p.comparators[0].id}
    call = p if isinstance(p, ast.Call) and node in p.args else \
        q if isinstance(p, ast.Attribute) and p.value is node else None
    if call is None:
        return None
    made = set_expr(call, sets)
    if made is not None:
        top = parents.get(call)
        if isinstance(top, ast.Assign) and top.value is call and len(top.targets) == 1:
            return set(made[1]) | {top.targets[0].id}
        return None
    m = method_call(call, sets, tuple(UPDATE_METHODS))
    if m is not None and isinstance(parents.get(call), ast.Expr) and \
            (m[0] not in _ONE_ARG or len(m[1]) == 2):
        return set(m[1])
    m = method_call(call, sets, BOOL_METHODS)
    if m is not None and len(m[1]) == 2:
        return set(m[1])
    return None


# ---------------------------------------------------------------- the rewrite
class Emit:
    """The statements computing set operations (``r`` the set locals'
    rewriter: its ``tmp`` and helpers)."""

    def __init__(self, r, set_call, set_arrays):
        self.r, self.call, self.arrays = r, set_call, set_arrays
        self.out = []

    def carriers(self, names):
        return [ast.Constant(f"${n}_k") for n in names]

    def links(self, target, operands):
        """Each carrier given an element of the operands' other sets (one element
        type and kind for all; ``sets.py`` checks)."""
        every = sorted(set(operands) | {target})
        for x in every:
            for y in sorted(set(operands)):
                if x != y:
                    self.out.append(ast.Assign([_name(f"${x}_k", True)], self.call(
                        "key_at", _name(f"${y}_K"), ast.Constant(0),
                        ast.Constant(f"${y}_k"))))

    def temp(self):
        t = self.r.tmp("t")
        return t, [_name(f"{t}_{x}") for x in "KIS"], [_name(f"{t}_{x}", True) for x in "KIS"]

    def new(self, what, args, names):
        """A new set ``what(args)`` in hidden temporaries: their loads."""
        _, load, store = self.temp()
        self.out.append(ast.Assign([ast.Tuple(store, ast.Store())], self.call(
            what, *args, *self.carriers(names))))
        return load

    def update(self, target, what, args, names):
        """``target``'s ``(K, I)`` = ``what(target, args)``."""
        self.out.append(ast.Assign([ast.Tuple(target[:2], ast.Store())], self.call(
            what, *args, *self.carriers(names))))

    def made(self, method, operands, names):
        """The loads of a new set ``operands[0].method(*operands[1:])``."""
        a, rest = operands[0], operands[1:]
        A = self.arrays(a)
        if method == "copy" or not rest and method in ("intersection", "difference"):
            return self.new("copy", A, names)
        if method == "union":
            t = self.new("copy", A, names)
            for b in rest:
                if b != a:
                    self.update([_store(x) for x in t], "merge", t + self.arrays(b), names)
            return t
        if method == "intersection":
            t, first = A, True
            for b in rest:
                t = self.new("copy", t, names) if first and b == a else \
                    self.new("intersection", t + self.arrays(b), names)
                first = False
            return t
        if method == "difference":
            t = self.new("difference", A + self.arrays(rest[0]), names)
            for b in rest[1:]:
                self.update([_store(x) for x in t], "difference_update",
                            t + self.arrays(b), names)
            return t
        return self.new("symmetric_difference", A + self.arrays(rest[0]), names)

    def assign(self, target, method, operands):
        names = sorted(set(operands) | {target})
        self.links(target, operands)
        t = self.made(method, operands, names)
        self.out.append(ast.Assign([ast.Tuple(self.arrays(target, True), ast.Store())],
                                   ast.Tuple(t, ast.Load())))
        return self.out

    def in_place(self, method, operands):
        """``a.method(*others)`` as a statement (``|=`` ... too)."""
        a, rest = operands[0], operands[1:]
        names = sorted(set(operands))
        self.links(a, operands)
        A, As = self.arrays(a), self.arrays(a, True)
        if method == "intersection_update":
            t = self.made("intersection", operands, names)
            self.out.append(ast.Assign([ast.Tuple(As[:2], ast.Store())],
                                       ast.Tuple(t[:2], ast.Load())))
            self.out.append(ast.Expr(self.call("adopt", A[2], t[2])))
            return self.out
        what = {"update": "merge"}.get(method, method)
        for b in rest:
            if b != a:
                self.update(As, what, A + self.arrays(b), names)
            elif method != "update":            # a -= a, a ^= a: cleared
                self.out.append(ast.Assign([ast.Tuple(As[:2], ast.Store())],
                                           self.call("clear", *A)))
        return self.out


def _store(n):
    return _name(n.id, True)


def statement(r, s, set_call, set_arrays):
    """The statements for ``s`` when it is a set operation between the set
    locals ``r.names``, or None."""
    sets = r.names
    if isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None:
        t = s.targets[0] if isinstance(s, ast.Assign) else s.target
        made = set_expr(s.value, sets)
        if isinstance(t, ast.Name) and t.id in sets and made is not None:
            return Emit(r, set_call, set_arrays).assign(t.id, *made)
    if isinstance(s, ast.AugAssign) and type(s.op) in OPERATORS and \
            isinstance(s.target, ast.Name) and s.target.id in sets and \
            isinstance(s.value, ast.Name):
        return Emit(r, set_call, set_arrays).in_place(AUG[type(s.op)],
                                                      [s.target.id, s.value.id])
    if isinstance(s, ast.Expr):
        m = method_call(s.value, sets, tuple(UPDATE_METHODS))
        if m is not None:
            return Emit(r, set_call, set_arrays).in_place(*m)
    return None


def expression(e, sets, set_call, set_arrays):
    """A comparison or a bool method between set locals as a marker call, or
    None."""
    if isinstance(e, ast.Compare) and len(e.ops) == 1 and type(e.ops[0]) in COMPARE and \
            isinstance(e.left, ast.Name) and e.left.id in sets and \
            isinstance(e.comparators[0], ast.Name) and e.comparators[0].id in sets:
        a, b = e.left.id, e.comparators[0].id
        return set_call("compare", *set_arrays(a), *set_arrays(b),
                        ast.Constant(COMPARE[type(e.ops[0])]))
    m = method_call(e, sets, BOOL_METHODS)
    if m is not None and len(m[1]) == 2 and m[1][1] in sets:
        a, b = m[1]
        if m[0] == "isdisjoint":
            return set_call("isdisjoint", *set_arrays(a), *set_arrays(b))
        return set_call("compare", *set_arrays(a), *set_arrays(b),
                        ast.Constant(2 if m[0] == "issubset" else 4))
    return None
