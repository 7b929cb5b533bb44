"""``np.linalg.eigh``, ``svd`` (with ``U`` and ``Vh``) and ``qr`` as NumPy computes
them, in Python source compiled by hanajit (see ``helpers``).

NumPy's ``_umath_linalg`` copies the matrix, in float64 or complex128 whatever its
dtype, into a Fortran-ordered buffer, asks LAPACK for the workspace it wants
(``LWORK = -1``), calls ``?syevd``/``?heevd`` (``JOBZ='V'``), ``?gesdd``
(``JOBZ='A'`` or ``'S'``) or ``?geqrf`` then ``?orgqr``/``?ungqr``, and copies the
Fortran-ordered results out into C-ordered arrays.  These helpers take the same
steps with the same functions of NumPy's own LAPACK (``prims.lapack_*``,
``lib/linalg/lapack.py``), so the results are NumPy's bit for bit.  The integer
arguments LAPACK takes by reference live in a small int64 array ``p``; ``w`` is
the caller's float64/complex128 work array of ``m * n`` elements.
"""
import numpy as np

from .. import prims
from .solve_inv_det_algorithms import gesdd_d, gesdd_z, heevd, syevd



def _columns(a, w, m, n):
    """``a`` (``m x n``) into ``w`` column after column (Fortran order)."""
    for j in range(n):
        for i in range(m):
            w[j * m + i] = a[i, j]


def _out(x, w, rows, cols, ld):
    """The Fortran-ordered ``rows x cols`` matrix at ``w`` (leading dimension
    ``ld``) into ``x``."""
    for i in range(rows):
        for j in range(cols):
            x[i, j] = w[j * ld + i]


# ``w, v = eigh(a)``: JOBZ 'V' (86); ``uplo`` is the character code of 'L' or 'U'
def eigh_d(a, ev_out, v_out, w, uplo):
    n = a.shape[0]
    if n == 0:
        return 0
    _columns(a, w, n, n)
    ev = np.empty(n, np.float64)
    syevd(w, n, 86, uplo, ev)                  # JOBZ='V'
    for i in range(n):
        ev_out[i] = ev[i]
    _out(v_out, w, n, n, n)
    return 0


def eigh_z(a, ev_out, v_out, w, uplo):
    n = a.shape[0]
    if n == 0:
        return 0
    _columns(a, w, n, n)
    ev = np.empty(n, np.float64)
    heevd(w, n, 86, uplo, ev)
    for i in range(n):
        ev_out[i] = ev[i]
    _out(v_out, w, n, n, n)
    return 0


def _identity(x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            x[i, j] = 1.0 if i == j else 0.0


def _gesdd_params(jobz, m, n, vrows):
    p = np.empty(8, np.int64)
    p[0] = jobz
    p[1] = m
    p[2] = n
    p[3] = m                                   # LDA
    p[4] = m                                   # LDU
    p[5] = vrows                               # LDVT
    p[6] = -1                                  # LWORK: a query
    p[7] = 0                                   # INFO
    return p


def svd_d(a, u, s_out, vt, w, jobz):
    m, n = a.shape[0], a.shape[1]
    k = min(m, n)
    if k == 0:
        _identity(u)
        _identity(vt)
        return 0
    ucols = u.shape[1]
    vrows = vt.shape[0]
    _columns(a, w, m, n)
    p = _gesdd_params(jobz, m, n, vrows)
    s = np.empty(k, np.float64)
    uw = np.empty(m * ucols, np.float64)
    vw = np.empty(vrows * n, np.float64)
    iwork = np.empty(8 * k, np.int64)
    gesdd_d(p, w, s, uw, vw, iwork)
    _out(u, uw, m, ucols, m)
    for i in range(k):
        s_out[i] = s[i]
    _out(vt, vw, vrows, n, vrows)
    return 0


def svd_z(a, u, s_out, vt, w, jobz):
    m, n = a.shape[0], a.shape[1]
    k = min(m, n)
    if k == 0:
        _identity(u)
        _identity(vt)
        return 0
    ucols = u.shape[1]
    vrows = vt.shape[0]
    _columns(a, w, m, n)
    p = _gesdd_params(jobz, m, n, vrows)
    s = np.empty(k, np.float64)
    uw = np.empty(m * ucols, np.complex128)
    vw = np.empty(vrows * n, np.complex128)
    # (zgesdd takes no LRWORK: NumPy's size and LAPACK 3.7's, whichever is larger)
    rwork = np.empty(max(5 * k * k + 5 * k, k * max(5 * k + 7, 2 * max(m, n) + 2 * k + 1)),
                     np.float64)
    iwork = np.empty(8 * k, np.int64)
    gesdd_z(p, w, s, uw, vw, rwork, iwork)
    _out(u, uw, m, ucols, m)
    for i in range(k):
        s_out[i] = s[i]
    _out(vt, vw, vrows, n, vrows)
    return 0


# ``qr(a, mode)``: ``?geqrf`` in place on the copy (NumPy's ``qr_r_raw``), R its
# upper triangle (``triu(a[:mc, :])``), then ``?orgqr``/``?ungqr`` on the first
# columns (``qr_reduced``/``qr_complete``); ``q`` has ``mc`` columns, ``mc`` is m for
# ``mode='complete'`` of a tall matrix, else ``min(m, n)``.  LWORK is
# ``max(1, n, the size LAPACK asks for)`` as in NumPy's ``init_geqrf``/``init_gqr``.
def _r_out(r, w, m):
    for i in range(r.shape[0]):
        for j in range(r.shape[1]):
            r[i, j] = w[j * m + i] if j >= i else 0.0


def _q_start(qw, w, m, mc, n):
    """The reflectors (the first columns of ``w``) into ``qw`` (``m x mc``),
    the columns past ``n`` zeroed (``?orgqr`` sets them)."""
    for j in range(mc):
        for i in range(m):
            qw[j * m + i] = w[j * m + i] if j < n else 0.0


def qr_d(a, q, r, w):
    m, n = a.shape[0], a.shape[1]
    k = min(m, n)
    if k == 0:
        _identity(q)
        return 0
    _columns(a, w, m, n)
    p = np.empty(6, np.int64)
    p[0] = m
    p[1] = n
    p[2] = m                                   # LDA
    p[3] = -1                                  # LWORK: a query
    p[4] = 0                                   # INFO
    p[5] = k
    tau = np.empty(k, np.float64)
    query = np.zeros(1, np.float64)
    at = prims.address(p)
    prims.lapack_dgeqrf(at, at + 8, prims.address(w), at + 16, prims.address(tau),
                        prims.address(query), at + 24, at + 32)
    p[3] = max(max(1, n), int(query[0]))
    work = np.empty(p[3], np.float64)
    prims.lapack_dgeqrf(at, at + 8, prims.address(w), at + 16, prims.address(tau),
                        prims.address(work), at + 24, at + 32)
    _r_out(r, w, m)
    mc = q.shape[1]
    if mc == 0:                                # mode 'r': no Q
        return 0
    qw = np.empty(m * mc, np.float64)
    _q_start(qw, w, m, mc, n)
    p[1] = mc
    p[3] = -1
    prims.lapack_dorgqr(at, at + 8, at + 40, prims.address(qw), at + 16,
                        prims.address(tau), prims.address(query), at + 24, at + 32)
    p[3] = max(max(1, n), int(query[0]))
    work = np.empty(p[3], np.float64)
    prims.lapack_dorgqr(at, at + 8, at + 40, prims.address(qw), at + 16,
                        prims.address(tau), prims.address(work), at + 24, at + 32)
    _out(q, qw, m, mc, m)
    return 0


def qr_z(a, q, r, w):
    m, n = a.shape[0], a.shape[1]
    k = min(m, n)
    if k == 0:
        _identity(q)
        return 0
    _columns(a, w, m, n)
    p = np.empty(6, np.int64)
    p[0] = m
    p[1] = n
    p[2] = m
    p[3] = -1
    p[4] = 0
    p[5] = k
    tau = np.empty(k, np.complex128)
    query = np.zeros(1, np.complex128)
    at = prims.address(p)
    prims.lapack_zgeqrf(at, at + 8, prims.address(w), at + 16, prims.address(tau),
                        prims.address(query), at + 24, at + 32)
    p[3] = max(max(1, n), int(query[0].real))
    work = np.empty(p[3], np.complex128)
    prims.lapack_zgeqrf(at, at + 8, prims.address(w), at + 16, prims.address(tau),
                        prims.address(work), at + 24, at + 32)
    _r_out(r, w, m)
    mc = q.shape[1]
    if mc == 0:
        return 0
    qw = np.empty(m * mc, np.complex128)
    _q_start(qw, w, m, mc, n)
    p[1] = mc
    p[3] = -1
    prims.lapack_zungqr(at, at + 8, at + 40, prims.address(qw), at + 16,
                        prims.address(tau), prims.address(query), at + 24, at + 32)
    p[3] = max(max(1, n), int(query[0].real))
    work = np.empty(p[3], np.complex128)
    prims.lapack_zungqr(at, at + 8, at + 40, prims.address(qw), at + 16,
                        prims.address(tau), prims.address(work), at + 24, at + 32)
    _out(q, qw, m, mc, m)
    return 0


def nan_unless_input_nan(r, a):
    """NumPy's ``cond``: a NaN ratio becomes ``inf`` unless ``a`` holds a NaN."""
    if r == r:                                           # noqa: PLR0124
        return r
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            v = a[i, j]
            if v != v:                                   # noqa: PLR0124
                return r
    return np.inf
