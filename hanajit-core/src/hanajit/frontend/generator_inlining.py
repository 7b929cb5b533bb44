"""Generator functions consumed inside compiled code, inlined where they are looped over.

Compiled code has no generator objects, but a generator function whose call is
the iterable of a ``for`` loop needs none: its body runs in the loop's place,
each ``yield v`` binding the loop's target to ``v`` and running the loop's body
there::

    def pairs(n):                       for i, j in pairs(n):
        for i in range(n):                  t += i * j
            for j in range(i):
                yield i, j
                                        becomes
    $g1_n = n                           # the arguments, once, in order
    for $g1_i in range(n):
        for $g1_j in range($g1_i):
            i, j = $g1_i, $g1_j         # the yield: bind the target ...
            t += i * j                  # ... run the loop's body

The generator's locals get fresh names (``$g1_i``), never the caller's; a
global it reads that the caller would not resolve to the same object is bound
under a generated name.  Its arguments are evaluated at the call, in order; its
body then runs interleaved with the loop's body exactly as CPython runs them,
side effects and exceptions included.  A ``break`` of the loop's body leaves the
whole inlined generator (a one-pass wrapper loop and a flag ``$out`` checked
after each of the generator's own loops around the ``yield``), a ``continue``
goes on after the ``yield`` (the body sits in a one-pass loop then), a
``return`` in the generator ends the iteration, and the loop's ``else`` runs
unless the body broke out.  ``enumerate(g(...), start)`` counts the items;
``zip(g(...), a, ...)`` pairs them with ``a[k]`` ... (``a`` evaluated once, after
the generator's arguments; the loop ends, its ``else`` running, when one of
them has no item ``k`` once the generator has made its item, as CPython's
``zip`` asks the generator first).
``yield from it`` (a statement) is ``for v in it: yield v``: another generator's
call there is inlined in turn.

A rewrite of the ``def`` before it is built (``rewrite``) inlines the ``for``
statements; ``any``/``all``/``min``/``max``/``list`` of a generator call become
the comprehension ``(v for v in g(...))`` / ``[v for v in g(...)]``, whose loop
(as that of ``sum(g(...))``, ``np.fromiter(g(...), dt)`` and of any comprehension
over a generator call) the builder makes later: ``at_loop`` inlines it then.

Refused (the function falls back, with the reason): a generator with
``*args``/``**kwargs``, a call that does not match its parameters, a ``yield``
or ``yield from`` used as a value (``send()``), a ``yield`` or ``return`` inside
``try`` or ``with``, nested functions, lambdas, classes, ``global``/``nonlocal``
or imports in its body, and a generator that loops over itself.  A generator
held in a name (``it = g(n); next(it)``) is a state machine of the caller's
locals (``frontend/held_generators.py``, which :meth:`_Inliner.prepare` serves);
a call used any other way (passed on, returned) is refused when it is typed
(``infer``).
"""
from __future__ import annotations

import ast
import builtins
import copy
import inspect
import itertools
import sys
import types

from ..jitted import is_jitted
from . import genexp_generators, held_generators
from .source import attribute_chain, parse_function, resolved

UID = itertools.count(1)
_CO_GENERATOR = 0x20
_MISSING = object()
# f(g(...)) -> f(v for v in g(...)); list(g(...)) -> [v for v in g(...)]
_CONSUMERS = (builtins.any, builtins.all, builtins.min, builtins.max)
_REFUSED = {
    ast.Lambda: "a lambda", ast.FunctionDef: "a nested function",
    ast.AsyncFunctionDef: "a nested function", ast.ClassDef: "a class",
    ast.Global: "a global statement", ast.Nonlocal: "a nonlocal statement",
    ast.Await: "await", ast.Import: "an import", ast.ImportFrom: "an import",
    ast.YieldFrom: "yield from used as a value",
}
if hasattr(ast, "Match"):
    _REFUSED[ast.Match] = "a match statement"
GUARDED = (ast.Try, ast.With, ast.AsyncWith) + ((ast.TryStar,) if hasattr(ast, "TryStar")
                                                 else ())
_LIBRARY_DIRS = ("site-packages", "dist-packages")


class LocalGenerator:
    """A generator function defined at the top level of the compiled function's
    body (no decorators or defaults): inlined where it is looped over like any
    other, its free names the enclosing function's own, read when its body runs,
    as a closure reads them.  Stands in for it under its name (``injected``)."""

    def __init__(self, node: ast.FunctionDef, qualname: str):
        self.node, self.__qualname__, self.__name__ = node, qualname, node.name
        a, P = node.args, inspect.Parameter
        self.__signature__ = inspect.Signature(
            [P(x.arg, P.POSITIONAL_ONLY) for x in a.posonlyargs]
            + [P(x.arg, P.POSITIONAL_OR_KEYWORD) for x in a.args]
            + [P(x.arg, P.KEYWORD_ONLY) for x in a.kwonlyargs])

    def __call__(self, *args, **kwargs):    # pragma: no cover - never called
        raise TypeError("a local generator is only looped over in compiled code")


def generator_function(obj):
    """The user's plain Python generator function that ``obj`` is (or that a jitted
    ``obj`` wraps), else None -- not the standard library's, NumPy's or hanajit's."""
    if isinstance(obj, LocalGenerator):
        return obj
    if is_jitted(obj):
        obj = getattr(obj, "py_func", None)
    if not isinstance(obj, types.FunctionType) or not obj.__code__.co_flags & _CO_GENERATOR:
        return None
    top = (getattr(obj, "__module__", None) or "").partition(".")[0]
    if top in sys.stdlib_module_names or top in ("numpy", "hanajit") \
            or top.startswith("hanajit_"):
        return None
    path = obj.__code__.co_filename.replace("\\", "/")
    return None if any(f"/{d}/" in path for d in _LIBRARY_DIRS) else obj


def is_generator_function(pyfunc) -> bool:
    """Is ``pyfunc`` (a function being compiled) a generator function?"""
    code = getattr(pyfunc, "__code__", None)
    return code is not None and bool(code.co_flags & _CO_GENERATOR)


def scope_lookup(parsed, injected, locals_):
    """``lookup(name)``: the object a free name of ``parsed`` refers to (generated
    names first), ``_MISSING`` for its locals and undefined names."""
    def lookup(name):
        if name in locals_:
            return _MISSING
        if name in injected:
            return injected[name]
        for scope in (parsed.closure, parsed.globals):
            if name in scope:
                return scope[name]
        return getattr(builtins, name, _MISSING)
    return lookup


def rewrite(b, fn: ast.FunctionDef, locals_: set) -> ast.FunctionDef:
    """``fn`` with its loops over generator calls inlined and the consumers of
    generator calls made comprehensions (``fn`` itself when there are none)."""
    if (getattr(b.p.pyfunc, "__module__", None) or "").startswith("hanajit.lib."):
        return fn                               # (hanajit's own helpers have none)
    lookup = scope_lookup(b.p, b.injected, locals_)
    if any(isinstance(n, ast.GeneratorExp) for n in ast.walk(fn)):
        # (held, looped over, given to list: local generator functions)
        converted = copy.deepcopy(fn)
        made = genexp_generators.rewrite(converted, lambda f: callee_of(f, lookup))
        if made:
            converted.body[:0] = made
            fn = converted
    local = [i for i, s in enumerate(fn.body) if isinstance(s, ast.FunctionDef)
             and _local_generator(fn, i, s)]
    if not local and not any(isinstance(n, ast.Call) and (
            generator_of(n.func, lookup) is not None
            or callee_of(n.func, lookup) is builtins.iter) for n in ast.walk(fn)):
        return fn
    fn = copy.deepcopy(fn)
    extra = []
    if local:
        locals_ = set(locals_)
        for i in local:
            s = fn.body[i]
            fn.body[i] = ast.copy_location(ast.Pass(), s)
            b.injected[s.name] = LocalGenerator(s, f"{b.qualname}.<locals>.{s.name}")
            locals_.discard(s.name)
            extra.append(s)
        lookup = scope_lookup(b.p, b.injected, locals_)
    inl = _Inliner(b, lookup)
    fn.body = held_generators.rewrite_body(inl, fn.body, lookup, (), extra=extra)
    fn.body = inl.expand(fn.body, ())
    _Consumers(inl).visit(fn)
    return ast.fix_missing_locations(fn)


def at_loop(b, s: ast.For):
    """The built statements of ``s`` when its iterable is a generator call (a loop
    the builder made: a comprehension's, ``sum(g(...))``'s), else None."""
    lookup = scope_lookup(b.p, b.injected, b.locals)
    inl = _Inliner(b, lookup, b.loop_depth)
    site = inl.site(s.iter)
    if site is None:
        return None
    s = copy.deepcopy(s)
    s.body = inl.expand(s.body, ())
    out = inl.inline(s, site, ())
    for st in out:
        b.locals.update(n.id for n in ast.walk(st) if isinstance(n, ast.Name)
                        and isinstance(n.ctx, (ast.Store, ast.Del)))
    return b.stmts(out)


def _local_generator(fn, i, s: ast.FunctionDef) -> bool:
    """Is the ``def`` at top-level statement ``i`` of ``fn`` a generator only called
    after it (or in itself), bound by nothing else, without decorators, defaults
    or ``*args``/``**kwargs``?"""
    a = s.args
    if s.decorator_list or a.defaults or any(d is not None for d in a.kw_defaults) \
            or a.vararg or a.kwarg or not any(isinstance(n, (ast.Yield, ast.YieldFrom))
                                              for n in ast.walk(s)):
        return False
    calls, later = set(), set()
    for st in fn.body[i:]:
        for n in ast.walk(st):
            later.add(id(n))
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == s.name:
                calls.add(id(n.func))
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id == s.name and (
                not isinstance(n.ctx, ast.Load) or id(n) not in calls or id(n) not in later):
            return False
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == s.name and n is not s:
            return False
        if isinstance(n, (ast.Global, ast.Nonlocal)) and s.name in n.names:
            return False
    return True


def stored_names(node) -> set:
    """The parameters of the function ``node`` and the names its body binds."""
    a = node.args
    out = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
    for n in (n for st in node.body for n in ast.walk(st)):
        if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
            out.add(n.id)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            out.add(n.name)
    return out


def generator_of(func, lookup):
    """The generator function a call's ``func`` (a name or ``mod.name``) names."""
    return generator_function(resolved(func, lookup))


def callee_of(func, lookup):
    """The object a call's ``func`` names when it is a plain name (else a marker)."""
    chain = attribute_chain(func)
    if chain is None or "." in chain:
        return _MISSING
    return lookup(chain)


def _name(n, store=False):
    return ast.Name(n, ast.Store() if store else ast.Load())


def _assign(target, value):
    return ast.Assign(targets=[target if isinstance(target, ast.AST) else _name(target, True)],
                      value=value)


def _once(name, body):
    """``for name in range(1): body`` (``range`` under a generated name)."""
    return ast.For(target=_name(name, True), iter=ast.Call(
        _name("__hj_range"), [ast.Constant(1)], []), body=body, orelse=[])


def _exit(flag_names):
    return [_assign(f, ast.Constant(True)) for f in flag_names] + [ast.Break()]


class _Inliner:
    def __init__(self, b, lookup, depth=0):
        self.b, self.lookup = b, lookup
        self.depth = depth          # (the loops around the statements expanded)

    def fail(self, node, detail):
        self.b.fail(node, "generator", detail)

    def site(self, it):
        """``(generator function, its call, enumerate's start or None, the other
        iterables of a zip)`` when the loop iterable ``it`` is ``g(...)``,
        ``enumerate(g(...)[, start])`` or ``zip(g(...), *others)``."""
        if not isinstance(it, ast.Call):
            return None
        gen = generator_of(it.func, self.lookup)
        if gen is not None:
            return gen, it, None, []
        f = callee_of(it.func, self.lookup)
        if f is builtins.zip and it.args and isinstance(it.args[0], ast.Call) \
                and not it.keywords and not any(isinstance(a, ast.Starred) for a in it.args):
            gen = generator_of(it.args[0].func, self.lookup)
            others = it.args[1:]
            if gen is not None and not any(isinstance(a, ast.Call) and generator_of(
                    a.func, self.lookup) is not None for a in others):
                return gen, it.args[0], None, others
        if f is builtins.enumerate and it.args \
                and isinstance(it.args[0], ast.Call):
            gen = generator_of(it.args[0].func, self.lookup)
            kw = [k.arg for k in it.keywords]
            if gen is not None and not any(isinstance(a, ast.Starred) for a in it.args) \
                    and (kw == [] and len(it.args) <= 2 or kw == ["start"]
                         and len(it.args) == 1):
                start = it.args[1] if len(it.args) == 2 else \
                    it.keywords[0].value if kw else ast.Constant(0)
                return gen, it.args[0], start, []
        return None

    def expand(self, stmts, chain) -> list:
        """``stmts`` with every ``for`` over a generator call in them inlined
        (inner loops first)."""
        out = []
        for s in stmts:
            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(s)
                continue
            loop = isinstance(s, (ast.For, ast.While))
            for field in ("body", "orelse", "finalbody"):
                part = getattr(s, field, None)
                if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
                    self.depth += loop and field == "body"
                    setattr(s, field, self.expand(part, chain))
                    self.depth -= loop and field == "body"
            for h in getattr(s, "handlers", ()):
                h.body = self.expand(h.body, chain)
            for case in getattr(s, "cases", ()):
                case.body = self.expand(case.body, chain)
            site = self.site(s.iter) if isinstance(s, ast.For) else None
            if site is None:
                out.append(s)
            else:
                out.extend(self.inline(s, site, chain))
        return out

    # ------------------------------------------------------------------ inlining
    def inline(self, loop: ast.For, site, chain) -> list:
        gen, call, start, zipped = site
        if self.depth or chain:             # run again where an earlier run left its locals
            name = held_generators.maybe_unbound(gen)
            if name is not None:
                self.fail(loop, f"generator {gen.__qualname__} may read {name!r} before "
                          "assigning it, and it runs here again after an earlier run (it "
                          "would see that run's value where CPython raises "
                          "UnboundLocalError)")
        rebound = {n.id for st in [loop.target] + loop.body for n in ast.walk(st)
                   if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        uid, pre, body = self.prepare(loop, gen, call, chain, rebound)
        return self.inlined(loop, uid, pre, body, gen, chain, start, zipped)

    def prepare(self, loop, gen, call, chain, rebound, uid=None) -> tuple:
        """``(uid, pre, body)``: the statements binding the arguments of ``call`` (a
        call of ``gen`` made at ``loop``) to the generator's renamed parameters, and
        its renamed body (a held generator in it made a state machine).  A
        parameter passed a name that neither side rebinds (``rebound``: the
        caller's; None: it may rebind any) is that name itself."""
        name = gen.__qualname__
        if gen in chain:
            self.fail(loop, f"{name} loops over a call of itself (a recursive generator)")
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
                k.arg is None for k in call.keywords):
            self.fail(loop, f"a call of generator {name} with *args or **kwargs")
        local = isinstance(gen, LocalGenerator)
        parsed = None if local else parse_function(gen)
        node = copy.deepcopy(gen.node if local else parsed.node)
        if node.args.vararg or node.args.kwarg:
            self.fail(loop, f"generator {name} takes *args or **kwargs")
        try:
            bound = inspect.signature(gen).bind(*range(len(call.args)), **{
                k.arg: -1 - i for i, k in enumerate(call.keywords)})
        except TypeError as exc:
            self.fail(loop, f"the call of generator {name} does not match its "
                      f"parameters ({exc})")
        uid = uid or next(UID)
        node.body = _YieldFrom().body(node.body)
        self.check(node, loop, name)
        gen_lookup = None if local else scope_lookup(parsed, {}, stored_names(node))
        node.body = held_generators.rewrite_body(
            self, node.body, gen_lookup or self.lookup, chain + (gen,), name)
        by_arg = {v: p for p, v in bound.arguments.items()}
        params = [a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs]
        stored = set()
        for n in (n for st in node.body for n in ast.walk(st)):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                stored.add(n.id)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                stored.add(n.name)
        own = set(params) | stored
        mapping = {n: f"$g{uid}_{n}" for n in own}
        args = {by_arg[i]: a for i, a in enumerate(call.args)}
        args.update((by_arg[-1 - i], k.value) for i, k in enumerate(call.keywords))
        # a parameter neither side rebinds, passed a name: that name itself (a
        # list passed stays the caller's one list, no alias of it)
        shared = set() if rebound is None else {
            p for p, a in args.items() if isinstance(a, ast.Name)
            and p not in stored and a.id not in rebound}
        mapping.update((p, args[p].id) for p in shared)
        gen_lookup = None if local else scope_lookup(parsed, {}, own)
        for n in (n for st in node.body for n in ast.walk(st)):
            if gen_lookup is not None and isinstance(n, ast.Name) and n.id not in mapping \
                    and n.id not in self.b.injected:
                obj = gen_lookup(n.id)
                if obj is _MISSING:
                    self.fail(loop, f"name {n.id!r} is not defined in generator {name}")
                if self.lookup(n.id) is not obj:
                    mapping[n.id] = f"__hj_gen{uid}_{n.id}"
                    self.b.injected[mapping[n.id]] = obj
        body = [_Rename(mapping).visit(s) for s in node.body]
        for s in body:
            for n in ast.walk(s):
                if "lineno" in n._attributes:
                    ast.copy_location(n, loop)
        pre = []
        for p, a in args.items():               # (in the call's order)
            if p not in shared:
                pre.append(_assign(mapping[p], a))
        for p, prm in inspect.signature(gen).parameters.items():
            if p not in bound.arguments:        # a default: the function's own object
                held = f"__hj_gen{uid}_default_{p}"
                self.b.injected[held] = prm.default
                pre.append(_assign(mapping[p], _name(held)))
        return uid, pre, body

    def inlined(self, loop, uid, pre, body, gen, chain, start, zipped) -> list:
        """The statements of ``loop`` with the generator's ``body`` in its place."""
        count = None
        if start is not None or zipped:
            count = f"$g{uid}_count"
            pre.append(_assign(count, start or ast.Constant(0)))
        held = [f"$g{uid}_zip{k}" for k in range(len(zipped))]
        pre += [_assign(h, z) for h, z in zip(held, zipped)]
        self.b.injected.update({"__hj_range": builtins.range, "__hj_len": builtins.len})
        body = self.expand(body, chain + (gen,))
        yields = _Yields(loop, uid, count, held)
        body = yields.stmts(body, False)
        if yields.wrapped:                      # something leaves it: a one-pass loop
            body = [_once(f"$g{uid}_once", body)]
        flags = [f for f, used in ((yields.out, yields.out_used),
                                   (yields.broke, yields.broke_used)) if used]
        out = pre + [_assign(f, ast.Constant(False)) for f in flags] + body
        if loop.orelse:
            out += [ast.If(test=ast.UnaryOp(ast.Not(), _name(yields.broke)),
                           body=loop.orelse, orelse=[])] if yields.broke_used else loop.orelse
        for s in out:
            for n in ast.walk(s):
                if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
                    ast.copy_location(n, loop)
        return [ast.fix_missing_locations(s) for s in out]

    def check(self, node, loop, name):
        """Fail on what the inlining cannot keep exact."""
        at_statement = {id(s.value) for s in ast.walk(node) if isinstance(s, ast.Expr)
                        and isinstance(s.value, ast.Yield)}
        for n in ast.walk(node):
            if n is node:
                continue
            what = _REFUSED.get(type(n))
            if what is not None:
                self.fail(loop, f"generator {name} holds {what}")
            if isinstance(n, ast.Yield) and id(n) not in at_statement:
                self.fail(loop, f"generator {name} uses a yield as a value (send() is "
                          "not supported)")
            if isinstance(n, GUARDED) and any(isinstance(m, (ast.Yield, ast.Return))
                                                for m in ast.walk(n)):
                self.fail(loop, f"generator {name} yields or returns inside a "
                          "try or with statement")


class _YieldFrom:
    """``yield from it`` as a statement: ``for $v in it: yield $v`` (iterating is
    all a loop asks of it; a generator call there is inlined in turn)."""

    def __init__(self):
        self.n = 0

    def body(self, stmts) -> list:
        out = []
        for s in stmts:
            if isinstance(s, ast.Expr) and isinstance(s.value, ast.YieldFrom):
                self.n += 1
                v = f"$from{self.n}"        # (a local of the generator: renamed)
                s = ast.copy_location(ast.For(
                    target=_name(v, True), iter=s.value.value,
                    body=[ast.Expr(ast.Yield(_name(v)))], orelse=[]), s)
            elif not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for field in ("body", "orelse", "finalbody"):
                    part = getattr(s, field, None)
                    if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
                        setattr(s, field, self.body(part))
                for h in getattr(s, "handlers", ()):
                    h.body = self.body(h.body)
            out.append(s)
        return out


class _Rename(ast.NodeTransformer):
    def __init__(self, mapping):
        self.mapping = mapping

    def visit_Name(self, node):
        node.id = self.mapping.get(node.id, node.id)
        return node

    def visit_ExceptHandler(self, node):
        if node.name:
            node.name = self.mapping.get(node.name, node.name)
        return self.generic_visit(node)


class _Yields:
    """The generator's statements with each ``yield`` replaced by the loop's body."""

    def __init__(self, loop, uid, count, zipped):
        self.loop, self.count, self.zipped = loop, count, zipped
        self.out, self.broke = f"$g{uid}_out", f"$g{uid}_broke"
        self.out_used = self.broke_used = False
        self.wrapped = False                    # something breaks out of the wrapper
        self.once = f"$g{uid}_body"
        self.has_break, self.has_continue = _jumps(loop.body)

    def stmts(self, stmts, in_loop) -> list:
        out = []
        for s in stmts:
            out.extend(self.stmt(s, in_loop))
        return out

    def stmt(self, s, in_loop) -> list:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Yield):
            return self.yield_site(s.value.value, in_loop)
        if isinstance(s, ast.Return):
            kept = [ast.Expr(s.value)] if s.value is not None and not isinstance(
                s.value, (ast.Constant, ast.Name)) else []
            return self.leave(in_loop, kept)
        if isinstance(s, (ast.For, ast.While)):
            before = self.out_used
            self.out_used = False
            s.body = self.stmts(s.body, True)
            inner = self.out_used
            self.out_used = before or inner
            s.orelse = self.stmts(s.orelse, in_loop)
            if inner:                           # left from inside: leave this loop too
                return [s] + self.leave_if_out(in_loop)
            return [s]
        if isinstance(s, ast.If):
            s.body = self.stmts(s.body, in_loop)
            s.orelse = self.stmts(s.orelse, in_loop)
        return [s]

    def leave(self, in_loop, kept) -> list:
        """Statements leaving the whole generator (a ``return`` in it): from inside
        its loops, set ``$out`` and break (each loop out checks it); else break
        the one-pass wrapper."""
        if in_loop:
            self.out_used = True
            return kept + _exit([self.out])
        self.wrapped = True
        return kept + [ast.Break()]

    def leave_if_out(self, in_loop) -> list:
        """``if $out: break`` after a loop of ours that something left."""
        if in_loop:
            self.out_used = True
        else:
            self.wrapped = True
        return [ast.If(test=_name(self.out), body=[ast.Break()], orelse=[])]

    def yield_site(self, value, in_loop) -> list:
        value = value if value is not None else ast.Constant(None)
        out = []
        if self.zipped:             # zip(g(...), a, b): a or b run out after g's item
            k = _name(self.count)
            ends = [ast.Compare(k, [ast.GtE()], [ast.Call(_name("__hj_len"), [_name(z)], [])])
                    for z in self.zipped]
            out.append(ast.If(test=ends[0] if len(ends) == 1 else ast.BoolOp(ast.Or(), ends),
                              body=self.leave(in_loop, []), orelse=[]))
            value = ast.Tuple([value] + [ast.Subscript(_name(z), _name(self.count), ast.Load())
                                         for z in self.zipped], ast.Load())
        elif self.count is not None:
            value = ast.Tuple([_name(self.count), value], ast.Load())
        out.append(_assign(copy.deepcopy(self.loop.target), value))
        if self.count is not None:
            out.append(_assign(self.count, ast.BinOp(_name(self.count), ast.Add(),
                                                     ast.Constant(1))))
        body = copy.deepcopy(self.loop.body)
        if not self.has_break and not self.has_continue:
            return out + body
        inside = in_loop or self.has_continue   # a break leaves a loop of ours first
        if self.has_break and self.loop.orelse:
            self.broke_used = True
        marks = ([self.broke] if self.loop.orelse else []) + ([self.out] if inside else [])
        if self.has_break:
            if inside:
                self.out_used = True
            else:
                self.wrapped = True
        body = _Jumps(marks).rewrite(body)
        if not self.has_continue:
            return out + body
        out.append(_once(self.once, body))
        if self.has_break:
            out += self.leave_if_out(in_loop)
        return out


def _jumps(body) -> tuple:
    """(has a ``break``, has a ``continue``) of the loop whose body is ``body``."""
    found = _Jumps(())
    found.rewrite(copy.deepcopy(body))
    return found.breaks, found.continues


class _Jumps:
    """Rewrite the ``break`` statements of a loop's body (not those of loops inside
    it): set the flags ``marks``, then break."""

    def __init__(self, marks):
        self.marks = marks
        self.breaks = self.continues = False

    def rewrite(self, stmts) -> list:
        out = []
        for s in stmts:
            if isinstance(s, ast.Break):
                self.breaks = True
                out.extend(_exit(self.marks))
                continue
            if isinstance(s, ast.Continue):
                self.continues = True
            elif isinstance(s, (ast.For, ast.While, ast.AsyncFor)):
                s.orelse = self.rewrite(s.orelse)
            elif not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                for field in ("body", "orelse", "finalbody"):
                    part = getattr(s, field, None)
                    if isinstance(part, list) and part and isinstance(part[0], ast.stmt):
                        setattr(s, field, self.rewrite(part))
                for h in getattr(s, "handlers", ()):
                    h.body = self.rewrite(h.body)
                for case in getattr(s, "cases", ()):
                    case.body = self.rewrite(case.body)
            out.append(s)
        return out


class _Consumers(ast.NodeTransformer):
    """``any``/``all``/``min``/``max`` of a generator call: of the generator
    expression ``(v for v in g(...))``; ``list(g(...))``: ``[v for v in g(...)]``."""

    def __init__(self, inl):
        self.inl = inl

    def visit_Call(self, node):
        self.generic_visit(node)
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Call) or \
                generator_of(node.args[0].func, self.inl.lookup) is None:
            return node
        f = callee_of(node.func, self.inl.lookup)
        is_list = f is builtins.list and not node.keywords
        if not is_list and not any(f is c for c in _CONSUMERS):
            return node
        v = f"$gv{next(UID)}"
        comp = [ast.comprehension(target=_name(v, True), iter=node.args[0], ifs=[],
                                  is_async=0)]
        if is_list:
            return ast.copy_location(ast.ListComp(elt=_name(v), generators=comp), node)
        node.args = [ast.copy_location(ast.GeneratorExp(elt=_name(v), generators=comp),
                                       node.args[0])]
        return node
