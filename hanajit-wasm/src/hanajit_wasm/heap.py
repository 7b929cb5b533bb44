"""The linear-memory allocator linked into modules whose signature has arrays.

A wasm module has no C library, so the module brings its own ``aligned_alloc`` and
``free`` (which the memory runtime, ``hanajit.lowering.nrt``, calls for arrays the
kernel allocates) and exports them to the host::

    ptr hanajit_alloc(i64 nbytes)     ; 64-byte aligned, 0 when memory cannot grow
    void hanajit_free(ptr p)          ; p from hanajit_alloc (0 is ignored)
    void hanajit_release(ptr meminfo) ; drop a returned array's reference

It is a bump allocator: blocks are carved upwards from ``__heap_base`` (growing
memory a page at a time) and counted; ``free`` only decrements the count, and when
it reaches zero the whole heap is reused from the start.  A host that frees
everything it allocated and releases every returned array after each call (the
loaders do) therefore runs any number of calls in bounded memory; a kernel that
allocates and drops temporaries inside one call keeps them until the call's
arrays are all gone.
"""
from __future__ import annotations

ALLOC = "hanajit_alloc"
FREE = "hanajit_free"
RELEASE = "hanajit_release"
EXPORTS = (ALLOC, FREE, RELEASE)


def heap_ir(bits: int) -> str:
    """The allocator as LLVM IR for wasm32 (``bits=32``) or wasm64."""
    p = f"i{bits}"
    limit = (1 << 32) if bits == 32 else (1 << 62)
    to_ptr = "zext i32 %pages to i64" if bits == 32 else "add i64 %pages, 0"
    from_i64 = (lambda v, out: f"%{out} = trunc i64 %{v} to i32") if bits == 32 else \
        (lambda v, out: f"%{out} = add i64 %{v}, 0")
    return f"""
@__heap_base = external global i8
@hj_heap_top = internal global i64 0
@hj_heap_live = internal global i64 0

declare {p} @llvm.wasm.memory.size.{p}(i32)
declare {p} @llvm.wasm.memory.grow.{p}(i32, {p})
declare void @hj_nrt_decref(ptr)

define ptr @aligned_alloc(i64 %align, i64 %size) nounwind {{
entry:
  %top0 = load i64, ptr @hj_heap_top
  %base = ptrtoint ptr @__heap_base to i64
  %fresh = icmp eq i64 %top0, 0
  %top = select i1 %fresh, i64 %base, i64 %top0
  %s0 = add i64 %top, 63
  %start = and i64 %s0, -64
  %big = icmp ugt i64 %size, {limit}
  br i1 %big, label %fail, label %sized
sized:
  %end = add i64 %start, %size
  %over = icmp ugt i64 %end, {limit}
  br i1 %over, label %fail, label %fits
fits:
  %e1 = add i64 %end, 65535
  %need = lshr i64 %e1, 16
  %pages = call {p} @llvm.wasm.memory.size.{p}(i32 0)
  %have = {to_ptr}
  %short = icmp ugt i64 %need, %have
  br i1 %short, label %grow, label %ok
grow:
  %more64 = sub i64 %need, %have
  {from_i64("more64", "more")}
  %r = call {p} @llvm.wasm.memory.grow.{p}(i32 0, {p} %more)
  %failed = icmp eq {p} %r, -1
  br i1 %failed, label %fail, label %ok
ok:
  store i64 %end, ptr @hj_heap_top
  %live = load i64, ptr @hj_heap_live
  %live1 = add i64 %live, 1
  store i64 %live1, ptr @hj_heap_live
  %ptr = inttoptr i64 %start to ptr
  ret ptr %ptr
fail:
  ret ptr null
}}

define void @free(ptr %p) nounwind {{
entry:
  %null = icmp eq ptr %p, null
  br i1 %null, label %done, label %dec
dec:
  %live = load i64, ptr @hj_heap_live
  %none = icmp eq i64 %live, 0          ; a stray free
  br i1 %none, label %done, label %dec1
dec1:
  %live1 = sub i64 %live, 1
  store i64 %live1, ptr @hj_heap_live
  %empty = icmp eq i64 %live1, 0
  br i1 %empty, label %reset, label %done
reset:
  store i64 0, ptr @hj_heap_top
  br label %done
done:
  ret void
}}

define ptr @{ALLOC}(i64 %nbytes) nounwind {{
entry:
  %p = call ptr @aligned_alloc(i64 64, i64 %nbytes)
  ret ptr %p
}}

define void @{FREE}(ptr %p) nounwind {{
entry:
  call void @free(ptr %p)
  ret void
}}

define void @{RELEASE}(ptr %mi) nounwind {{
entry:
  call void @hj_nrt_decref(ptr %mi)
  ret void
}}
"""
