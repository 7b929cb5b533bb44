"""``multivariate_normal``: the ``Generator`` method (``method='svd'``, ``'eigh'``,
``'cholesky'``), ``np.random.multivariate_normal`` and the ``RandomState`` method.

A compiled call gives NumPy's values bit for bit (the same draws, the same
LAPACK factorisation, the same BLAS products), leaves the generator's or the
RandomState's state as NumPy does, raises its errors (shape checks before the
draws, ``check_valid``'s after them, LAPACK's LinAlgErrors) and warns its
RuntimeWarning for a covariance that is not positive-semidefinite (an error
under an "error" filter, as NumPy's).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted
from hanajit.testing.random_pairs import same
from hypothesis import given, settings
from hypothesis import strategies as st

PSD = "covariance is not symmetric positive-semidefinite."


def outcome(f, *args, error=False):
    """The result (or the exception) and the warnings of one call."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("error" if error else "always")
        warnings.simplefilter("error", HanaJitFallbackWarning)
        try:
            value = ("ok", f(*args))
        except (ValueError, TypeError, RuntimeWarning, np.linalg.LinAlgError) as e:
            value = ("raise", type(e), str(e))
    return value, [(w.category, str(w.message)) for w in caught]


def agree(got, want) -> bool:
    """The same outcome (values bit for bit, or the same exception) and the
    same warnings."""
    (g, gw), (w, ww) = got, want
    return g[0] == w[0] and (same(g[1], w[1]) if g[0] == "ok" else g == w) and gw == ww


def state(r):
    if isinstance(r, np.random.Generator):
        return repr(r.bit_generator.state)
    s = r.get_state(legacy=False)
    return s["state"]["key"].tobytes(), s["state"]["pos"], s["has_gauss"], s["gauss"]


def compare(jf, py, make, *args, error=False):
    a, b = make(), make()
    got = outcome(jf, a, *args, error=error)
    want = outcome(py, b, *args, error=error)
    assert agree(got, want), (py.__name__, args, got, want)
    assert state(a) == state(b)


def generator_forms(rng, mean, cov, size, tol):
    return (rng.multivariate_normal(mean, cov, size),
            rng.multivariate_normal(mean, cov, size, tol=tol, method="eigh"),
            rng.multivariate_normal(mean, cov, check_valid="ignore", method="eigh"),
            rng.multivariate_normal(mean, cov, size, "raise", tol))


def cholesky_form(rng, mean, cov, size):
    return rng.multivariate_normal(mean, cov, size, method="cholesky")


def legacy_forms(rs, mean, cov, size, tol):
    return (rs.multivariate_normal(mean, cov, size), rs.multivariate_normal(mean, cov),
            rs.multivariate_normal(mean, cov, size, "ignore"),
            rs.multivariate_normal(mean, cov, size, check_valid="raise", tol=tol))


def global_forms(rs, mean, cov, size, tol):
    np.random.set_state(rs.get_state())         # (the interpreter's part of the test)
    return global_draws(mean, cov, size, tol)


def global_draws(mean, cov, size, tol):
    return (np.random.multivariate_normal(mean, cov, size, tol=tol),
            np.random.multivariate_normal(mean, cov))


def covariances(d, seed):
    r = np.random.default_rng(seed)
    a = r.standard_normal((d, d))
    yield a @ a.T                                          # positive definite
    b = r.standard_normal((d, max(1, d - 1)))
    yield b @ b.T                                          # singular (PSD)
    yield np.diag(r.uniform(0.5, 2.0, d))
    c = a + a.T                                            # symmetric, not PSD
    yield c
    yield a                                                # not symmetric


MAKERS = {"PCG64": lambda: np.random.default_rng(7),
          "MT19937": lambda: np.random.Generator(np.random.MT19937(7)),
          "Philox": lambda: np.random.Generator(np.random.Philox(7))}


@pytest.mark.parametrize("d", [1, 2, 3, 6])
@pytest.mark.parametrize("size", [None, 0, 5, (2, 3)])
def test_generator_methods(mode, d, size):
    for k, cov in enumerate(covariances(d, d)):
        mean = np.arange(d, dtype=np.float64) - 0.5
        for make in MAKERS.values():
            compare(jitted(generator_forms), generator_forms, make, mean, cov, size, 1e-8)
        if k < 3:
            compare(jitted(cholesky_form), cholesky_form, MAKERS["PCG64"], mean, cov, size)


@pytest.mark.parametrize("d", [1, 2, 4])
@pytest.mark.parametrize("size", [None, 1, 4, (3, 2)])
def test_randomstate_method_and_global_function(mode, d, size):
    for cov in covariances(d, 10 + d):
        mean = np.linspace(-1.0, 1.0, d)
        for cached in (False, True):
            def make(cached=cached):
                rs = np.random.RandomState(3)
                if cached:
                    rs.standard_normal()
                return rs
            compare(jitted(legacy_forms), legacy_forms, make, mean, cov, size, 1e-6)
            a, b = make(), make()
            np.random.set_state(a.get_state())
            got = outcome(jitted(global_draws), mean, cov, size, 1e-6)
            got_state = np.random.get_state(legacy=False)
            np.random.set_state(b.get_state())
            want = outcome(global_draws, mean, cov, size, 1e-6)
            assert agree(got, want), (d, size, got, want)
            assert repr(got_state) == repr(np.random.get_state(legacy=False))


def test_the_warning_raises_under_an_error_filter():
    cov = np.array([[1.0, 2.0], [2.0, 1.0]])
    mean = np.zeros(2)
    compare(jit(legacy_forms), legacy_forms, lambda: np.random.RandomState(1), mean, cov,
            3, 1e-8, error=True)
    compare(jit(generator_forms), generator_forms, MAKERS["PCG64"], mean, cov, 3, 1e-8,
            error=True)


def errors(rng, mean, cov, size, check, method):
    return rng.multivariate_normal(mean, cov, size, check, method=method)


@pytest.mark.parametrize("mean, cov, size, check, method", [
    (np.zeros(2), np.eye(3), 4, "warn", "svd"),            # lengths differ
    (np.zeros(2), np.ones((2, 3)), 4, "warn", "eigh"),     # not square
    (np.zeros(2), np.eye(2), (2, -1), "warn", "svd"),      # a negative dimension
    (np.zeros(0), np.zeros((0, 0)), 3, "warn", "svd"),     # nothing to reshape by
    (np.zeros(2), np.eye(2), 3, "sometimes", "svd"),       # after the draws
    (np.zeros(2), np.eye(2), 3, "sometimes", "cholesky"),  # (not looked at)
    (np.zeros(2), np.array([[1.0, 2.0], [2.0, 1.0]]), 3, "warn", "cholesky"),
    (np.zeros(2), np.array([[np.nan, 0.0], [0.0, 1.0]]), 3, "warn", "svd"),
    (np.zeros(2), np.array([[np.nan, 0.0], [0.0, 1.0]]), 3, "warn", "eigh"),
])
def test_errors_are_numpys(mean, cov, size, check, method):
    compare(jit(errors), errors, MAKERS["PCG64"], mean, cov, size, check, method)


def typed(rng, mean, cov):
    return rng.multivariate_normal(mean, cov, 3)


@pytest.mark.parametrize("mean, cov", [
    (np.array([1, 2]), np.array([[2, 1], [1, 2]])),
    (np.array([1.0, 2.0], np.float32), np.array([[2.0, 0.5], [0.5, 1.0]], np.float32)),
    (np.array([True, False]), np.eye(2, dtype=np.int8)),
    ((1.0, 2.0), ((2.0, 1.0), (1.0, 2.0))),
    (np.array([0.5, 1.5]), np.asfortranarray([[2.0, 0.3], [0.3, 1.0]])),
])
def test_other_dtypes_layouts_and_tuples(mean, cov):
    compare(jit(typed), typed, MAKERS["PCG64"], mean, cov)
    compare(jit(typed), typed, lambda: np.random.RandomState(2), mean, cov)


@pytest.mark.parametrize("mean, cov, why", [
    (np.zeros((2, 2)), np.eye(2), "2-D mean"),
    (np.zeros(2), np.eye(2)[None], "3-D cov"),
    (np.zeros(2, complex), np.eye(2), "complex"),
])
def test_other_forms_fall_back(mean, cov, why):
    with pytest.warns(HanaJitFallbackWarning), pytest.raises((ValueError, TypeError)):
        jit(typed)(np.random.default_rng(1), mean, cov)


def made_here(seed, mean, cov, n):
    rs = np.random.RandomState(seed)
    rng = np.random.default_rng(seed)
    return rs.multivariate_normal(mean, cov, n), rng.multivariate_normal(mean, cov, n)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), d=st.integers(1, 5), n=st.integers(0, 6),
       scale=st.sampled_from([1e-3, 1.0, 1e3]))
def test_many_seeds(seed, d, n, scale):
    a = np.random.default_rng(seed).standard_normal((d, d))
    cov = scale * (a @ a.T)
    mean = np.random.default_rng(seed + 1).standard_normal(d)
    got = outcome(jitted(made_here), seed, mean, cov, n)
    want = outcome(made_here, seed, mean, cov, n)
    assert agree(got, want), (got, want)
