"""The memory runtime of a one-thread kernel (``single_thread``): arrays allocated
in an arena of device memory the caller provides.

Core's lowering calls the memory runtime (``hanajit.lowering.nrt``:
``hj_nrt_alloc``, ``hj_nrt_incref``, ``hj_nrt_decref``); on the host it is
``aligned_alloc``/``free``.  In a one-thread kernel it is defined here, over an
arena the caller allocated with ``cuMemAlloc`` -- so the arrays the function
returns are ordinary device memory the caller can copy back (memory from the
device-side ``malloc`` cannot be copied by the driver API).  The blocks have the
host runtime's layout, with two fields of their own in its padding::

    mi: { i64 refcount; ptr data; i64 nbytes; i64 block size; ptr next free; ... }
    data = mi + 64 (64-byte aligned when the arena is)

``hj_nrt_alloc`` reuses the first released block that is large enough, else
takes the next block of the arena (bump allocation).  When the arena is too small
it records the arena size that would have held the block in ``needed`` and returns
NULL (the function then raises MemoryError); the caller sees ``needed`` exceed the
arena and runs the kernel again with a larger one.  ``hj_nrt_decref`` releasing
the newest block gives its memory back to the arena; any other released block goes
on the free list, so a loop allocating and dropping temporaries reuses their
blocks.  Every block on the free list lies below ``used``.  One thread: no atomics
are needed.
"""
from __future__ import annotations

from llvmlite import ir

from hanajit.lowering import nrt
from hanajit.lowering.llvm import I64, PTR

I8 = ir.IntType(8)
_STATE = ("base", "size", "used", "needed", "free")


def state(llmod: ir.Module) -> dict:
    """The arena's globals (created on first use): base (ptr), size, used,
    needed (i64), free (ptr: the free list)."""
    out = {}
    for name in _STATE:
        g = llmod.globals.get(f"hj_arena_{name}")
        if g is None:
            ty = PTR if name in ("base", "free") else I64
            g = ir.GlobalVariable(llmod, ty, f"hj_arena_{name}")
            g.linkage = "internal"
            g.initializer = ir.Constant(ty, None if ty is PTR else 0)
        out[name] = g
    return out


def define_runtime(llmod: ir.Module) -> bool:
    """Give bodies to the memory runtime functions the module declares; return
    whether it allocates (declares ``hj_nrt_alloc``)."""
    g = state(llmod)
    for name, build in ((nrt.ALLOC, _alloc), (nrt.INCREF, _incref),
                        (nrt.DECREF, _decref)):
        fn = llmod.globals.get(name)
        if fn is not None and fn.is_declaration:
            fn.linkage = "internal"
            build(fn, g)
    alloc = llmod.globals.get(nrt.ALLOC)
    return alloc is not None


def _field(b, mi, offset):
    return b.gep(mi, [ir.Constant(I64, offset)], source_etype=I8)


def _header(b, mi, nbytes) -> None:
    b.store(ir.Constant(I64, 1), mi)
    b.store(_field(b, mi, 64), _field(b, mi, 8))
    b.store(nbytes, _field(b, mi, 16))


def _alloc(fn: ir.Function, g: dict) -> None:
    nbytes = fn.args[0]
    entry = fn.append_basic_block("entry")
    scan, check, cont, reuse, bump, take, full = (
        fn.append_basic_block(n) for n in ("scan", "check", "cont", "reuse", "bump",
                                           "take", "full"))
    b = ir.IRBuilder(entry)
    # the host runtime's rounding: header plus data, a multiple of 64 bytes
    sz = b.and_(b.add(nbytes, ir.Constant(I64, 127)), ir.Constant(I64, -64))
    b.cbranch(b.icmp_signed(">=", nbytes, ir.Constant(I64, 0)), scan, full)

    # first fit in the free list; `link` is where the current block is linked from
    b.position_at_end(scan)
    link = b.phi(PTR)
    link.add_incoming(g["free"], entry)
    cur = b.load(link, typ=PTR)
    b.cbranch(b.icmp_unsigned("==", cur, ir.Constant(PTR, None)), bump, check)
    b.position_at_end(check)
    big = b.icmp_unsigned(">=", b.load(_field(b, cur, 24), typ=I64), sz)
    b.cbranch(big, reuse, cont)
    b.position_at_end(cont)
    link.add_incoming(_field(b, cur, 32), cont)
    b.branch(scan)
    b.position_at_end(reuse)
    b.store(b.load(_field(b, cur, 32), typ=PTR), link)        # unlink
    _header(b, cur, nbytes)
    b.ret(cur)

    b.position_at_end(bump)
    used = b.load(g["used"], typ=I64)
    end = b.add(used, sz)
    fits = b.and_(b.icmp_unsigned(">=", end, used),            # no wrap-around
                  b.icmp_unsigned("<=", end, b.load(g["size"], typ=I64)))
    b.cbranch(fits, take, full)

    b.position_at_end(full)
    used2 = b.load(g["used"], typ=I64)
    end2 = b.add(used2, sz)
    # a negative or wrapping size needs "everything": the caller gives up
    hopeless = b.or_(b.icmp_signed("<", nbytes, ir.Constant(I64, 0)),
                     b.icmp_unsigned("<", end2, used2))
    need = b.select(hopeless, ir.Constant(I64, -1), end2)
    old = b.load(g["needed"], typ=I64)
    b.store(b.select(b.icmp_unsigned(">", need, old), need, old), g["needed"])
    b.ret(ir.Constant(PTR, None))

    b.position_at_end(take)
    b.store(end, g["used"])
    mi = b.gep(b.load(g["base"], typ=PTR), [used], source_etype=I8)
    _header(b, mi, nbytes)
    b.store(sz, _field(b, mi, 24))
    b.ret(mi)


def _incref(fn: ir.Function, g: dict) -> None:
    mi = fn.args[0]
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    inc = fn.append_basic_block("inc")
    done = fn.append_basic_block("done")
    b.cbranch(b.icmp_unsigned("==", mi, ir.Constant(PTR, None)), done, inc)
    b.position_at_end(inc)
    b.store(b.add(b.load(mi, typ=I64), ir.Constant(I64, 1)), mi)
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()


def _decref(fn: ir.Function, g: dict) -> None:
    mi = fn.args[0]
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    dec = fn.append_basic_block("dec")
    release = fn.append_basic_block("release")
    newest = fn.append_basic_block("newest")
    done = fn.append_basic_block("done")
    b.cbranch(b.icmp_unsigned("==", mi, ir.Constant(PTR, None)), done, dec)
    b.position_at_end(dec)
    count = b.sub(b.load(mi, typ=I64), ir.Constant(I64, 1))
    b.store(count, mi)
    b.cbranch(b.icmp_signed("==", count, ir.Constant(I64, 0)), release, done)
    b.position_at_end(release)
    sz = b.load(_field(b, mi, 24), typ=I64)
    used = b.load(g["used"], typ=I64)
    top = b.gep(b.load(g["base"], typ=PTR), [b.sub(used, sz)], source_etype=I8)
    listed = fn.append_basic_block("listed")
    b.cbranch(b.icmp_unsigned("==", mi, top), newest, listed)
    b.position_at_end(newest)
    b.store(b.sub(used, sz), g["used"])
    b.branch(done)
    b.position_at_end(listed)
    b.store(b.load(g["free"], typ=PTR), _field(b, mi, 32))
    b.store(mi, g["free"])
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
