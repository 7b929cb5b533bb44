"""Set locals bound to one another (``t = s``: one set, two names), for
``frontend/set_locals.py``, as list locals bound to one another are
(``growable_lists.py``).

A set local is three hidden arrays (``$s_K``, ``$s_I``, ``$s_S``).  Its
operations change ``$s_S`` in place and give ``$s_K``, ``$s_I`` new arrays when
the table moves (a resize, ``clear``, ``|=`` ...); making a set gives all three.
So names bound to one another share the arrays, and each holds a run-time key of
the set it holds (``$sk_s``: a count of the sets made); after a statement
giving ``s`` new ``K``, ``I``, every other name with the same key gets them too::

    t = s               $t_K, $t_I, $t_S = $s_K, $s_I, $s_S; $sk_t = $sk_s
    s = set()           $s_K, $s_I, $s_S = set.new(...)
                        $set_keys = $set_keys + 1; $sk_s = $set_keys
    t.add(v)            ... $t_K, $t_I = set.grow(...)
                        if $sk_s == $sk_t: $s_K = $t_K; $s_I = $t_I

A change through one name is seen through the other, on every path (also where
only some calls bound them), until one is bound to another set.  An operation
whose result depends on whether two operands are one set (CPython's ``so ==
other``: ``a |= b`` changes nothing, ``a -= b`` clears, ``a & b`` copies) tests
their keys: ``if $sk_a == $sk_b:`` the operation with ``b`` named ``a``, else as
written.  Names bound to
one another have one element carrier (the first name's ``$s_k``): their
elements are of one type and kind.  A returned pair of names holding one set
gives the caller one set (the dispatchers box equal arrays once).
"""
from __future__ import annotations

import ast
import copy

from . import set_operators

_KEYS = "$set_keys"                 # the sets made so far


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def alias_of(s, names):
    """``(t, s)`` when statement ``s`` is ``t = s`` of two names in ``names``."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
            isinstance(s.targets[0], ast.Name) and isinstance(s.value, ast.Name) and \
            s.targets[0].id in names and s.value.id in names:
        return s.targets[0].id, s.value.id
    return None


def groups(fn, names) -> dict:
    """``{name: sorted names of its group}`` of the set locals ``names`` bound to
    one another (only names with others)."""
    parent = {n: n for n in names}

    def root(n):
        while parent[n] != n:
            n = parent[n]
        return n

    for s in ast.walk(fn):
        pair = alias_of(s, names)
        if pair is not None:
            a, b = map(root, pair)
            parent[max(a, b)] = min(a, b)
    out = {}
    for n in names:
        out.setdefault(root(n), []).append(n)
    return {n: sorted(g) for g in out.values() if len(g) > 1 for n in g}


def bind(t, s, arrays) -> list:
    """``t = s``: the arrays and the key of ``s``."""
    a = ast.Assign([ast.Tuple(arrays(t, True), ast.Store())],
                   ast.Tuple(arrays(s), ast.Load()))
    a.hj_alias = True
    return [a, ast.Assign([_name(f"$sk_{t}", True)], _name(f"$sk_{s}"))]


def _operands(s, names) -> list:
    """The set names statement ``s`` combines in a set operation whose result
    depends on whether two of them are one set (``a | b``, ``a & b``, ``|=``,
    ``&=``, ``-=``, ``^=`` and their methods: CPython tests ``so == other``)."""
    if isinstance(s, ast.Assign):
        made = set_operators.set_expr(s.value, names)
        return made[1] if made is not None else []
    if isinstance(s, ast.AugAssign) and type(s.op) in set_operators.OPERATORS and \
            isinstance(s.target, ast.Name) and isinstance(s.value, ast.Name):
        return [s.target.id, s.value.id]
    if isinstance(s, ast.Expr):
        m = set_operators.method_call(s.value, names, tuple(set_operators.UPDATE_METHODS))
        return m[1] if m is not None else []
    return []


class _Loads(ast.NodeTransformer):
    def __init__(self, old, new):
        self.old, self.new = old, new

    def visit_Name(self, e):
        if e.id == self.old and isinstance(e.ctx, ast.Load):
            return ast.copy_location(_name(self.new), e)
        return e


def one_set(r, s, grouped, distinct, rewrite):
    """``s`` as ``if`` the two of its operands that may be one set are (their
    keys equal): ``s`` with the second named as the first, else ``s`` (CPython's
    ``a |= a`` changes nothing, ``a -= a`` clears ...); None when no two may be.
    ``rewrite`` rewrites a statement; ``distinct`` the pairs known apart."""
    ops = [n for n in _operands(s, r.names) if n in grouped]
    for i, x in enumerate(ops):
        for y in ops[i + 1:]:
            if y != x and y in grouped[x] and (x, y) not in distinct:
                same = _Loads(y, x).visit(copy.deepcopy(s))
                distinct.add((x, y))
                try:
                    apart = rewrite(s)
                finally:
                    distinct.discard((x, y))
                test = ast.Compare(_name(f"$sk_{x}"), [ast.Eq()], [_name(f"$sk_{y}")])
                return [ast.If(test, rewrite(same), apart)]
    return None


class _Finish(ast.NodeTransformer):
    def __init__(self, grouped):
        self.grouped = grouped
        self.carrier = {f"${n}_k": f"${g[0]}_k" for n, g in grouped.items()}

    def visit_Name(self, e):
        e.id = self.carrier.get(e.id, e.id)
        return e

    def visit_Constant(self, e):
        if isinstance(e.value, str):
            e.value = self.carrier.get(e.value, e.value)
        return e

    def generic_visit(self, node):
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, self.block(block))
        return node

    def block(self, body) -> list:
        out = []
        for s in body:
            out.append(s)
            out += self.after(s)
        return out

    def after(self, s) -> list:
        """Keys and copies after ``s`` when it gives a grouped set arrays."""
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and
                isinstance(s.targets[0], ast.Tuple)) or getattr(s, "hj_alias", False):
            return []
        ids = [e.id if isinstance(e, ast.Name) else None for e in s.targets[0].elts]
        for n, g in self.grouped.items():
            if ids == [f"${n}_{x}" for x in "KIS"]:         # a new set
                return [ast.Assign([_name(_KEYS, True)], ast.BinOp(
                    _name(_KEYS), ast.Add(), ast.Constant(1))),
                    ast.Assign([_name(f"$sk_{n}", True)], _name(_KEYS))]
            if ids == [f"${n}_{x}" for x in "KI"]:          # its table moved
                return [ast.If(ast.Compare(_name(f"$sk_{p}"), [ast.Eq()],
                                           [_name(f"$sk_{n}")]),
                               [ast.Assign([_name(f"${p}_{x}", True)], _name(f"${n}_{x}"))
                                for x in "KI"], []) for p in g if p != n]
        return []


def finish(body, grouped) -> list:
    """``body`` (rewritten) with the keys, copies and shared carriers of the
    names ``grouped`` (:func:`groups`), and the keys given first."""
    if not grouped:
        return body
    f = _Finish(grouped)
    body = f.block([f.visit(s) for s in body])
    first = [ast.Assign([_name(_KEYS, True)], ast.Constant(0))] + \
        [ast.Assign([_name(f"$sk_{n}", True)], ast.Constant(0)) for n in sorted(grouped)]
    return first + body
