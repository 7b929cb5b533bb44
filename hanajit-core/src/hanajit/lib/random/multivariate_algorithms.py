"""``multivariate_normal``'s arithmetic after the draws, NumPy's Python code line
for line (``mtrand.pyx`` for ``RandomState``, ``_generator.pyx`` for
``Generator``), compiled by hanajit: ``np.linalg.svd``/``eigh``/``cholesky``,
``np.dot`` and ``@`` are NumPy's own LAPACK and BLAS calls
(``lib/linalg/lapack.py``), so the factor, the product and the sum are NumPy's
bit for bit.

``x`` is the 2-D ``(m, d)`` array of standard normals already drawn; ``check``
is ``check_valid`` as a code (``CHECKS``); each returns the new ``(m, d)``
float64 array.
"""
import numpy as np

from .. import prims

CHECKS = {"ignore": 0, "warn": 1, "raise": 2}      # any other string: 3


def check_shapes(mean, cov):
    """The checks NumPy makes before drawing (the dimensions are typed)."""
    if cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if mean.shape[0] != cov.shape[0]:
        raise ValueError("mean and cov must have same length")


def _reshape(d):
    """``x.reshape(-1, d)`` of the draws: NumPy cannot infer -1 when ``d`` is 0."""
    if d == 0:
        raise ValueError("cannot reshape array of size 0 into shape (0)")


def _not_psd(check):
    """``check_valid``'s answer to a covariance that is not PSD."""
    if check == 1:
        if prims.warn("RuntimeWarning", "covariance is not symmetric positive-semidefinite.") \
                != 0:
            raise RuntimeWarning("covariance is not symmetric positive-semidefinite.")
    else:
        raise ValueError("covariance is not symmetric positive-semidefinite.")


def _invalid(check):
    if check == 3:
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")


def legacy_svd(x, mean, cov, check, tol):
    """``RandomState.multivariate_normal``."""
    _reshape(mean.shape[0])
    c = cov.astype(np.double)
    (_u, s, v) = np.linalg.svd(c)
    if check != 0:
        _invalid(check)
        psd = np.allclose(np.dot(v.T * s, v), c, rtol=tol, atol=tol)
        if not psd:
            _not_psd(check)
    y = np.dot(x, np.sqrt(s)[:, None] * v)
    y += mean
    return y


def svd(x, mean, cov, check, tol):
    """``Generator.multivariate_normal(method='svd')``."""
    _reshape(mean.shape[0])
    c = cov.astype(np.double)
    (u, s, vh) = np.linalg.svd(c)
    if check != 0:
        _invalid(check)
        psd = np.allclose(np.dot(vh.T * s, vh), c, rtol=tol, atol=tol)
        if not psd:
            _not_psd(check)
    factor = u * np.sqrt(s)
    return mean + x @ factor.T


def eigh(x, mean, cov, check, tol):
    """``Generator.multivariate_normal(method='eigh')``."""
    _reshape(mean.shape[0])
    c = cov.astype(np.double)
    (s, u) = np.linalg.eigh(c)
    if check != 0:
        _invalid(check)
        if np.any(s < -tol):
            _not_psd(check)
    factor = u * np.sqrt(np.abs(s))
    return mean + x @ factor.T


def cholesky(x, mean, cov, check, tol):
    """``Generator.multivariate_normal(method='cholesky')`` (``check_valid`` is
    not looked at: the factorisation fails for a covariance that is not PD)."""
    _reshape(mean.shape[0])
    c = cov.astype(np.double)
    factor = np.linalg.cholesky(c)
    return mean + x @ factor.T
