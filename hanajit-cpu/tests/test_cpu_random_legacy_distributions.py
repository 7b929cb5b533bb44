"""The legacy ``np.random`` distributions on NumPy's global ``RandomState``:
``exponential``, ``standard_exponential``, ``poisson``, ``binomial``,
``geometric``, ``gamma``, ``standard_gamma``, ``beta``, ``chisquare``,
``standard_t``, ``lognormal``, ``laplace``, ``logistic``, ``gumbel``,
``rayleigh``, ``weibull``, ``pareto``, ``power``, ``standard_cauchy``,
``triangular``, ``f``, ``wald``, ``negative_binomial``,
``noncentral_chisquare``, ``noncentral_f``, ``vonmises``, ``logseries``,
``zipf`` and ``hypergeometric``.

After ``np.random.seed(s)`` (and sometimes one interpreted Gaussian, so that a
second one is cached), compiled calls give the interpreter's values bit for
bit, of its types (Python float/int without ``size``, float64/int64 arrays),
leave the same global state (MT19937 key and position, ``has_gauss``,
``gauss``) and raise its ValueErrors with its messages, checked before
anything is allocated or drawn.  The parameters cover each algorithm's
branches and switch points (Poisson's lam 10, binomial's mean 30,
hypergeometric's sample 10, gamma's shape 1, beta's Johnk region, the
geometric search at p 1/3) and NaN, signed zeros, infinities and tiny values
where NumPy's checks let them through.  Parameter combinations on which
NumPy's own loop never ends are left out (noted where they are).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.compare import strict_jit

R = np.random


def state():
    s = np.random.get_state(legacy=False)
    return (s["state"]["key"].tobytes(), s["state"]["pos"], s["has_gauss"],
            np.float64(s["gauss"]).tobytes())


def same(got, want):
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and \
            all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, np.ndarray):
        return isinstance(got, np.ndarray) and got.dtype == want.dtype and \
            got.shape == want.shape and got.tobytes() == want.tobytes()
    if type(got) is not type(want):
        return False
    if isinstance(want, float):
        return np.float64(got).tobytes() == np.float64(want).tobytes()
    return got == want


def outcome(f, *args):
    try:
        return ("ok", f(*args))
    except ValueError as e:
        return ("raise", type(e), str(e))


def compare(jf, py, seed, *args, cached=False):
    """One compiled and one interpreted call from the same state (with a cached
    second Gaussian when ``cached``): same outcome, values and state."""
    np.random.seed(seed)
    if cached:
        np.random.standard_normal()
    got, got_state = outcome(jf, *args), state()
    np.random.seed(seed)
    if cached:
        np.random.standard_normal()
    want, want_state = outcome(py, *args), state()
    assert got[0] == want[0], (py.__name__, args, got, want)
    if got[0] == "ok":
        assert same(got[1], want[1]), (py.__name__, args, got, want)
    else:
        assert got == want, (py.__name__, args)
    assert got_state == want_state, (py.__name__, args)


def every_draw(a, b, n):
    """Each function with size=n (some with a tuple), then each scalar form."""
    sized = (R.exponential(a, n), R.standard_exponential(n), R.poisson(a, n),
             R.poisson(a * 4.0, (2, n)), R.binomial(n, b, n), R.geometric(b, n),
             R.gamma(a, b, n), R.standard_gamma(a, size=n), R.beta(a, b, n),
             R.chisquare(a, n), R.standard_t(a, size=n), R.lognormal(a, b, n),
             R.laplace(a, b, n), R.logistic(a, b, (n, 2)), R.gumbel(a, b, n),
             R.rayleigh(b, n), R.weibull(a, n), R.pareto(a, n), R.power(a, n),
             R.standard_cauchy(n), R.triangular(-a, 0.0, b, n), R.f(a, b, n),
             R.wald(a, b, n), R.negative_binomial(a, b, n),
             R.noncentral_chisquare(a, b, n), R.noncentral_f(a, b, a + b, n),
             R.vonmises(a, b, n), R.logseries(b * 0.99, n), R.zipf(a + 1.0, n),
             R.hypergeometric(n, 7, min(n + 7, 12), size=n))
    scalars = (R.exponential(), R.standard_exponential(), R.poisson(), R.poisson(a * 9.0),
               R.binomial(n, b), R.geometric(b), R.gamma(a), R.standard_gamma(a),
               R.beta(a, b), R.chisquare(a), R.standard_t(a), R.lognormal(), R.laplace(),
               R.logistic(scale=b), R.gumbel(a), R.rayleigh(), R.weibull(a), R.pareto(a),
               R.power(a), R.standard_cauchy(), R.triangular(a, a, a + b), R.f(b, a),
               R.wald(b, a), R.negative_binomial(a, b), R.noncentral_chisquare(b, a),
               R.noncentral_f(b, a, b), R.vonmises(-a, b * 1e7), R.logseries(b * 0.5),
               R.zipf(a * 20.0 + 1.0), R.hypergeometric(n + 20, 30, 25), R.randn())
    return sized, scalars


def test_every_distribution_draws_numpys_values():
    jf = strict_jit(every_draw)
    for a in (0.001, 0.3, 1.0, 2.5, 40.0):
        for b in (0.01, 0.3333, 0.34, 1.0):
            for n in (0, 1, 150):
                compare(jf, every_draw, int(a * 1000 + b * 100 + n), a, b, n,
                        cached=n == 1)


def sizes(a, b, n):
    return (R.gamma(a, b, size=n), R.poisson(a, size=(n, 2, 3)), R.wald(a, b, ()),
            R.binomial(5, b, (0, n)), R.zipf(a + 1.5, n), R.standard_cauchy((1,)))


def test_sizes_none_zero_one_many_and_tuples():
    jf = strict_jit(sizes)
    for n in (0, 1, 2, 37, -1):
        compare(jf, sizes, n + 5, 1.5, 0.5, n)


# ------------------------------------------------- checks and edge values
def nonneg_kind(x, y, n):     # CONS_NON_NEGATIVE (-0.0 rejected, NaN through)
    return (R.exponential(x, n), R.exponential(x), R.standard_gamma(x, n),
            R.gamma(x, y, n), R.gamma(y, x), R.weibull(x, n), R.weibull(y),
            R.rayleigh(x, n), R.lognormal(y, x, n), R.laplace(y, x, n),
            R.logistic(y, x, n), R.gumbel(y, x))


def positive_kind(x, y, n):   # CONS_POSITIVE (0 rejected, NaN through)
    return (R.beta(x, y, n), R.beta(y, x), R.chisquare(x, n), R.standard_t(x),
            R.pareto(x, n), R.power(x), R.f(x, y, n), R.f(y, x), R.wald(x, y, n),
            R.wald(y, x))


def noncentral_kind(x, y, n):
    if y > 1e15:                # (NumPy's Poisson of a huge mean never ends)
        y = 3.0
    return (R.noncentral_chisquare(x, y, n), R.noncentral_chisquare(x, y),
            R.noncentral_f(x, 2.0, y, n), R.noncentral_f(2.0, x, y))


def unit_kind(x, y, n):       # the bounded ones: p in (0, 1], [0, 1), [0, 1]
    out = (R.geometric(x, n), R.geometric(y), R.logseries(x, n), R.logseries(y))
    if x != x or x <= 1e-6 or y != y or y > 1e5:  # (huge Poisson means never end)
        return out, R.negative_binomial(y, 0.5 if x == x else x, n), 0
    return out, R.negative_binomial(y, x, n), R.negative_binomial(y, x)


def shape_kind(x, y, n):      # zipf's a > 1, vonmises' kappa, triangular's order
    a = x if x < 1000.0 else 2.0   # (NumPy's legacy zipf loops from about 1025)
    kappa = y if y < 1e150 else 5.0   # (and its vonmises at an infinite kappa)
    return (R.zipf(a, n), R.vonmises(x, kappa, n), R.vonmises(y, kappa),
            R.triangular(x, 0.5, y, n), R.triangular(x, x, y))


EDGES = [0.0, -0.0, -1.0, 0.5, 1.0, 1.5, 1e-300, 3e-300, 2.9e-103, 1e-17, 0.999,
         float("nan"), float("inf")]


@pytest.mark.parametrize("py", [nonneg_kind, positive_kind, noncentral_kind, unit_kind,
                                shape_kind])
def test_checks_and_edges_are_numpys(py):
    """Zeros of both signs, NaN, inf and out-of-range parameters: NumPy's
    values or its ValueError (with size 0 too: NumPy checks first)."""
    jf = strict_jit(py)
    for i, x in enumerate(EDGES):
        for y in EDGES:
            for n in (0, 4):
                compare(jf, py, i, x, y, n, cached=n == 0)


def nan_results(mu, kappa, df, nonc):
    return (np.random.vonmises(mu, kappa), np.random.vonmises(mu, kappa, 2),
            np.random.noncentral_chisquare(df, nonc, 3))


def test_nan_parameters_give_numpys_nan():
    """The legacy von Mises and the Poisson branch of the noncentral
    chi-square return C's NAN (the positive one) for a NaN of either sign;
    a NaN parameter met by arithmetic keeps its sign.  (Two NaN parameters of
    opposite signs in one formula are left out: which one survives depends on
    operand order, which LLVM may swap.)"""
    jf = strict_jit(nan_results)
    nan = float("nan")
    for args in ((0.0, nan, 0.5, nan), (0.0, -nan, 0.5, -nan), (-nan, 1.0, 2.0, -nan),
                 (nan, 0.0, -nan, 1.0), (1.0, 1e-9, 0.5, 0.0)):
        compare(jf, nan_results, 5, *args, cached=True)


def poisson(lam, n):
    return np.random.poisson(lam, n), np.random.poisson(lam)


def test_poisson_switch_and_bounds():
    jf = strict_jit(poisson)
    for lam in (0.0, -0.0, 1e-300, 0.5, 9.999999999999998, 10.0, 10.000000000000002,
                1234.5, 1e12, 9.2e18, 9.223372006484771e18, 9.3e18, float("inf"),
                -1.0, float("nan")):
        for n in (0, 3, 200):
            compare(jf, poisson, n, lam, n)


def binomial(n, p, k):
    return (np.random.binomial(n, p, k), np.random.binomial(n, p),
            np.random.binomial(n, p=p, size=(2, 3)))


def test_binomial_inversion_and_btpe():
    """Means up to 30 (inversion, which draws even for n 0 or p 0 in the
    legacy), above (BTPE), p above one half, n up to 2**40 and NumPy's
    ValueErrors (p checked before n)."""
    jf = strict_jit(binomial)
    for n in (0, 1, 29, 60, 61, 1000, 12345, 10**9, 2**40, -1):
        for p in (0.0, 1e-9, 0.03, 0.3, 0.5, 0.5001, 0.9, 1.0, -0.0, -0.1, 1.1,
                  float("nan")):
            for k in (0, 300):
                compare(jf, binomial, n % 97 + k, n, p, k)


def hypergeometric(good, bad, sample, n):
    return R.hypergeometric(good, bad, sample, n), R.hypergeometric(good, bad, sample)


def test_hypergeometric_urn_and_hrua():
    jf = strict_jit(hypergeometric)
    cases = [(5, 7, 1), (5, 7, 10), (5, 7, 11), (7, 5, 12), (0, 9, 5), (9, 0, 5),
             (100, 200, 150), (200, 100, 299), (10**6, 10**7, 5000), (10**12, 3, 40),
             (-1, 5, 3), (5, -1, 3), (5, 5, 0), (2, 2, 5), (2**62, 2**62, 5),
             (-5, -5, -20), (3, 4, -1)]
    for k, (g, b, s) in enumerate(cases):
        for n in (0, 100):
            compare(jf, hypergeometric, k, g, b, s, n)


def zipf_geometric_logseries(a, p, q, n):
    return R.zipf(a, n), R.geometric(p, n), R.logseries(q, n)


def test_discrete_tails():
    """Zipf near a = 1 (draws beyond int64 rejected), geometric inversion
    below p 1/3 (int64's minimum where C's cast of inf gives it), logseries
    near p 1."""
    jf = strict_jit(zipf_geometric_logseries)
    for a, p, q in ((1.001, 1e-17, 0.999999), (1.5, 0.3333333333333333, 0.0),
                    (3.0, 1.0, 1e-300), (1.05, 1e-300, 0.9999999999)):
        compare(jf, zipf_geometric_logseries, 3, a, p, q, 300)


# ------------------------------------------------------------- fallbacks
def array_lam(lam):
    return np.random.poisson(lam)


def float_n(n):
    return np.random.binomial(n, 0.5)


@pytest.mark.parametrize("py, arg", [(array_lam, np.array([1.0, 20.0])), (float_n, 5.0)])
def test_other_arguments_fall_back(py, arg):
    jf = jit(py)
    np.random.seed(4)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = jf(arg)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)
    np.random.seed(4)
    assert np.array_equal(got, py(arg))
