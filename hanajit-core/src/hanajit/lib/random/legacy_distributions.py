"""The legacy ``RandomState`` distributions (``np.random.exponential``, ``gamma``,
``binomial``, ``hypergeometric`` ...), ported from NumPy's
``src/legacy/legacy-distributions.c`` and compiled by hanajit.

Every ``<name>(rng, *params)`` draws one value through ``rng``, the
``RandomState``'s bit generator (``legacy_more.py`` makes it from
``prims.legacy_words(st)``), as the C function ``mtrand.pyx`` calls does; those
that draw Gaussians take ``st`` too, ``(rng, st, *params)`` (``LegacyDistribution.gaussian``):
the legacy Gaussian is the polar method with its second value cached in the
``RandomState`` at ``st`` (``legacy_algorithms.gauss``); the legacy exponential
is ``-log(1 - U)``; where
``mtrand.pyx`` calls the shared ``random_*`` of ``distributions.c`` (Poisson,
Laplace, Gumbel, logistic, triangular, BTPE, the geometric search) the
Generator's port is called.  Divisions that may meet a zero are C's
(``prims.fdiv``); C's ``(long)`` of a double is :func:`c_long` (x86-64's
``INT64_MIN`` for NaN and values beyond int64).
"""
import numpy as np

from .. import prims
from . import binomial_algorithm as hb
from . import more_distributions as md
from .distributions import loggam, poisson_draw
from .legacy_algorithms import gauss

INT64_MIN = -9223372036854775808


def c_long(x):
    """C's ``(long)x`` on x86-64 (``cvttsd2si``): the integer part, or
    ``INT64_MIN`` for NaN and values outside int64."""
    if x >= -9.223372036854775808e18 and x < 9.223372036854775808e18:
        return prims.to_int64(x)
    return INT64_MIN


# ------------------------------------------------- checks only the legacy has
def check_negative_binomial(n, p):
    """CONS_POSITIVE of ``n`` (NaN passes), CONS_BOUNDED_0_1 of ``p``."""
    if n <= 0.0:
        raise ValueError("n <= 0")
    if not (p >= 0.0 and p <= 1.0):
        raise ValueError("p < 0, p > 1 or p is NaN")


def check_hypergeometric(ngood, nbad, nsample):
    """``RandomState.hypergeometric``'s checks in its order (the sum wraps as
    C's int64 does)."""
    if ngood + nbad < nsample:
        raise ValueError("ngood + nbad < nsample")
    if ngood < 0:
        raise ValueError("ngood < 0")
    if nbad < 0:
        raise ValueError("nbad < 0")
    if nsample < 1:
        raise ValueError("nsample < 1 or nsample is NaN")


# ------------------------------------------------------------- continuous
def standard_exponential(rng):
    return -prims.log(1.0 - prims.rng_next_double(rng))


def exponential(rng, scale):
    return scale * standard_exponential(rng)


def standard_gamma(rng, st, shape):
    """``legacy_standard_gamma``: Marsaglia and Tsang on the legacy Gaussian."""
    if shape == 1.0:
        return standard_exponential(rng)
    if shape == 0.0:
        return 0.0
    if shape < 1.0:
        while True:
            u = prims.rng_next_double(rng)
            v = standard_exponential(rng)
            if u <= 1.0 - shape:
                x = prims.pow(u, 1.0 / shape)
                if x <= v:
                    return x
            else:
                y = -prims.log((1.0 - u) / shape)
                x = prims.pow(1.0 - shape + shape * y, 1.0 / shape)
                if x <= v + y:
                    return x
    b = shape - 1.0 / 3.0
    c = 1.0 / np.sqrt(9.0 * b)
    while True:
        x = gauss(st)
        v = 1.0 + c * x
        while v <= 0.0:
            x = gauss(st)
            v = 1.0 + c * x
        v = v * v * v
        u = prims.rng_next_double(rng)
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            return b * v
        if prims.log(u) < 0.5 * x * x + b * (1.0 - v + prims.log(v)):
            return b * v


def gamma(rng, st, shape, scale):
    return scale * standard_gamma(rng, st, shape)


def chisquare(rng, st, df):
    return 2.0 * standard_gamma(rng, st, df / 2.0)


def beta(rng, st, a, b):
    """``legacy_beta``: Johnk's algorithm when both are at most 1, else a
    ratio of gammas."""
    if a <= 1.0 and b <= 1.0:
        while True:
            u = prims.rng_next_double(rng)
            v = prims.rng_next_double(rng)
            x = prims.pow(u, 1.0 / a)
            y = prims.pow(v, 1.0 / b)
            if x + y <= 1.0:
                if x + y > 0.0:
                    return x / (x + y)
                logx = prims.log(u) / a
                logy = prims.log(v) / b
                logm = logx if logx > logy else logy
                logx = logx - logm
                logy = logy - logm
                return prims.exp(logx - prims.log(prims.exp(logx) + prims.exp(logy)))
    ga = standard_gamma(rng, st, a)
    gb = standard_gamma(rng, st, b)
    return prims.fdiv(ga, ga + gb)


def standard_t(rng, st, df):
    num = gauss(st)
    denom = standard_gamma(rng, st, df / 2.0)
    return prims.fdiv(np.sqrt(df / 2.0) * num, np.sqrt(denom))


def lognormal(rng, st, mean, sigma):
    return prims.exp(mean + sigma * gauss(st))


def rayleigh(rng, mode):
    return mode * np.sqrt(-2.0 * prims.log1p(-prims.rng_next_double(rng)))


def weibull(rng, a):
    if a == 0.0:
        return 0.0
    return prims.pow(standard_exponential(rng), 1.0 / a)


def pareto(rng, a):
    return prims.exp(standard_exponential(rng) / a) - 1.0


def power(rng, a):
    return prims.pow(1.0 - prims.exp(-standard_exponential(rng)), 1.0 / a)


def standard_cauchy(rng, st):
    num = gauss(st)                       # (GCC evaluates the left operand first)
    return prims.fdiv(num, gauss(st))


def f(rng, st, dfnum, dfden):
    num = chisquare(rng, st, dfnum) * dfden
    return prims.fdiv(num, chisquare(rng, st, dfden) * dfnum)


def wald(rng, st, mean, scale):
    """``legacy_wald``: NumPy 1.16's form."""
    mu_2l = prims.fdiv(mean, 2.0 * scale)
    y = gauss(st)
    y = mean * y * y
    x = mean + mu_2l * (y - np.sqrt(4.0 * scale * y + y * y))
    u = prims.rng_next_double(rng)
    if u <= prims.fdiv(mean, mean + x):
        return x
    return prims.fdiv(mean * mean, x)


def noncentral_chisquare(rng, st, df, nonc):
    """``legacy_noncentral_chisquare`` (its NaN guard after the draws)."""
    if nonc == 0.0:
        return chisquare(rng, st, df)
    if 1.0 < df:
        chi2 = chisquare(rng, st, df - 1.0)
        n = gauss(st) + np.sqrt(nonc)
        return chi2 + n * n
    i = poisson_draw(rng, nonc / 2.0)
    out = chisquare(rng, st, df + 2 * i)
    if nonc != nonc:
        return np.nan
    return out


def noncentral_f(rng, st, dfnum, dfden, nonc):
    t = noncentral_chisquare(rng, st, dfnum, nonc) * dfden
    return prims.fdiv(t, chisquare(rng, st, dfden) * dfnum)


def vonmises(rng, mu, kappa):
    """``legacy_vonmises``: uniform below kappa 1e-8, else Best and Fisher's
    rejection (no wrapped normal for a large kappa, unlike the Generator's)."""
    if kappa != kappa:
        return np.nan
    if kappa < 1e-8:
        return np.pi * (2.0 * prims.rng_next_double(rng) - 1.0)
    if kappa < 1e-5:
        s = 1.0 / kappa + kappa
    else:
        r = 1.0 + np.sqrt(1.0 + 4.0 * kappa * kappa)
        rho = (r - np.sqrt(2.0 * r)) / (2.0 * kappa)
        s = prims.fdiv(1.0 + rho * rho, 2.0 * rho)
    while True:
        u = prims.rng_next_double(rng)
        z = prims.cos(np.pi * u)
        w = prims.fdiv(1.0 + s * z, s + z)
        y = kappa * (s - w)
        v = prims.rng_next_double(rng)
        if y * (2.0 - y) - v >= 0.0 or prims.log(prims.fdiv(y, v)) + 1.0 - y >= 0.0:
            break
    u = prims.rng_next_double(rng)
    result = np.arccos(w)
    if u < 0.5:
        result = -result
    result = result + mu
    neg = result < 0.0
    mod = prims.fmod(prims.fabs(result) + np.pi, 2.0 * np.pi) - np.pi
    if neg:
        mod = mod * -1.0
    return mod


# --------------------------------------------------------------- discrete
def negative_binomial(rng, st, n, p):
    y = prims.fdiv(1.0 - p, p) * standard_gamma(rng, st, n)
    return poisson_draw(rng, y)


def geometric(rng, p):
    """``legacy_random_geometric``: the shared search from p >= 1/3, else
    ``(long)ceil(log1p(-U) / log(1 - p))``."""
    if p >= 0.333333333333333333333333:
        return md.geometric_draw(rng, p)
    u = prims.rng_next_double(rng)
    return c_long(np.ceil(prims.fdiv(prims.log1p(-u), prims.log(1.0 - p))))


def zipf(rng, a):
    """``legacy_random_zipf``: rejection, without the Generator's shortcuts."""
    am1 = a - 1.0
    b = prims.pow(2.0, am1)
    while True:
        u = 1.0 - prims.rng_next_double(rng)
        v = prims.rng_next_double(rng)
        x = prims.floor(prims.pow(u, prims.fdiv(-1.0, am1)))
        if x > 9.223372036854775807e18 or x < 1.0:
            continue
        t = prims.pow(1.0 + 1.0 / x, am1)
        if prims.fdiv(v * x * (t - 1.0), b - 1.0) <= t / b:
            return c_long(x)


def logseries(rng, p):
    """``legacy_logseries``."""
    r = prims.log(1.0 - p)
    while True:
        v = prims.rng_next_double(rng)
        if v >= p:
            return 1
        u = prims.rng_next_double(rng)
        q = 1.0 - prims.exp(r * u)
        if v <= q * q:
            result = c_long(prims.floor(1.0 + prims.fdiv(prims.log(v), prims.log(q))))
            if result < 1 or v == 0.0:
                continue
            return result
        if v >= q:
            return 1
        return 2


def binomial(rng, n, p):
    """``legacy_random_binomial``: as the Generator's but without its early 0
    for ``n == 0`` or ``p == 0`` (the inversion then draws one uniform)."""
    if p <= 0.5:
        if p * n <= 30.0:
            return hb.inversion(rng, n, p)
        return hb.btpe(rng, n, p)
    q = 1.0 - p
    if q * n <= 30.0:
        return n - hb.inversion(rng, n, q)
    return n - hb.btpe(rng, n, q)


def _hypergeometric_hyp(rng, good, bad, sample):
    d1 = bad + good - sample
    d2 = float(min(bad, good))
    y = d2
    k = sample
    while y > 0.0:
        u = prims.rng_next_double(rng)
        y = y - float(c_long(prims.floor(u + y / float(d1 + k))))
        k = k - 1
        if k == 0:
            break
    z = c_long(d2 - y)
    if good > bad:
        z = sample - z
    return z


def _lg4(a, b, c, d):
    return loggam(float(a)) + loggam(float(b)) + loggam(float(c)) + loggam(float(d))


def _hypergeometric_hrua(rng, good, bad, sample):
    """``random_hypergeometric_hrua`` of the legacy file (ratio of uniforms)."""
    mingoodbad = min(good, bad)
    popsize = good + bad
    maxgoodbad = max(good, bad)
    m = min(sample, popsize - sample)
    d4 = float(mingoodbad) / float(popsize)
    d5 = 1.0 - d4
    d6 = m * d4 + 0.5
    d7 = np.sqrt(float(popsize - m) * sample * d4 * d5 / float(popsize - 1) + 0.5)
    d8 = 1.7155277699214135 * d7 + 0.8989161620588988
    d9 = c_long(prims.floor(float(m + 1) * (mingoodbad + 1) / float(popsize + 2)))
    d10 = _lg4(d9 + 1, mingoodbad - d9 + 1, m - d9 + 1, maxgoodbad - m + d9 + 1)
    d11a = min(m, mingoodbad) + 1.0
    d11b = prims.floor(d6 + 16.0 * d7)
    d11 = d11a if d11a < d11b else d11b
    while True:
        x = prims.rng_next_double(rng)
        y = prims.rng_next_double(rng)
        w = d6 + prims.fdiv(d8 * (y - 0.5), x)
        if w < 0.0 or w >= d11:
            continue
        z = c_long(prims.floor(w))
        t = d10 - _lg4(z + 1, mingoodbad - z + 1, m - z + 1, maxgoodbad - m + z + 1)
        if x * (4.0 - x) - 3.0 <= t:
            break
        if x * (x - t) >= 1.0:
            continue
        if 2.0 * prims.log(x) <= t:
            break
    if good > bad:
        z = m - z
    if m < sample:
        z = good - z
    return z


def hypergeometric(rng, good, bad, sample):
    """``legacy_random_hypergeometric``: HRUA above a sample of 10, else the
    urn (HYP)."""
    if sample > 10:
        return _hypergeometric_hrua(rng, good, bad, sample)
    if sample > 0:
        return _hypergeometric_hyp(rng, good, bad, sample)
    return 0
