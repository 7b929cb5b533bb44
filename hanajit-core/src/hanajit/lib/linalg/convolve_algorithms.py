"""``np.convolve`` and ``np.correlate`` as NumPy computes them
(``_pyarray_correlate`` in ``numpy/_core/src/multiarray/multiarraymodule.c``), in
Python source compiled by hanajit (see ``helpers``): each output a BLAS dot
product of the overlap (``prims.blas_dot``), the full overlaps of real kernels of
up to 11 taps as ``small_correlate``'s plain sums.  Templates: ``convolve``.
"""
import numpy as np

from .. import prims
from .dot_algorithms import c_copy


def _correlate_into(x, k, out, z, mode, small):
    """``_pyarray_correlate`` of the contiguous ``x`` (the longer) and ``k``: each
    output a ``@name@_dot`` of the overlap (``cblas_?dot``, strides of one item),
    the full overlaps of a kernel of at most 11 taps as ``small_correlate``'s
    plain sums (``small``: real floats) ; ``mode`` 0 valid, 1 same, 2 full."""
    n1 = x.shape[0]
    n = k.shape[0]
    size = x.itemsize
    px = prims.address(x)
    pk = prims.address(k)
    n_left = 0
    n_right = 0
    if mode == 1:
        n_left = n // 2
        n_right = n - n_left - 1
    elif mode == 2:
        n_left = n - 1
        n_right = n - 1
    i1 = 0
    i2 = n_left
    m = n - n_left
    o = 0
    for _ in range(n_left):
        out[o] = prims.blas_dot(z, m, px + i1 * size, 1, pk + i2 * size, 1) + z
        m += 1
        i2 -= 1
        o += 1
    if small and n <= 11:
        for i in range(n1 - n + 1):
            s = z
            for j in range(n):
                s += x[i1 + i + j] * k[i2 + j]
            out[o + i] = s
        i1 += n1 - n + 1
        o += n1 - n + 1
    else:
        for _ in range(n1 - n + 1):
            out[o] = prims.blas_dot(z, m, px + i1 * size, 1, pk + i2 * size, 1) + z
            i1 += 1
            o += 1
    for _ in range(n_right):
        m -= 1
        out[o] = prims.blas_dot(z, m, px + i1 * size, 1, pk + i2 * size, 1) + z
        i1 += 1
        o += 1


def correlate_length(n1, n2, mode):
    """The output length of ``np.correlate`` / ``np.convolve`` in ``mode`` (0:
    valid, 1: same, 2: full)."""
    if mode == 0:
        return n1 - n2 + 1
    if mode == 1:
        return n1
    return n1 + n2 - 1


def convolve(a, v, out, z, mode, small):
    """``np.convolve(a, v, mode)`` of vectors of one BLAS dtype into ``out``
    (``correlate(a, v[::-1])`` with the longer first; both as contiguous copies,
    as ``PyArray_FromAny`` makes them)."""
    if a.shape[0] >= v.shape[0]:
        _correlate_into(c_copy(a), v[::-1].copy(), out, z, mode, small)
    else:
        _correlate_into(c_copy(v), a[::-1].copy(), out, z, mode, small)


def correlate(a, v, out, z, mode, small):
    """``np.correlate(a, v, mode)`` (``PyArray_Correlate2``): ``v`` conjugated, then
    a longer (conjugated) ``v`` goes first and the result is reversed."""
    if a.shape[0] >= v.shape[0]:
        _correlate_into(c_copy(a), np.conj(v), out, z, mode, small)
    else:
        _correlate_into(np.conj(v), c_copy(a), out, z, mode, small)
        n = out.shape[0]
        for i in range(n // 2):
            t = out[i]
            out[i] = out[n - 1 - i]
            out[n - 1 - i] = t


for _f in (convolve, correlate, correlate_length):
    _f.hj_compact = True        # dispatch only (pipeline.py)
