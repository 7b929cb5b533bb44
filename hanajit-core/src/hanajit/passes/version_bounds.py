"""Loop versioning for index checks: one test before a loop nest proves its
affine indices in bounds, and the nest then runs without their checks.

After ``lower_semantics`` an element access ``a[i + di]`` is::

    $t = add(i, di)
    $j = select(lt($t, 0), add($t, ArrayAttr(a)), $t)       # negative indices wrap
    if ge(cast<uint64>($j), cast<uint64>(ArrayAttr(a))):
        raise IndexError(...)
    ... Load(a, $j) ...

Inside a nest such checks cost a compare and a branch per access, and keep LLVM
from vectorising.  When the index is an *affine* function of the nest's loop
counters and of values the nest never changes, its smallest and largest values
over the whole nest are affine expressions of those values too.  So the nest
becomes::

    if <every such index's minimum >= 0 and maximum < its axis size>:
        <the nest without those checks; $j = $t>
    else:
        <the nest unchanged>

and the checked nest runs whenever the test fails -- a negative index that must
wrap, an index out of range that must raise, a loop that runs no iteration --
so results and errors are exactly those of the checked code.

What counts as affine: int64 constants, variables the nest never assigns,
counters of ``ForCount`` loops whose counts the nest never changes (counter
``k`` lies in ``[0, count - 1]``), and ``add``/``sub``/``mul``-by-a-constant of
those, through variables assigned exactly once in the nest and only read after
that assignment in the same loop iteration (so every read sees the value the
analysis saw).  Intervals are computed without overflow: the test also requires
every value it uses to lie within +-2**40 (coefficients up to 1024, at most 16
terms), so neither the test's arithmetic nor the program's can wrap.

Nests larger than ``MAX_STMTS`` statements are left alone (the copy doubles
their code).  The ``If`` is marked ``versioned``: the fast copy is the likely
branch, and only its loops are counted by ``hanajit.evolve``'s per-loop genes
(``evolve.genome.counted_loops`` and ``ModuleLowering.loop_metadata`` skip the
checked copy).  ``ParallelFor`` regions are versioned inside their outlined
functions, where their loops are.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from ..ir import nodes as N
from ..ir import types as T

I64, BOOL = T.INT64, T.BOOL
LIMIT = 1 << 40          # every leaf value in the test lies within +-LIMIT
MAX_COEF = 1 << 10
MAX_TERMS = 16
MAX_STMTS = 600
_PURE_BINOPS = ("add", "sub", "mul", "and", "or", "xor")
_PURE_INTRINSICS = ("smin", "smax", "umin", "umax")


@dataclass
class Form:
    """``const + sum(coef * leaf)`` over the leaves in ``terms`` (key -> coef)."""

    terms: dict = field(default_factory=dict)
    const: int = 0

    def scaled(self, c: int) -> Form:
        return Form({k: v * c for k, v in self.terms.items() if v * c}, self.const * c)

    def plus(self, other: Form, sign: int = 1) -> Form:
        terms = dict(self.terms)
        for k, v in other.terms.items():
            terms[k] = terms.get(k, 0) + sign * v
        return Form({k: v for k, v in terms.items() if v}, self.const + sign * other.const)


@dataclass
class Clamp:
    """``op(a, b)`` (``op`` is ``smin`` or ``smax``) of two ranges -- forms or clamps.

    Its smallest value is ``op`` of the operands' smallest, its largest ``op`` of
    their largest, so ``min(max(0, i + d), n - 1)`` is proven in bounds by a test
    on ``n`` alone.  Sums and constant multiples distribute into the operands
    (``min(a, b) + c == min(a + c, b + c)``; a negative factor swaps min and max),
    so every leaf of a range is an affine form with the usual limits, and
    ``smin``/``smax`` of values within +-2**54 cannot wrap."""

    op: str
    a: object
    b: object


def _forms(r):
    if isinstance(r, Clamp):
        yield from _forms(r.a)
        yield from _forms(r.b)
    else:
        yield r


def _add(a, b):
    if isinstance(a, Clamp):
        return Clamp(a.op, _add(a.a, b), _add(a.b, b))
    if isinstance(b, Clamp):
        return Clamp(b.op, _add(a, b.a), _add(a, b.b))
    return a.plus(b)


def _scale(r, c: int):
    if isinstance(r, Clamp):
        op = r.op if c >= 0 else {"smin": "smax", "smax": "smin"}[r.op]
        return Clamp(op, _scale(r.a, c), _scale(r.b, c))
    return r.scaled(c)


MAX_FORMS = 8            # the forms of one range (sums of clamps multiply them)


def _limit(r):
    return r if sum(1 for _ in _forms(r)) <= MAX_FORMS else None


@dataclass
class _Leaf:
    expr: N.Expr           # the value (an invariant leaf) or the loop count (a counter)
    counter: bool          # a counter takes 0 .. expr - 1


class _Nest:
    """The analysis of one loop nest (run on the copy that becomes the fast path)."""

    def __init__(self, loop: N.ForCount):
        self.assigned: set = {loop.counter}
        defs: dict = {}
        for s in N.walk_stmts(loop.body):
            if isinstance(s, N.Assign):
                self.assigned.add(s.target)
                defs[s.target] = defs.get(s.target, 0) + (2 if s.inplace else 1)
            elif isinstance(s, N.ForCount):
                self.assigned.add(s.counter)
        self.single = {v for v, n in defs.items() if n == 1}
        self.leaves: dict = {}          # key -> _Leaf
        self.wrapped: dict = {}         # $j -> (its Assign, the form of the index)
        self.proven: list = []          # (If, body list, form, axis size)
        self.overflows: list = []       # (If, body list, forms): Python-int checks

    # -- values ----------------------------------------------------------------------
    def invariant(self, e: N.Expr, env: dict):
        """``e`` with single-assignment variables substituted, when it is a pure
        value the nest does not change; else None."""
        if isinstance(e, N.Const):
            return e if isinstance(e.value, (bool, int)) else None
        if isinstance(e, N.Var):
            if e.name not in self.assigned:
                return N.Var(e.name, e.type)
            got = env.get(e.name)
            return clone(got[1]) if got is not None and got[1] is not None else None
        if isinstance(e, N.BinOp):
            if e.op not in _PURE_BINOPS or not _intlike(e.type):
                return None
        elif isinstance(e, N.Intrinsic):
            if e.name not in _PURE_INTRINSICS:
                return None
        elif isinstance(e, N.Cmp):
            if not (_intlike(e.left.type) and _intlike(e.right.type)):
                return None
        elif isinstance(e, N.UnOp):
            if e.op != "neg" or not _intlike(e.type):
                return None
        elif isinstance(e, N.Cast):
            if not (_intlike(e.type) and _intlike(e.operand.type)):
                return None
        elif isinstance(e, N.ArrayAttr):
            if e.attr not in ("shape", "stride"):
                return None
        elif not isinstance(e, N.Select):
            return None
        kids = []
        for c in e.children():
            k = self.invariant(c, env)
            if k is None:
                return None
            kids.append(k)
        out = copy.copy(e)
        out.replace_children(kids)
        return out

    def form(self, e: N.Expr, env: dict):
        """The affine form of int64 value ``e``, or None."""
        r = self.range(e, env)
        return r if isinstance(r, Form) else None

    def range(self, e: N.Expr, env: dict):
        """``e`` as a :class:`Form` or a :class:`Clamp` of forms, or None."""
        if getattr(e, "type", None) != I64:
            return None
        if isinstance(e, N.Const):
            return Form({}, int(e.value))
        if isinstance(e, N.Var) and e.name in env:
            return env[e.name][0]
        inv = self.invariant(e, env)
        if inv is not None:
            return self._leaf(inv, counter=False)
        if isinstance(e, N.BinOp) and e.op in ("add", "sub", "mul"):
            a, b = self.range(e.left, env), self.range(e.right, env)
            if a is None or b is None:
                return None
            if e.op == "add":
                return _limit(_add(a, b))
            if e.op == "sub":
                return _limit(_add(a, _scale(b, -1)))
            if isinstance(b, Form) and not b.terms:
                return _scale(a, b.const)
            if isinstance(a, Form) and not a.terms:
                return _scale(b, a.const)
        if isinstance(e, N.Intrinsic) and e.name in ("smin", "smax"):
            a, b = (self.range(x, env) for x in e.args)
            if a is not None and b is not None:
                return _limit(Clamp(e.name, a, b))
        return None

    def _leaf(self, expr: N.Expr, counter: bool) -> Form:
        if isinstance(expr, N.Const) and not counter:
            return Form({}, int(expr.value))
        key = (counter, _key(expr))
        self.leaves.setdefault(key, _Leaf(expr, counter))
        return Form({key: 1})

    # -- the walk --------------------------------------------------------------------
    def walk(self, body: list, env: dict) -> None:
        env = dict(env)
        for s in body:
            if isinstance(s, N.Assign):
                if s.target in self.single:
                    self._define(s, env)
            elif isinstance(s, N.If):
                if _is_index_check(s):
                    self._check(s, body, env)
                elif _is_overflow_check(s):
                    self._overflow(s, body, env)
                else:
                    self.walk(s.then, env)
                    self.walk(s.orelse, env)
            elif isinstance(s, N.ForCount):
                inner = dict(env)
                count = None if isinstance(s, N.ParallelFor) else \
                    self.invariant(s.count, env)
                if count is not None:
                    inner[s.counter] = (self._leaf(count, counter=True), None)
                self.walk(s.body, inner)
            elif isinstance(s, N.Loop):
                self.walk(s.body, env)

    def _define(self, s: N.Assign, env: dict) -> None:
        v = s.value
        if isinstance(v, N.Select) and _wraps(v):
            x = self.range(v.b, env)
            if x is not None:
                self.wrapped[s.target] = (s, x)
            return
        f = self.range(v, env)
        if f is not None:
            env[s.target] = (f, self.invariant(v, env))

    def _check(self, s: N.If, body: list, env: dict) -> None:
        j, dim = s.cond.left.operand, s.cond.right.operand
        size = self.invariant(dim, env)
        if size is None:
            return
        if isinstance(j, N.Const):
            f = Form({}, int(j.value))
        elif isinstance(j, N.Var) and j.name in self.wrapped:
            f = self.wrapped[j.name][1]
        else:
            return
        if _bounded(f):
            self.proven.append((s, body, f, size, j))

    def _overflow(self, s: N.If, body: list, env: dict) -> None:
        """A Python-int overflow check (``lib/python/int_overflow.py``) of affine
        operands: none can overflow while every leaf lies within +-LIMIT."""
        fa, fb = (self.form(x, env) for x in s.cond.args)
        if fa is None or fb is None:
            return
        if s.cond.name == "smul_overflow":
            if fa.terms and fb.terms:
                return
            r = fa.scaled(fb.const) if not fb.terms else fb.scaled(fa.const)
        else:
            r = fa.plus(fb, 1 if s.cond.name == "sadd_overflow" else -1)
        if all(_bounded(f) for f in (fa, fb, r)):
            self.overflows.append((s, body, (fa, fb, r)))

    def guard(self, forms) -> N.Expr:
        """Every leaf of ``forms`` within +-LIMIT (None when they have none)."""
        out = None
        for key in dict.fromkeys(k for f in forms for k in f.terms):
            e = self.leaves[key].expr
            for c in (N.Cmp("ge", clone(e), _c(-LIMIT), BOOL),
                      N.Cmp("le", clone(e), _c(LIMIT), BOOL)):
                out = c if out is None else N.BinOp("and", out, c, BOOL)
        return out

    # -- the test --------------------------------------------------------------------
    def bounds(self, f):
        """IR for the smallest and largest value of range ``f`` over the nest."""
        if isinstance(f, Clamp):
            (alo, ahi), (blo, bhi) = self.bounds(f.a), self.bounds(f.b)
            return (N.Intrinsic(f.op, [alo, blo], I64),
                    N.Intrinsic(f.op, [ahi, bhi], I64))
        lo, hi = [_c(f.const)], [_c(f.const)]
        for key, coef in f.terms.items():
            leaf = self.leaves[key]
            if leaf.counter:
                small, big = _c(0), _sub(clone(leaf.expr), _c(1))
            else:
                small = big = clone(leaf.expr)
            if coef < 0:
                small, big = big, small
            lo.append(_mul(coef, small))
            hi.append(_mul(coef, big))
        return _sum(lo), _sum(hi)

    def test(self, chosen: list) -> N.Expr:
        conds, used = [], {}
        for _s, _b, f, size, _j in chosen:
            lo, hi = self.bounds(f)
            conds.append(N.Cmp("ge", lo, _c(0), BOOL))
            conds.append(N.Cmp("lt", hi, clone(size), BOOL))
            used.update((k, self.leaves[k]) for g in _forms(f) for k in g.terms)
        guards = []
        for leaf in used.values():
            guards.append(N.Cmp("ge", clone(leaf.expr), _c(-LIMIT), BOOL))
            guards.append(N.Cmp("le", clone(leaf.expr), _c(LIMIT), BOOL))
        out = None
        for c in guards + conds:
            out = c if out is None else N.BinOp("and", out, c, BOOL)
        return out


def version_bounds(fn: N.Function) -> bool:
    """Version every outermost loop nest of ``fn`` whose index checks one test can
    prove (inner nests of loops that could not be versioned are tried too)."""
    changed = False
    def visit(body):
        nonlocal changed
        for k, s in enumerate(body):
            if isinstance(s, N.ForCount) and not isinstance(s, N.ParallelFor):
                new = _version(s)
                if new is not None:
                    body[k] = new
                    changed = True
                    # the checks the nest's test could not prove (an inner loop
                    # whose count is an outer counter: ``for i in range(k)``) may
                    # be proven per inner nest, where that count is invariant
                    for fast in _fast_copies(new):
                        visit(fast.body)
                else:
                    visit(s.body)
            elif isinstance(s, N.If):
                visit(s.then)
                visit(s.orelse)
            elif isinstance(s, N.Loop):
                visit(s.body)
            elif isinstance(s, N.Try):
                # (a nest in a try body, handler or else is versioned as any other:
                # the test raises nothing; _Nest.walk enters no Try, so no fact
                # from a try body -- which may stop at any statement -- is used)
                visit(s.body)
                visit(s.then)
                visit(s.orelse)
    visit(fn.body)
    return changed


def _fast_copies(s):
    """The loops of versioned ``If`` ``s`` that run when its tests pass."""
    if isinstance(s, N.If) and getattr(s, "versioned", False):
        for x in s.then:
            yield from _fast_copies(x)
    elif isinstance(s, N.ForCount):
        yield s


def _version(loop: N.ForCount, overflows: bool = True):
    """The versioned nest, or None.  Python-int overflow checks of affine values
    version the nest first (``If(leaves small, nest without them, nest)``), then
    each copy is versioned for its index checks: an index test that fails (an
    index that may wrap negative) keeps the overflow checks out all the same."""
    if sum(1 for _ in N.walk_stmts([loop])) > MAX_STMTS:
        return None
    fast = clone(loop)
    nest = _Nest(fast)
    nest.walk([fast], {})
    if overflows and nest.overflows:
        for s, body, _f in nest.overflows:
            body[:] = [x for x in body if x is not s]
        guard = nest.guard([f for _s, _b, fs in nest.overflows for f in fs])
        fast = _version(fast, False) or fast
        if guard is None:
            return fast
        out = N.If(cond=guard, then=[fast], orelse=[_version(loop, False) or loop],
                   line=loop.line)
        out.versioned = True
        return out
    if not nest.proven:
        return None
    test = nest.test(nest.proven)
    for s, body, _f, _size, j in nest.proven:
        body[:] = [x for x in body if x is not s]
        if isinstance(j, N.Var):
            assign = nest.wrapped[j.name][0]
            if isinstance(assign.value, N.Select):      # (two checks of one $j)
                assign.value = assign.value.b
    out = N.If(cond=test, then=[fast], orelse=[loop], line=loop.line)
    out.versioned = True      # lowering: evolve's loop hints go to the fast copy
    return out


def keep_general_copies(module: N.Module) -> N.Module:
    """Replace every versioned ``If`` (this pass's, and ``creation.fill``'s
    broadcasting versions) by its general copy: the same results with half the
    code, for targets where code size is area (HLS).  In place; returns
    ``module``."""
    def strip(body):
        out = []
        for s in body:
            if isinstance(s, N.If) and getattr(s, "versioned", False):
                out.extend(strip(s.orelse))
                continue
            for attr in ("then", "orelse", "body"):
                sub = getattr(s, attr, None)
                if isinstance(sub, list):
                    setattr(s, attr, strip(sub))
            out.append(s)
        return out
    for fn in module.functions.values():
        fn.body = strip(fn.body)
    return module


# -- helpers -------------------------------------------------------------------------
def clone(x):
    """A copy of IR statements and expressions (lists and IR nodes copied; anything
    else they hold -- types, exception classes, constants -- shared)."""
    if isinstance(x, list):
        return [clone(v) for v in x]
    if isinstance(x, _NODES):
        # (what ``copy.copy`` does for a plain instance -- a new one of the class
        # with the attributes in the same order -- without its reduce protocol:
        # this copies every statement of each versioned loop nest)
        cls = x.__class__
        out = cls.__new__(cls)
        attrs = out.__dict__
        for name, value in x.__dict__.items():
            attrs[name] = clone(value) if isinstance(value, _CLONED) else value
        return out
    return x


_NODES = (N.Expr, N.Stmt)
_CLONED = (list, N.Expr, N.Stmt)


def _intlike(t) -> bool:
    return isinstance(t, T.Scalar) and (t.is_int or t.is_bool)


def _is_index_check(s: N.If) -> bool:
    c = s.cond
    return (not s.orelse and len(s.then) == 1 and isinstance(s.then[0], N.Raise)
            and s.then[0].exc is IndexError and isinstance(c, N.Cmp) and c.op == "ge"
            and isinstance(c.left, N.Cast) and isinstance(c.right, N.Cast)
            and c.left.type == T.UINT64 and c.right.type == T.UINT64
            and c.left.operand.type == I64 and c.right.operand.type == I64)


def _is_overflow_check(s: N.If) -> bool:
    c = s.cond
    return (not s.orelse and len(s.then) == 1 and isinstance(s.then[0], N.Raise)
            and s.then[0].deopt and isinstance(c, N.Intrinsic)
            and c.name in ("sadd_overflow", "ssub_overflow", "smul_overflow"))


def _wraps(v: N.Select) -> bool:
    """``select(lt(x, 0), add(x, size), x)`` with one variable ``x``."""
    c, a, b = v.cond, v.a, v.b
    return (isinstance(b, N.Var) and isinstance(c, N.Cmp) and c.op == "lt"
            and isinstance(c.left, N.Var) and c.left.name == b.name
            and isinstance(c.right, N.Const) and c.right.value == 0
            and isinstance(a, N.BinOp) and a.op == "add"
            and isinstance(a.left, N.Var) and a.left.name == b.name)


def _bounded(f) -> bool:
    if isinstance(f, Clamp):
        return _bounded(f.a) and _bounded(f.b)
    return (abs(f.const) <= LIMIT and len(f.terms) <= MAX_TERMS
            and all(abs(c) <= MAX_COEF for c in f.terms.values()))


def _key(e: N.Expr):
    """A structural key of a pure expression."""
    if isinstance(e, N.Const):
        return ("c", e.value, str(e.type))
    if isinstance(e, N.Var):
        return ("v", e.name)
    extra = tuple(getattr(e, a) for a in ("op", "name", "attr", "axis") if hasattr(e, a))
    return (type(e).__name__, str(e.type), extra, tuple(_key(c) for c in e.children()))


def _c(v: int) -> N.Const:
    return N.Const(v, I64)


def _sub(a, b):
    return N.BinOp("sub", a, b, I64)


def _mul(coef: int, e: N.Expr) -> N.Expr:
    return e if coef == 1 else N.BinOp("mul", _c(coef), e, I64)


def _sum(items: list) -> N.Expr:
    out = items[0]
    for x in items[1:]:
        out = N.BinOp("add", out, x, I64)
    return out
