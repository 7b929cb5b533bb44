"""Set locals of numbers, rewritten before the function is built (as dict
locals are: ``frontend/dict_locals.py``).

First the ways of making a set become an empty set and its adds, in CPython's
order::

    s = {a, b}                  $set_item1 = a; $set_item2 = b; s = set()
                                s.add($set_item1); s.add($set_item2)
    s = set(x)                  s = set(); for $set_v3 in x: s.add($set_v3)
    s = {f(v) for v in x}       s = set(); for $set_v4 in x: s.add(f($set_v4))
    len(set(x)) (in a statement)   the set built first into a hidden local

(a display of three or more constants, which Python builds from a frozenset
constant, becomes adds in the order that lays out CPython's table:
``lib/python/set_constants``; where none does, it stays).  Then a local ``s`` qualifies
when every assignment to it is ``s = set()`` and every read of it is one of::

    s.add(v)   s.discard(v)   s.remove(v)   s.clear()   (statements)
    s.pop()   v in s   v not in s   len(s)   if s:   not s   for v in s:
    sum(s)   min(s)   max(s)   sorted(s)   list(s)   return s   return s, x

``sum``/``min``/``max``/``sorted``/``list`` read a growable list of the elements
in the set's order, built just before their statement (a simple statement, an
``if``'s test or a ``for``'s iterable).  The set becomes hidden locals -- ``$s_K``
(the table's elements), ``$s_I`` (hashes and slot states), ``$s_S`` (counts) --
and each use a call of a ``lib/python/sets`` marker; every element added is first
assigned to ``$s_k``, which decides the elements' type and kind.  A returned set
is ``sets.result`` of its arrays, which the dispatchers box as a Python set with
the compiled table (``hanajit.host_sets``: where it can write this Python's sets).
Anything else (``t = s``, ``f(s)``, a set argument, a set in a nested function or
a prange loop) leaves the set as it is, and the function falls back naming why.
"""
from __future__ import annotations

import ast
import copy

from .. import host_sets
from . import dict_copies, dict_locals, frozen_sets, list_passing, set_aliases, \
    set_operators
from .dict_comprehensions import Rename
from .readonly_lists import declared_elsewhere

_STATEMENT_METHODS = ("add", "discard", "remove", "clear")
_LISTED = (sum, min, max, sorted, list)
# the keywords each takes of a set as of the list of its elements (in table order)
_LISTED_KEYWORDS = {sorted: {"key", "reverse"}, min: {"key"}, max: {"key"}}


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def set_call(name, *args):
    """``set.<name>(*args)``: a call of the compiled set helper ``name``."""
    return ast.Call(_name(f"set.{name}"), list(args), [])


def set_arrays(s, store=False):
    return [_name(f"${s}_{x}", store) for x in "KIS"]


def _is_set_call(v, resolve, nargs=0) -> bool:
    return isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and \
        v.func.id == "set" and len(v.args) == nargs and not v.keywords and \
        resolve("set") is set


def makes_set(v, resolve) -> bool:
    """Is ``v`` a set display, a set comprehension or a call of ``set``?"""
    return isinstance(v, (ast.Set, ast.SetComp)) or \
        isinstance(v, ast.Call) and isinstance(v.func, ast.Name) and v.func.id == "set"


def _reads(node, name) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


class _Builds:
    """The statements that make sets: into ``s = set()`` and adds."""

    def __init__(self, resolve, sets, code=None):
        self.resolve = resolve
        self.code = code                # (the function's code object: its constants)
        self.sets = sets                # (names that may be sets: set_operators)
        self.frozen = set()             # (frozenset locals: frozen_sets)
        self.n = 0
        self.reasons = {}

    def tmp(self, hint):
        self.n += 1
        return f"$set_{hint}{self.n}"

    def block(self, body) -> list:
        out = []
        for s in body:
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(s, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(s, field, self.block(inner))
            for h in getattr(s, "handlers", None) or []:
                h.body = self.block(h.body)
            for s in set_operators.prepare(s, self.sets, self.resolve, self.tmp):
                made = self.build(s)
                if made is None:
                    pre, s = self.hoist_made(s)
                    made = pre + self.hoist_len(s)
                out.extend(made)
        for x in out:
            for node in ast.walk(x):
                if isinstance(node, (ast.stmt, ast.expr)) and \
                        getattr(node, "lineno", None) is None:
                    ast.copy_location(node, body[0])
        return out

    def build(self, s):
        """``s`` as statements making an empty set and adding, or None."""
        swap = self.swap(s)
        if swap is not None:
            return swap
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and \
                isinstance(s.targets[0], ast.Name):
            name, v = s.targets[0].id, s.value
        elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and \
                s.value is not None:
            name, v = s.target.id, s.value
        else:
            return None
        line = s.lineno
        if frozen_sets.is_call(v, self.resolve) and isinstance(s, ast.Assign):
            return frozen_sets.build(self, s, name, v, makes_set)
        if isinstance(v, ast.Set):
            if len(v.elts) >= 3 and all(_folded(e) for e in v.elts):
                order = self.constants(v.elts)
                if order is not None:           # (the frozenset, then SET_UPDATE)
                    fz = self.tmp("fz")
                    self.sets.add(fz)
                    copy_of = ast.Call(ast.Attribute(_name(fz), "copy", ast.Load()), [], [])
                    return [ast.Assign([_name(fz, True)], ast.Call(_name("set"), [], []))] + \
                        [self.add(fz, ast.Constant(x)) for x in order] + \
                        [ast.Assign([_name(name, True)], copy_of)]
                self.reasons[name] = (
                    f"set display of {len(v.elts)} constants assigned to '{name}' (line "
                    f"{line}: Python builds it from a frozenset constant, whose table "
                    "hanajit reproduces only for ints or floats of one type where adds "
                    "lay it out)")
                return None
            if any(isinstance(e, ast.Starred) for e in v.elts):
                self.reasons[name] = f"set display with *items (line {line})"
                return None
            pre, items = [], []
            for e in v.elts:
                if not isinstance(e, ast.Constant):
                    t = self.tmp("item")
                    pre.append(ast.Assign([_name(t, True)], e))
                    e = _name(t)
                items.append(e)
            return pre + self.empty(s, name) + [self.add(name, e) for e in items]
        if _is_set_call(v, self.resolve, 1) and not isinstance(v.args[0], ast.Starred):
            if _reads(v.args[0], name):
                self.reasons[name] = f"set(...) of '{name}' itself (line {line})"
                return None
            t = self.tmp("v")
            return self.empty(s, name) + [ast.For(_name(t, True), v.args[0],
                                                  [self.add(name, _name(t))], [])]
        if isinstance(v, ast.SetComp):
            return self.comprehension(s, name, v)
        return None

    def swap(self, s):
        """``a, b = b, a`` (``a, b = b, set()``) of set names: the values into
        hidden set locals first, then the names bound to them (one set each, as
        CPython binds them: ``set_aliases``); or None."""
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and
                isinstance(s.targets[0], ast.Tuple) and isinstance(s.value, ast.Tuple) and
                len(s.targets[0].elts) == len(s.value.elts)):
            return None
        targets, values = s.targets[0].elts, s.value.elts
        if not all(isinstance(t, ast.Name) for t in targets) or \
                not all(isinstance(v, ast.Name) and v.id in self.sets or
                        makes_set(v, self.resolve) for v in values):
            return None
        temps = [self.tmp("swap") for _ in values]
        self.sets.update(temps + [t.id for t in targets])
        out = [ast.copy_location(ast.Assign([_name(t, True)], v), s)
               for t, v in zip(temps, values)]
        out += [ast.copy_location(ast.Assign([_name(n.id, True)], _name(t)), s)
                for n, t in zip(targets, temps)]
        return self.block(out)

    def constants(self, elts):
        """The adds of a display of constants in CPython's table order, or None
        (``lib/python/set_constants``)."""
        try:
            values = [_constant(e) for e in elts]
        except (ValueError, ArithmeticError):
            return None
        ints = all(type(x) is int and -2**63 <= x < 2**63 for x in values)
        if self.code is None or not ints and not all(type(x) is float for x in values):
            return None
        from ..lib import registry
        return registry.set_display_order(self.code, values)

    def empty(self, s, name):
        new = ast.Call(_name("set"), [], [])
        if isinstance(s, ast.AnnAssign):
            return [ast.AnnAssign(s.target, s.annotation, new, s.simple)]
        return [ast.Assign([_name(name, True)], new)]

    def add(self, name, e):
        return ast.Expr(ast.Call(ast.Attribute(_name(name), "add", ast.Load()), [e], []))

    def comprehension(self, s, name, comp):
        line = s.lineno
        for node in ast.walk(comp):
            why = ""
            if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Yield, ast.YieldFrom,
                                 ast.Await)):
                why = "holding a lambda, a walrus (:=) or a yield"
            elif isinstance(node, (ast.DictComp, ast.SetComp)) and node is not comp:
                why = "holding a dict or set comprehension"
            elif isinstance(node, ast.Name) and node.id == name:
                why = f"reading '{name}', the name it is assigned to"
            if why:
                self.reasons[name] = f"set comprehension {why} (line {line})"
                return None
        if any(g.is_async for g in comp.generators):
            self.reasons[name] = f"set comprehension with async for (line {line})"
            return None
        n = self.tmp("c")
        targets = {t.id: f"{n}_{t.id}" for g in comp.generators for t in ast.walk(g.target)
                   if isinstance(t, ast.Name)}
        ren = Rename(targets)
        body = [self.add(name, ren.visit(comp.elt))]
        for k, g in reversed(list(enumerate(comp.generators))):
            for c in reversed(g.ifs):
                body = [ast.If(ren.visit(c), body, [])]
            body = [ast.For(ren.visit(g.target), g.iter if k == 0 else ren.visit(g.iter),
                            body, [])]
        return self.empty(s, name) + body

    def hoist_made(self, s):
        """``print({v % 7 for v in x})``, ``return {v % 7 for v in x}, n`` (a
        display, comprehension, ``set(x)`` or ``frozenset(x)`` after only names
        and constants): the set made first into a hidden local; ``(statements
        before, s)``."""
        if isinstance(s, ast.Expr) and _print_call(s.value, self.resolve):
            holder, field = s.value, "args"
        elif isinstance(s, ast.Return) and isinstance(s.value, ast.Tuple):
            holder, field = s.value, "elts"
        elif isinstance(s, ast.Return) and s.value is not None:
            holder, field = s, "value"
        else:
            return [], s
        items = getattr(holder, field)
        pre, out = [], []
        for a in items if isinstance(items, list) else [items]:
            if (makes_set(a, self.resolve) or frozen_sets.is_call(a, self.resolve)) and \
                    all(isinstance(b, (ast.Name, ast.Constant)) for b in out):
                t = self.tmp("made")
                self.sets.add(t)
                pre += [ast.copy_location(ast.Assign([_name(t, True)], a), s)]
                a = _name(t)
            out.append(a)
        if not pre:
            return [], s
        setattr(holder, field, out if isinstance(items, list) else out[0])
        return self.block(pre), s

    def hoist_len(self, s) -> list:
        """``len(set(x))`` in a simple statement (``x`` a name or an attribute or
        subscript of names): the set built first into a hidden local."""
        if not isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr,
                              ast.Return)):
            return [s]
        pre = []
        for node in ast.walk(s):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id == "len" and len(node.args) == 1 and \
                    _is_set_call(node.args[0], self.resolve, 1) and \
                    _plain(node.args[0].args[0]):
                t = self.tmp("len")
                src = node.args[0].args[0]
                v = self.tmp("v")
                pre += [ast.Assign([_name(t, True)], ast.Call(_name("set"), [], [])),
                        ast.For(_name(v, True), src, [self.add(t, _name(v))], [])]
                node.args[0] = _name(t)
        return pre + [s]


def _folded(e) -> bool:
    """Is ``e`` an item Python folds into a constant (a number, ``-1``), or a
    constant expression (``2 * 3``: folded too, not followed here)?"""
    if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd)):
        e = e.operand
    if isinstance(e, ast.Constant):
        return True
    return all(isinstance(n, (ast.Constant, ast.BinOp, ast.UnaryOp, ast.operator,
                              ast.unaryop)) for n in ast.walk(e))


_FOLDED = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
           ast.Mult: lambda a, b: a * b, ast.Pow: lambda a, b: a ** b,
           ast.LShift: lambda a, b: a << b, ast.USub: lambda a: -a, ast.UAdd: lambda a: +a}


def _constant(e):
    """The value of a number constant expression (``-1``, ``2**62``, small
    powers and shifts only), else ValueError."""
    if isinstance(e, ast.Constant) and type(e.value) in (int, float):
        return e.value
    if isinstance(e, ast.UnaryOp) and type(e.op) in _FOLDED:
        return _FOLDED[type(e.op)](_constant(e.operand))
    if isinstance(e, ast.BinOp) and type(e.op) in _FOLDED:
        a, b = _constant(e.left), _constant(e.right)
        if isinstance(e.op, (ast.Pow, ast.LShift)) and not (
                type(b) is int and 0 <= b <= 64 and abs(a) <= 2**64):
            raise ValueError("a large power")
        return _FOLDED[type(e.op)](a, b)
    raise ValueError("not a number constant")


def _plain(e) -> bool:
    """A name, or attributes and constant or name subscripts of one."""
    while isinstance(e, (ast.Attribute, ast.Subscript)):
        if isinstance(e, ast.Subscript) and not isinstance(e.slice, (ast.Name, ast.Constant)):
            return False
        e = e.value
    return isinstance(e, ast.Name)


def _print_call(e, resolve) -> bool:
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and \
        resolve(e.func.id) is print


def _printed(node, parents, resolve) -> bool:
    """Is the load ``node`` an argument of ``print``, or a field of an f-string
    that is one (``print(s)``, ``print(f"seen {s}")``)?"""
    p = parents.get(node)
    if isinstance(p, ast.FormattedValue) and p.value is node and \
            isinstance(parents.get(p), ast.JoinedStr):
        node, p = parents.get(p), parents.get(parents.get(p))
    return _print_call(p, resolve) and node in p.args


def _statement_of(node, parents):
    while node is not None and not isinstance(node, ast.stmt):
        node = parents.get(node)
    return node


def _listed_call(node, parents, resolve):
    """The call ``sum(s)`` / ``min`` / ``max`` / ``sorted`` / ``list`` of the load
    ``node``, or None."""
    p = parents.get(node)
    if isinstance(p, ast.Call) and p.args == [node] and \
            isinstance(p.func, ast.Name) and resolve(p.func.id) in _LISTED and \
            _listed_keywords(p, resolve):
        return p
    return None


def _listed_keywords(call, resolve) -> bool:
    """Are ``call``'s keywords (``sorted(s, key=f, reverse=True)``, ``min(s,
    key=f)``) ones the list of the elements takes as the set does?"""
    allowed = _LISTED_KEYWORDS.get(resolve(call.func.id), set()) \
        if isinstance(call.func, ast.Name) else set()
    return all(k.arg in allowed for k in call.keywords)


class Uses(dict_locals.Uses):
    """Why a set local is not compiled, or '' (the dict locals' survey of a
    function's names and parents)."""

    kind = "set"
    sets = frozenset()              # (the names that may be sets)

    def use_problem(self, name, node, p, line) -> str:
        """Why this load ``node`` of set ``name`` (its parent ``p``) is not
        compiled, or ''; the sets it is combined with go into ``deps``."""
        parents = self.parents
        partners = set_operators.operand_partners(name, node, parents, self.sets)
        if partners is not None:
            self.deps.setdefault(name, set()).update(partners - {name})
            return ""
        if isinstance(p, ast.Attribute) and p.value is node:
            q = parents.get(p)
            if not (isinstance(q, ast.Call) and q.func is p and not q.keywords):
                return f"{name}.{p.attr} read other than as a call (line {line})"
            n = len(q.args)
            if p.attr in _STATEMENT_METHODS and isinstance(parents.get(q), ast.Expr):
                if n == (0 if p.attr == "clear" else 1):
                    return ""
            if p.attr == "pop" and n == 0:
                return ""
            return (f"{name}.{p.attr}() (line {line}: add, discard, remove and clear as "
                    "statements and pop() are compiled)")
        if self.in_or_len(node, p):
            return ""
        if _printed(node, parents, self.resolve):
            if host_sets.writable():
                return ""
            return (f"set '{name}' printed (line {line}: print gets a Python set with the "
                    "compiled table, which hanajit writes only into CPython 3.10 to 3.13's "
                    "sets)")
        if isinstance(p, ast.Assign) and set_aliases.alias_of(p, self.sets) is not None:
            self.deps.setdefault(name, set()).add(p.targets[0].id)
            return ""                                   # t = s: one set
        call = _listed_call(node, parents, self.resolve)
        if call is not None:
            return self.listed_problem(name, call, line)
        if isinstance(p, ast.For) and p.iter is node:
            return "" if not p.orelse else f"for ... else over set '{name}' (line {line})"
        comp = parents.get(p)
        if isinstance(p, ast.comprehension) and p.iter is node and \
                isinstance(comp, (ast.GeneratorExp, ast.ListComp)):
            return self.listed_problem(name, comp, line, f"a comprehension over {name}")
        if isinstance(p, (ast.If, ast.While, ast.IfExp, ast.Assert)) and p.test is node \
                or isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
            return ""
        if isinstance(p, (ast.BinOp, ast.Compare)):
            return (f"set '{name}' in an operator with what is not a set local compiled, "
                    f"or in a chain of comparisons (line {line})")
        if isinstance(p, ast.Return) or isinstance(p, ast.Tuple) and \
                isinstance(parents.get(p), ast.Return):
            if host_sets.writable():
                return ""
            return (f"set '{name}' returned (line {line}: the caller's set must have "
                    "the compiled table, which hanajit writes only into CPython 3.10 to "
                    "3.13's sets)")
        why = getattr(p, "hj_not_inlined", None)    # (list_passing)
        if why:
            return f"set '{name}' passed to a function not inlined (line {line}: {why})"
        what = type(p).__name__ if p is not None else "expression"
        return (f"set '{name}' used other than by its own operations (line {line}, "
                f"in a {what}: aliased, passed on, an operator or kept elsewhere)")

    def listed_problem(self, name, call, line, what=None) -> str:
        """Why ``call`` (``sorted(s)`` ..., or a list comprehension or generator
        expression over ``s``: ``what``) cannot read the list of the elements made
        just before its statement, or ''."""
        what = what or f"{call.func.id}({name})"
        s = _statement_of(call, self.parents)
        ok = isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr,
                            ast.Return)) or isinstance(s, ast.If) and \
            _within(call, s.test, self.parents) or isinstance(s, ast.For) and \
            _within(call, s.iter, self.parents)
        if not ok:
            return (f"{what} in a {type(s).__name__} (line {line}: only "
                    "in a simple statement, an if's test or a for's iterable)")
        if any(isinstance(n, ast.Attribute) and n.attr == "pop" and
               isinstance(n.value, ast.Name) and n.value.id == name
               for n in ast.walk(s.test if isinstance(s, ast.If) else
                                 s.iter if isinstance(s, ast.For) else s)):
            return f"{what} beside {name}.pop() (line {line})"
        for anc in self._ancestors(call):
            if isinstance(anc, (ast.ListComp, ast.GeneratorExp, ast.IfExp, ast.BoolOp,
                                ast.SetComp, ast.DictComp, ast.Lambda)):
                return (f"{what} in a comprehension or a conditional "
                        f"expression (line {line})")
        return ""


def _within(node, top, parents) -> bool:
    while node is not None:
        if node is top:
            return True
        node = parents.get(node)
    return False


def find(fn, params, resolve, reasons, sets=frozenset(), frozen=frozenset()) -> set:
    """The set locals compiled; ``reasons`` gets why each other is not
    (``sets``: the names that may be sets, ``set_operators.candidates``;
    ``frozen``: those made by ``frozenset(...)``)."""
    uses = Uses(fn, resolve)
    uses.sets, uses.deps = sets, {}
    scoped = declared_elsewhere(fn)
    names = set()
    for name, targets in uses.stores.items():
        values = uses.assigned_values(targets)
        made = [set_operators.set_expr(v, sets) if v is not None else None for v in values]
        for t, v, m in zip(targets, values, made):
            p = uses.parents.get(t)
            if isinstance(v, ast.Name) and v.id in sets:    # t = s
                m = made[targets.index(t)] = ("alias", [v.id])
            if m is not None:
                uses.deps.setdefault(name, set()).update(set(m[1]) - {name})
            elif v is None and isinstance(p, ast.AugAssign) and \
                    type(p.op) in set_operators.OPERATORS and isinstance(p.value, ast.Name):
                uses.deps.setdefault(name, set()).add(p.value.id)
                values[targets.index(t)] = p        # (an update in place)
        if not any(v is not None and makes_set(v, resolve) or m is not None
                   for v, m in zip(values, made)):
            continue
        if name in reasons:
            continue
        if name in params or name in scoped:
            reasons[name] = f"set '{name}' is a parameter or used by a nested scope"
            continue
        if not all(v is not None and (_is_set_call(v, resolve) or m is not None or
                                      isinstance(v, ast.AugAssign))
                   for v, m in zip(values, made)):
            reasons[name] = f"'{name}' is assigned a set and something else"
            continue
        problems = [uses.problem(name, n) for n in uses.loads.get(name, [])]
        problems += [_rebound_while_iterated(uses, name, t) for t in targets]
        if name in frozen:
            problems.append(frozen_sets.problem(uses, name, targets, sets,
                                                set_operators.operand_partners))
        problems = [p for p in problems if p]
        if problems:
            reasons[name] = problems[0]
        else:
            names.add(name)
    changed = True
    while changed:                  # (a set combined with what is not a compiled set)
        changed = False
        for name in sorted(names):
            bad = sorted(d for d in uses.deps.get(name, ()) if d not in names)
            if bad:
                names.discard(name)
                reasons[name] = (f"set '{name}' combined with '{bad[0]}', which is not "
                                 "a set local compiled")
                changed = True
    return names


def _rebound_while_iterated(uses, name, target) -> str:
    for anc in uses._ancestors(target):
        if isinstance(anc, ast.For) and isinstance(anc.iter, ast.Name) and \
                anc.iter.id == name:
            return (f"set '{name}' assigned a new set inside a loop over it "
                    f"(line {target.lineno})")
    return ""


class Rewriter(dict_locals.Rewriter):
    """Rewrites the uses of the set locals ``names`` (the dict rewriter's walk of
    statements, truth tests, ``not`` and conditional expressions)."""

    def __init__(self, names, resolve, grouped=None, frozen=frozenset()):
        super().__init__(names)
        self.frozen = frozen
        self.names = names
        self.resolve = resolve
        self.n = 0
        self.pending = []           # statements before the current one (listed sets)
        self.grouped = grouped or {}    # (names bound to one another: set_aliases)
        self.distinct = set()

    def tmp(self, hint):
        self.n += 1
        return f"$set_{hint}{self.n}"

    def is_set(self, e) -> bool:
        return isinstance(e, ast.Name) and e.id in self.names

    is_dict = is_set

    def carrier(self, s):
        return ast.Constant(f"${s}_k")

    # ---------------------------------------------------------------- expressions
    def visit_Call(self, e):
        made = set_operators.expression(e, self.names, set_call, set_arrays)
        if made is not None:
            return ast.copy_location(made, e)
        f = e.func
        if _print_call(e, self.resolve):      # print(s): the set the caller would get
            for a in e.args:
                for v in [a] + [x for x in getattr(a, "values", ())
                                if isinstance(x, ast.FormattedValue)]:
                    if isinstance(v, ast.FormattedValue) and self.is_set(v.value):
                        v.value = self.returned(v.value)
            e.args = [self.returned(a) if self.is_set(a) else a for a in e.args]
            return self.generic_visit(e)
        if isinstance(f, ast.Attribute) and self.is_set(f.value) and f.attr == "pop":
            s = f.value.id
            K, I, S = set_arrays(s)
            return ast.copy_location(set_call("key_at", K, set_call("pop", I, S),
                                              self.carrier(s)), e)
        if isinstance(f, ast.Name) and len(e.args) == 1 and self.is_set(e.args[0]) \
                and _listed_keywords(e, self.resolve):
            s = e.args[0].id
            if f.id == "len":
                return ast.copy_location(set_call("len", _name(f"${s}_S")), e)
            if self.resolve(f.id) in _LISTED:
                lst = self.listed(s)
                if self.resolve(f.id) is sum:           # (sum of none: the int 0)
                    self.pending.append(ast.Expr(set_call("empty_sum", _name(f"${s}_S"))))
                keywords = [ast.keyword(k.arg, self.visit(k.value)) for k in e.keywords]
                if self.resolve(f.id) is sorted and keywords:   # (as the list's)
                    return ast.copy_location(ast.Call(f, [_name(lst)], keywords), e)
                if self.resolve(f.id) is sorted:       # (the same stable sort)
                    self.pending.append(ast.Expr(ast.Call(
                        ast.Attribute(_name(lst), "sort", ast.Load()), [], [])))
                if self.resolve(f.id) in (list, sorted):
                    return ast.copy_location(_name(lst), e)     # a new list already
                return ast.copy_location(ast.Call(f, [_name(lst)], keywords), e)
        return self.generic_visit(e)

    def visit_comprehension(self, c):
        """``(... for v in s ...)``: over the list of the elements in table order,
        appended just before the statement (the set does not change within it)."""
        if self.is_set(c.iter):
            lst = self.listed(c.iter.id)
            c.target = self.visit(c.target)
            c.ifs = [self.visit(x) for x in c.ifs]
            c.iter = ast.copy_location(_name(lst), c.iter)
            return c
        return self.generic_visit(c)

    def listed(self, s) -> str:
        """A list local appended the elements of set ``s`` by statements put
        before the current one; its name."""
        lst = self.tmp("list")
        self.pending += [ast.Assign([_name(lst, True)], ast.List([], ast.Load()))]
        item = self.tmp("item")
        self.pending += self.loop(ast.For(_name(item, True), _name(s), [
            ast.Expr(ast.Call(ast.Attribute(_name(lst), "append", ast.Load()),
                              [_name(item)], []))], []))
        return lst

    def visit_Compare(self, e):
        made = set_operators.expression(e, self.names, set_call, set_arrays)
        if made is not None:
            return ast.copy_location(made, e)
        if len(e.ops) == 1 and isinstance(e.ops[0], (ast.In, ast.NotIn)) and \
                self.is_set(e.comparators[0]):
            s = e.comparators[0].id
            found = set_call("find", *set_arrays(s), self.visit(e.left))
            op = ast.GtE() if isinstance(e.ops[0], ast.In) else ast.Lt()
            return ast.copy_location(ast.Compare(found, [op], [ast.Constant(0)]), e)
        return self.generic_visit(e)

    def truth(self, e):
        if self.is_set(e):
            return ast.copy_location(ast.Compare(set_call("len", _name(f"${e.id}_S")),
                                                 [ast.NotEq()], [ast.Constant(0)]), e)
        return self.visit(e)

    def stmt(self, s) -> list:
        saved, self.pending = self.pending, []
        made = self._stmt(s)
        out, self.pending = self.pending + made, saved
        for x in out:
            ast.copy_location(x, s)
            ast.fix_missing_locations(x)
        return out

    def _stmt(self, s) -> list:
        made = set_aliases.one_set(self, s, self.grouped, self.distinct, self._stmt)
        if made is not None:
            return made
        made = set_operators.statement(self, s, set_call, set_arrays)
        if made is not None:
            return made
        pair = set_aliases.alias_of(s, self.names)
        if pair is not None:
            return set_aliases.bind(*pair, set_arrays)
        if isinstance(s, (ast.Assign, ast.AnnAssign)) and s.value is not None:
            t = s.targets[0] if isinstance(s, ast.Assign) else s.target
            if self.is_set(t):
                return [ast.Assign([ast.Tuple(set_arrays(t.id, True), ast.Store())],
                                   set_call("new", self.carrier(t.id)))]
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and \
                isinstance(s.value.func, ast.Attribute) and \
                self.is_set(s.value.func.value) and \
                s.value.func.attr in _STATEMENT_METHODS:
            name, attr = s.value.func.value.id, s.value.func.attr
            K, I, S = set_arrays(name)
            table = ast.Tuple(set_arrays(name, True)[:2], ast.Store())
            if attr == "clear":
                return [ast.Assign([table], set_call("clear", K, I, S))]
            arg = self.visit(s.value.args[0])
            if attr != "add":
                return [ast.Expr(set_call(attr, K, I, S, arg))]
            k = _name(f"${name}_k", True)
            return [ast.Assign([k], arg),
                    ast.If(set_call("add", K, I, S, _name(f"${name}_k")),
                           [ast.Assign([table], set_call("grow", *set_arrays(name)))], [])]
        if isinstance(s, ast.For) and self.is_set(s.iter):
            return self.loop(s)
        if isinstance(s, ast.Return) and (self.is_set(s.value) or isinstance(
                s.value, ast.Tuple) and any(self.is_set(e) for e in s.value.elts)):
            s.value = self.returned(s.value) if self.is_set(s.value) else ast.Tuple(
                [self.returned(e) if self.is_set(e) else self.visit(e)
                 for e in s.value.elts], ast.Load())
            return [s]
        if self.is_set(dict_copies.listed(s, None)):     # x = list(s), return sorted(s)
            name = s.targets[0].id if isinstance(s, ast.Assign) else self.tmp("list")
            return dict_copies.listed_stmts(self, s, name)
        return [self.compound(s)]

    def returned(self, e):
        """A set the caller gets: a Python set with the compiled table
        (``lib/python/sets.result``, boxed by ``hanajit.host_sets``)."""
        return ast.copy_location(set_call("result", *set_arrays(e.id), self.carrier(e.id),
                                          ast.Constant("frozenset" if e.id in self.frozen
                                                       else "set")), e)

    def loop(self, s) -> list:
        """``for target in s`` as CPython's set iterator."""
        name = s.iter.id
        K, I, S = set_arrays(name)
        pos, used = self.tmp("pos"), self.tmp("used")
        body = [ast.Assign([_name(pos, True)],
                           set_call("next", I, S, _name(pos), _name(used))),
                ast.If(ast.Compare(_name(pos), [ast.Lt()], [ast.Constant(0)]),
                       [ast.Break()], []),
                ast.Assign([s.target], set_call("key_at", K, _name(pos), self.carrier(name))),
                ast.Assign([_name(pos, True)],
                           ast.BinOp(_name(pos), ast.Add(), ast.Constant(1)))]
        return [ast.Assign([_name(pos, True)], ast.Constant(0)),
                ast.Assign([_name(used, True)], set_call("len", copy.deepcopy(S))),
                ast.While(ast.Constant(True), body + self.stmts(s.body), [])]


def _marker_names():
    from ..lib import registry
    return {f"set.{k}": v for k, v in registry.set_markers().items()}


def passed(b, fn, params, locals_):
    """``fn`` with its calls of user functions given a set local inlined, the
    callee using the caller's set (``list_passing``, as for list locals), or
    ``fn`` itself."""
    done = set()
    for _ in range(3):          # (again for names a callee's result made sets: y = h(s))
        sets = set_operators.candidates(fn, b._global_object, makes_set) - done
        if not sets or not any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                               and any(isinstance(a, ast.Name) and a.id in sets
                                       for a in n.args) for n in ast.walk(fn)):
            return fn
        fn = list_passing.rewrite(b, fn, params, locals_, sets=sets)
        done |= sets
    return fn


def has_sets(fn) -> bool:
    return any(isinstance(n, (ast.Set, ast.SetComp)) or isinstance(n, ast.Call) and
               isinstance(n.func, ast.Name) and n.func.id in ("set", "frozenset")
               for n in ast.walk(fn))


def rewrite(fn, params, resolve, injected, code=None):
    """``(fnode, names, reasons)``: ``fn`` with its set locals rewritten (a copy;
    ``fn`` itself when it has none), which they are, and why the others are not
    compiled."""
    if not has_sets(fn):
        return fn, set(), {}
    work = copy.deepcopy(fn)
    sets = set_operators.candidates(work, resolve, makes_set)
    b = _Builds(resolve, sets, code)
    work.body = b.block(work.body)
    reasons = dict(b.reasons)
    names = find(work, params, resolve, reasons, sets, b.frozen)
    if not names:
        return fn, names, reasons
    injected.update(_marker_names())
    grouped = set_aliases.groups(work, names)
    r = Rewriter(names, resolve, grouped, b.frozen)
    work.body = set_aliases.finish(r.stmts(work.body), grouped)
    ast.fix_missing_locations(work)
    return work, names, reasons
