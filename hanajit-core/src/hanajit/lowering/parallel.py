"""LLVM lowering of ``ParallelFor`` for targets with threads (``info.parallel``).

The region call's arguments are stored in a context struct on the stack; a
trampoline ``i32 tramp(ptr ctx, i64 k, ptr err)`` loads them and calls the region
for chunk ``k``; the target's runtime ``hj_parallel_for`` (the CPU's is
``hanajit_cpu/threads.py``) runs the chunks and reports the lowest failing chunk's
error, which propagates like a failed call.  The generated code reads the worker
count from the global ``hj_num_threads``, which that runtime defines.
"""
from __future__ import annotations

from llvmlite import ir

from .llvm import I8, I32, I64, PTR, lltype, set_weights

# The symbols a target with threads links in: ``i32 hj_parallel_for(ptr fn, ptr ctx,
# i64 count, ptr err)`` and the ``i64`` worker count ``hj_num_threads``.
PARALLEL_FOR = "hj_parallel_for"
NUM_THREADS = "hj_num_threads"


def num_threads(fl):
    m = fl.m
    g = m.llmod.globals.get(NUM_THREADS)
    if g is None:
        g = ir.GlobalVariable(m.llmod, I64, NUM_THREADS)
    return fl.b.load(g)


def _runtime(m):
    fn = m.llmod.globals.get(PARALLEL_FOR)
    if fn is None:
        fn = ir.Function(m.llmod, ir.FunctionType(I32, [PTR, PTR, I64, PTR]),
                         PARALLEL_FOR)
        fn.attributes.add("nounwind")
    return fn


def _trampoline(m, callee, ctx_ty):
    name = callee.name + ".chunk"
    fn = m.llmod.globals.get(name)
    if fn is not None:
        return fn
    llcallee = m.declare(callee)
    fn = ir.Function(m.llmod, ir.FunctionType(I32, [PTR, I64, PTR]), name)
    fn.linkage = "internal"
    fn.attributes.add("nounwind")
    ctx, k, err = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    args = [k] + [b.load(b.gep(ctx, [ir.Constant(I32, 0), ir.Constant(I32, i)],
                               source_etype=ctx_ty), typ=ctx_ty.elements[i])
                  for i in range(len(callee.arg_types) - 1)]
    if callee.can_raise:
        slot = b.alloca(I8)
        b.ret(b.call(llcallee, [err, slot] + args))
    else:
        b.call(llcallee, args)
        b.ret(ir.Constant(I32, 0))
    return fn


def parallel_for(fl, s):
    b, m = fl.b, fl.m
    call = s.body[0].value
    callee = m.module.functions[call.func]
    vals = [fl.expr(a) for a in call.args[1:]]
    ctx_ty = ir.LiteralStructType([lltype(t) for t in callee.arg_types[1:]] or [I8])
    cur = b.block
    with b.goto_block(fl.llfn.entry_basic_block):
        b.position_at_start(fl.llfn.entry_basic_block)
        ctx = b.alloca(ctx_ty)
    b.position_at_end(cur)
    for i, v in enumerate(vals):
        b.store(v, b.gep(ctx, [ir.Constant(I32, 0), ir.Constant(I32, i)]))
    count = fl.expr(s.count)
    err = fl.err if callee.can_raise else ir.Constant(PTR, None)
    status = b.call(_runtime(m), [_trampoline(m, callee, ctx_ty), ctx, count, err])
    if not callee.can_raise:
        return
    ok = fl.llfn.append_basic_block("par.ok")
    fail = fl.llfn.append_basic_block("par.fail")
    br = b.cbranch(b.icmp_unsigned("==", status, ir.Constant(I32, 0)), ok, fail)
    set_weights(br, (2000, 1))
    b.position_at_end(fail)
    fl.fail()
    b.position_at_end(ok)
