"""Software prefetch for a counted loop's array loads (an ``evolve`` gene).

With ``module.strategy["loops"][k]["prefetch"] = d`` (see
``ModuleLowering.loop_metadata``), every array element load of counted loop ``k``
whose indices are affine in the loop counter gets, right after it, a prefetch of
the address the same load will read ``d`` iterations later::

    prev = slot                      # this load's address one iteration ago
    step = prev == null ? 0 : addr - prev
    llvm.prefetch(addr + d * step, read, locality 3, data cache)
    slot = addr                      # (slot = null before the loop starts)

An affine address advances by the same number of bytes every iteration, so
``addr + d * step`` is where it will be ``d`` iterations ahead, whatever the
layout (C, F, strided, negative strides).  ``llvm.prefetch`` never faults and
never changes a value (LLVM LangRef: "no effect on the behavior of the
program"), so addresses past the array's end are harmless and results stay bit
for bit the same; the GEP is not ``inbounds``, so no poison either.

"Affine in the counter" is decided on the IR, conservatively: a name is derived
from the counter when it is assigned once in the loop body, at its top level,
from constants, the counter, derived names and names the loop never assigns,
through ``add sub mul`` and integer casts; a load qualifies when its array is
not assigned in the loop and its indices are such expressions, at least one
reading the counter.  Gathers (``a[idx[i]]``) and loads whose index the loop
computes otherwise get no prefetch.
"""

from __future__ import annotations

from llvmlite import ir

from ..ir import nodes as N

I8, I32, I64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
PTR = ir.PointerType()
PREFETCH = "llvm.prefetch.p0"


def _assigned(loop: N.ForCount) -> dict:
    """How many times each name is assigned anywhere in ``loop``'s body."""
    count: dict = {}
    for s in N.walk_stmts(loop.body):
        if isinstance(s, N.Assign):
            count[s.target] = count.get(s.target, 0) + 1
        if isinstance(s, N.ForCount):
            count[s.counter] = count.get(s.counter, 0) + 2
    return count


def _affine(e, derived, assigned) -> tuple:
    """(is ``e`` affine in the counter, does it read a derived name)."""
    if isinstance(e, N.Const):
        return True, False
    if isinstance(e, N.Var):
        if e.name in derived:
            return True, True
        return e.name not in assigned, False
    if isinstance(e, N.Cast) and getattr(e.type, "is_int", False):
        return _affine(e.operand, derived, assigned)
    if isinstance(e, N.BinOp) and e.op in ("add", "sub", "mul"):
        ok1, d1 = _affine(e.left, derived, assigned)
        ok2, d2 = _affine(e.right, derived, assigned)
        return ok1 and ok2, d1 or d2
    return False, False


def affine_names(loop: N.ForCount) -> set:
    """The names that hold an affine function of ``loop``'s counter."""
    assigned = _assigned(loop)
    derived = {loop.counter}
    for s in loop.body:
        if isinstance(s, N.Assign) and assigned.get(s.target) == 1:
            ok, uses = _affine(s.value, derived, assigned)
            if ok and uses:
                derived.add(s.target)
    return derived


def prefetchable(load: N.Load, derived: set, assigned) -> bool:
    if not isinstance(load.array, N.Var) or load.array.name in assigned:
        return False
    uses = False
    for i in load.indices:
        ok, d = _affine(i, derived, assigned)
        if not ok:
            return False
        uses = uses or d
    return uses


class Sites:
    """The loads lowered inside one counted loop (innermost loop only)."""

    def __init__(self, loop: N.ForCount, preheader_branch):
        self.loop = loop
        self.preheader_branch = preheader_branch
        self.loads: list = []          # (IR Load, address value, LLVM load)

    def add(self, e, ptr, inst):
        self.loads.append((e, ptr, inst))


def emit(fl, sites: Sites, distance: int):
    """Insert the prefetches of ``sites`` for ``distance`` iterations ahead."""
    b = fl.b
    assigned = _assigned(sites.loop)
    derived = affine_names(sites.loop)
    todo = [(ptr, inst) for e, ptr, inst in sites.loads
            if prefetchable(e, derived, assigned)]
    if not todo:
        return
    m = fl.m.llmod
    fn = m.globals.get(PREFETCH)
    if fn is None:
        fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [PTR, I32, I32, I32]),
                         PREFETCH)
    cur = b.block
    entry = fl.llfn.entry_basic_block
    null = ir.Constant(PTR, None)
    zero = ir.Constant(I64, 0)
    for ptr, inst in todo:
        with b.goto_block(entry):
            b.position_before(entry.instructions[0])
            slot = b.alloca(PTR, name="pf.prev")
        b.position_before(sites.preheader_branch)
        b.store(null, slot)
        b.position_after(inst)
        prev = b.load(slot)
        here = b.ptrtoint(ptr, I64)
        back = b.ptrtoint(prev, I64)
        step = b.select(b.icmp_unsigned("==", back, zero), zero, b.sub(here, back))
        ahead = b.gep(ptr, [b.mul(step, ir.Constant(I64, distance))], source_etype=I8)
        b.call(fn, [ahead, ir.Constant(I32, 0), ir.Constant(I32, 3), ir.Constant(I32, 1)])
        b.store(ptr, slot)
    b.position_at_end(cur)
