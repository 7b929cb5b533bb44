"""Block integer reductions so their partial sums live in narrow lanes (``f.narrow``).

Runs on a primitive IR module only when ``JitFunction.narrow`` asks for it (never in
the ordinary pipeline).  In a counted loop, an update ``acc = acc + term`` (or
``acc - term``) of an integer accumulator that is read nowhere else in the loop,
where interval analysis bounds ``term`` to ``[lo, hi]``, is split into blocks of
``L`` iterations: each block adds into a fresh 16- or 32-bit local, sized so that
``L`` terms cannot overflow it, and the block total is then added to ``acc``.  The
full blocks run a constant ``L`` iterations (LLVM vectorises them with no remainder
loop) and a copy of the body runs the last, partial block -- except in loops with a
check that can raise, where one loop runs blocks of ``min(L, n - start)`` (see
``block_loop``).  The iterations run in the
same order as before, so everything else in the body (checks that raise, stores,
calls) is untouched; only the grouping of the integer additions changes, which is
exact (addition modulo 2**bits is associative), so a wrapping accumulator still
wraps the same way.  LLVM then vectorises the inner loops with 16- or 32-bit lanes
instead of 64-bit ones.

Example (``x`` an int8 array, ``L = 256`` with an int16 block)::

    for i < n:                          $n = n
        acc = add(acc,                  for $b < $n / 256:
                  cast<i64>(x[i]))          $start = $b * 256
                                            $blk = 0                      # int16
                                            for $j < 256:
                                                i = $start + $j
                                                $blk = add($blk, cast<i16>(cast<i64>(x[i])))
                                            acc = add(acc, cast<i64>($blk))
                                        $start = ($n / 256) * 256
                                        $blk = 0
                                        for $j < $n - $start:   (the same body)
                                        acc = add(acc, cast<i64>($blk))
"""
from __future__ import annotations

import copy
from typing import NamedTuple

from ..ir import nodes as N
from ..ir import types as T

#: the block accumulator widths tried, narrowest first
BLOCK_BITS = (16, 32)
#: the fewest terms a block must hold: once per block the vector of partial sums is
#: added up, and in a loop with a check that can raise (an index check) LLVM runs
#: the last vector step of every block as scalar code, so such blocks must be long
MIN_BLOCK, MIN_BLOCK_CHECKED = 256, 4096
#: the longest block (a larger one gains nothing: the flush is already rare)
MAX_BLOCK = 1 << 20


# ---------------------------------------------------------------- value ranges
def type_range(t) -> tuple | None:
    """The values of an integer or bool type, as ``(lo, hi)``."""
    if not isinstance(t, T.Scalar):
        return None
    if t.is_bool:
        return (0, 1)
    if t.kind == "i":
        return (-(1 << (t.bits - 1)), (1 << (t.bits - 1)) - 1)
    if t.kind == "u":
        return (0, (1 << t.bits) - 1)
    return None


def _narrow_range(t):
    """The range of ``t`` when it is a bound worth having (at most 32 bits)."""
    r = type_range(t)
    return r if r is not None and t.bits <= 32 else None


def _fit(r, t):
    """``r`` when every value of it is representable in ``t`` (so the operation that
    made it did not wrap), else what ``t`` can hold (a wrapped result lies there)."""
    tr = type_range(t)
    if r is not None and tr is not None and tr[0] <= r[0] and r[1] <= tr[1]:
        return r
    return _narrow_range(t)


def _union(ranges):
    lo = hi = None
    for r in ranges:
        if r is None:
            return None
        lo = r[0] if lo is None else min(lo, r[0])
        hi = r[1] if hi is None else max(hi, r[1])
    return None if lo is None else (lo, hi)


def _tdiv(x: int, y: int) -> int:
    """Integer division truncating toward zero (C's ``/``), exactly."""
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


class Bounds:
    """Interval analysis of integer expressions of one function.

    ``bounds(e)`` is ``(lo, hi)`` holding every value ``e`` can take (read with its
    type's signedness), or None when no useful bound is known.  A local is bounded
    by the union of the expressions assigned to it anywhere in the function (a
    loop-carried update, ``x = x + 1``, gives no bound), a parameter or counter by
    its type when that is at most 32 bits wide."""

    def __init__(self, fn: N.Function):
        self.fn = fn
        self.defs: dict = {}
        for s in N.walk_stmts(fn.body):
            if isinstance(s, N.Assign) and s.target not in fn.params:
                self.defs.setdefault(s.target, []).append(s.value)
        self._busy: set = set()
        self._known: dict = {}

    def bounds(self, e):
        t = getattr(e, "type", None)
        if not (isinstance(t, T.Scalar) and (t.is_int or t.is_bool)):
            return None
        if t.is_bool:
            return (0, 1)
        m = getattr(self, "b_" + type(e).__name__, None)
        r = m(e) if m is not None else None
        return _fit(r, t)

    def b_Const(self, e):
        v = e.value
        return (int(v), int(v)) if isinstance(v, (int, bool)) else None

    def b_Var(self, e):
        name = e.name
        if name in self._known:
            return self._known[name]
        if name not in self.defs or name in self._busy:
            return None
        top = not self._busy
        self._busy.add(name)
        try:
            r = _union(self.bounds(d) for d in self.defs[name])
        finally:
            self._busy.discard(name)
        if top:                     # (nothing was cut short by a busy local)
            self._known[name] = r
        return r

    def b_Load(self, e):
        return _narrow_range(e.array.type.dtype)

    def b_Cast(self, e):
        src = e.operand.type
        if isinstance(src, T.Scalar) and (src.is_int or src.is_bool):
            return self.bounds(e.operand)
        return None

    def b_Select(self, e):
        return _union((self.bounds(e.a), self.bounds(e.b)))

    def b_UnOp(self, e):
        r = self.bounds(e.operand)
        if r is None:
            return None
        if e.op == "neg":
            return (-r[1], -r[0])
        if e.op == "invert":
            return (~r[1], ~r[0])
        return None

    def b_Intrinsic(self, e):
        if e.name == "ctpop":
            return (0, e.type.bits)
        rs = [self.bounds(a) for a in e.args]
        if e.name not in ("smin", "smax", "umin", "umax") or None in rs:
            return None
        pick = min if e.name.endswith("min") else max
        return (pick(r[0] for r in rs), pick(r[1] for r in rs))

    def b_BinOp(self, e):
        a, b = self.bounds(e.left), self.bounds(e.right)
        op = e.op
        if a is None or b is None:
            return None
        if op == "add":
            return (a[0] + b[0], a[1] + b[1])
        if op == "sub":
            return (a[0] - b[1], a[1] - b[0])
        if op == "mul":
            ps = [x * y for x in a for y in b]
            return (min(ps), max(ps))
        if op == "and":
            if a[0] >= 0 and b[0] >= 0:
                return (0, min(a[1], b[1]))
            if a[0] >= 0 or b[0] >= 0:
                return (0, a[1] if a[0] >= 0 else b[1])
            return None
        if op in ("or", "xor") and a[0] >= 0 and b[0] >= 0:
            return (0, (1 << max(a[1], b[1]).bit_length()) - 1)
        if op in ("ashr", "lshr") and b[0] >= 0 and (op == "ashr" or a[0] >= 0):
            return (a[0] >> b[0] if a[0] < 0 else a[0] >> b[1],
                    a[1] >> b[0] if a[1] >= 0 else a[1] >> b[1])
        if op == "shl" and b[0] >= 0 and b[1] < 63:
            return (min(a[0] << b[0], a[0] << b[1]), max(a[1] << b[0], a[1] << b[1]))
        if op in ("sdiv", "udiv") and b[0] > 0:
            qs = [_tdiv(x, y) for x in a for y in b]
            return (min(qs), max(qs))
        if op in ("srem", "urem"):
            m = max(abs(b[0]), abs(b[1])) - 1
            return (0 if a[0] >= 0 else -m, 0 if a[1] <= 0 else m)
        return None


# ------------------------------------------------------------------ reductions
class Reduction:
    """One accumulator update ``acc = acc op term`` (``op`` add or sub) whose
    contribution ``+term`` / ``-term`` lies in ``[lo, hi]``."""

    def __init__(self, stmt: N.Assign, op: str, term: N.Expr, lo: int, hi: int):
        self.stmt, self.op, self.term, self.lo, self.hi = stmt, op, term, lo, hi
        self.acc = stmt.target
        self.block_type: T.Scalar | None = None
        self.length = 0

    def choose(self, acc_type: T.Scalar, widths, shortest: int) -> bool:
        """Pick the narrowest block type holding ``shortest`` or more terms."""
        for bits in widths:
            if bits >= acc_type.bits:
                break
            for kind in ("u", "i") if self.lo >= 0 else ("i",):
                t = T.Scalar(kind, bits)
                tlo, thi = type_range(t)
                n = MAX_BLOCK
                if self.hi > 0:
                    n = min(n, thi // self.hi)
                if self.lo < 0:
                    n = min(n, tlo // self.lo)
                if n >= shortest:
                    self.block_type, self.length = t, 1 << (n.bit_length() - 1)
                    return True
        return False


def _reads(e, name) -> int:
    return sum(1 for x in N.walk_expr(e) if isinstance(x, N.Var) and x.name == name)


def _reads_in(stmts, name) -> int:
    return sum(_reads(e, name) for s in N.walk_stmts(stmts) for e in N.stmt_exprs(s)
               if e is not None)


def _reads_outside(body, counter) -> bool:
    """Is ``counter`` read outside the counted loops that set it?  (Its value after
    such a loop would change: blocks leave the last index in it, not the count.)"""
    for s in body:
        if isinstance(s, N.ForCount) and s.counter == counter:
            if _reads(s.count, counter):
                return True
            continue
        if any(_reads(e, counter) for e in N.stmt_exprs(s) if e is not None):
            return True
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list) and _reads_outside(sub, counter):
                return True
    return False


_CMP = {"lt": int.__lt__, "le": int.__le__, "gt": int.__gt__, "ge": int.__ge__,
        "eq": int.__eq__, "ne": int.__ne__}


def _can_raise(body) -> bool:
    """Does ``body`` hold a ``raise`` that can run?  (Not one under a test of two
    constants that fails, such as ``if eq(2, 0)`` before ``x % 2``.)"""
    for s in body:
        if isinstance(s, N.Raise):
            return True
        if isinstance(s, N.If):
            c = s.cond
            if (isinstance(c, N.Cmp) and c.op in _CMP and
                    all(isinstance(x, N.Const) and type(x.value) is int
                        for x in (c.left, c.right))):
                if _can_raise(s.then if _CMP[c.op](c.left.value, c.right.value)
                              else s.orelse):
                    return True
                continue
        for attr in ("then", "orelse", "body"):
            sub = getattr(s, attr, None)
            if isinstance(sub, list) and _can_raise(sub):
                return True
    return False


def _shallow(body):
    """Statements of ``body`` and its ``if`` branches, not inside nested loops."""
    for s in body:
        yield s
        if isinstance(s, N.If):
            yield from _shallow(s.then)
            yield from _shallow(s.orelse)


def _refusal(fn: N.Function, loop: N.ForCount) -> str | None:
    """Why the iterations of ``loop`` cannot be regrouped into blocks, or None."""
    if isinstance(loop, N.ParallelFor):
        return "it is a parallel loop"
    if any(isinstance(s, N.Return) for s in N.walk_stmts(loop.body)):
        return "it contains a return"
    if any(isinstance(s, N.Break) for s in _shallow(loop.body)):
        return "it contains a break"
    if _reads_outside(fn.body, loop.counter):
        return "its counter is read after it"
    if N.holds_try(fn.body):
        # an error caught mid-block would find the accumulator without the
        # block's partial sum (and a try in the loop hides its breaks)
        return "the function catches exceptions (a try statement)"
    return None


AS_COMPILED = "as compiled"
NO_UPDATE = "it has no integer accumulator update 'acc += term'"


def find_reductions(fn: N.Function, loop: N.ForCount, bounds: Bounds, widths):
    """The narrowable reductions of ``loop`` and, when there are none, why."""
    why = _refusal(fn, loop)
    if why is not None:
        return [], why
    found, why = [], NO_UPDATE
    shortest = MIN_BLOCK_CHECKED if _can_raise(loop.body) else MIN_BLOCK
    for s in _shallow(loop.body):
        if not (isinstance(s, N.Assign) and isinstance(s.value, N.BinOp)
                and s.value.op in ("add", "sub")):
            continue
        v, acc = s.value, s.target
        if isinstance(v.left, N.Var) and v.left.name == acc:
            term = v.right
        elif v.op == "add" and isinstance(v.right, N.Var) and v.right.name == acc:
            term = v.left
        else:
            continue
        acc_type = fn.locals.get(acc)
        if not (isinstance(acc_type, T.Scalar) and acc_type.is_int):
            why = f"the accumulator '{_name(acc)}' is {acc_type}, not an integer"
            continue
        writes = sum(1 for x in N.walk_stmts(loop.body)
                     if isinstance(x, N.Assign) and x.target == acc)
        if writes != 1 or _reads_in(loop.body, acc) != 1:
            why = f"the accumulator '{_name(acc)}' is used elsewhere in the loop"
            continue
        r = bounds.bounds(term)
        if r is None:
            why = (f"the term added to '{_name(acc)}' has no bound narrower than 64 "
                   "bits (it reads no int8/int16/int32 array, or computes beyond them)")
            continue
        lo, hi = r if v.op == "add" else (-r[1], -r[0])
        red = Reduction(s, v.op, term, lo, hi)
        # terms of up to 32 bits that fit no block still qualify: the ordinary code
        # already adds their narrow loads in 64-bit lanes (AS_COMPILED)
        if not red.choose(acc_type, widths, shortest) and not _fits32(lo, hi):
            why = (f"the term added to '{_name(acc)}' lies in [{r[0]}, {r[1]}], "
                   "wider than 32 bits")
            continue
        found.append(red)
    return found, (None if found else why)


def _fits32(lo: int, hi: int) -> bool:
    return -(1 << 31) <= lo and hi < (1 << 31) or 0 <= lo and hi < (1 << 32)


def _name(local: str) -> str:
    return "np.sum" if local.startswith("$acc") else local


# -------------------------------------------------------------- the rewrite
def _i64(v) -> N.Const:
    return N.Const(v, T.INT64)


def _bin(op, a, b, t=T.INT64) -> N.BinOp:
    return N.BinOp(op, a, b, t)


def block_loop(fn: N.Function, loop: N.ForCount, reds: list, constant=True) -> list:
    """The statements replacing ``loop``: blocks of ``L`` iterations, each reduction
    adding into its block local, flushed into the accumulator after the block.

    ``constant``: full blocks run a constant ``L`` iterations (LLVM vectorises them
    without a remainder step) and a copy of the body runs the last, partial block.
    Otherwise one loop runs ``min(L, n - start)`` iterations per block: in a loop
    with a check that can raise, LLVM vectorises only that form (it bounds the
    vector part by the check's limit), the constant one runs 3x slower there."""
    reds = [r for r in reds if r.block_type is not None]
    L = min(r.length for r in reds)
    line = loop.line
    n, nb, b, j, start = (fn.new_temp(T.INT64, h) for h in ("n", "nb", "b", "j", "start"))

    def var(name):
        return N.Var(name, T.INT64)

    def let(name, value):
        return N.Assign(line=line, target=name, value=value)

    flush, reset = [], []
    for r in reds:
        acc_type = fn.locals[r.acc]
        blk = fn.new_temp(r.block_type, "blk")
        reset.append(let(blk, N.Const(0, r.block_type)))
        r.stmt.target = blk
        r.stmt.value = N.BinOp(r.op, N.Var(blk, r.block_type),
                               N.Cast(r.term, r.block_type), r.block_type)
        flush.append(let(r.acc, _bin("add", N.Var(r.acc, acc_type),
                                     N.Cast(N.Var(blk, r.block_type), acc_type),
                                     acc_type)))

    def block(count):
        body = [let(loop.counter, _bin("add", var(start), var(j))),
                *copy.deepcopy(loop.body)]
        return [*copy.deepcopy(reset), N.ForCount(line=line, counter=j, count=count,
                                                  body=body), *copy.deepcopy(flush)]

    positive = N.Cmp("gt", var(n), _i64(0), T.BOOL)
    if not constant:
        ln = fn.new_temp(T.INT64, "len")
        left = _bin("sub", var(n), var(start))
        return [
            let(n, loop.count),
            let(nb, N.Select(positive, _bin("add", _bin("sdiv", _bin(
                "sub", var(n), _i64(1)), _i64(L)), _i64(1)), _i64(0), T.INT64)),
            N.ForCount(line=line, counter=b, count=var(nb), body=[
                let(start, _bin("mul", var(b), _i64(L))),
                let(ln, N.Select(N.Cmp("lt", left, _i64(L), T.BOOL),
                                 _bin("sub", var(n), var(start)), _i64(L), T.INT64)),
                *block(var(ln))])]
    return [
        let(n, loop.count),
        let(nb, N.Select(positive, _bin("sdiv", var(n), _i64(L)), _i64(0), T.INT64)),
        N.ForCount(line=line, counter=b, count=var(nb), body=[
            let(start, _bin("mul", var(b), _i64(L))), *block(_i64(L))]),
        let(start, _bin("mul", var(nb), _i64(L))),
        *block(_bin("sub", var(n), var(start))),
    ]


class LoopReport(NamedTuple):
    """What ``narrow_reductions`` did with the counted loop at ``line``.

    ``blocks`` names the block type and length (``"int16 x 256"``); or it is
    ``AS_COMPILED`` for a narrow reduction best left as it is (32-bit terms, whose
    narrow loads the ordinary code already adds in 64-bit lanes, or an accumulator
    no wider than a block); or None, and ``why`` says why the loop is no narrow
    reduction."""

    line: int
    blocks: str | None
    why: str | None


def narrow_reductions(fn: N.Function, ctx=None, widths=BLOCK_BITS) -> list:
    """Block every narrowable reduction loop of ``fn`` (see the module docstring);
    return a :class:`LoopReport` per counted loop.  ``widths`` are the block
    widths allowed (the benchmark compares 16 and 32)."""
    bounds = Bounds(fn)
    report, plans = [], []
    for loop in N.walk_stmts(fn.body):
        if not isinstance(loop, N.ForCount):
            continue
        reds, why = find_reductions(fn, loop, bounds, widths)
        blocked = [r for r in reds if r.block_type is not None]
        if blocked:
            plans.append((loop, reds))
            L = min(r.length for r in blocked)
            blocks = ", ".join(f"{r.block_type} x {L}" for r in blocked)
        else:
            blocks = AS_COMPILED if reds else None
        report.append(LoopReport(loop.line, blocks, why))
    for loop, reds in plans:
        N.splice(fn.body, loop, block_loop(fn, loop, reds,
                                           constant=not _can_raise(loop.body)))
    return report
