"""``np.linalg.solve``, ``inv`` and ``det`` as NumPy computes them, in Python source
compiled by hanajit (see ``helpers``).

NumPy's ``_umath_linalg`` copies the matrix, in float64 or complex128 whatever
its dtype, into a Fortran-ordered buffer, calls LAPACK's ``?gesv`` (solve, and
inv with the identity as right-hand side) or ``?getrf`` (det), and copies the
result out; det is ``sign * exp(sum(log|u_ii|))`` from the LU factors.  These
helpers do the same steps and call the same functions of NumPy's own LAPACK
(``prims.lapack_*``, ``lib/linalg/lapack.py``), so the results are NumPy's bit for bit.
The integer arguments LAPACK takes by reference (sizes, leading dimensions, the
``info`` result) live in a small int64 array ``p``.
"""
import numpy as np

from .. import prims


def _columns(a, w, n, m):
    """``a`` (``n x m``) into ``w`` column after column (Fortran order)."""
    for j in range(m):
        for i in range(n):
            w[j * n + i] = a[i, j]


def _column(b, w, n):
    for i in range(n):
        w[i] = b[i]


def _sizes(n, nrhs):
    """``p``: N, NRHS, LDA, LDB and INFO for ``?gesv``."""
    p = np.empty(5, np.int64)
    p[0] = n
    p[1] = nrhs
    p[2] = max(n, 1)
    p[3] = max(n, 1)
    p[4] = 0
    return p


def _gesv(w, bw, n, nrhs):
    """LAPACK ``dgesv`` (``zgesv`` for complex ``w``) on the Fortran-ordered ``w``
    and ``bw``: True when ``w`` is singular (``info > 0``)."""
    p = _sizes(n, nrhs)
    ipiv = np.empty(max(n, 1), np.int64)
    at = prims.address(p)
    prims.lapack_gesv(w, at, at + 8, prims.address(w), at + 16, prims.address(ipiv),
                      prims.address(bw), at + 24, at + 32)
    return p[4] != 0


def _out(x, bw, n, k):
    for i in range(n):
        for j in range(k):
            x[i, j] = bw[j * n + i]


def _out1(x, bw, n):
    for i in range(n):
        x[i] = bw[i]


def _identity(bw, n):
    for i in range(n * n):
        bw[i] = 0.0
    for i in range(n):
        bw[i * n + i] = 1.0


# ``x = solve(a, b)``: ``w`` (n*n) and ``bw`` (the right-hand sides) are work
# arrays of float64 or complex128 made by the caller
def solve1(a, b, x, w, bw):
    n = a.shape[0]
    _columns(a, w, n, n)
    _column(b, bw, n)
    if _gesv(w, bw, n, 1):
        raise np.linalg.LinAlgError("Singular matrix")
    _out1(x, bw, n)


def solve(a, b, x, w, bw):
    n, k = b.shape[0], b.shape[1]
    _columns(a, w, n, n)
    _columns(b, bw, n, k)
    if _gesv(w, bw, n, k):
        raise np.linalg.LinAlgError("Singular matrix")
    _out(x, bw, n, k)


def inv(a, x, w, bw):
    """``x = inv(a)``: ``?gesv`` with the identity as the right-hand sides."""
    n = a.shape[0]
    _columns(a, w, n, n)
    _identity(bw, n)
    if _gesv(w, bw, n, n):
        raise np.linalg.LinAlgError("Singular matrix")
    _out(x, bw, n, n)


def _getrf(w, n, ipiv):
    """LAPACK ``?getrf`` of the Fortran-ordered ``w`` in place: its ``info``."""
    p = np.empty(3, np.int64)
    p[0] = n
    p[1] = max(n, 1)
    p[2] = 0
    at = prims.address(p)
    prims.lapack_getrf(w, at, at, prims.address(w), at + 8, prims.address(ipiv), at + 16)
    return p[2]


def _odd_permutation(ipiv, n):
    change = 0
    for i in range(n):
        if ipiv[i] != i + 1:                 # Fortran's 1-based pivots
            change += 1
    return change % 2 == 1


def det_d(a, w):
    """NumPy's ``det`` of a real square matrix, in float64 (``w``: n*n work):
    ``sign * exp(logdet)`` with ``logdet`` the sum of ``log|u_ii|`` in order (0.0
    when singular: sign 0 times ``exp(-inf)``)."""
    n = a.shape[0]
    _columns(a, w, n, n)
    ipiv = np.empty(max(n, 1), np.int64)
    if _getrf(w, n, ipiv) != 0:
        return 0.0
    sign = -1.0 if _odd_permutation(ipiv, n) else 1.0
    logdet = 0.0
    for i in range(n):
        e = w[i * (n + 1)]
        if e < 0.0:
            sign = -sign
            e = -e
        logdet += prims.log(e)
    return sign * prims.exp(logdet)


def det_z(a, w):
    """NumPy's ``det`` of a complex square matrix, in complex128 (``w``: n*n
    work): the product of ``u_ii / |u_ii|`` (and the permutation's sign) times
    ``exp(sum(log|u_ii|))``, each complex product as NumPy's ``mult`` rounds it."""
    n = a.shape[0]
    _columns(a, w, n, n)
    ipiv = np.empty(max(n, 1), np.int64)
    if _getrf(w, n, ipiv) != 0:
        sr = 0.0
        si = 0.0
        logdet = -np.inf
    else:
        sr = -1.0 if _odd_permutation(ipiv, n) else 1.0
        si = 0.0
        logdet = 0.0
        for i in range(n):
            e = w[i * (n + 1)]
            m = prims.hypot(e.real, e.imag)
            er = prims.fdiv(e.real, m)
            ei = prims.fdiv(e.imag, m)
            sr, si = sr * er - si * ei, sr * ei + si * er
            logdet += prims.log(m)
    t = prims.exp(logdet)
    return complex(sr * t - si * 0.0, sr * 0.0 + si * t)


# ``x = cholesky(a)``: ``?potrf`` on the Fortran-ordered copy, the other triangle
# zeroed as NumPy's ``zero_upper/lower_triangular_matrix`` do; ``uplo`` is the
# character code of ``L`` (76) or ``U`` (85)
def _potrf(w, n, uplo):
    p = np.empty(4, np.int64)
    p[0] = uplo
    p[1] = n
    p[2] = max(n, 1)
    p[3] = 0
    at = prims.address(p)
    prims.lapack_potrf(w, at, at + 8, prims.address(w), at + 16, at + 24)
    return p[3] != 0


def _triangle_out(x, w, n, uplo):
    for i in range(n):
        for j in range(n):
            keep = j <= i if uplo == 76 else j >= i        # (i, j): row, column
            x[i, j] = w[j * n + i] if keep else 0.0


def cholesky(a, x, w, uplo):
    n = a.shape[0]
    _columns(a, w, n, n)
    if _potrf(w, n, uplo):
        raise np.linalg.LinAlgError("Matrix is not positive definite")
    _triangle_out(x, w, n, uplo)


# ``x = eigvalsh(a)``: ``?syevd`` / ``?heevd`` with ``JOBZ='N'`` (78), after a
# workspace query as NumPy's ``init_evd`` makes it (the sizes LAPACK asks for)
def syevd(w, n, jobz, uplo, ev):
    """``?syevd`` of the float64 ``n x n`` Fortran-ordered ``w`` after NumPy's
    workspace query: the eigenvalues into ``ev`` (``max(n, 1)`` items), the
    eigenvectors into ``w`` when ``jobz`` is ``ord('V')``; NumPy's LinAlgError."""
    p = np.empty(8, np.int64)
    p[0] = jobz
    p[1] = uplo
    p[2] = n
    p[3] = max(n, 1)                           # LDA
    p[4] = -1                                  # LWORK, LIWORK: a query
    p[5] = -1
    p[6] = 0                                   # INFO
    qwork = np.zeros(1, np.float64)
    qiwork = np.zeros(1, np.int64)
    at = prims.address(p)
    prims.lapack_dsyevd(at, at + 8, at + 16, prims.address(w), at + 24,
                        prims.address(ev), prims.address(qwork), at + 32,
                        prims.address(qiwork), at + 40, at + 48)
    if p[6] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    p[4] = int(qwork[0])
    p[5] = qiwork[0]
    work = np.empty(max(p[4], 1), np.float64)
    iwork = np.empty(max(p[5], 1), np.int64)
    prims.lapack_dsyevd(at, at + 8, at + 16, prims.address(w), at + 24,
                        prims.address(ev), prims.address(work), at + 32,
                        prims.address(iwork), at + 40, at + 48)
    if p[6] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")


def heevd(w, n, jobz, uplo, ev):
    """:func:`syevd` with ``?heevd`` of the complex128 ``w``."""
    p = np.empty(9, np.int64)
    p[0] = jobz
    p[1] = uplo
    p[2] = n
    p[3] = max(n, 1)
    p[4] = -1                                  # LWORK, LRWORK, LIWORK: a query
    p[5] = -1
    p[6] = -1
    p[7] = 0                                   # INFO
    qwork = np.zeros(1, np.complex128)
    qrwork = np.zeros(1, np.float64)
    qiwork = np.zeros(1, np.int64)
    at = prims.address(p)
    prims.lapack_zheevd(at, at + 8, at + 16, prims.address(w), at + 24,
                        prims.address(ev), prims.address(qwork), at + 32,
                        prims.address(qrwork), at + 40, prims.address(qiwork), at + 48,
                        at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    p[4] = int(qwork[0].real)
    p[5] = int(qrwork[0])
    p[6] = qiwork[0]
    work = np.empty(max(p[4], 1), np.complex128)
    rwork = np.empty(max(p[5], 1), np.float64)
    iwork = np.empty(max(p[6], 1), np.int64)
    prims.lapack_zheevd(at, at + 8, at + 16, prims.address(w), at + 24,
                        prims.address(ev), prims.address(work), at + 32,
                        prims.address(rwork), at + 40, prims.address(iwork), at + 48,
                        at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")


def eigvalsh_d(a, x, w, uplo):
    n = a.shape[0]
    _columns(a, w, n, n)
    ev = np.empty(max(n, 1), np.float64)
    syevd(w, n, 78, uplo, ev)                  # JOBZ='N'
    for i in range(n):
        x[i] = ev[i]


def eigvalsh_z(a, x, w, uplo):
    n = a.shape[0]
    _columns(a, w, n, n)
    ev = np.empty(max(n, 1), np.float64)
    heevd(w, n, 78, uplo, ev)
    for i in range(n):
        x[i] = ev[i]


# singular values (``svd(a, compute_uv=False)``): ``?gesdd`` with ``JOBZ='N'`` on
# the Fortran-ordered ``m x n`` copy, after NumPy's ``init_gesdd`` workspace query
def _gesdd_params(m, n):
    p = np.empty(8, np.int64)
    p[0] = 78                                  # JOBZ 'N'
    p[1] = m
    p[2] = n
    p[3] = max(m, 1)                           # LDA
    p[4] = max(m, 1)                           # LDU
    p[5] = 1                                   # LDVT
    p[6] = -1                                  # LWORK: a query
    p[7] = 0                                   # INFO
    return p


def gesdd_d(p, w, s, u, vt, iwork):
    """``?gesdd`` of the float64 Fortran-ordered ``w`` with the integer arguments
    in ``p`` (``_gesdd_params``' layout: ``p[6]`` LWORK, ``p[7]`` INFO) after
    NumPy's workspace query: singular values into ``s``, the factors into ``u``
    and ``vt`` (as JOBZ asks); NumPy's LinAlgError."""
    query = np.zeros(1, np.float64)
    at = prims.address(p)
    prims.lapack_dgesdd(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(s),
                        prims.address(u), at + 32, prims.address(vt), at + 40,
                        prims.address(query), at + 48, prims.address(iwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge")
    p[6] = max(int(query[0]), 1)
    work = np.empty(p[6], np.float64)
    prims.lapack_dgesdd(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(s),
                        prims.address(u), at + 32, prims.address(vt), at + 40,
                        prims.address(work), at + 48, prims.address(iwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge")


def gesdd_z(p, w, s, u, vt, rwork, iwork):
    """:func:`gesdd_d` with ``?gesdd`` of the complex128 ``w``."""
    query = np.zeros(1, np.complex128)
    at = prims.address(p)
    prims.lapack_zgesdd(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(s),
                        prims.address(u), at + 32, prims.address(vt), at + 40,
                        prims.address(query), at + 48, prims.address(rwork),
                        prims.address(iwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge")
    p[6] = max(int(query[0].real), 1)
    work = np.empty(p[6], np.complex128)
    prims.lapack_zgesdd(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(s),
                        prims.address(u), at + 32, prims.address(vt), at + 40,
                        prims.address(work), at + 48, prims.address(rwork),
                        prims.address(iwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("SVD did not converge")


def svdvals_d(a, x, w):
    m, n = a.shape[0], a.shape[1]
    k = min(m, n)
    _columns(a, w, m, n)
    p = _gesdd_params(m, n)
    s = np.empty(max(k, 1), np.float64)
    uv = np.empty(1, np.float64)
    iwork = np.empty(max(8 * k, 1), np.int64)
    gesdd_d(p, w, s, uv, uv, iwork)
    for i in range(k):
        x[i] = s[i]


def svdvals_z(a, x, w):
    m, n = a.shape[0], a.shape[1]
    k = min(m, n)
    _columns(a, w, m, n)
    p = _gesdd_params(m, n)
    s = np.empty(max(k, 1), np.float64)
    uv = np.empty(1, np.complex128)
    rwork = np.empty(max(7 * k, 1), np.float64)
    iwork = np.empty(max(8 * k, 1), np.int64)
    gesdd_z(p, w, s, uv, uv, rwork, iwork)
    for i in range(k):
        x[i] = s[i]


def rank_of(s, m, n):
    """NumPy's ``matrix_rank`` from the float64 singular values ``s``: how many
    exceed ``S.max(initial=0) * max(m, n) * eps`` (a NaN maximum counts none)."""
    smax = 0.0
    for i in range(len(s)):
        v = s[i]
        if v != v or smax != smax:             # np.maximum: NaN wins  # noqa: PLR0124
            smax = v if v != v else smax  # noqa: PLR0124
        elif v > smax:
            smax = v
    tol = smax * (max(m, n) * 2.220446049250313e-16)
    count = 0
    for i in range(len(s)):
        if s[i] > tol:
            count += 1
    return count



# ``sign, logabsdet = slogdet(a)`` into ``out``: the sign's real and imaginary parts
# and ``logabsdet`` (sign 0 and ``-inf`` for a singular matrix, as NumPy's
# ``slogdet_single_element``); ``w``: n*n float64 or complex128 work
def _factored(a, w, out):
    n = a.shape[0]
    _columns(a, w, n, n)
    ipiv = np.empty(max(n, 1), np.int64)
    out[0] = 0.0
    out[1] = 0.0
    out[2] = -np.inf
    if _getrf(w, n, ipiv) != 0:
        return 0.0
    return -1.0 if _odd_permutation(ipiv, n) else 1.0


def slogdet_d(a, w, out):
    sign = _factored(a, w, out)
    if sign == 0.0:
        return 0
    logdet = 0.0
    for i in range(a.shape[0]):
        e = w[i * (a.shape[0] + 1)]
        if e < 0.0:
            sign = -sign
            e = -e
        logdet += prims.log(e)
    out[0] = sign
    out[2] = logdet
    return 0


def slogdet_z(a, w, out):
    sr = _factored(a, w, out)
    if sr == 0.0:
        return 0
    si = 0.0
    logdet = 0.0
    for i in range(a.shape[0]):
        e = w[i * (a.shape[0] + 1)]
        m = prims.hypot(e.real, e.imag)
        er = prims.fdiv(e.real, m)
        ei = prims.fdiv(e.imag, m)
        sr, si = sr * er - si * ei, sr * ei + si * er
        logdet += prims.log(m)
    out[0] = sr
    out[1] = si
    out[2] = logdet
    return 0
