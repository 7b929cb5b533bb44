"""Python ints beyond int64: checked arithmetic that deoptimises instead of wrapping.

A Python int (not a NumPy scalar: ``infer.Inferrer.is_strong``) is held as an
int64.  Where CPython's exact result of ``+ - *``, unary ``-``, ``abs``, ``<<``,
``//`` or ``**`` leaves int64, the compiled code raises a deoptimisation
(``Raise(deopt=True)``): the dispatcher re-runs a pure call in the interpreter,
which computes the exact big int, and refuses an impure one with a clear
``UnsupportedError`` (``hanajit_cpu.cwrapper._raise``).  The test is the primitive
``Intrinsic`` ``sadd_overflow`` / ``ssub_overflow`` / ``smul_overflow`` (bool:
the int64 operation overflows; LLVM's ``llvm.s*.with.overflow``).

No check is emitted where an overflow is impossible:

* value ranges (:func:`analyze`): a local whose every assignment has known bounds
  -- constants, ``len()`` and ``.shape`` items (``[0, 2**63 - 1]``), ``range``
  targets (``range(a, b)`` gives ``[a, b - 1]``: ``i + 1`` never overflows),
  ``min``/``max``, ``+ - * // %`` of bounded values -- so ``i + k``, ``i - 1`` of
  an index in ``range(1, n)`` and ``n - 1`` of a length need no test;
* GPU thread geometry: ``block_id_x()``, ``grid_dim_x()`` ... lie in ``[0, 2**32)``,
  ``thread_id_x()``, ``block_dim_x()`` in ``[0, 2**16]``, so ``block_id_x() *
  block_dim_x() + thread_id_x()`` needs no test;
* counters: a local only ever assigned a value within ``+-2**62`` or stepped by a
  constant of at most :data:`COUNTER_STEP` (``c += 1``) would need more than
  ``2**59`` executed steps to leave int64 -- years of run time -- so its steps
  are not tested where each step really runs: under an ``if`` in its loop (``if
  x[i] > 0: c += 1``) or in a ``while`` loop whose trip count depends on values
  the loop computes (:func:`_running_steps`; elsewhere LLVM may compute the loop
  in closed form, and such a step is tested).

What LLVM proves on its own (``with.overflow`` of an induction variable against
its loop bound: CorrelatedValuePropagation, InstCombine) it folds away too.

hanajit's own Python-source helpers (modules ``hanajit.*``) keep int64 wrapping
(random-number and hashing algorithms rely on it), except those marked
``hj_int_checked`` (``helpers.py_int_pow``).
"""
from __future__ import annotations

import builtins

from ...ir import nodes as N
from ...ir import types as T
from ...ir.frontend_nodes import Unpack

I64, BOOL = T.INT64, T.BOOL
MIN, MAX = -2 ** 63, 2 ** 63 - 1
FULL = (MIN, MAX)
COUNTER_STEP = 8
COUNTER_START = 2 ** 62
MESSAGE = "Python int beyond int64 ({})"
_SYMBOL = {"add": "+", "sub": "-", "mul": "*"}
# thread geometry (``hanajit.gpu``): every API counts blocks in 32 bits and threads
# of a block in far fewer than 2**16 (CUDA, HIP, Metal, Level Zero: 1024 at most)
GPU_BLOCKS, GPU_THREADS = (0, 2 ** 32 - 1), (0, 2 ** 16)
_GEOMETRY = {"thread_id": GPU_THREADS, "block_dim": GPU_THREADS,
             "block_id": GPU_BLOCKS, "grid_dim": GPU_BLOCKS}


def enabled(fn: N.Function) -> bool:
    """Are ``fn``'s Python ints checked?  Every user function; hanajit's own
    helpers only when marked ``hj_int_checked``."""
    f = fn.origin[0] if fn.origin else None
    if getattr(f, "hj_int_checked", False):
        return True
    mod = getattr(f, "__module__", None) or ""
    return not (mod == "hanajit" or mod.startswith(("hanajit.", "hanajit_")))


def active(L) -> bool:
    return getattr(L, "int_checks", False)


# ------------------------------------------------------------------ intervals
def _clamp(lo, hi):
    """An exact interval of a checked result: beyond int64 it deoptimised."""
    return max(lo, MIN), min(hi, MAX)


def _arith(op, a, b):
    if a is None or b is None:
        return None
    if op == "add":
        return a[0] + b[0], a[1] + b[1]
    if op == "sub":
        return a[0] - b[1], a[1] - b[0]
    corners = [x * y for x in a for y in b]
    return min(corners), max(corners)


def _fits(iv) -> bool:
    return iv is not None and MIN <= iv[0] and iv[1] <= MAX


def _union(ivs):
    if any(iv is None for iv in ivs):
        return None
    return min(iv[0] for iv in ivs), max(iv[1] for iv in ivs)


class Facts:
    """What :func:`analyze` found: ``bounds`` of locals, and the counter steps
    (``PyBinOp`` nodes, by id) that need no test."""

    def __init__(self):
        self.bounds: dict = {}
        self.safe_steps: set = set()
        # int64 locals never negative that only count up from their starts (a
        # search index ``j = 0 ... j += 1``), and temporaries ``counter + k`` of
        # them (``k >= 0``): element indices of theirs need no negative wrap
        # (``lib/indexing/elements``).  Not the ``range`` targets: loop versioning
        # (``passes/version_bounds``) reads their indices' wraps.
        self.rising: set = set()


def _is_shape(e) -> bool:
    return isinstance(e, N.PyAttr) and e.attr == "shape" and isinstance(
        getattr(e.value, "type", None), T.ArrayType)


class _Ranges:
    """Bounds of Python-level expressions given the locals' bounds found so far
    (``None``: depends on a local not settled yet)."""

    def __init__(self, fn, defs, shapes):
        self.fn, self.defs, self.shapes = fn, defs, shapes
        self.bounds: dict = {}

    def var(self, name):
        if name in self.bounds:
            return self.bounds[name]
        if name in self.defs and name not in self.fn.params:
            return None                      # pending
        return FULL

    def expr(self, e):
        t = getattr(e, "type", None)
        if isinstance(e, N.Const):
            v = e.value
            if isinstance(v, bool):
                return int(v), int(v)
            return (v, v) if isinstance(v, int) and MIN <= v <= MAX else FULL
        if t != I64:
            return (0, 1) if t == BOOL else FULL
        if isinstance(e, N.Var):
            return self.var(e.name)
        if isinstance(e, N.PyBinOp) and not e.numpy_semantics:
            a, b = self.expr(e.left), self.expr(e.right)
            if e.op in _SYMBOL:
                iv = _arith(e.op, a, b)
                return None if iv is None else _clamp(*iv)
            if a is None or b is None:
                return None
            if e.op == "mod" and b[0] > 0:
                return 0, b[1] - 1
            if e.op == "floordiv" and b[0] > 0 and a[0] >= 0:
                return 0, a[1] // b[0]
            if e.op == "bitand" and (a[0] >= 0 or b[0] >= 0):
                return 0, min(x[1] for x in (a, b) if x[0] >= 0)
            return FULL
        if isinstance(e, N.PyUnOp) and e.op == "neg" and not getattr(
                e, "numpy_semantics", True):
            a = self.expr(e.operand)
            return None if a is None else _clamp(-a[1], -a[0])
        if isinstance(e, N.PyCall):
            if getattr(e.callee, "__module__", None) == "hanajit.gpu":
                name = getattr(e.callee, "__name__", "")
                return _GEOMETRY.get(name[:-2] if name[-2:-1] == "_" else name, FULL)
            if e.callee is builtins.len and e.args and isinstance(
                    getattr(e.args[0], "type", None), T.ArrayType):
                return 0, MAX
            if e.callee in (builtins.min, builtins.max) and len(e.args) > 1 \
                    and not e.kwargs:
                ivs = [self.expr(a) for a in e.args]
                if any(iv is None for iv in ivs):
                    return None
                pick = min if e.callee is builtins.min else max
                return pick(iv[0] for iv in ivs), pick(iv[1] for iv in ivs)
        if isinstance(e, (N.PyGetItem, N.TupleGet)):
            seq = e.value if isinstance(e, N.PyGetItem) else e.tup
            if _is_shape(seq) or isinstance(seq, N.Var) and seq.name in self.shapes:
                return 0, MAX
        return FULL

    def definition(self, d):
        if isinstance(d, N.Assign):
            return self.expr(d.value)
        step = d.step.value if isinstance(d.step, N.Const) else None
        if not isinstance(step, int) or step == 0:
            return FULL
        start, stop = self.expr(d.start), self.expr(d.stop)
        if start is None or stop is None:
            return None
        if step > 0:                        # start <= i < stop
            return start[0], max(start[0], stop[1] - 1)
        return min(stop[0] + 1, start[1]), start[1]


def analyze(fn: N.Function) -> Facts:
    """Bounds of ``fn``'s int64 locals and its safe counter steps (module doc),
    on the typed Python-level IR."""
    defs: dict = {}
    for s in N.walk_stmts(fn.body):
        if isinstance(s, (N.Assign, N.PyForRange)) and s.target:
            defs.setdefault(s.target, []).append(s)
    shapes = {name for name, ds in defs.items() if name not in fn.params and all(
        isinstance(d, N.Assign) and isinstance(d.value, N.PyCall)
        and isinstance(d.value.callee, Unpack) and d.value.args
        and _is_shape(d.value.args[0]) for d in ds)}
    r = _Ranges(fn, defs, shapes)
    changed = True
    while changed:
        changed = False
        for name, ds in defs.items():
            if name in r.bounds or name in fn.params:
                continue
            ivs = [r.definition(d) for d in ds]
            if all(iv is not None for iv in ivs):
                r.bounds[name] = _union(ivs)
                changed = True
    facts = Facts()
    facts.bounds = {k: v for k, v in r.bounds.items() if v != FULL}
    running = _running_steps(fn)
    for name, ds in defs.items():
        if name in fn.params or fn.locals.get(name) != I64:
            continue
        steps = [_step(d, name) for d in ds]
        if not any(steps):
            continue
        starts = [r.definition(d) for d, st in zip(ds, steps) if st is None]
        if all(iv is not None and -COUNTER_START <= iv[0] and iv[1] <= COUNTER_START
               for iv in starts):
            facts.safe_steps.update(id(st) for d, st in zip(ds, steps)
                                    if st is not None and id(d) in running)
        # a step that would pass int64 deoptimises (or, a safe step, needs more
        # than 2**59 steps): the value never falls below its smallest start
        if starts and all(iv is not None and iv[0] >= 0 for iv in starts) \
                and all(st is None or _rises(st, name) for st in steps):
            facts.rising.add(name)
    return facts


def _rises(e, name) -> bool:
    """Step ``e`` (:func:`_step`) adds a positive constant to ``name``."""
    k = e.right if isinstance(e.left, N.Var) and e.left.name == name else e.left
    return k.value > 0 if e.op == "add" else k.value < 0


def _running_steps(fn) -> set:
    """The statements (by id) that only run as often as the loop around them really
    iterates: under an ``if`` inside their innermost loop, or in a ``while`` loop
    whose condition reads a local the loop changes otherwise than by a constant
    step.  Elsewhere LLVM may compute the loop's effect in closed form (``c += 1``
    of ``for i in range(n)`` is ``c + n``), and "more than 2**59 steps" no longer
    takes years."""
    out: set = set()

    def visit(body, loop, guarded):
        for s in body:
            if isinstance(s, N.Assign) and loop is not None and (guarded or _opaque(loop)):
                out.add(id(s))
            if isinstance(s, N.If):
                visit(s.then, loop, guarded or loop is not None)
                visit(s.orelse, loop, guarded or loop is not None)
            elif isinstance(s, (N.PyForRange, N.PyWhile)):
                visit(s.body, s, False)
                visit(s.orelse, loop, guarded)
    visit(fn.body, None, False)
    return out


def _opaque(loop) -> bool:
    """A ``while`` loop whose trip count no closed form gives: its condition reads
    a local the loop assigns other than by a constant step."""
    if not isinstance(loop, N.PyWhile):
        return False
    changed = {d.target for d in N.walk_stmts(loop.body)
               if isinstance(d, (N.Assign, N.PyForRange)) and _step(d, d.target) is None}
    return any(isinstance(v, N.Var) and v.name in changed for v in N.walk_expr(loop.cond))


def _step(d, name):
    """``name = name +- k`` (``|k| <= COUNTER_STEP``): the ``PyBinOp``; else None."""
    e = getattr(d, "value", None)
    if not (isinstance(d, N.Assign) and isinstance(e, N.PyBinOp) and e.op in ("add", "sub")
            and not e.numpy_semantics):
        return None
    pairs = [(e.left, e.right)] + ([(e.right, e.left)] if e.op == "add" else [])
    for v, k in pairs:
        if isinstance(v, N.Var) and v.name == name and isinstance(k, N.Const) \
                and type(k.value) is int and abs(k.value) <= COUNTER_STEP:
            return e
    return None


# -------------------------------------------------------- lowered-IR bounds
def bounds(L, e):
    """An interval holding the int value of lowered expression ``e``."""
    t = e.type
    if isinstance(e, N.Const):
        v = e.value
        return (int(v), int(v)) if isinstance(v, (bool, int)) else FULL
    if not isinstance(t, T.Scalar) or not (t.is_int or t.is_bool):
        return FULL
    if t.is_bool:
        return 0, 1
    if isinstance(e, N.Var):
        facts = getattr(L, "int_facts", None)
        return facts.bounds.get(e.name, FULL) if facts is not None and t == I64 else FULL
    if isinstance(e, N.ArrayAttr) and e.attr == "shape":
        return 0, MAX
    if isinstance(e, N.GpuIndex):
        return GPU_THREADS if e.kind in ("thread", "block_dim") else GPU_BLOCKS
    if isinstance(e, N.Cast):
        st = e.operand.type
        if isinstance(st, T.Scalar) and (st.is_bool or st.is_int):
            lo, hi = (0, 1) if st.is_bool else T.int_range(st)
            tlo, thi = T.int_range(t)
            if tlo <= lo and hi <= thi:                 # (the value is kept)
                return bounds(L, e.operand)
    if t != I64:
        return T.int_range(t)
    if isinstance(e, N.BinOp):
        if e.op in _SYMBOL:
            iv = _arith(e.op, bounds(L, e.left), bounds(L, e.right))
            return iv if _fits(iv) else FULL          # (a primitive op wraps)
        if e.op == "and":
            ivs = [bounds(L, x) for x in (e.left, e.right)]
            nonneg = [iv[1] for iv in ivs if iv[0] >= 0]
            return (0, min(nonneg)) if nonneg else FULL
    if isinstance(e, N.Select):
        return _union([bounds(L, e.a), bounds(L, e.b)])
    if isinstance(e, N.Intrinsic) and e.name in ("smin", "smax"):
        a, b = (bounds(L, x) for x in e.args)
        pick = min if e.name == "smin" else max
        return pick(a[0], b[0]), pick(a[1], b[1])
    return FULL


def note(L, name: str, e) -> None:
    """Remember the bounds of the temporary ``name`` assigned ``e`` once (and that
    it is ``rising + k``, ``k >= 0``)."""
    if e.type == I64:
        iv = bounds(L, e)
        if iv != FULL:
            L.int_facts.bounds[name] = iv
        if rising(L, e):
            L.int_facts.rising.add(name)


def rising(L, e) -> bool:
    """``e`` is a :attr:`Facts.rising` local, or one plus a constant ``k >= 0``."""
    facts = getattr(L, "int_facts", None)
    if facts is None or not facts.rising:
        return False
    if isinstance(e, N.Var):
        return e.name in facts.rising
    if isinstance(e, N.BinOp) and e.op == "add" and e.type == I64:
        for v, k in ((e.left, e.right), (e.right, e.left)):
            if isinstance(v, N.Var) and v.name in facts.rising and \
                    isinstance(k, N.Const) and type(k.value) is int and k.value >= 0:
                return True
    return False


# -------------------------------------------------------------- the checks
def deopt_if(L, cond, what: str):
    L.emit(N.If(cond=cond, then=[N.Raise(exc=OverflowError, deopt=True, line=L.line,
                                         message=MESSAGE.format(what))], line=L.line))


def uint64_as_python_int(L, e, what: str):
    """``e``, a NumPy uint64 read as a Python int (``int(x)``, ``round(x)``, a
    ``range`` bound): held in an int64, so from 2**63 up the call deoptimises --
    the interpreter has the exact int.  Other types, and hanajit's own helpers
    (which keep wrapping), get ``e`` itself."""
    if e.type != T.UINT64 or not active(L):
        return e
    e = L.let(e)
    deopt_if(L, N.Cmp("gt", e, N.Const(MAX, T.UINT64), BOOL), what)
    return e


def arith(L, op, a, b, t, checked=True):
    """``a op b`` (``add sub mul``) of Python ints: deoptimise beyond int64."""
    if not (checked and t == I64 and active(L)) or _fits(
            _arith(op, bounds(L, a), bounds(L, b))):
        return N.BinOp(op, a, b, t)
    a, b = L.let(a), L.let(b)
    deopt_if(L, N.Intrinsic(f"s{op}_overflow", [a, b], BOOL), f"x {_SYMBOL[op]} y")
    return N.BinOp(op, a, b, t)


def neg(L, a, t):
    """``-a`` of a Python int: ``-(-2**63)`` deoptimises."""
    if t == I64 and active(L) and bounds(L, a)[0] == MIN:
        a = L.let(a)
        deopt_if(L, N.Cmp("eq", a, N.Const(MIN, t), BOOL), "-x")
    return N.UnOp("neg", a, t)


def floordiv_min(L, a, b, t):
    """``-2**63 // -1`` is ``2**63``: deoptimise (``%`` gives 0, exactly)."""
    if t == I64 and active(L) and bounds(L, a)[0] == MIN and bounds(L, b)[0] <= -1 <= \
            bounds(L, b)[1]:
        deopt_if(L, N.BinOp("and", N.Cmp("eq", a, N.Const(MIN, t), BOOL),
                            N.Cmp("eq", b, N.Const(-1, t), BOOL), BOOL), "x // y")


def lshift(L, a, b, t):
    """``a << b`` of Python ints (``b >= 0`` already checked): deoptimise when bits
    leave int64; None when not a checked Python-int shift."""
    if not (t == I64 and active(L)):
        return None
    ia, ib = bounds(L, a), bounds(L, b)
    if 0 <= ib[0] and ib[1] < 64 and _fits(
            _arith("mul", ia, (1 << ib[0], 1 << ib[1]))):
        return N.BinOp("shl", a, b, t)
    a, b = L.let(a), L.let(b)
    big = L.let(N.Cmp("ge", b, N.Const(64, t), BOOL))
    amount = L.let(N.Select(big, N.Const(0, t), b, t))
    r = L.let(N.BinOp("shl", a, amount, t))
    lost = N.BinOp("or", big, N.Cmp("ne", N.BinOp("ashr", r, amount, t), a, BOOL), BOOL)
    deopt_if(L, N.BinOp("and", N.Cmp("ne", a, N.Const(0, t), BOOL), lost, BOOL), "x << y")
    return r
