"""Generator objects held in a name: state machines of the compiled function's locals.

``frontend/generator_inlining.py`` inlines a generator call where it is looped
over; one held in a name and driven step by step needs the generator's frame
to outlive each step.  Compiled code keeps it in the caller's locals:

    it = g(n)               $g4_n = n; $h5_st = 0       # arguments bound, nothing run
    a = next(it)            <step>; if not $h5_has: raise StopIteration
                            $h5_r1 = $h5_val; a = $h5_r1
    b = next(it, -1)        $h5_d2 = -1; <step>; $h5_r2 = $h5_val if ... else $h5_d2
    for x in it: body       while True: <step>; if not $h5_has: break
                                x = $h5_val; body
    rest = list(it)         $h5_r3 = []; <for $h5_r3v in it: $h5_r3.append($h5_r3v)>
                            rest = $h5_r3           (sum/min/max/sorted: of that list)

The generator's body (its locals renamed ``$g4_...`` as where it is inlined) is
cut at its ``yield``s into numbered blocks (:class:`_Flat`): a loop or ``if``
holding a ``yield``, a ``return`` or a ``break``/``continue`` of such a loop
becomes jumps between blocks, a loop over a sequence an index kept in a local,
a loop over another generator's call a state machine of its own.  A step
(``<step>``) runs the blocks from the one ``$st`` names until a ``yield``
(``$val``, ``$has``, the block after it in ``$st``) or the end (``$st = -1``,
``$has`` False).  ``$st`` is -1 while a block runs, so a generator an exception
left stays finished, as in CPython.  ``iter(seq)`` held in a name is an index into
``seq`` (CPython's list iterator reads ``len`` at each step, and stays exhausted).

``next(it)`` on an exhausted generator raises ``StopIteration``; inside a
generator (PEP 479) CPython's ``RuntimeError('generator raised StopIteration')``.
``zip(a, g(n))`` and ``enumerate(it)`` in a ``for`` ask each iterator in turn;
``next(g(...))``/``next(iter(a))`` hold one under a generated name, and so does
``tuple(g(...))`` when ``g`` makes a number of items known when compiling (each
``yield`` a statement of its body itself), asked for them all and then its end.

``any(it)``/``all(it)``, and of a generator expression over it (``any(x > t for x
in it)``: one ``for``, any ``if``s), are loops over it that stop at the deciding
item (:meth:`_Rewriter.test_loop`), leaving the rest for a later ``next`` or
``for``; the expression's names renamed, as they are its own.

Refused, with the reason (the function falls back): a held generator used any
other way (passed on, returned, stored, tested, given to ``tuple``...),
``next(it)`` where CPython would run something before it that
the generator could see (``a[i] + next(it)``: only names, constants and
arithmetic may come first in the statement) or that runs it conditionally
(``c and next(it)``), a loop holding a ``yield`` over a call other than
``range``/``enumerate``/``zip``/a generator's, over a dict or a set, and a
generator made again where an earlier one ran (in a loop, a second site, inside
a generator) that may read a local before assigning it: its renamed locals
would still hold the earlier one's values where CPython raises
``UnboundLocalError`` (:func:`maybe_unbound`).
"""
from __future__ import annotations

import ast
import builtins
import copy
import itertools

from ..lib import registry
from . import generator_inlining as gi
from .dict_comprehensions import Rename

_UID = itertools.count(1)
_DRAINING = (builtins.list, builtins.sum, builtins.min, builtins.max, builtins.sorted)
_NO_HOIST = (ast.BoolOp, ast.IfExp, ast.Compare, ast.Lambda, ast.ListComp, ast.SetComp,
             ast.DictComp, ast.GeneratorExp, ast.NamedExpr, ast.Dict, ast.Starred,
             ast.JoinedStr, ast.Await)
_SAFE_BEFORE = (ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List,
                ast.Attribute, ast.Load, ast.operator, ast.unaryop)


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def _assign(target, value):
    if not isinstance(value, ast.AST):
        value = ast.Constant(value)
    return ast.Assign(targets=[target if isinstance(target, ast.AST) else _name(target, True)],
                      value=value)


def _if(test, body, orelse=()):
    return ast.If(test=test, body=list(body), orelse=list(orelse))


def _not(e):
    return ast.UnaryOp(ast.Not(), e)


class _Machine:
    """A held iterator: a generator's state machine or an index into a sequence."""

    def __init__(self, p, gen=None, blocks=None):
        self.p, self.gen, self.blocks = p, gen, blocks
        self.has, self.val = p + "has", p + "val"
        self.range = False          # an index into range(...) made once (its parts held)

    def create(self, pre, seq=None) -> list:
        if self.gen is None and self.range:     # range(...): its parts, no range object
            p, args = self.p, list(seq.args)
            args = ([ast.Constant(0)] if len(args) == 1 else []) + args \
                + ([ast.Constant(1)] if len(args) < 3 else [])
            parts = [_name(p + x) for x in ("start", "stop", "step")]
            return [_assign(p + x, a) for x, a in zip(("start", "stop", "step"), args)] + [
                ast.Expr(ast.Call(_name("__hj_range_check"), parts, [])),
                _assign(p + "len", ast.Call(_name("__hj_range_len"), copy.deepcopy(parts), [])),
                _assign(p + "k", 0)]
        if self.gen is None:
            return [_assign(self.p + "seq", seq), _assign(self.p + "k", 0)]
        return pre + [_assign(self.p + "st", 0)]

    def step(self) -> list:
        """Statements running the iterator to its next item: ``$has``, ``$val``."""
        p = self.p
        if self.range:
            item = ast.Call(_name("__hj_range_index"), [
                _name(p + x) for x in ("start", "stop", "step", "k")], [])
            return [_if(ast.Compare(_name(p + "k"), [ast.Lt()], [_name(p + "len")]), [
                _assign(self.val, item),
                ast.AugAssign(_name(p + "k", True), ast.Add(), ast.Constant(1)),
                _assign(self.has, True)], [_assign(self.has, False)])]
        if self.gen is None:
            k, seq = _name(p + "k"), _name(p + "seq")
            ok = ast.BoolOp(ast.And(), [
                ast.Compare(k, [ast.GtE()], [ast.Constant(0)]),
                ast.Compare(copy.deepcopy(k), [ast.Lt()],
                            [ast.Call(_name("__hj_len"), [seq], [])])])
            return [_if(ok, [_assign(self.val, ast.Subscript(_name(p + "seq"), _name(p + "k"),
                                                             ast.Load())),
                             ast.AugAssign(_name(p + "k", True), ast.Add(), ast.Constant(1)),
                             _assign(self.has, True)],
                        [_assign(p + "k", -1), _assign(self.has, False)])]
        at = p + "at"
        chain = [_if(ast.Compare(_name(at), [ast.Eq()], [ast.Constant(i)]), copy.deepcopy(b))
                 for i, b in enumerate(self.blocks)]
        return [_assign(at, _name(p + "st")), _assign(p + "st", -1), _assign(self.has, False),
                ast.While(test=ast.Constant(True), body=chain + [ast.Break()], orelse=[])]


def _escaping_jumps(stmts) -> bool:
    """Is there a ``break``/``continue`` in ``stmts`` leaving a loop around them?"""
    for s in stmts:
        if isinstance(s, (ast.Break, ast.Continue)):
            return True
        if isinstance(s, (ast.For, ast.While)):
            if _escaping_jumps(s.orelse):
                return True
            continue
        for field in ("body", "orelse", "finalbody"):
            part = getattr(s, field, None)
            if isinstance(part, list) and _escaping_jumps(part):
                return True
        if any(_escaping_jumps(h.body) for h in getattr(s, "handlers", ())):
            return True
    return False


def _cut(s) -> bool:
    """Must statement ``s`` be cut into blocks (it yields, returns or jumps out)?"""
    return any(isinstance(n, (ast.Yield, ast.Return)) for n in ast.walk(s)) \
        or _escaping_jumps([s])


class _Flat:
    """A generator's body cut into blocks at its ``yield``s (module docstring)."""

    def __init__(self, rw, p):
        self.rw, self.p = rw, p
        self.blocks, self.cur, self.n = [[]], 0, 0

    def new(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def emit(self, *stmts):
        self.blocks[self.cur].extend(stmts)

    def jump(self, k):
        self.emit(_assign(self.p + "at", k), ast.Continue())
        self.cur = self.new()                   # (what follows is not reached)

    def branch(self, test, yes, no):
        self.emit(_if(test, [_assign(self.p + "at", yes)], [_assign(self.p + "at", no)]),
                  ast.Continue())

    def body(self, stmts) -> list:
        self.stmts(stmts, [])
        self.emit(ast.Break())                  # the end: finished
        return self.blocks

    def stmts(self, stmts, loops):
        for s in stmts:
            self.stmt(s, loops)

    def stmt(self, s, loops):
        if not _cut(s):
            self.emit(s)
        elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield):
            after = self.new()
            v = s.value.value
            self.emit(_assign(self.p + "val", v if v is not None else ast.Constant(None)),
                      _assign(self.p + "has", True), _assign(self.p + "st", after), ast.Break())
            self.cur = after
        elif isinstance(s, ast.Return):
            if s.value is not None and not isinstance(s.value, (ast.Constant, ast.Name)):
                self.emit(ast.Expr(s.value))
            self.emit(ast.Break())
            self.cur = self.new()
        elif isinstance(s, (ast.Break, ast.Continue)):
            self.jump(loops[-1][isinstance(s, ast.Break)])
        elif isinstance(s, ast.If):
            yes, no, join = self.new(), self.new(), self.new()
            self.branch(s.test, yes, no)
            self.cur = yes
            self.stmts(s.body, loops)
            self.jump(join)
            self.cur = no
            self.stmts(s.orelse, loops)
            self.jump(join)
            self.cur = join
        elif isinstance(s, ast.While):
            head, body, other, out = self.new(), self.new(), self.new(), self.new()
            self.jump(head)
            self.cur = head
            self.branch(s.test, body, other)
            self.loop(s, loops, head, body, other, out)
        elif isinstance(s, ast.For):
            sources, count = self.rw.sources(s.iter, s)
            for _, made, _ in sources:
                self.emit(*made)
            if count is not None:
                self.emit(_assign(count[0], count[1]))
            head, body, other, out = self.new(), self.new(), self.new(), self.new()
            self.jump(head)
            self.cur = head
            ok, steps, items = _steps([m for m, _, _ in sources])
            self.emit(*steps)
            self.branch(ok, body, other)
            self.cur = body
            self.emit(*_bind(s.target, items, count))
            self.loop(s, loops, head, body, other, out)
        else:
            self.rw.fail(s, f"generator {self.rw.gen_name} breaks, continues, yields or "
                         "returns inside a try or with statement")

    def loop(self, s, loops, head, body, other, out):
        self.cur = body
        self.stmts(s.body, loops + [(head, out)])
        self.jump(head)
        self.cur = other
        self.stmts(s.orelse, loops)
        self.jump(out)
        self.cur = out


def _steps(machines) -> tuple:
    """``(test, statements, items)``: each iterator asked in turn (``zip``: a
    later one only while the earlier ones had an item; each item kept at once,
    ``zip(it, it)`` asking one twice); the test is that all had one."""
    if len(machines) == 1:
        return _name(machines[0].has), machines[0].step(), [machines[0].val]
    uid = next(_UID)
    ok, items = f"{machines[0].p}ok{uid}", [f"{m.p}z{uid}_{i}" for i, m in enumerate(machines)]
    inner = [_assign(ok, True)]
    for m, item in reversed(list(zip(machines, items))):
        inner = m.step() + [_if(_name(m.has), [_assign(item, _name(m.val))] + inner)]
    return _name(ok), [_assign(ok, False)] + inner, items


def _bind(target, items, count) -> list:
    vals = [_name(v) for v in items]
    item = vals[0] if len(vals) == 1 else ast.Tuple(vals, ast.Load())
    if count is None:
        return [_assign(copy.deepcopy(target), item)]
    return [_assign(copy.deepcopy(target), ast.Tuple([_name(count[0]), item], ast.Load())),
            ast.AugAssign(_name(count[0], True), ast.Add(), ast.Constant(1))]


def rewrite_body(inl, body, lookup, chain, gen_name=None, extra=()) -> list:
    """``body`` (of the compiled function, or of generator ``gen_name``) with its
    held generators made state machines (``body`` itself when it has none)."""
    rw = _Rewriter(inl, lookup, chain, gen_name)
    rw.find(body)
    if not rw.kinds and not rw.zips:
        return body
    check, length, index = registry.range_object_callables()
    inl.b.injected.update({"__hj_len": builtins.len, "__hj_StopIteration": StopIteration,
                           "__hj_RuntimeError": RuntimeError, "__hj_range_check": check,
                           "__hj_range_len": length, "__hj_range_index": index})
    out = rw.stmts(body)
    for node in list(out) + list(extra):
        own = gi.stored_names(node) if node in extra else ()
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id in rw.kinds and n.id not in own:
                kind = rw.kinds[n.id]
                made = "iter(...) makes an iterator" if kind is builtins.iter else \
                    f"{kind.__name__}(...) makes a generator object"
                rw.fail(n, f"{made} held in {n.id!r}, used other than by next({n.id}), "
                        f"next({n.id}, default), a for loop over it, or any, all, list, "
                        "sum, min, max or sorted of it (passed on, returned, stored, "
                        "tested, or zipped with itself)")
    return out


class _Rewriter:
    def __init__(self, inl, lookup, chain, gen_name):
        self.inl, self.lookup, self.chain, self.gen_name = inl, lookup, chain, gen_name
        self.kinds, self.machines, self.named, self.zips = {}, {}, {}, False
        self.containers, self.in_try, self.loops, self.sites = set(), 0, 0, {}
        self.ranges = {}

    def fail(self, node, detail):
        self.inl.fail(node, detail)

    def callee(self, call):
        return gi.callee_of(call.func, self.lookup) if isinstance(call, ast.Call) else None

    def generator(self, call):
        return gi.generator_of(call.func, self.lookup) if isinstance(call, ast.Call) else None

    def made(self, value):
        """``(kind, generator call or iterated expression)`` when ``value`` makes an
        iterator a name may hold: ``g(...)``, ``iter(g(...))``, ``iter(seq)``."""
        if self.generator(value) is not None:
            return self.generator(value), value
        if self.callee(value) is builtins.iter and len(value.args) == 1 \
                and not value.keywords and not isinstance(value.args[0], ast.Starred):
            arg = value.args[0]
            if self.generator(arg) is not None:
                return self.generator(arg), arg
            return builtins.iter, arg
        return None

    def find(self, body):
        for n in (n for s in body for n in ast.walk(s)):
            if isinstance(n, ast.Assign) and isinstance(n.value, (ast.Dict, ast.DictComp,
                                                                 ast.Set, ast.SetComp)) \
                    or isinstance(n, ast.Assign) and self.callee(n.value) in (dict, set):
                self.containers.update(t.id for t in n.targets if isinstance(t, ast.Name))
            if isinstance(n, ast.Assign) and len(n.targets) == 1 \
                    and isinstance(n.targets[0], ast.Name) and self.made(n.value):
                name, kind = n.targets[0].id, self.made(n.value)[0]
                self.sites[name] = self.sites.get(name, 0) + 1
                seq = self.made(n.value)[1]
                self.ranges[name] = self.ranges.get(name, True) and kind is builtins.iter \
                    and self.is_range(seq)
                if self.kinds.setdefault(name, kind) is not kind:
                    self.fail(n, f"{name!r} holds iterators of different generators")
            if isinstance(n, ast.For) and self.callee(n.iter) is builtins.zip and any(
                    self.generator(a) is not None for a in n.iter.args[1:]) \
                    or self.callee(n) is builtins.tuple and len(n.args) == 1 \
                    and self.generator(n.args[0]) is not None \
                    or self.callee(n) is builtins.next and 1 <= len(n.args) <= 2 \
                    and self.made(n.args[0]):
                self.zips = True        # (zip(a, g(...)), tuple(g(...)), next(iter(a)))

    # ------------------------------------------------------------------ iterators
    def gen_machine(self, gen, call, node, uid=None, again=True):
        """The state machine of ``gen`` (made once per ``uid``) and the statements
        binding ``call``'s arguments.  ``again``: a new one may be made where an
        earlier one ran (its locals would keep the earlier one's values)."""
        if gen in self.chain:
            self.fail(node, f"{gen.__qualname__} holds a call of itself (a recursive "
                      "generator)")
        name = maybe_unbound(gen) if again else None
        if name is not None:
            self.fail(node, f"generator {gen.__qualname__} may read {name!r} before assigning "
                      "it, and a new one is made here where an earlier one may have run (it "
                      "would see the earlier one's value where CPython raises "
                      "UnboundLocalError)")
        uid, pre, body = self.inl.prepare(node, gen, call, self.chain, None, uid)
        if uid in self.machines:
            return self.machines[uid], pre
        p = f"$h{uid}_"
        rw = _Rewriter(self.inl, self.inl.lookup, self.chain + (gen,), gen.__qualname__)
        rw.find(body)
        count = _static_count(body)
        m = _Machine(p, gen, _Flat(rw, p).body(body))
        m.uid, m.count = uid, count
        self.machines[uid] = m
        return m, pre

    def held(self, name, node, value):
        """The statements making the iterator ``name = value`` holds."""
        kind, arg = self.made(value)
        if kind is builtins.iter:
            m = self.named.setdefault(name, _Machine(f"$h{next(gi.UID)}_"))
            m.range = self.ranges.get(name, False)      # (every iter(...) of it a range's)
            return m.create([], self.sequence(arg, node))
        m = self.named.get(name)
        again = m is not None or self.sites.get(name, 0) > 1 or self.loops > 0 \
            or self.gen_name is not None
        m, pre = self.gen_machine(kind, arg, node, m and m.uid, again)
        self.named[name] = m
        return m.create(pre)

    def sequence(self, e, node):
        if isinstance(e, ast.Call) and self.callee(e) is not builtins.range \
                or isinstance(e, ast.Name) and e.id in self.containers:
            self.fail(node, f"a loop holding a yield, or iter(), over {ast.unparse(e)!r} "
                      "(only over a range, a sequence, an array, enumerate, zip or a "
                      "generator's call)")
        return e

    def source(self, e, node) -> tuple:
        """``(iterator, the statements making it)`` of an iterable ``e``."""
        if isinstance(e, ast.Name) and e.id in self.kinds:
            if e.id not in self.named:
                self.fail(node, f"a loop over {e.id!r} before it holds an iterator")
            return self.named[e.id], []
        gen = self.generator(e)
        if gen is not None:
            m, pre = self.gen_machine(gen, e, node, None,
                                      self.loops > 0 or self.gen_name is not None)
            return m, m.create(pre)
        m = _Machine(f"$h{next(gi.UID)}_")
        m.range = self.is_range(e)
        return m, m.create([], self.sequence(e, node))

    def is_range(self, e) -> bool:
        return self.callee(e) is builtins.range and 1 <= len(e.args) <= 3 \
            and not e.keywords and not any(isinstance(a, ast.Starred) for a in e.args)

    def sources(self, e, node) -> tuple:
        """``([(iterator, making statements, None)], count)`` of a loop's iterable
        (``count``: ``(name, start)`` of an ``enumerate``)."""
        f = self.callee(e)
        if isinstance(e, ast.Call) and any(isinstance(a, ast.Starred) for a in e.args):
            f = None
        if f is builtins.enumerate and 1 <= len(e.args) + len(e.keywords) <= 2 and e.args \
                and all(k.arg == "start" for k in e.keywords):
            start = e.args[1] if len(e.args) == 2 else e.keywords[0].value if e.keywords \
                else ast.Constant(0)
            m, pre = self.source(e.args[0], node)
            return [(m, pre, None)], (f"{m.p}n{next(_UID)}", start)
        if f is builtins.zip and e.args and not e.keywords:
            return [self.source(a, node) + (None,) for a in e.args], None
        return [self.source(e, node) + (None,)], None

    def loops_held(self, e) -> bool:
        """Is the loop over ``e`` one of a held iterator (``it``, ``enumerate(it)``,
        ``zip(a, it)``, ``zip(a, g(n))``)?"""
        if isinstance(e, ast.Name):
            return e.id in self.kinds
        f = self.callee(e)
        if f is builtins.enumerate and e.args:
            return isinstance(e.args[0], ast.Name) and e.args[0].id in self.kinds
        if f is not builtins.zip or e.keywords or any(isinstance(a, ast.Starred)
                                                      for a in e.args):
            return False
        return any(isinstance(a, ast.Name) and a.id in self.kinds for a in e.args) \
            or any(self.generator(a) is not None for a in e.args[1:])

    # ------------------------------------------------------------------ statements
    def stmts(self, stmts) -> list:
        out = []
        for s in stmts:
            out.extend(self.stmt(s))
        return out

    def stmt(self, s) -> list:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [s]
        if isinstance(s, ast.For) and self.loops_held(s.iter):
            looped = {n.id for n in ast.walk(s.iter) if isinstance(n, ast.Name)
                      and n.id in self.kinds}
            for n in (n for st in s.body for n in ast.walk(st)):
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id in looped
                                                     for t in n.targets):
                    self.fail(n, "a loop over a held iterator makes a new one in its name "
                              "(CPython's loop goes on over the one it started with)")
        guarded, loop = isinstance(s, gi.GUARDED), isinstance(s, (ast.For, ast.While))
        self.in_try += guarded
        for field in ("body", "orelse", "finalbody"):
            part = getattr(s, field, None)
            if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
                self.loops += loop and field == "body"
                setattr(s, field, self.stmts(part))
                self.loops -= loop and field == "body"
        for h in getattr(s, "handlers", ()):
            h.body = self.stmts(h.body)
        for case in getattr(s, "cases", ()):
            case.body = self.stmts(case.body)
        self.in_try -= guarded
        if isinstance(s, ast.Assign) and len(s.targets) == 1 \
                and isinstance(s.targets[0], ast.Name) and s.targets[0].id in self.kinds \
                and self.made(s.value):
            return self.hoist(s, s.value) + [
                ast.copy_location(x, s) for x in self.held(s.targets[0].id, s, s.value)]
        if isinstance(s, ast.For) and self.loops_held(s.iter):
            return self.hoist(s, s.iter) + self.for_loop(s)
        root = {ast.Assign: "value", ast.AnnAssign: "value", ast.Expr: "value",
                ast.Return: "value", ast.If: "test", ast.For: "iter"}.get(type(s))
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            root = "value"
        root = getattr(s, root) if root else None
        made = self.tuples(s, root) if root is not None else []
        return made + self.hoist(s, root) + [s]

    def tuples(self, s, root) -> list:
        """``next(g(...))`` / ``next(iter(a))`` in ``root``: the iterator held under a
        generated name; ``tuple(g(...))``: ``g(...)`` held so too, the
        call marked to be asked for its items all at once (compiled tuples have
        a length known when compiling: ``g``'s ``yield``s must be statements of
        its body itself, none after a ``return``)."""
        out = []
        for n in ast.walk(root):
            if self.callee(n) is builtins.next and 1 <= len(n.args) <= 2 and not n.keywords \
                    and self.made(n.args[0]):     # next(g(...)), next(iter(a)): held
                if any(self.is_next(x) for x in ast.walk(n.args[0])):
                    self.fail(s, "next(...) in the arguments of next(g(...)): assign it to "
                              "a name first")
                name = f"$it{next(_UID)}"
                self.kinds[name] = self.made(n.args[0])[0]
                out += self.held(name, s, n.args[0])
                n.args[0] = _name(name)
            if self.callee(n) is builtins.tuple and len(n.args) == 1 and not n.keywords \
                    and self.generator(n.args[0]) is not None:
                if any(self.is_next(x) for x in ast.walk(n.args[0])):
                    self.fail(s, "next(...) in the arguments of tuple(g(...)): assign it to "
                              "a name first")
                gen, name = self.generator(n.args[0]), f"$tup{next(_UID)}"
                self.kinds[name] = gen
                out += self.held(name, s, n.args[0])
                if self.named[name].count is None:
                    self.fail(s, f"tuple({gen.__name__}(...)): the number of items of "
                              f"generator {gen.__qualname__} is not known when compiling (a "
                              "yield in a loop or branch; a compiled tuple has a fixed length)")
                n.args, n.hj_count = [_name(name)], self.named[name].count
        return [ast.fix_missing_locations(ast.copy_location(x, s)) for x in out]

    def for_loop(self, s) -> list:
        """``for t in it`` (``enumerate(it)``, ``zip(a, it)``...): a ``while`` asking
        the iterators; its ``else`` by a flag (a ``break`` of the body skips it)."""
        sources, count = self.sources(s.iter, s)
        out = [x for _, made, _ in sources for x in made]
        if count is not None:
            out.append(_assign(count[0], count[1]))
        machines = [m for m, _, _ in sources]
        ok, steps, items = _steps(machines)
        ex = f"{machines[0].p}ex{next(_UID)}"
        leave = ([_assign(ex, True)] if s.orelse else []) + [ast.Break()]
        body = steps + [_if(_not(ok), leave)] + _bind(s.target, items, count) + s.body
        loop = ast.While(test=ast.Constant(True), body=body, orelse=[])
        if s.orelse:
            out += [_assign(ex, False), loop, _if(_name(ex), s.orelse)]
        else:
            out.append(loop)
        return [ast.fix_missing_locations(ast.copy_location(x, s)) for x in out]

    def drained(self, n) -> bool:
        """Is ``n`` ``list(it)``, ``sum(it)``, ``min``/``max``/``sorted`` of a held
        iterator (each asks it for every item first)?"""
        return isinstance(n, ast.Call) and n.args and any(
            self.callee(n) is f for f in _DRAINING) and isinstance(n.args[0], ast.Name) \
            and n.args[0].id in self.kinds and not isinstance(n.args[0], ast.Starred) \
            and (self.callee(n) is not builtins.list or len(n.args) == 1 and not n.keywords)

    def tested(self, n):
        """``any(it)``/``all(it)`` of a held iterator, or of a generator
        expression over one (a single ``for``, any ``if``s): ``(any?, target,
        item, tests, name)``, else None.  Each asks the iterator for items until
        one decides, as CPython's ``any``/``all`` do, and leaves the rest."""
        if not isinstance(n, ast.Call) or len(n.args) != 1 or n.keywords \
                or self.callee(n) not in (builtins.any, builtins.all):
            return None
        a, found = n.args[0], self.callee(n) is builtins.any
        if isinstance(a, ast.Name) and a.id in self.kinds:
            return found, None, None, [], a.id
        if isinstance(a, ast.GeneratorExp) and len(a.generators) == 1:
            g = a.generators[0]
            if isinstance(g.iter, ast.Name) and g.iter.id in self.kinds and not g.is_async:
                return found, g.target, a.elt, g.ifs, g.iter.id
        return None

    def test_loop(self, s, call, r) -> list:
        """``r = any(...)``/``all(...)`` of :meth:`tested` as a loop over the
        iterator that stops at the deciding item; a generator expression's names
        renamed (they are its own, not the function's)."""
        found, target, item, tests, it = self.tested(call)
        if target is None:
            target, item = _name(r + "v", True), _name(r + "v")
        else:
            inner = [x for e in [item, *tests] for x in ast.walk(e)]
            if any(isinstance(x, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp,
                                  ast.DictComp)) for x in inner):
                self.fail(s, f"{'any' if found else 'all'}(... for ... in {it}) whose item "
                          "or condition holds a lambda or another comprehension: write the "
                          "loop")
            own = {x.id: f"{r}_{x.id}" for x in ast.walk(target) if isinstance(x, ast.Name)}
            target, item, *tests = (Rename(own).visit(copy.deepcopy(e))
                                    for e in (target, item, *tests))
        decide = item if found else ast.UnaryOp(ast.Not(), item)
        body = [_if(decide, [_assign(r, found), ast.Break()])]
        for test in reversed(tests):
            body = [_if(test, body)]
        return [_assign(r, not found)] + self.for_loop(
            ast.For(target=target, iter=_name(it), body=body, orelse=[]))

    def is_next(self, n) -> bool:
        if getattr(n, "hj_count", None) is not None or self.drained(n) \
                or self.tested(n) is not None:
            return True
        return isinstance(n, ast.Call) and self.callee(n) is builtins.next \
            and 1 <= len(n.args) <= 2 and not n.keywords \
            and isinstance(n.args[0], ast.Name) and n.args[0].id in self.kinds

    def hoist(self, s, root) -> list:
        """The steps of the ``next(it)`` calls in ``root`` (an expression of ``s``
        CPython evaluates first), each call then the name of its item."""
        calls = []
        if root is not None:
            self.order(root, False, False, calls, s)
        found = [n for n in ast.walk(s) if self.is_next(n)]
        if len(found) != len(calls):
            self.fail(s, f"next({found[0].args[0].id}) where it cannot be asked first "
                      "(a while condition, a with statement, ...): assign it to a name "
                      "first")
        out = []
        for call in calls:
            tested = self.tested(call)
            held = tested[4] if tested is not None else call.args[0].id
            m = self.named.get(held)
            if m is None:
                self.fail(s, f"next({held}) before it holds an iterator")
            r = f"{m.p}r{next(_UID)}"
            if tested is not None:          # any(it), all(x > 0 for x in it)
                out += self.test_loop(s, call, r)
                call.hj_item = r
                continue
            if self.drained(call):          # list(it), sum(it)...: a list of its items
                v = r + "v"
                out += [_assign(r, ast.List([], ast.Load()))] + self.for_loop(ast.For(
                    target=_name(v, True), iter=_name(call.args[0].id), orelse=[],
                    body=[ast.Expr(ast.Call(ast.Attribute(_name(r), "append", ast.Load()),
                                            [_name(v)], []))]))
                if self.callee(call) is builtins.list:
                    call.hj_item = r
                else:
                    call.args[0] = _name(r)
                continue
            count = getattr(call, "hj_count", None)
            if count is not None:           # tuple(g(...)): its items, then the end
                items = [f"{r}_{i}" for i in range(count)]
                for item in items:
                    out += m.step() + [_assign(item, _name(m.val))]
                out += m.step()
                call.hj_item = ast.Tuple([_name(i) for i in items], ast.Load())
                continue
            if len(call.args) == 2:
                out.append(_assign(r + "d", call.args[1]))
            out += m.step()
            if len(call.args) == 2:
                out.append(_if(_name(m.has), [_assign(r, _name(m.val))],
                               [_assign(r, _name(r + "d"))]))
            else:
                out += [_if(_not(_name(m.has)), [self.stop(s, call)]),
                        _assign(r, _name(m.val))]
            call.hj_item = r
        _Items().visit(s)
        return [ast.fix_missing_locations(ast.copy_location(x, s)) for x in out]

    def stop(self, s, call):
        """``raise StopIteration``; inside a generator PEP 479's RuntimeError."""
        if self.gen_name is None:
            return ast.Raise(exc=_name("__hj_StopIteration"), cause=None)
        if self.in_try:
            self.fail(s, f"next({call.args[0].id}) without a default inside a try or "
                      f"with statement of generator {self.gen_name}")
        return ast.Raise(exc=ast.Call(_name("__hj_RuntimeError"), [
            ast.Constant("generator raised StopIteration")], []), cause=None)

    def order(self, e, cond, unsafe, calls, s) -> bool:
        """Walk ``e`` in CPython's order of evaluation, collecting the ``next``
        calls (``calls``) that may be asked before the statement; returns
        whether something seen may have effects the generator could see."""
        if self.is_next(e):
            if cond or unsafe:
                self.fail(s, f"next({e.args[0].id}) after something it could see or "
                          "that decides whether it runs (a call, an index, and, or, a "
                          "comparison): assign it to a name first")
            for a in e.args[1:]:
                self.order(a, cond, False, calls, s)
            calls.append(e)
            return unsafe
        if isinstance(e, _NO_HOIST):
            first = {ast.BoolOp: lambda x: x.values[0], ast.Compare: lambda x: x.left,
                     ast.IfExp: lambda x: x.test}.get(type(e))
            head = first(e) if first else None
            for c in ast.iter_child_nodes(e):
                unsafe = self.order(c, cond or c is not head, unsafe, calls, s)
            return True
        for c in ast.iter_child_nodes(e):
            unsafe = self.order(c, cond, unsafe, calls, s)
        return unsafe or not isinstance(e, _SAFE_BEFORE)


class _Items(ast.NodeTransformer):
    """Each ``next`` call asked before its statement: the name of its item."""

    def visit_Call(self, node):
        r = getattr(node, "hj_item", None)
        if r is None:
            return self.generic_visit(node)
        return ast.copy_location(_name(r) if isinstance(r, str) else r, node)


def _static_count(body):
    """The number of items a generator whose body is ``body`` makes when every
    ``yield`` is a statement of the body itself (None otherwise)."""
    count = 0
    for s in body:
        if isinstance(s, ast.Return):
            return count
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield):
            count += 1
        elif any(isinstance(n, (ast.Yield, ast.Return)) for n in ast.walk(s)):
            return None
    return count


def maybe_unbound(gen):
    """A local of generator ``gen`` that some path may read before assigning it
    (a branch assigns what both arms do, a loop nothing after it), else None."""
    node = gen.node if isinstance(gen, gi.LocalGenerator) else gi.parse_function(gen).node
    own = gi.stored_names(node)
    a = node.args
    params = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    found = []

    def reads(e, bound):
        inner = {t.id for c in ast.walk(e) if isinstance(c, ast.comprehension)
                 for t in ast.walk(c.target) if isinstance(t, ast.Name)}
        found.extend(n.id for n in ast.walk(e) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Load) and n.id in own
                     and n.id not in bound and n.id not in inner)

    def block(stmts, bound):
        bound = set(bound)
        for s in stmts:
            if isinstance(s, ast.If):
                reads(s.test, bound)
                bound = block(s.body, bound) & block(s.orelse, bound)
            elif isinstance(s, (ast.For, ast.While)):
                reads(s.iter if isinstance(s, ast.For) else s.test, bound)
                targets = {n.id for n in ast.walk(s.target) if isinstance(n, ast.Name)} \
                    if isinstance(s, ast.For) else set()
                block(s.body, bound | targets)
                block(s.orelse, bound)
            elif isinstance(s, (ast.Try, ast.With)):
                for item in getattr(s, "items", ()):
                    reads(item, bound)
                for h in getattr(s, "handlers", ()):
                    block(h.body, bound)
                block(getattr(s, "orelse", []) + getattr(s, "finalbody", []), bound)
                block(s.body, bound)
            else:
                if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
                        and s.target.id not in bound and s.target.id in own:
                    found.append(s.target.id)
                reads(s, bound)
                bound |= {n.id for n in ast.walk(s) if isinstance(n, ast.Name)
                          and isinstance(n.ctx, ast.Store)}
        return bound

    block(node.body, params)
    return found[0] if found else None
