"""``np.dot``, ``@`` and ``np.vdot`` of float and complex arrays as NumPy computes
them, in Python source compiled by hanajit (see ``helpers``).

NumPy hands these products to its bundled OpenBLAS when the memory layout lets
it, and otherwise runs its own loops; the BLAS kernels add in an order of their
own (SIMD accumulators, blocked matrix products), so only the same calls give the
same bits.  These helpers repeat NumPy's decisions step by step and call the same
CBLAS functions (``prims.blas_*``, ``lib/linalg/blas.py``):

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

from .. import prims

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
    (``dot.dot`` tests the layout inline)."""
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
    """``a @ b`` of two complex vectors; one element each: the matmul loop without
    BLAS, as NumPy (``cblas_zdotu_sub`` of one element gives NaN where the plain
    product is infinite: ``(1e-4+1.3j) @ (-inf+0j)`` is ``-inf-infj``)."""
    if a.shape[0] == 0:
        return np.zeros(1, a.dtype)[0]
    if a.shape[0] == 1:
        return _loop_complex(a, b, False)
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
        # one element: NumPy's ravel gives a view with a fresh stride (BLAS takes
        # it even where the array's own stride is negative)
        return True, a.strides[0] if a.shape[0] > 1 else a.itemsize
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


# -- matrices -------------------------------------------------------------------------
# The helpers below fill ``out`` (a new C-contiguous array) and return 1, or return 0
# where NumPy runs its own loops (and for empty products); ``dot.dot`` then
# runs the same loops.  ``z`` is a zero of
# the dtype: ``0.0 + ?dot`` in the dtype, real or complex.
SCALAR = 0
COLUMN = 1
ROW = 2
MATRIX = 3


def _shape(n0, n1):
    """``_select_matrix_shape`` of a 2-D array of shape ``(n0, n1)``."""
    if n0 > 1:
        return COLUMN if n1 == 1 else MATRIX
    return SCALAR if n1 == 1 else ROW


def _c_contiguous(a):
    """NumPy's C_CONTIGUOUS flag of a 2-D array (axes of length 1 ignored)."""
    n0 = a.shape[0]
    n1 = a.shape[1]
    if n0 == 0 or n1 == 0:
        return True
    if n1 != 1 and a.strides[1] != a.itemsize:
        return False
    return n0 == 1 or a.strides[0] == a.itemsize * n1


def _f_contiguous(a):
    n0 = a.shape[0]
    n1 = a.shape[1]
    if n0 == 0 or n1 == 0:
        return True
    if n0 != 1 and a.strides[0] != a.itemsize:
        return False
    return n1 == 1 or a.strides[1] == a.itemsize * n0


def _bad2(a):
    """``_bad_strides`` of a 2-D array."""
    size = a.itemsize
    if prims.address(a) % size != 0:
        return True
    for k in range(2):
        s = a.strides[0] if k == 0 else a.strides[1]
        n = a.shape[0] if k == 0 else a.shape[1]
        if s < 0 or s % size != 0 or s == 0 and n > 1:
            return True
    return False


def _mirror(out, n):
    """The lower triangle from the upper one (after ``?syrk``)."""
    for i in range(n):
        for j in range(i + 1, n):
            out[j, i] = out[i, j]


def _zero1(out, z):
    for i in range(out.shape[0]):
        out[i] = z


def _zero2(out, z):
    for i in range(out.shape[0]):
        for j in range(out.shape[1]):
            out[i, j] = z


def c_copy(a):
    """A C-ordered copy (out of line: one copy loop per array type, however many
    places need it)."""
    return a.copy()


def _blas_copy(a):
    """matmul's copy of a matrix BLAS cannot take: Fortran order when its first
    stride is the smaller, else C order."""
    if abs(a.strides[0]) < abs(a.strides[1]):
        return a.T.copy().T
    return a.copy()


def _ld(n):
    return max(1, n)


def _gemv_np(m, trans, x_at, incx, out):
    """``gemv`` of ``cblasfuncs.c``: ``m`` is C- or F-contiguous."""
    if _c_contiguous(m):
        order = ROW_MAJOR
        lda = _ld(m.shape[1])
    else:
        order = COL_MAJOR
        lda = _ld(m.shape[0])
    prims.blas_gemv(m, order, trans, m.shape[0], m.shape[1], 1.0, prims.address(m), lda,
                    x_at, incx, 0.0, prims.address(out), 1)


def _gemv_np_any(m, trans, x_at, incx, out):
    """... after copying ``m`` in C order unless it is one segment."""
    if _c_contiguous(m) or _f_contiguous(m):
        _gemv_np(m, trans, x_at, incx, out)
    else:
        _gemv_np(c_copy(m), trans, x_at, incx, out)


def _syrk_np(m, trans, n, k, ld, out):
    """``syrk`` of ``cblasfuncs.c``: the upper triangle by BLAS, mirrored."""
    prims.blas_syrk(m, ROW_MAJOR, UPPER, trans, n, k, 1.0, prims.address(m), ld, 0.0,
                    prims.address(out), _ld(out.shape[1]))
    _mirror(out, n)


def _gemm_np(a, b, out):
    """The matrix-matrix branch of ``cblas_matrixproduct``; ``a`` and ``b`` are
    C- or F-contiguous."""
    trans1 = NO_TRANS
    trans2 = NO_TRANS
    lda = _ld(a.shape[1])
    ldb = _ld(b.shape[1])
    if _f_contiguous(a):
        trans1 = TRANS
        lda = _ld(a.shape[0])
    if _f_contiguous(b):
        trans2 = TRANS
        ldb = _ld(b.shape[0])
    if (prims.address(a) == prims.address(b) and a.shape[0] == b.shape[1]
            and a.shape[1] == b.shape[0] and a.strides[0] == b.strides[1]
            and a.strides[1] == b.strides[0] and (trans1 == TRANS) != (trans2 == TRANS)):
        if trans1 == NO_TRANS:
            _syrk_np(a, trans1, b.shape[1], b.shape[0], lda, out)
        else:
            _syrk_np(b, trans1, b.shape[1], b.shape[0], ldb, out)
        return
    prims.blas_gemm(a, ROW_MAJOR, trans1, trans2, a.shape[0], b.shape[1], b.shape[0], 1.0,
                    prims.address(a), lda, prims.address(b), ldb, 0.0, prims.address(out),
                    _ld(out.shape[1]))


def _gemm_np_any(a, b, out):
    """... copying (C order) a matrix that is neither C- nor F-contiguous."""
    ca = _c_contiguous(a) or _f_contiguous(a)
    cb = _c_contiguous(b) or _f_contiguous(b)
    if ca and cb:
        _gemm_np(a, b, out)
    elif ca:
        _gemm_np(a, c_copy(b), out)
    elif cb:
        _gemm_np(c_copy(a), b, out)
    else:
        _gemm_np(c_copy(a), c_copy(b), out)


def _np_dot_mm(a, b, out, z):
    """``cblas_matrixproduct`` of two matrices without bad strides."""
    n0 = a.shape[0]
    m = a.shape[1]
    n1 = b.shape[1]
    s1 = _shape(n0, m)
    s2 = _shape(m, n1)
    if n0 * n1 == 0 or m == 0:
        return 0
    if s1 == SCALAR or s2 == SCALAR:
        if n0 == 1 and m == 1 and n1 == 1:
            out[0, 0] = a[0, 0] * b[0, 0]        # scalar times scalar
            return 1
        _zero2(out, z)        # ?axpy of the other operand, times the scalar, into 0
        size = a.itemsize
        if s2 == SCALAR:
            prims.blas_axpy(a, n0, b[0, 0], prims.address(a), a.strides[0] // size,
                            prims.address(out), 1)
        else:
            prims.blas_axpy(a, n1, a[0, 0], prims.address(b), b.strides[1] // size,
                            prims.address(out), 1)
        return 1
    if s2 == COLUMN and s1 != MATRIX:
        size = a.itemsize
        out[0, 0] = prims.blas_dot(a, m, prims.address(a), a.strides[1] // size,
                                   prims.address(b), b.strides[0] // size) + z
        return 1
    if s1 == MATRIX and s2 != MATRIX:
        _gemv_np_any(a, NO_TRANS, prims.address(b), b.strides[0] // b.itemsize, out)
        return 1
    if s1 != MATRIX and s2 == MATRIX:
        _gemv_np_any(b, TRANS, prims.address(a), a.strides[1] // a.itemsize, out)
        return 1
    _gemm_np_any(a, b, out)
    return 1


def np_dot_mm(a, b, out, z):
    """``np.dot(a, b)`` of two matrices of one BLAS dtype into ``out``."""
    bad_a = _bad2(a)
    bad_b = _bad2(b)
    if bad_a and bad_b:
        return _np_dot_mm(c_copy(a), c_copy(b), out, z)
    if bad_a:
        return _np_dot_mm(c_copy(a), b, out, z)
    if bad_b:
        return _np_dot_mm(a, c_copy(b), out, z)
    return _np_dot_mm(a, b, out, z)


def _np_dot_mv(a, v, out, z):
    n0 = a.shape[0]
    m = a.shape[1]
    if n0 == 0 or m == 0:
        return 0
    if m == 1:                       # v is a scalar
        if n0 == 1:
            out[0] = a[0, 0] * v[0]
            return 1
        _zero1(out, z)
        prims.blas_axpy(a, n0, v[0], prims.address(a), a.strides[0] // a.itemsize,
                        prims.address(out), 1)
        return 1
    if n0 == 1:                      # a row: ?dot
        size = a.itemsize
        out[0] = prims.blas_dot(a, m, prims.address(a), a.strides[1] // size,
                                prims.address(v), v.strides[0] // size) + z
        return 1
    _gemv_np_any(a, NO_TRANS, prims.address(v), v.strides[0] // v.itemsize, out)
    return 1


def np_dot_mv(a, v, out, z):
    """``np.dot(a, v)`` of a matrix and a vector of one BLAS dtype into ``out``."""
    bad_a = _bad2(a)
    bad_v = _bad1(v)
    if bad_a and bad_v:
        return _np_dot_mv(c_copy(a), c_copy(v), out, z)
    if bad_a:
        return _np_dot_mv(c_copy(a), v, out, z)
    if bad_v:
        return _np_dot_mv(a, c_copy(v), out, z)
    return _np_dot_mv(a, v, out, z)


def _np_dot_vm(v, b, out, z):
    m = b.shape[0]
    n1 = b.shape[1]
    if n1 == 0 or m == 0:
        return 0
    if m == 1:                       # v is a scalar
        if n1 == 1:
            out[0] = v[0] * b[0, 0]
            return 1
        _zero1(out, z)
        prims.blas_axpy(b, n1, v[0], prims.address(b), b.strides[1] // b.itemsize,
                        prims.address(out), 1)
        return 1
    if n1 == 1:                      # b a column: ?dot
        size = b.itemsize
        out[0] = prims.blas_dot(b, m, prims.address(v), v.strides[0] // size,
                                prims.address(b), b.strides[0] // size) + z
        return 1
    _gemv_np_any(b, TRANS, prims.address(v), v.strides[0] // v.itemsize, out)
    return 1


def np_dot_vm(v, b, out, z):
    """``np.dot(v, b)`` of a vector and a matrix of one BLAS dtype into ``out``."""
    bad_v = _bad1(v)
    bad_b = _bad2(b)
    if bad_v and bad_b:
        return _np_dot_vm(c_copy(v), c_copy(b), out, z)
    if bad_v:
        return _np_dot_vm(c_copy(v), b, out, z)
    if bad_b:
        return _np_dot_vm(v, c_copy(b), out, z)
    return _np_dot_vm(v, b, out, z)


# -- @ (umath/matmul.c.src) -------------------------------------------------------------
def blasable(s1, s2, d1, d2, size):
    """``is_blasable2d``: the second axis contiguous, the first a multiple of the
    item size no shorter than the second axis."""
    if s2 != size or s1 % size != 0:
        return False
    return s1 // size >= d2


def _gemv_mm(w, p1, s1_m, s1_n, p2, s2_n, po, so_m, m, n):
    """``@name@_gemv`` of the matmul loop."""
    size = w.itemsize
    if blasable(s1_m, s1_n, m, n, size):
        order = COL_MAJOR
        lda = s1_m // size
    else:
        order = ROW_MAJOR
        lda = s1_n // size
    prims.blas_gemv(w, order, TRANS, n, m, 1.0, p1, lda, p2, s2_n // size, 0.0, po,
                    so_m // size)


def blas_operand(s1, s2, d1, d2, size):
    """``(trans, leading dimension)`` with which BLAS reads the ``d1 x d2`` matrix
    of byte strides ``s1``, ``s2``: as it is where that is blasable, else as its
    transpose; ``(0, 0)`` where neither is."""
    if blasable(s1, s2, d1, d2, size):
        return NO_TRANS, s1 // size
    if blasable(s2, s1, d2, d1, size):
        return TRANS, s2 // size
    return 0, 0


def _matrixmatrix(w, out, p1, s1_m, s1_n, p2, s2_n, s2_p, m, n, p):
    """``@name@_matmul_matrixmatrix`` into the C-contiguous ``out`` (both
    operands blasable one way or the other)."""
    size = w.itemsize
    ldc = p
    trans1, lda = blas_operand(s1_m, s1_n, m, n, size)
    trans2, ldb = blas_operand(s2_n, s2_p, n, p, size)
    if p1 == p2 and m == p and s1_m == s2_p and s1_n == s2_n and trans1 != trans2:
        ld = lda if trans1 == NO_TRANS else ldb
        prims.blas_syrk(w, ROW_MAJOR, UPPER, trans1, p, n, 1.0, p1, ld, 0.0,
                        prims.address(out), ldc)
        _mirror(out, p)
        return
    prims.blas_gemm(w, ROW_MAJOR, trans1, trans2, m, p, n, 1.0, p1, lda, p2, ldb, 0.0,
                    prims.address(out), ldc)


def _matmul_mm_copies(a, b, out, ok1, ok2):
    """The matrix-matrix case with NumPy's copies of operands BLAS cannot take."""
    m = a.shape[0]
    n = a.shape[1]
    p = b.shape[1]
    if ok1 and ok2:
        _matrixmatrix(a, out, prims.address(a), a.strides[0], a.strides[1],
                      prims.address(b), b.strides[0], b.strides[1], m, n, p)
    elif ok1:
        cb = _blas_copy(b)
        _matrixmatrix(a, out, prims.address(a), a.strides[0], a.strides[1],
                      prims.address(cb), cb.strides[0], cb.strides[1], m, n, p)
    elif ok2:
        ca = _blas_copy(a)
        _matrixmatrix(a, out, prims.address(ca), ca.strides[0], ca.strides[1],
                      prims.address(b), b.strides[0], b.strides[1], m, n, p)
    else:
        ca = _blas_copy(a)
        cb = _blas_copy(b)
        _matrixmatrix(a, out, prims.address(ca), ca.strides[0], ca.strides[1],
                      prims.address(cb), cb.strides[0], cb.strides[1], m, n, p)


def matmul_mm(a, b, out, z):
    """``a @ b`` of two matrices of one BLAS dtype into ``out`` (the matmul loop)."""
    m = a.shape[0]
    n = a.shape[1]
    p = b.shape[1]
    size = a.itemsize
    if m == 0 or n == 0 or p == 0:
        return 0
    s1_m = a.strides[0]
    s1_n = a.strides[1]
    s2_n = b.strides[0]
    s2_p = b.strides[1]
    ok1 = blasable(s1_m, s1_n, m, n, size) or blasable(s1_n, s1_m, n, m, size)
    ok2 = blasable(s2_n, s2_p, n, p, size) or blasable(s2_p, s2_n, p, n, size)
    if m == 1 or n == 1 or p == 1:
        if m == 1 and p == 1:                # row @ column: @name@_dot
            b1 = _blas_stride(s1_n, size)
            b2 = _blas_stride(s2_n, size)
            if b1 != 0 and b2 != 0:
                out[0, 0] = prims.blas_dot(a, n, prims.address(a), b1, prims.address(b),
                                           b2) + z
                return 1
            return 0
        if n == 1:
            return 0
        if m == 1 and ok2 and blasable(s1_n, size, n, 1, size):
            _gemv_mm(a, prims.address(b), s2_p, s2_n, prims.address(a), s1_n,
                     prims.address(out), size, p, n)
            return 1
        if p == 1 and ok1 and blasable(s2_n, size, n, 1, size):
            _gemv_mm(a, prims.address(a), s1_m, s1_n, prims.address(b), s2_n,
                     prims.address(out), size, m, n)
            return 1
        return 0
    _matmul_mm_copies(a, b, out, ok1, ok2)
    return 1


def _matvec(w, out, z, pm, s_outer, s_inner, outer, inner, pv, sv, vector_first):
    """The matmul loop for a matrix (``outer x inner`` at ``pm``, byte strides
    ``s_outer``, ``s_inner``) and a vector (at ``pv``, stride ``sv``): ``@name@_dot``
    for a single output (its operands in the order of ``@``), ``@name@_gemv``
    where both layouts are blasable, NumPy's loops (0) otherwise."""
    size = w.itemsize
    if outer == 0 or inner == 0:
        return 0
    if outer == 1:
        bm = _blas_stride(s_inner, size)
        bv = _blas_stride(sv, size)
        if bm == 0 or bv == 0:
            return 0
        if vector_first:
            out[0] = prims.blas_dot(w, inner, pv, bv, pm, bm) + z
        else:
            out[0] = prims.blas_dot(w, inner, pm, bm, pv, bv) + z
        return 1
    if inner == 1:
        return 0
    if (blasable(s_outer, s_inner, outer, inner, size)
            or blasable(s_inner, s_outer, inner, outer, size)) \
            and blasable(sv, size, inner, 1, size):
        _gemv_mm(w, pm, s_outer, s_inner, pv, sv, prims.address(out), size, outer, inner)
        return 1
    return 0


def matmul_mv(a, v, out, z):
    """``a @ v``: NumPy treats ``v`` as an ``(n, 1)`` matrix."""
    return _matvec(a, out, z, prims.address(a), a.strides[0], a.strides[1], a.shape[0],
                   a.shape[1], prims.address(v), v.strides[0], False)


def matmul_vm(v, b, out, z):
    """``v @ b``: NumPy treats ``v`` as a ``(1, n)`` matrix (``b`` acts transposed)."""
    return _matvec(b, out, z, prims.address(b), b.strides[1], b.strides[0], b.shape[1],
                   b.shape[0], prims.address(v), v.strides[0], True)


# BLAS does the work: the dispatch is compiled without optimisation and not
# inlined (pipeline.py, ``hj_compact``); the inline vector path (``dot_at``), NumPy's
# own loops, and the copy, zero and mirror loops are optimised as usual
for _name, _f in list(globals().items()):
    if callable(_f) and getattr(_f, "__module__", None) == __name__ and _name not in (
            "dot_at", "dot_at_complex", "_loop_real", "_loop_complex", "_blas_stride",
            "_mirror", "_zero1", "_zero2", "c_copy", "_blas_copy"):
        _f.hj_compact = True



# ---- np.linalg.norm's fast path: sqrt(x.dot(x)) of x.ravel(order='K') --------------
# (``statistics/var_std_norm`` makes the contiguous 1-D ``f``: NumPy's ravel)

def norm_dot_real(f):
    """``np.linalg.norm`` of float32 or float64 data as NumPy computes it:
    ``sqrt(f.dot(f))`` -- a BLAS dot, whose order of additions is BLAS's."""
    return np.sqrt(np_dot_vv_real(f, f))


def norm_dot_int(f):
    """``norm_dot_real`` of ``f.astype(float)`` (NumPy's first step for integers
    and booleans)."""
    g = f.astype(np.float64)
    return np.sqrt(np_dot_vv_real(g, g))


def norm_dot_complex(f):
    """``sqrt(f.real.dot(f.real) + f.imag.dot(f.imag))``: two BLAS dots over every
    second float."""
    re = f.real
    im = f.imag
    return np.sqrt(np_dot_vv_real(re, re) + np_dot_vv_real(im, im))
