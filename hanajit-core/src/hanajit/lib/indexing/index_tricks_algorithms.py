"""``np.unravel_index``, ``np.ravel_multi_index`` and ``np.tril_indices`` /
``np.triu_indices`` in Python source compiled by hanajit (see
``lib/python/helpers.py``), as NumPy's ``compiled_base.c`` and
``numpy/lib/_twodim_base_impl.py`` compute them."""
import numpy as np

from ..python.helpers import Deopt


def dims_size(dims):
    """The number of elements of the shape ``dims`` (a negative one: NumPy's
    ValueError, words of its own -- the interpreter raises it)."""
    size = 1
    for k in range(dims.shape[0]):
        if dims[k] < 0:
            raise Deopt("a negative dimension")
        size *= dims[k]
    return size


def unravel_into(out, idx, dims, fortran):
    """Row ``k`` of ``out`` (``ndim`` rows of ``len(idx)``): the ``k``-th coordinate
    of each flat index."""
    size = dims_size(dims)
    nd = dims.shape[0]
    for i in range(idx.shape[0]):
        v = idx[i]
        if v < 0 or v >= size:
            raise ValueError(f"index {v} is out of bounds for array with size {size}")
        if fortran:
            for k in range(nd):
                out[k, i] = v % dims[k]
                v = v // dims[k]
        else:
            for k in range(nd - 1, -1, -1):
                out[k, i] = v % dims[k]
                v = v // dims[k]
    return size


def ravel_into(out, coords, dims, mode, fortran):
    """The flat index of each column of ``coords`` (``ndim`` rows); mode 0 raise,
    1 wrap, 2 clip."""
    size = dims_size(dims)
    nd = dims.shape[0]
    if nd > 0 and size == 0:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    for i in range(out.shape[0]):
        flat = 0
        for j in range(nd):
            k = j if fortran else nd - 1 - j
            d = dims[k]
            v = coords[k, i]
            if v < 0 or v >= d:
                if mode == 0:
                    raise ValueError("invalid entry in coordinates array")
                if mode == 1:
                    v = v % d
                elif v < 0:
                    v = 0
                else:
                    v = d - 1
            flat += v * _stride(dims, k, fortran)
        out[i] = flat
    return size


def _stride(dims, k, fortran):
    s = 1
    if fortran:
        for j in range(k):
            s *= dims[j]
    else:
        for j in range(k + 1, dims.shape[0]):
            s *= dims[j]
    return s


def _inside(i, j, k, upper):
    """Is ``(i, j)`` in ``np.tri(n, m, k)`` (lower), or out of ``tri(n, m, k - 1)``?"""
    if upper:
        return j - i > k - 1
    return j - i <= k


def tri_indices(n, m, k, upper):
    """``(rows, cols)`` of the lower (``upper``: upper) triangle in C order, as a
    ``(2, count)`` int64 array."""
    count = 0
    for i in range(n):
        for j in range(m):
            if _inside(i, j, k, upper):
                count += 1
    out = np.empty((2, count), np.int64)
    c = 0
    for i in range(n):
        for j in range(m):
            if _inside(i, j, k, upper):
                out[0, c] = i
                out[1, c] = j
                c += 1
    return out
