"""Aligned-data version of a counted loop (an ``evolve`` gene).

With ``module.strategy["loops"][k]["align"] = 64`` (innermost loops only; see
``ModuleLowering.loop_metadata``) the loop is lowered twice behind a run-time
test of the data pointers of the arrays it reads or writes::

    if (data(a) | data(b) | ...) % 64 == 0:
        llvm.assume(data(a) % 64 == 0); ...    # true here: just tested
        <loop k, with its other hints>
    else:
        <loop k, no hints>                     # not counted: k stays k

A false ``llvm.assume`` would be undefined behaviour, so it is only ever stated
behind the test that makes it true; misaligned views (``np.empty(n + 1)[1:]``)
run the plain copy.  Arrays the loop assigns (rebinds) are left out of the test
and of the assumption.  Only the alignment LLVM may rely on changes, never an
operation, so results are the same bits.
"""

from __future__ import annotations

from llvmlite import ir

from ..ir import nodes as N
from ..ir import types as T

I1, I64 = ir.IntType(1), ir.IntType(64)
ASSUME = "llvm.assume"


def loop_arrays(loop: N.ForCount) -> list:
    """Names of the arrays ``loop`` loads from or stores to, never rebound in it."""
    assigned = {s.target for s in N.walk_stmts(loop.body) if isinstance(s, N.Assign)}
    names = []
    for s in N.walk_stmts(loop.body):
        arrs = [s.array] if isinstance(s, N.Store) else []
        for e in N.stmt_exprs(s):
            if e is not None:
                arrs += [x.array for x in N.walk_expr(e) if isinstance(x, N.Load)]
        for a in arrs:
            if (isinstance(a, N.Var) and isinstance(a.type, T.ArrayType)
                    and a.name not in assigned and a.name not in names):
                names.append(a.name)
    return names


def versions(fl, s: N.ForCount, align: int, lower_loop):
    """Lower ``s`` as an aligned copy (hinted) and a plain copy (no hints)."""
    b, m = fl.b, fl.m
    names = loop_arrays(s)
    if not names:
        lower_loop(s)
        return
    mask = ir.Constant(I64, align - 1)
    zero = ir.Constant(I64, 0)
    bits = zero
    for name in names:
        data = b.extract_value(b.load(fl.slots[name]), 1)
        bits = b.or_(bits, b.ptrtoint(data, I64))
    ok = b.icmp_unsigned("==", b.and_(bits, mask), zero)
    fast = fl.llfn.append_basic_block("align.yes")
    slow = fl.llfn.append_basic_block("align.no")
    done = fl.llfn.append_basic_block("align.end")
    b.cbranch(ok, fast, slow)
    b.position_at_end(fast)
    assume = m.llmod.globals.get(ASSUME)
    if assume is None:
        assume = ir.Function(m.llmod, ir.FunctionType(ir.VoidType(), [I1]), ASSUME)
    for name in names:
        data = b.extract_value(b.load(fl.slots[name]), 1)
        low = b.and_(b.ptrtoint(data, I64), mask)
        b.call(assume, [b.icmp_unsigned("==", low, zero)])
    lower_loop(s)
    if not b.block.is_terminated:
        b.branch(done)
    b.position_at_end(slow)
    paused, m.hints_paused = m.hints_paused, True
    try:
        lower_loop(s)
    finally:
        m.hints_paused = paused
    if not b.block.is_terminated:
        b.branch(done)
    b.position_at_end(done)
