"""Singular values by one-sided Jacobi (Hestenes), in Python source compiled by
hanajit (see ``helpers``): ``np.linalg.norm`` of a matrix with ``ord`` 2, -2 or
``'nuc'`` (``var_std_norm`` copies each matrix into the float64 work array -- a
complex one as the real ``[[X, -Y], [Y, X]]`` -- and calls ``svd_norm``).

The rows of the work array ``w`` (``q x p``, ``q <= p``) are the matrix's columns,
or its rows when it is wider than tall (the transpose has the same singular
values).  Plane rotations of pairs of rows make every pair orthogonal; the
singular values are then the rows' norms.  A pair is rotated while the cosine of
the angle between its rows exceeds ``p * EPS``, sweep after sweep (at most
``SWEEPS``; each row is paired with the others after the largest of the rest is
swapped into it (de Rijk); the rotations converge quadratically: 7 to 9 sweeps
for random matrices up to 100 x 100, about 10 for rank-deficient ones and up to
25 for small ones whose rows or columns are scaled over 600 decades;
a matrix still not converged after ``SWEEPS`` gets its rows' norms as they are).
A pair whose rows' norm is below ``SAFE`` is left alone: such rows are partly
subnormal and cannot be made orthogonal to working precision, and they change the
singular values by less than ``SAFE`` times the largest.

Robustness:

* the matrix is first divided by its largest magnitude (as LAPACK scales a
  matrix whose entries are huge or tiny), so sums of squares cannot overflow,
  and the results are multiplied back;
* a row's norm is a plain sum of squares when that sum is at least ``SAFE``
  (the underflowed products then change it by under ``p * 2**-1075``, far below
  an ulp), otherwise the row is divided by its largest magnitude first; the
  cosine of a pair is likewise computed on the rows divided by their norms when
  the product of the norms is below ``SAFE``, so a singular value of ``1e-300``
  beside one of 1 is found.  Every singular value is within a small multiple of
  ``p * EPS * largest`` of the exact one (LAPACK's guarantee too); when the rows
  of ``w`` are well conditioned apart from their scales, small ones also come
  out to high relative accuracy (Demmel and Veselic);
* NaN anywhere raises ``LinAlgError("SVD did not converge")`` and an infinite
  entry gives NaN, as NumPy's LAPACK (``gesdd``) does.
"""
import math

import numpy as np

from .. import prims

EPS = 2.220446049250313e-16
SAFE = 1e-290
NORMAL = 1e-140                  # norms whose squares and products are >= SAFE
SWEEPS = 60


def _dot(w, j, k, p):
    """Row ``j`` times row ``k``, in four interleaved partial sums (a sequential
    sum would wait on each addition)."""
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    i = 0
    while i + 4 <= p:
        s0 += w[j, i] * w[k, i]
        s1 += w[j, i + 1] * w[k, i + 1]
        s2 += w[j, i + 2] * w[k, i + 2]
        s3 += w[j, i + 3] * w[k, i + 3]
        i += 4
    while i < p:
        s0 += w[j, i] * w[k, i]
        i += 1
    return (s0 + s1) + (s2 + s3)


def _norm_of(w, j, p, s):
    """The 2-norm of row ``j`` (entries at most 1 in magnitude) whose sum of
    squares is ``s``, recomputed on the scaled row when ``s`` may have lost
    underflowed squares."""
    if s >= SAFE:
        return math.sqrt(s)
    big = 0.0
    for i in range(p):
        big = max(big, prims.fabs(w[j, i]))
    if big == 0.0:
        return 0.0
    s = 0.0
    for i in range(p):
        x = prims.fdiv(w[j, i], big)
        s += x * x
    return big * math.sqrt(s)


def _row_norm(w, j, p):
    """The 2-norm of row ``j`` (see ``_norm_of``)."""
    return _norm_of(w, j, p, _dot(w, j, j, p))


def _cosine(w, j, k, p, nj, nk):
    """The cosine of the angle between rows ``j`` and ``k`` (norms ``nj``, ``nk``,
    both non-zero)."""
    if nj * nk >= SAFE:
        return prims.fdiv(prims.fdiv(_dot(w, j, k, p), nj), nk)
    g = 0.0
    for i in range(p):
        g += prims.fdiv(w[j, i], nj) * prims.fdiv(w[k, i], nk)
    return g


def _tangent(zeta):
    """The smaller root ``t`` of ``t*t + 2*zeta*t - 1``: the tangent of the angle
    that makes the pair orthogonal (0.0 when it underflows)."""
    az = prims.fabs(zeta)
    if az > 1e150:                       # 1 / (2 zeta) to within 1e-300 relative
        t = prims.fdiv(0.5, az)
    else:
        t = prims.fdiv(1.0, az + math.sqrt(1.0 + az * az))
    return prims.copysign(t, zeta)


def _rotate(w, j, k, p, t):
    """Rotate rows ``j`` and ``k`` by the angle of tangent ``t``."""
    c = prims.fdiv(1.0, math.sqrt(1.0 + t * t))
    s = c * t
    for i in range(p):
        u = w[j, i]
        v = w[k, i]
        w[j, i] = c * u - s * v
        w[k, i] = s * u + c * v


def _pair(w, j, k, p, tol, sv):
    """Make rows ``j`` and ``k`` orthogonal if the cosine between them exceeds
    ``tol``, updating their norms in ``sv``; whether they were rotated.

    The squared norms change by -/+ ``t`` times the dot product (Hestenes); a
    norm that more than halves is recomputed from the row instead, away from the
    cancellation.  With both norms at least ``NORMAL`` the squares and products
    are safe and no division by the norms is needed."""
    nj = sv[j]
    nk = sv[k]
    if nj >= NORMAL and nk >= NORMAL:
        g = _dot(w, j, k, p)
        if prims.fabs(g) <= tol * (nj * nk):
            return False
        t = _tangent(prims.fdiv((nk - nj) * (nk + nj), 2.0 * g))
        _rotate(w, j, k, p, t)
        a2 = nj * nj - t * g
        b2 = nk * nk + t * g
        sv[j] = math.sqrt(a2) if a2 >= 0.25 * (nj * nj) else _row_norm(w, j, p)
        sv[k] = math.sqrt(b2) if b2 >= 0.25 * (nk * nk) else _row_norm(w, k, p)
        return True
    if nj < SAFE or nk < SAFE:
        return False
    cos = _cosine(w, j, k, p, nj, nk)
    if prims.fabs(cos) <= tol:
        return False
    t = _tangent(prims.fdiv(prims.fdiv(nk, nj) - prims.fdiv(nj, nk), 2.0 * cos))
    if t == 0.0:
        return False
    _rotate(w, j, k, p, t)
    tc = t * cos
    fj = 1.0 - tc * prims.fdiv(nk, nj)
    fk = 1.0 + tc * prims.fdiv(nj, nk)
    sv[j] = nj * math.sqrt(fj) if fj >= 0.25 else _row_norm(w, j, p)
    sv[k] = nk * math.sqrt(fk) if fk >= 0.25 else _row_norm(w, k, p)
    return True


def _largest_first(w, j, p, sv):
    """Swap the row of largest norm among rows ``j:`` into row ``j`` (de Rijk's
    pivoting: a quarter to a third fewer sweeps)."""
    b = j
    for k in range(j + 1, len(sv)):
        if sv[k] > sv[b]:
            b = k
    if b != j:
        for i in range(p):
            x = w[j, i]
            w[j, i] = w[b, i]
            w[b, i] = x
        x = sv[j]
        sv[j] = sv[b]
        sv[b] = x
    return 0


def _scale(w):
    """Divide ``w`` by its largest magnitude and return that (NaN for an
    infinite entry, 0.0 for all zeros); NaN raises as NumPy's LAPACK does."""
    q, p = w.shape
    big = 0.0
    for j in range(q):
        for i in range(p):
            x = w[j, i]
            if x != x:                                   # noqa: PLR0124 - NaN
                raise np.linalg.LinAlgError("SVD did not converge")
            big = max(big, prims.fabs(x))
    if prims.isinf(big):
        return prims.fdiv(0.0, 0.0)
    if big != 0.0 and big != 1.0:
        for j in range(q):
            for i in range(p):
                w[j, i] = prims.fdiv(w[j, i], big)
    return big


def singular_values(w, sv):
    """The singular values of ``w`` (``q x p``, ``q <= p``, overwritten) into
    ``sv`` (length ``q``), unsorted; NaN for a matrix with an infinite entry."""
    q, p = w.shape
    big = _scale(w)
    if big != big or big == 0.0:                         # noqa: PLR0124 - NaN
        for j in range(q):
            sv[j] = big
        return 0
    for j in range(q):
        sv[j] = _row_norm(w, j, p)
    tol = p * EPS
    sweep = 0
    rotated = True
    while rotated and sweep < SWEEPS:
        rotated = False
        sweep += 1
        for j in range(q - 1):
            _largest_first(w, j, p, sv)
            for k in range(j + 1, q):
                if _pair(w, j, k, p, tol, sv):
                    rotated = True
    for j in range(q):                     # the norms, not their running updates
        sv[j] = _row_norm(w, j, p) * big
    return sweep


def svd_norm(w, kind):
    """The largest (``kind`` 0), smallest (1) or the sum (2) of the singular
    values of ``w`` (``q x p``, ``q <= p``, overwritten); 0.0 when ``q`` is 0 (the
    caller raises for the smallest of none, as NumPy's ``amin``)."""
    q = w.shape[0]
    sv = np.empty(q, np.float64)
    singular_values(w, sv)
    if q == 0:
        return 0.0
    r = sv[0]
    for j in range(1, q):
        x = sv[j]
        if kind == 0:
            r = max(r, x)
        elif kind == 1:
            r = min(r, x)
        else:
            r += x
    return r
