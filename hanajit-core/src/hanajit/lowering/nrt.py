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

On Linux hosts an allocation of 4 MiB or more is given to the kernel's
transparent huge pages (``madvise(MADV_HUGEPAGE)``), as NumPy's allocator does
(``npy_alloc_cache``/``PyDataMem_UserNEW``): where the kernel grants huge pages
only when asked ("madvise" mode, the common default), a fresh 8 MB array
otherwise costs 2,048 page faults on its first writes, and glibc hands freed
large blocks back to the kernel, so a function that allocates one per call
pays them on every call.
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
  ;ADVISE
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

HUGE_PAGES = 1 << 22        # NumPy's threshold (4 MiB)
MADV_HUGEPAGE = 14          # Linux

_ADVISE = f"""  %big = icmp uge i64 %sz, {HUGE_PAGES}
  br i1 %big, label %advise, label %advised
advise:
  %addr = ptrtoint ptr %mi to i64
  %up = add i64 %addr, 4095
  %first = and i64 %up, -4096
  %past = add i64 %addr, %sz
  %last = and i64 %past, -4096
  %len = sub i64 %last, %first
  %at = inttoptr i64 %first to ptr
  %ignored = call i32 @madvise(ptr %at, i64 %len, i32 {MADV_HUGEPAGE})
  br label %advised
advised:"""


def runtime_ir(huge_pages: bool = False) -> str:
    """The runtime's IR; ``huge_pages``: large allocations ask for transparent
    huge pages (Linux hosts, see the module docstring)."""
    if not huge_pages:
        return RUNTIME_IR.replace("  ;ADVISE\n", "")
    return ("declare i32 @madvise(ptr, i64, i32)\n"
            + RUNTIME_IR.replace("  ;ADVISE", _ADVISE))
