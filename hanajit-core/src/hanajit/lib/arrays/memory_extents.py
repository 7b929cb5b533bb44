"""NumPy's memory extents of two arrays, in Python source compiled by hanajit
(``numpy/_core/src/common/mem_overlap.c``: ``offset_bounds_from_strides`` and
``get_array_memory_extents``): the half-open byte range from the data pointer
plus the negative stride offsets to the data pointer plus the positive ones and
one item; an array with a zero-length axis has the empty range at its data
pointer.

``overlap(a, b)`` is 0 where the extents do not overlap (NumPy's
``MEM_OVERLAP_NO``: neither ``may_share_memory`` nor ``shares_memory``), 1 where
they overlap and both arrays are C- or Fortran-contiguous (every byte of each extent is an
element's: they share memory), 2 where they overlap otherwise (``may_share_memory``
says True; whether they share memory takes NumPy's exact solver)."""
from .. import prims


def extent_start(a):
    low = 0
    for i in range(a.ndim):
        n = a.shape[i]
        if n == 0:
            return prims.address(a)
        off = a.strides[i] * (n - 1)
        if off < 0:
            low += off
    return prims.address(a) + low


def extent_end(a):
    high = 0
    for i in range(a.ndim):
        n = a.shape[i]
        if n == 0:
            return prims.address(a)
        off = a.strides[i] * (n - 1)
        if off > 0:
            high += off
    return prims.address(a) + high + a.itemsize


def overlap(a, b):
    start1 = extent_start(a)
    end1 = extent_end(a)
    start2 = extent_start(b)
    end2 = extent_end(b)
    if not (start1 < end2 and start2 < end1 and start1 < end1 and start2 < end2):
        return 0
    if dense(a) and dense(b):
        return 1
    return 2


def dense(a):
    """Is ``a`` C- or Fortran-contiguous (an axis of length 1 has any stride)?"""
    c = True
    step = a.itemsize
    for j in range(a.ndim):
        i = a.ndim - 1 - j
        if a.shape[i] != 1:
            if a.strides[i] != step:
                c = False
            step *= a.shape[i]
    if c:
        return True
    step = a.itemsize
    for i in range(a.ndim):
        if a.shape[i] != 1:
            if a.strides[i] != step:
                return False
            step *= a.shape[i]
    return True
