"""``np.linalg.eig`` and ``np.linalg.eigvals`` as NumPy computes them, in Python
source compiled by hanajit (see ``helpers``).

NumPy's ``eig`` checks that the matrix is finite (``_assert_finite``), then its
``_umath_linalg`` copies it, in float64 or complex128 whatever its dtype, into a
Fortran-ordered buffer, asks LAPACK's ``?geev`` for its workspace (``LWORK = -1``,
``init_geev``) and calls it with ``JOBVL='N'`` and ``JOBVR='V'`` (``eig``) or
``'N'`` (``eigvals``).  ``dgeev`` gives the real and imaginary parts of the
eigenvalues apart; NumPy returns a real array when every imaginary part is zero
and a complex one otherwise.  The compiled call is typed real for real input, so
an eigenvalue with a nonzero imaginary part re-runs the call in the interpreter
(``Deopt``), which gives NumPy's complex result.  These helpers take NumPy's
steps with the same functions of NumPy's own LAPACK (``prims.lapack_*``,
``lib/linalg/lapack.py``), so the results are NumPy's bit for bit.  The integer
arguments LAPACK takes by reference live in a small int64 array ``p``.
"""
import numpy as np

from .. import prims
from ..python.helpers import Deopt

BIGGEST = 1.7976931348623157e308             # the largest finite float64


def _columns(a, w, n):
    """``a`` (``n x n``) into ``w`` column after column (Fortran order)."""
    for j in range(n):
        for i in range(n):
            w[j * n + i] = a[i, j]


def _finite_d(w, n):
    for k in range(n * n):
        if not (abs(w[k]) <= BIGGEST):         # NaN or an infinity
            raise np.linalg.LinAlgError("Array must not contain infs or NaNs")


def _finite_z(w, n):
    for k in range(n * n):
        v = w[k]
        if not (abs(v.real) <= BIGGEST and abs(v.imag) <= BIGGEST):
            raise np.linalg.LinAlgError("Array must not contain infs or NaNs")


def _params(n, jobvr):
    p = np.empty(8, np.int64)
    p[0] = 78                                  # JOBVL 'N'
    p[1] = jobvr                               # 'V' (86) or 'N' (78)
    p[2] = n
    p[3] = max(n, 1)                           # LDA
    p[4] = max(n, 1)                           # LDVL
    p[5] = max(n, 1)                           # LDVR
    p[6] = -1                                  # LWORK: a query
    p[7] = 0                                   # INFO
    return p


def geev_d(w, n, jobvr, wr, wi, vr):
    """``dgeev`` of the float64 ``n x n`` Fortran-ordered ``w`` after NumPy's
    workspace query: the eigenvalues' real and imaginary parts into ``wr`` and
    ``wi``, the right eigenvectors into ``vr`` (packed as LAPACK packs them) when
    ``jobvr`` is ``ord('V')``; NumPy's LinAlgError when LAPACK fails."""
    p = _params(n, jobvr)
    query = np.zeros(1, np.float64)
    at = prims.address(p)
    prims.lapack_dgeev(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(wr),
                       prims.address(wi), prims.address(vr), at + 32, prims.address(vr),
                       at + 40, prims.address(query), at + 48, at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    p[6] = int(query[0])                       # NumPy's (size_t) of the query
    work = np.empty(max(p[6], 1), np.float64)
    prims.lapack_dgeev(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(wr),
                       prims.address(wi), prims.address(vr), at + 32, prims.address(vr),
                       at + 40, prims.address(work), at + 48, at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")


def geev_z(w, n, jobvr, ev, vr):
    """:func:`geev_d` with ``zgeev`` of the complex128 ``w``: the eigenvalues into
    ``ev``."""
    p = _params(n, jobvr)
    query = np.zeros(1, np.complex128)
    rwork = np.empty(2 * n, np.float64)
    at = prims.address(p)
    prims.lapack_zgeev(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(ev),
                       prims.address(vr), at + 32, prims.address(vr), at + 40,
                       prims.address(query), at + 48, prims.address(rwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    p[6] = int(query[0].real)
    if p[6] == 0:                              # NumPy's fix for LAPACK 3.0.0
        p[6] = 1
    work = np.empty(p[6], np.complex128)
    prims.lapack_zgeev(at, at + 8, at + 16, prims.address(w), at + 24, prims.address(ev),
                       prims.address(vr), at + 32, prims.address(vr), at + 40,
                       prims.address(work), at + 48, prims.address(rwork), at + 56)
    if p[7] != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")


def _real_d(w, n, jobvr, vr):
    """The real eigenvalues of the float64 copy ``w`` (``dgeev``); a complex one
    re-runs the call in the interpreter (NumPy then returns complex arrays)."""
    _finite_d(w, n)
    wr = np.empty(n, np.float64)
    wi = np.empty(n, np.float64)
    geev_d(w, n, jobvr, wr, wi, vr)
    for i in range(n):
        if wi[i] != 0.0:
            raise Deopt("np.linalg.eig()/eigvals() of a real matrix with complex "
                        "eigenvalues (NumPy's result is then complex)")
    return wr


# ``w, v = eig(a)``: JOBVR 'V' (86); ``w`` is the caller's n*n work array
def eig_d(a, ev_out, v_out, w):
    n = a.shape[0]
    if n == 0:
        return 0
    _columns(a, w, n)
    vr = np.empty(n * n, np.float64)
    wr = _real_d(w, n, 86, vr)
    for i in range(n):
        ev_out[i] = wr[i]
    for i in range(n):
        for j in range(n):
            v_out[i, j] = vr[j * n + i]
    return 0


def eig_z(a, ev_out, v_out, w):
    n = a.shape[0]
    if n == 0:
        return 0
    _columns(a, w, n)
    _finite_z(w, n)
    ev = np.empty(n, np.complex128)
    vr = np.empty(n * n, np.complex128)
    geev_z(w, n, 86, ev, vr)
    for i in range(n):
        ev_out[i] = ev[i]
    for i in range(n):
        for j in range(n):
            v_out[i, j] = vr[j * n + i]
    return 0


# ``eigvals(a)``: JOBVR 'N' (78), the eigenvectors not computed
def eigvals_d(a, ev_out, w):
    n = a.shape[0]
    if n == 0:
        return 0
    _columns(a, w, n)
    vr = np.empty(1, np.float64)
    wr = _real_d(w, n, 78, vr)
    for i in range(n):
        ev_out[i] = wr[i]
    return 0


def eigvals_z(a, ev_out, w):
    n = a.shape[0]
    if n == 0:
        return 0
    _columns(a, w, n)
    _finite_z(w, n)
    ev = np.empty(n, np.complex128)
    vr = np.empty(1, np.complex128)
    geev_z(w, n, 78, ev, vr)
    for i in range(n):
        ev_out[i] = ev[i]
    return 0
