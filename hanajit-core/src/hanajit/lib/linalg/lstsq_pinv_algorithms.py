"""``np.linalg.lstsq`` and ``np.linalg.pinv`` as NumPy computes them, in Python
source compiled by hanajit (see ``helpers``).

``lstsq``: NumPy's ``_umath_linalg.lstsq`` copies ``a`` (``m x n``) and ``b``
(``m x nrhs``), in float64 or complex128 whatever their dtypes, into
Fortran-ordered buffers -- ``b``'s with ``max(m, n)`` rows -- asks ``?gelsd`` for
its workspace (``LWORK = -1``: the sizes of WORK, IWORK and, for ``zgelsd``,
RWORK), calls it with ``rcond``, and copies out the first ``n`` rows of ``b``'s
buffer (the solution), the singular values, the rank, and, when the rank is
``n`` and ``m >= n``, the sum of squares of each column's rows ``n:m`` (the
residuals, summed in order from zero; ``re*re + im*im`` for complex).  These
helpers take the same steps with the same functions of NumPy's own LAPACK
(``prims.lapack_*``), so the results are NumPy's bit for bit.  The integer
arguments LAPACK takes by reference live in the int64 array ``p``.

``pinv``: NumPy's Python source, step for step (``svd(full_matrices=False)``,
the cutoff, the reciprocals of the large singular values, and ``matmul`` of the
transposed views).
"""
import numpy as np

from .. import prims


def _gelsd_params(m, n, nrhs):
    p = np.empty(8, np.int64)
    p[0] = m
    p[1] = n
    p[2] = nrhs
    p[3] = max(1, m)                           # LDA
    p[4] = max(1, max(m, n))                   # LDB
    p[5] = 0                                   # RANK
    p[6] = -1                                  # LWORK: a query
    p[7] = 0                                   # INFO
    return p


def _load(a, b, aw, bw, m, n, nrhs, ldb):
    """``a`` and ``b`` into the Fortran-ordered buffers (``b``'s padding rows
    zeroed: ``?gelsd`` sets them itself; a ``b`` with no columns is one column
    of zeros, as NumPy makes it)."""
    for j in range(n):
        for i in range(m):
            aw[j * m + i] = a[i, j]
    for j in range(max(nrhs, 1)):
        for i in range(ldb):
            bw[j * ldb + i] = 0.0
    for j in range(nrhs):
        for i in range(m):
            bw[j * ldb + i] = b[i, j]


def _out(x, s_out, s, bw, n, nrhs, ldb, k):
    for i in range(n):
        for j in range(nrhs):
            x[i, j] = bw[j * ldb + i]
    for i in range(k):
        s_out[i] = s[i]


def _residuals_d(rw, bw, m, n, nrhs, ldb):
    for j in range(nrhs):
        r = 0.0
        for i in range(n, m):
            e = bw[j * ldb + i]
            r += e * e
        rw[j] = r


def _residuals_z(rw, bw, m, n, nrhs, ldb):
    for j in range(nrhs):
        r = 0.0
        for i in range(n, m):
            e = bw[j * ldb + i]
            re = e.real
            im = e.imag
            r += re * re + im * im
        rw[j] = r


def lstsq_d(a, b, x, s_out, rw, rcond):
    """``x, resids, rank, s = lstsq(a, b, rcond)`` in float64: the rank, the
    residuals (each column's, when the rank is ``n`` and ``m >= n``) in ``rw``."""
    m, n, nrhs = a.shape[0], a.shape[1], b.shape[1]
    k = min(m, n)
    p = _gelsd_params(m, n, max(nrhs, 1))
    ldb = p[4]
    aw = np.empty(max(m * n, 1), np.float64)
    bw = np.empty(ldb * max(nrhs, 1), np.float64)
    _load(a, b, aw, bw, m, n, nrhs, ldb)
    if m == 0 or n == 0:                       # ?gelsd returns at once: rank 0
        for i in range(n):
            for j in range(nrhs):
                x[i, j] = 0.0
        _residuals_d(rw, bw, m, n, nrhs, ldb)
        return 0
    s = np.empty(k, np.float64)
    rc = np.empty(1, np.float64)
    rc[0] = rcond
    query = np.zeros(1, np.float64)
    qiwork = np.zeros(1, np.int64)
    at = prims.address(p)
    prims.lapack_dgelsd(at, at + 8, at + 16, prims.address(aw), at + 24,
                        prims.address(bw), at + 32, prims.address(s), prims.address(rc),
                        at + 40, prims.address(query), at + 48, prims.address(qiwork),
                        at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    p[6] = int(query[0])
    work = np.empty(max(p[6], 1), np.float64)
    iwork = np.empty(max(qiwork[0], 1), np.int64)
    prims.lapack_dgelsd(at, at + 8, at + 16, prims.address(aw), at + 24,
                        prims.address(bw), at + 32, prims.address(s), prims.address(rc),
                        at + 40, prims.address(work), at + 48, prims.address(iwork),
                        at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    _out(x, s_out, s, bw, n, nrhs, ldb, k)
    if m >= n and p[5] == n:
        _residuals_d(rw, bw, m, n, nrhs, ldb)
    return p[5]


def lstsq_z(a, b, x, s_out, rw, rcond):
    """``lstsq_d`` in complex128 (``zgelsd``, with its RWORK)."""
    m, n, nrhs = a.shape[0], a.shape[1], b.shape[1]
    k = min(m, n)
    p = _gelsd_params(m, n, max(nrhs, 1))
    ldb = p[4]
    aw = np.empty(max(m * n, 1), np.complex128)
    bw = np.empty(ldb * max(nrhs, 1), np.complex128)
    _load(a, b, aw, bw, m, n, nrhs, ldb)
    if m == 0 or n == 0:
        for i in range(n):
            for j in range(nrhs):
                x[i, j] = 0.0
        _residuals_z(rw, bw, m, n, nrhs, ldb)
        return 0
    s = np.empty(k, np.float64)
    rc = np.empty(1, np.float64)
    rc[0] = rcond
    query = np.zeros(1, np.complex128)
    qrwork = np.zeros(1, np.float64)
    qiwork = np.zeros(1, np.int64)
    at = prims.address(p)
    prims.lapack_zgelsd(at, at + 8, at + 16, prims.address(aw), at + 24,
                        prims.address(bw), at + 32, prims.address(s), prims.address(rc),
                        at + 40, prims.address(query), at + 48, prims.address(qrwork),
                        prims.address(qiwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    p[6] = int(query[0].real)
    work = np.empty(max(p[6], 1), np.complex128)
    rwork = np.empty(max(int(qrwork[0]), 1), np.float64)
    iwork = np.empty(max(qiwork[0], 1), np.int64)
    prims.lapack_zgelsd(at, at + 8, at + 16, prims.address(aw), at + 24,
                        prims.address(bw), at + 32, prims.address(s), prims.address(rc),
                        at + 40, prims.address(work), at + 48, prims.address(rwork),
                        prims.address(iwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    _out(x, s_out, s, bw, n, nrhs, ldb, k)
    if m >= n and p[5] == n:
        _residuals_z(rw, bw, m, n, nrhs, ldb)
    return p[5]


def lstsq1_d(a, b, x, s_out, rw, rcond):
    """``lstsq_d`` of a 1-D ``b`` (NumPy's ``b[:, newaxis]``)."""
    return lstsq_d(a, b[:, np.newaxis], x[:, np.newaxis], s_out, rw, rcond)


def lstsq1_z(a, b, x, s_out, rw, rcond):
    return lstsq_z(a, b[:, np.newaxis], x[:, np.newaxis], s_out, rw, rcond)


# ``pinv``: ``rc`` is a one-element array of the cutoff's dtype (NumPy's
# ``asarray(rcond)`` times ``amax(s)``: float64 for a Python float, float32 when
# both are float32); ``proto`` an empty array of the result's dtype
def _pinv(u, s, vt, rc):
    cut = np.empty(1, rc.dtype)
    cut[0] = np.amax(s)
    cutoff = rc[0] * cut[0]
    for i in range(s.shape[0]):
        s[i] = 1 / s[i] if s[i] > cutoff else 0
    # NumPy's ``multiply(s[..., newaxis], transpose(u))`` is Fortran-ordered (its
    # iterator follows ``transpose(u)``): the transpose of this C-ordered product,
    # whose elements are the same products, so matmul hands BLAS NumPy's layouts
    return np.matmul(np.transpose(vt), np.transpose(np.multiply(u, s[np.newaxis, :])))


def _hermitian_svd(b):
    """NumPy's ``svd(b, hermitian=True)``: ``eigh``, the eigenvalues' magnitudes
    in descending ``argsort`` order, their signs moved into ``vt``
    (``transpose(u * sgn).conjugate()``: the conjugate of a transposed complex
    array is Fortran-ordered, as this transposed view of the conjugate is)."""
    s, u = np.linalg.eigh(b)
    sgn = np.copysign(1.0, s)
    s = np.abs(s)
    sidx = np.argsort(s)[::-1]
    sgn = sgn[sidx]
    s = s[sidx]
    u = u[:, sidx]
    return u, s, np.transpose(np.conjugate(u * sgn[np.newaxis, :]))


def pinv_real(a, rc, proto):
    m, n = a.shape[0], a.shape[1]
    if m == 0 or n == 0:
        return np.empty((n, m), proto.dtype)
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    return _pinv(u, s, vt, rc)


def pinv_complex(a, rc, proto):
    m, n = a.shape[0], a.shape[1]
    if m == 0 or n == 0:
        return np.empty((n, m), proto.dtype)
    u, s, vt = np.linalg.svd(np.conjugate(a), full_matrices=False)
    return _pinv(u, s, vt, rc)


def pinv_hermitian_real(a, rc, proto):
    m, n = a.shape[0], a.shape[1]
    if m == 0 or n == 0:
        return np.empty((n, m), proto.dtype)
    u, s, vt = _hermitian_svd(a)
    return _pinv(u, s, vt, rc)


def pinv_hermitian_complex(a, rc, proto):
    m, n = a.shape[0], a.shape[1]
    if m == 0 or n == 0:
        return np.empty((n, m), proto.dtype)
    u, s, vt = _hermitian_svd(np.conjugate(a))
    return _pinv(u, s, vt, rc)
