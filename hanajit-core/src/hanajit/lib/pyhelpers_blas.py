"""``np.dot``, ``@`` and ``np.vdot`` of float and complex arrays as NumPy computes
them, in Python source compiled by hanajit (see ``pyhelpers``).

NumPy hands these products to its bundled OpenBLAS when the memory layout lets
it, and otherwise runs its own loops; the BLAS kernels add in an order of their
own (SIMD accumulators, blocked matrix products), so only the same calls give the
same bits.  These helpers repeat NumPy's decisions step by step and call the same
CBLAS functions (``prims.blas_*``, ``lib/np_blas.py``):

* vectors: ``@name@_dot`` of ``numpy/_core/src/multiarray/arraytypes.c.src`` --
  ``0.0 + cblas_?dot`` when both strides are positive multiples of the item size
  (``blas_stride``), a sequential sum otherwise; ``np.dot`` first copies arrays
  with negative, zero or odd strides (``_bad_strides`` in ``cblasfuncs.c``) and
  multiplies single elements directly; ``np.vdot`` flattens and calls
  ``cblas_?dotc_sub`` (``vdot.c``).
* matrices: ``gemm``/``syrk`` as ``cblas_matrixproduct`` (``np.dot``) and the
  matmul loop (``umath/matmul.c.src``, ``@``) call them, with their copies of
  layouts BLAS cannot take.
"""
import numpy as np

from . import prims

ROW_MAJOR = 101
COL_MAJOR = 102
NO_TRANS = 111
TRANS = 112
UPPER = 121


def _blas_stride(stride, size):
    """NumPy's ``blas_stride``: the stride in items, or 0 when BLAS cannot take it."""
    if stride > 0 and stride % size == 0:
        return stride // size
    return 0


def _bad1(a):
    """``_bad_strides`` of a 1-D array (misaligned, negative, odd or zero stride)."""
    size = a.itemsize
    s = a.strides[0]
    return (prims.address(a) % size != 0 or s < 0 or s % size != 0
            or s == 0 and a.shape[0] > 1)


# -- vectors ------------------------------------------------------------------------
def dot_at(z, n, pa, sa, pb, sb):
    """``0.0 + cblas_?dot`` of the vectors at addresses ``pa``, ``pb`` with
    strides ``sa``, ``sb`` in items, in the dtype of the number ``z``: the
    product of two vectors whose layout BLAS takes, without touching the arrays
    (``array_ops.dot`` tests the layout inline)."""
    return prims.blas_dot(z, n, pa, sa, pb, sb) + 0.0


def dot_at_complex(z, n, pa, sa, pb, sb):
    return prims.blas_dot(z, n, pa, sa, pb, sb) + 0j


def _dot_real(a, b, sa, sb):
    """The BLAS branch of ``@name@_dot``: ``0.0 + cblas_?dot(n, a, sa, b, sb)``."""
    return prims.blas_dot(a, a.shape[0], prims.address(a), sa, prims.address(b), sb) + 0.0


def _dot_complex(a, b, sa, sb, conj):
    """``cblas_?dotu_sub`` (``?dotc_sub`` with ``conj``), each part added to 0.0."""
    if conj:
        return prims.blas_dotc(a, a.shape[0], prims.address(a), sa, prims.address(b),
                               sb) + 0j
    return prims.blas_dot(a, a.shape[0], prims.address(a), sa, prims.address(b), sb) + 0j


def _loop_real(a, b):
    s = np.zeros(1, a.dtype)[0]
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def _loop_complex(a, b, conj):
    z = np.zeros(1, a.dtype)
    re = z.real[0]
    im = z.imag[0]
    for i in range(a.shape[0]):
        x = a[i]
        y = b[i]
        if conj:
            re += x.real * y.real + x.imag * y.imag
            im += x.real * y.imag - x.imag * y.real
        else:
            re += x.real * y.real - x.imag * y.imag
            im += x.real * y.imag + x.imag * y.real
    z[0] = complex(re, im)
    return z[0]


def strided_dot_real(a, b):
    """``@name@_dot`` on the arrays' own strides: ``@`` of two vectors, and
    ``np.vdot`` of real ones."""
    size = a.itemsize
    sa = _blas_stride(a.strides[0], size)
    sb = _blas_stride(b.strides[0], size)
    if sa != 0 and sb != 0:
        return _dot_real(a, b, sa, sb)
    return _loop_real(a, b)


def strided_dot_complex(a, b, conj):
    """``@name@_dot`` (``@name@_vdot`` with ``conj``) of complex vectors."""
    size = a.itemsize
    sa = _blas_stride(a.strides[0], size)
    sb = _blas_stride(b.strides[0], size)
    if sa != 0 and sb != 0:
        return _dot_complex(a, b, sa, sb, conj)
    return _loop_complex(a, b, conj)


def matmul_vv_real(a, b):
    """``a @ b`` of two real vectors of one BLAS dtype (the matmul loop's
    ``scalar_out`` case; no elements: its loop without BLAS, 0)."""
    if a.shape[0] == 0:
        return np.zeros(1, a.dtype)[0]
    return strided_dot_real(a, b)


def matmul_vv_complex(a, b):
    if a.shape[0] == 0:
        return np.zeros(1, a.dtype)[0]
    return strided_dot_complex(a, b, False)


def np_dot_vv_real(a, b):
    """``np.dot(a, b)`` of two real vectors of one BLAS dtype
    (``cblas_matrixproduct``: one element each is a scalar product, arrays with
    bad strides are copied first)."""
    n = a.shape[0]
    if n == 0:
        return np.zeros(1, a.dtype)[0]
    if n == 1:
        return b[0] * a[0]
    bad_a = _bad1(a)
    bad_b = _bad1(b)
    if bad_a and bad_b:
        return strided_dot_real(a.copy(), b.copy())
    if bad_a:
        return strided_dot_real(a.copy(), b)
    if bad_b:
        return strided_dot_real(a, b.copy())
    return strided_dot_real(a, b)


def np_dot_vv_complex(a, b):
    n = a.shape[0]
    z = np.zeros(1, a.dtype)
    if n == 0:
        return z[0]
    if n == 1:
        x = a[0]
        y = b[0]
        z[0] = complex(x.real * y.real - x.imag * y.imag, x.real * y.imag + x.imag * y.real)
        return z[0]
    bad_a = _bad1(a)
    bad_b = _bad1(b)
    if bad_a and bad_b:
        return strided_dot_complex(a.copy(), b.copy(), False)
    if bad_a:
        return strided_dot_complex(a.copy(), b, False)
    if bad_b:
        return strided_dot_complex(a, b.copy(), False)
    return strided_dot_complex(a, b, False)


def _flat_view(a):
    """Would NumPy's ``a.reshape(-1)`` be a view, and with which byte stride?
    (``_attempt_nocopy_reshape`` for 1-D and 2-D arrays, and C-contiguous ones of
    more dimensions; a copy is contiguous.)"""
    if a.ndim == 1:
        return True, a.strides[0]
    if a.ndim > 2:          # (C-contiguous: np.vdot refuses other layouts here)
        return True, a.itemsize
    n0 = a.shape[0]
    n1 = a.shape[a.ndim - 1]
    s0 = a.strides[0]
    s1 = a.strides[a.ndim - 1]
    if n0 * n1 <= 1:
        return True, a.itemsize
    if n0 == 1:
        return True, s1
    if n1 == 1:
        return True, s0
    if s0 == s1 * n1:
        return True, s1
    return False, a.itemsize


def _vdot_at_real(x, y, sx, sy):
    """NumPy's ``vdot`` loop on the flattened ``x`` and ``y`` whose elements are
    ``sx``, ``sy`` bytes apart: ``cblas_?dot`` when BLAS takes the strides, the
    products in order otherwise."""
    size = x.itemsize
    bx = _blas_stride(sx, size)
    by = _blas_stride(sy, size)
    if bx != 0 and by != 0:
        return prims.blas_dot(x, x.size, prims.address(x), bx, prims.address(y), by) + 0.0
    return _loop_real(x.ravel(), y.ravel())


def _vdot_at_complex(x, y, sx, sy):
    size = x.itemsize
    bx = _blas_stride(sx, size)
    by = _blas_stride(sy, size)
    if bx != 0 and by != 0:
        return prims.blas_dotc(x, x.size, prims.address(x), bx, prims.address(y), by) + 0j
    return _loop_complex(x.ravel(), y.ravel(), True)


def vdot_real(a, b):
    """``np.vdot(a, b)`` of two 1-D or 2-D real arrays of one BLAS dtype:
    flattened in C order (a view where NumPy's reshape gives one, else a
    contiguous copy)."""
    va, sa = _flat_view(a)
    vb, sb = _flat_view(b)
    if va and vb:
        return _vdot_at_real(a, b, sa, sb)
    if va:
        cb = b.ravel()
        return _vdot_at_real(a, cb, sa, cb.itemsize)
    ca = a.ravel()
    if vb:
        return _vdot_at_real(ca, b, ca.itemsize, sb)
    cb = b.ravel()
    return _vdot_at_real(ca, cb, ca.itemsize, cb.itemsize)


def vdot_complex(a, b):
    va, sa = _flat_view(a)
    vb, sb = _flat_view(b)
    if va and vb:
        return _vdot_at_complex(a, b, sa, sb)
    if va:
        cb = b.ravel()
        return _vdot_at_complex(a, cb, sa, cb.itemsize)
    ca = a.ravel()
    if vb:
        return _vdot_at_complex(ca, b, ca.itemsize, sb)
    cb = b.ravel()
    return _vdot_at_complex(ca, cb, ca.itemsize, cb.itemsize)


def vdot_int(a, b):
    """``np.vdot`` of integer arrays: the products added in C order in 64 bits
    (NumPy's ``long`` accumulator; int64 wraps)."""
    x = a.ravel()
    y = b.ravel()
    s = 0
    for i in range(x.shape[0]):
        s += int(x[i]) * int(y[i])
    return s


def vdot_loop_real(a, b):
    """``np.vdot`` without BLAS (targets other than the CPU): NumPy's own loop."""
    return _loop_real(a.ravel(), b.ravel())


def vdot_loop_complex(a, b):
    return _loop_complex(a.ravel(), b.ravel(), True)
