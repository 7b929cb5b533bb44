"""The memory runtime (NRT) for arrays allocated by compiled code.

Every array value carries a *meminfo* pointer (NULL for memory owned by
someone else, e.g. an argument from Python).  A meminfo is one allocation::

    struct { i64 refcount; ptr data; i64 nbytes; i64 pad[5]; }   ; 64 bytes
    data follows at +64 (64-byte aligned)

Compiled code increfs when it stores an array into a variable and decrefs the old
value, the values of its locals at every exit (return, raise, propagated error),
and results it drops; the count is atomic so parallel code can share arrays.  An
array returned to Python keeps its reference in an owner object that becomes the
ndarray's ``base``; when NumPy drops the last reference the owner decrefs.

The runtime is LLVM IR compiled once per process (host targets) or linked into an
export; modules only declare the three functions below.
"""
from __future__ import annotations

ALLOC = "hj_nrt_alloc"
INCREF = "hj_nrt_incref"
DECREF = "hj_nrt_decref"
SYMBOLS = (ALLOC, INCREF, DECREF)
HEADER = 64

RUNTIME_IR = r"""
declare ptr @aligned_alloc(i64, i64)
declare void @free(ptr)

define ptr @hj_nrt_alloc(i64 %nbytes) nounwind {
entry:
  %sz0 = add i64 %nbytes, 127
  %sz = and i64 %sz0, -64
  %mi = call ptr @aligned_alloc(i64 64, i64 %sz)
  %null = icmp eq ptr %mi, null
  br i1 %null, label %fail, label %ok
fail:
  ret ptr null
ok:
  store i64 1, ptr %mi
  %data = getelementptr i8, ptr %mi, i64 64
  %dp = getelementptr i8, ptr %mi, i64 8
  store ptr %data, ptr %dp
  %np = getelementptr i8, ptr %mi, i64 16
  store i64 %nbytes, ptr %np
  ret ptr %mi
}

define void @hj_nrt_incref(ptr %mi) nounwind {
entry:
  %null = icmp eq ptr %mi, null
  br i1 %null, label %done, label %inc
inc:
  %old = atomicrmw add ptr %mi, i64 1 monotonic
  br label %done
done:
  ret void
}

define void @hj_nrt_decref(ptr %mi) nounwind {
entry:
  %null = icmp eq ptr %mi, null
  br i1 %null, label %done, label %dec
dec:
  %old = atomicrmw sub ptr %mi, i64 1 acq_rel
  %last = icmp eq i64 %old, 1
  br i1 %last, label %release, label %done
release:
  call void @free(ptr %mi)
  br label %done
done:
  ret void
}
"""
