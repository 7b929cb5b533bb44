"""``Generator.gamma``, ``standard_gamma``, ``beta``, ``chisquare``,
``standard_t``, ``lognormal``, ``laplace``, ``logistic``, ``gumbel``,
``rayleigh``, ``weibull``, ``pareto``, ``power``, ``standard_cauchy``,
``triangular``, ``geometric``, ``f``, ``wald``, ``negative_binomial``,
``noncentral_chisquare``, ``noncentral_f``, ``vonmises``, ``logseries``,
``zipf`` and ``binomial``: compiled draws equal NumPy's bit for bit,
with the same bit generator state afterwards and NumPy's ValueErrors.

The parameters cover each algorithm's branches: gamma's shape 0, below 1, 1
and above; beta's Johnk region (both at most 1, with powers that underflow) and
its gamma ratio; geometric's search (p >= 1/3) and inversion; NaN and signed
zeros where NumPy's checks let them through or stop them.
"""
from __future__ import annotations

import numpy as np
import pytest

from hanajit.testing.compare import strict_jit
from hanajit.testing.random_pairs import compare


def every_draw(rng, a, b, n):
    """Each distribution with size=n, then each scalar form."""
    sized = (rng.gamma(a, b, n), rng.standard_gamma(a, size=n), rng.beta(a, b, n),
             rng.chisquare(a, n), rng.standard_t(a, size=n), rng.lognormal(a, b, n),
             rng.laplace(a, b, n), rng.logistic(a, b, (2, n)), rng.gumbel(a, b, n),
             rng.rayleigh(b, n), rng.weibull(a, n), rng.pareto(a, n), rng.power(a, n),
             rng.standard_cauchy(n), rng.triangular(-a, 0.0, b, n), rng.geometric(b, n),
             rng.f(a, b, n), rng.wald(a, b, n), rng.negative_binomial(a, b, n),
             rng.noncentral_chisquare(a, b, n), rng.noncentral_f(a, b, a + b, n),
             rng.vonmises(a, b, n), rng.logseries(b * 0.99, n), rng.zipf(a + 1.0, n))
    scalars = (rng.gamma(a), rng.standard_gamma(a), rng.beta(a, b), rng.chisquare(a),
               rng.standard_t(a), rng.lognormal(), rng.laplace(), rng.logistic(scale=b),
               rng.gumbel(a), rng.rayleigh(), rng.weibull(a), rng.pareto(a), rng.power(a),
               rng.standard_cauchy(), rng.triangular(a, a, a + b), rng.geometric(b),
               rng.f(b, a), rng.wald(b, a), rng.negative_binomial(a, b),
               rng.noncentral_chisquare(b, a), rng.noncentral_f(b, a, b),
               rng.vonmises(-a, b * 1e7), rng.logseries(b * 0.5), rng.zipf(a * 30.0 + 1.0))
    return sized, scalars


@pytest.mark.parametrize("kind", ["PCG64", "MT19937"])
def test_every_distribution_draws_numpys_values(kind):
    jf = strict_jit(every_draw)
    for a in (0.001, 0.3, 1.0, 2.5, 40.0):
        for b in (0.01, 0.3333, 0.34, 1.0):
            for n in (0, 1, 150):
                compare(jf, every_draw, kind, int(a * 1000 + b * 100 + n), a, b, n)


def gamma_kind(rng, shape, scale, n):      # CONS_NON_NEGATIVE
    return rng.gamma(shape, scale, n), rng.gamma(shape, scale), rng.laplace(scale=scale)


def beta_kind(rng, a, b, n):               # CONS_POSITIVE
    return rng.beta(a, b, n), rng.beta(a, b), rng.pareto(a)


def geometric_kind(rng, p, unused, n):     # CONS_BOUNDED_GT_0_1
    return rng.geometric(p, n), rng.geometric(p)


def wald_kind(rng, mean, scale, n):        # CONS_POSITIVE, C's division at N = 0
    return rng.wald(mean, scale, n), rng.wald(mean, scale), rng.f(mean, scale)


def negative_binomial_kind(rng, m, p, n):  # CONS_POSITIVE_NOT_NAN, CONS_BOUNDED_GT_0_1
    if p < 1e-6 or m > 1e5:                 # (NumPy's Poisson of a huge mean never ends)
        return rng.negative_binomial(1.0, 0.5, n), 0
    return rng.negative_binomial(m, p, n), rng.negative_binomial(m, p)


def rare_kind(rng, x, y, n):               # CONS_GT_1, CONS_BOUNDED_LT_0_1, kappa
    return rng.zipf(x, n), rng.logseries(y), rng.vonmises(x, y, n), \
        rng.noncentral_chisquare(x, min(y, 1e15))


def triangular_kind(rng, left, right, n):
    return rng.triangular(left, 0.5, right, n), rng.triangular(left, 0.5, right)


EDGES = [0.0, -0.0, -1.0, 0.5, 1.0, 1.5, 1e-300, 3e-300, 2.9e-103, float("nan"), float("inf")]


@pytest.mark.parametrize("py", [gamma_kind, beta_kind, geometric_kind, triangular_kind,
                                wald_kind, negative_binomial_kind, rare_kind])
def test_checks_and_edges_are_numpys(py):
    """Zeros of both signs, NaN, inf and out-of-range parameters: NumPy's
    values or its ValueError (with size 0 too: NumPy checks first)."""
    jf = strict_jit(py)
    for x in EDGES:
        for y in EDGES:
            for n in (0, 4):
                compare(jf, py, "PCG64", 7, x, y, n)


def binomial(rng, n, p, k):
    return rng.binomial(n, p, k), rng.binomial(n, p), rng.binomial(n, p=p, size=(2, 3))


def test_binomial_inversion_and_btpe():
    """Means below 30 (inversion, restarting past its bound), above (BTPE: the
    triangle, parallelogram, both tails, the squeeze and step 5.3's bound),
    p above one half (n minus a draw at 1 - p), n up to 2**40, and NumPy's
    ValueErrors (p checked before n)."""
    jf = strict_jit(binomial)
    for n in (0, 1, 29, 31, 1000, 12345, 10**9, 2**40, -1):
        for p in (0.0, 1e-9, 0.03, 0.3, 0.5, 0.5001, 0.9, 1.0, -0.1, 1.1, float("nan")):
            for k in (0, 500):
                compare(jf, binomial, "PCG64", n % 97 + k, n, p, k)
    # log1p(-p), not log(1 - p): 1 - 1e-17 is 1.0, and the chance of a nonzero
    # count, about 1%, would be lost
    for n, p in ((10**15, 1e-17), (10**15, 1.0 - 1e-17), (3 * 10**16, 1e-15)):
        compare(jf, binomial, "PCG64", 5, n, p, 2000)
    gen = np.random.default_rng(99)
    for t in range(40):
        n = int(10 ** gen.uniform(0, 9))
        p = float(gen.uniform(0, 1)) ** float(gen.choice([1, 3, 6]))
        compare(jf, binomial, "MT19937", t, n, p, 400)
