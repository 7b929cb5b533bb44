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

# the header of a new block ``%mi``: one reference, the data's address, its size
_HEADER = """  store i64 1, ptr %mi
  %data = getelementptr i8, ptr %mi, i64 64
  %dp = getelementptr i8, ptr %mi, i64 8
  store ptr %data, ptr %dp
  %np = getelementptr i8, ptr %mi, i64 16
  store i64 %nbytes, ptr %np
"""

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
;HEADER
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
""".replace(";HEADER\n", _HEADER)

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


# the host's allocation (:func:`runtime_ir`): ``malloc`` and the 64-byte
# alignment by hand, the block's own address kept in the header (``pad[0]``,
# +24) for ``free``
_HOST_ALLOC = f"""declare ptr @malloc(i64)
declare void @free(ptr)

define ptr @hj_nrt_alloc(i64 %nbytes) nounwind {{
entry:
  %sz0 = add i64 %nbytes, 127
  %sz = and i64 %sz0, -64
  %room = add i64 %sz, 64
  %raw = call ptr @malloc(i64 %room)
  %null = icmp eq ptr %raw, null
  br i1 %null, label %fail, label %ok
fail:
  ret ptr null
ok:
  %raw_at = ptrtoint ptr %raw to i64
  %up64 = add i64 %raw_at, 63
  %at64 = and i64 %up64, -64
  %shift = sub i64 %at64, %raw_at
  %mi = getelementptr i8, ptr %raw, i64 %shift
{_HEADER}  %rawp = getelementptr i8, ptr %mi, i64 24
  store ptr %raw, ptr %rawp
{_ADVISE}
  ret ptr %mi
}}
"""
_HOST_FREE = ("  call void @free(ptr %mi)\n",
              "  %rawp = getelementptr i8, ptr %mi, i64 24\n"
              "  %raw = load ptr, ptr %rawp\n"
              "  call void @free(ptr %raw)\n")


def runtime_ir(huge_pages: bool = False) -> str:
    """The runtime's IR for a host: ``huge_pages`` (Linux hosts), large
    allocations ask for transparent huge pages (see the module docstring), and
    blocks come from ``malloc``, aligned by hand.  glibc's ``aligned_alloc``
    asks its heap for the size plus the alignment plus a minimum chunk and gives
    back the rest, so a freed 8 MB block is too small for the next 8 MB request:
    a loop rebinding a large array (``y = y * x + c``) grew the heap past it and
    glibc trimmed it back at each free -- 2,400 page faults and 8 ms of kernel
    time a call of eight 8 MB steps, where NumPy (``malloc``) reuses its blocks.
    Exporters link ``RUNTIME_IR`` itself (``aligned_alloc``)."""
    if not huge_pages:
        return RUNTIME_IR.replace("  ;ADVISE\n", "")
    rest = RUNTIME_IR[RUNTIME_IR.index("define void @hj_nrt_incref"):]
    if _HOST_FREE[0] not in rest:
        raise AssertionError("the memory runtime changed: update _HOST_FREE")
    return ("declare i32 @madvise(ptr, i64, i32)\n" + _HOST_ALLOC + "\n"
            + rest.replace(*_HOST_FREE))
