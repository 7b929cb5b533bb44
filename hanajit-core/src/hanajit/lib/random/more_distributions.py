"""More of ``np.random.Generator``'s continuous distributions and ``geometric``,
ported from NumPy 2's ``distributions.c`` and compiled by hanajit (the draws and
conventions of ``distributions.py``).

Each distribution is ``<name>_draw(rng, *params)``, one value, and a
``check_*`` of its parameters -- ``_generator.pyx``'s ``check_constraint``
with its messages: ``generator.py`` calls the check once (NumPy checks before
it allocates), then the draw, once or for each element in order.  ``standard_gamma`` is Marsaglia and Tsang's method
above shape 1 and NumPy's rejection below it; ``beta`` Johnk's algorithm when
both parameters are at most 1 (in logarithms once either power underflows),
else a ratio of gammas.  Divisions and ``expm1`` are C's: a zero divisor or an
overflow gives inf or NaN, never an exception.
"""
import math

import numpy as np

from .. import prims
from .distributions import poisson_draw, standard_exponential, standard_normal


# ------------------------------------------------------ check_constraint's rules
def non_negative(v, name):
    """CONS_NON_NEGATIVE: a sign bit set (-0.0 too), NaN allowed."""
    if v == v and prims.copysign(1.0, v) < 0.0:
        raise ValueError(f"{name} < 0")


def positive(v, name):
    """CONS_POSITIVE: at most 0 (NaN allowed)."""
    if v <= 0.0:
        raise ValueError(f"{name} <= 0")


def check_gamma(shape, scale):
    non_negative(shape, "shape")
    non_negative(scale, "scale")


def check_shape(shape):
    non_negative(shape, "shape")


def check_beta(a, b):
    positive(a, "a")
    positive(b, "b")


def check_df(df):
    positive(df, "df")


def check_sigma(mean, sigma):
    non_negative(sigma, "sigma")


def check_loc_scale(loc, scale):
    non_negative(scale, "scale")


def check_scale(scale):
    non_negative(scale, "scale")


def check_a_non_negative(a):
    non_negative(a, "a")


def check_a_positive(a):
    positive(a, "a")


def check_f(dfnum, dfden):
    positive(dfnum, "dfnum")
    positive(dfden, "dfden")


def check_wald(mean, scale):
    positive(mean, "mean")
    positive(scale, "scale")


def check_negative_binomial(n, p):
    """CONS_POSITIVE_NOT_NAN of ``n``, then CONS_BOUNDED_GT_0_1 of ``p``."""
    if n != n:
        raise ValueError("n must not be NaN")
    if n <= 0.0:
        raise ValueError("n <= 0")
    check_p(p)


def check_noncentral_chisquare(df, nonc):
    positive(df, "df")
    non_negative(nonc, "nonc")


def check_noncentral_f(dfnum, dfden, nonc):
    positive(dfnum, "dfnum")
    positive(dfden, "dfden")
    non_negative(nonc, "nonc")


def check_vonmises(mu, kappa):
    non_negative(kappa, "kappa")


def check_logseries(p):
    """CONS_BOUNDED_LT_0_1."""
    if not (p >= 0.0 and p < 1.0):
        raise ValueError("p < 0, p >= 1 or p is NaN")


def check_zipf(a):
    """CONS_GT_1."""
    if not a > 1.0:
        raise ValueError("a <= 1 or a is NaN")


def check_p(p):
    """CONS_BOUNDED_GT_0_1."""
    if not (p > 0.0 and p <= 1.0):
        raise ValueError("p <= 0, p > 1 or p contains NaNs")


def check_triangular(left, mode, right):
    if left > mode:
        raise ValueError("left > mode")
    if mode > right:
        raise ValueError("mode > right")
    if left == right:
        raise ValueError("left == right")


# ---------------------------------------------------------------- the draws
def standard_gamma_draw(rng, shape):
    """``random_standard_gamma``."""
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
    c = 1.0 / math.sqrt(9.0 * b)
    while True:
        x = standard_normal(rng)
        v = 1.0 + c * x
        while v <= 0.0:
            x = standard_normal(rng)
            v = 1.0 + c * x
        v = v * v * v
        u = prims.rng_next_double(rng)
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            return b * v
        if prims.log(u) < 0.5 * x * x + b * (1.0 - v + prims.log(v)):
            return b * v


def beta_draw(rng, a, b):
    """``random_beta``."""
    if a <= 1.0 and b <= 1.0:
        if a < 3e-103 and b < 3e-103:
            # a sample other than 0 or 1 is then less likely than 1e-100: NumPy
            # draws one uniform against the proportion a / (a + b)
            u = prims.rng_next_double(rng)
            return 1.0 if (a + b) * u < a else 0.0
        while True:
            u = prims.rng_next_double(rng)
            v = prims.rng_next_double(rng)
            x = prims.pow(u, prims.fdiv(1.0, a))      # (a or b 0: dirichlet's)
            y = prims.pow(v, prims.fdiv(1.0, b))
            xpy = x + y
            if xpy <= 1.0 and u + v > 0.0:
                if x > 0.0 and y > 0.0:
                    return x / xpy
                logx = prims.fdiv(prims.log(u), a)
                logy = prims.fdiv(prims.log(v), b)
                logm = logx if logx > logy else logy
                logx = logx - logm
                logy = logy - logm
                return prims.exp(logx - prims.log(prims.exp(logx) + prims.exp(logy)))
    ga = standard_gamma_draw(rng, a)
    gb = standard_gamma_draw(rng, b)
    return prims.fdiv(ga, ga + gb)


def standard_t_draw(rng, df):
    num = standard_normal(rng)
    denom = standard_gamma_draw(rng, df / 2.0)
    return prims.fdiv(math.sqrt(df / 2.0) * num, math.sqrt(denom))


def laplace_draw(rng, loc, scale):
    while True:
        u = prims.rng_next_double(rng)
        if u >= 0.5:
            return loc - scale * prims.log(2.0 - u - u)
        if u > 0.0:
            return loc + scale * prims.log(u + u)


def logistic_draw(rng, loc, scale):
    u = prims.rng_next_double(rng)
    while u <= 0.0:
        u = prims.rng_next_double(rng)
    return loc + scale * prims.log(u / (1.0 - u))


def gumbel_draw(rng, loc, scale):
    while True:
        u = 1.0 - prims.rng_next_double(rng)
        if u < 1.0:
            return loc - scale * prims.log(-prims.log(u))


def weibull_draw(rng, a):
    if a == 0.0:
        return 0.0
    return prims.pow(standard_exponential(rng), 1.0 / a)


def triangular_draw(rng, left, mode, right):
    base = right - left
    leftbase = mode - left
    ratio = leftbase / base
    leftprod = leftbase * base
    rightprod = (right - mode) * base
    u = prims.rng_next_double(rng)
    if u <= ratio:
        return left + math.sqrt(u * leftprod)
    return right - math.sqrt((1.0 - u) * rightprod)


def f_draw(rng, dfnum, dfden):
    """``random_f``: a ratio of chi-squares."""
    num = 2.0 * standard_gamma_draw(rng, dfnum / 2.0) * dfden
    return prims.fdiv(num, 2.0 * standard_gamma_draw(rng, dfden / 2.0) * dfnum)


def wald_draw(rng, mean, scale):
    """``random_wald``, NumPy 2's form without cancellation:
    ``X = mean * (1 - 2 / (1 + sqrt(1 + 4 * scale / Y)))``, ``Y = mean * N**2``."""
    y = standard_normal(rng)
    y = mean * y * y
    x = mean * (1.0 - 2.0 / (1.0 + math.sqrt(1.0 + prims.fdiv(4.0 * scale, y))))
    u = prims.rng_next_double(rng)
    if u <= mean / (mean + x):
        return x
    return prims.fdiv(mean * mean, x)


def negative_binomial_draw(rng, n, p):
    """``random_negative_binomial``: a Poisson of a gamma."""
    return poisson_draw(rng, (1.0 - p) / p * standard_gamma_draw(rng, n))


def geometric_draw(rng, p):
    """``random_geometric``: a search from p >= 1/3, else inversion."""
    if p >= 0.333333333333333333333333:
        x = 1
        total = p
        prod = p
        q = 1.0 - p
        u = prims.rng_next_double(rng)
        while u > total:
            prod = prod * q
            total = total + prod
            x = x + 1
        return x
    z = np.ceil(-standard_exponential(rng) / prims.log1p(-p))
    if z >= 9.223372036854776e+18:
        return 9223372036854775807
    return int(z)


# ------------------------------------------ the draws that are one expression
def gamma_draw(rng, shape, scale):
    return scale * standard_gamma_draw(rng, shape)


def chisquare_draw(rng, df):
    return 2.0 * standard_gamma_draw(rng, df / 2.0)


def lognormal_draw(rng, mean, sigma):
    return prims.exp(mean + sigma * standard_normal(rng))


def rayleigh_draw(rng, scale):
    return scale * math.sqrt(2.0 * standard_exponential(rng))


def pareto_draw(rng, a):
    return np.expm1(standard_exponential(rng) / a)


def power_draw(rng, a):
    return prims.pow(-np.expm1(-standard_exponential(rng)), 1.0 / a)


def standard_cauchy_draw(rng):
    return prims.fdiv(standard_normal(rng), standard_normal(rng))


def noncentral_chisquare_draw(rng, df, nonc):
    """``random_noncentral_chisquare``."""
    if nonc != nonc:
        return nonc
    if nonc == 0.0:
        return chisquare_draw(rng, df)
    if 1.0 < df:
        chi2 = chisquare_draw(rng, df - 1.0)
        n = standard_normal(rng) + math.sqrt(nonc)
        return chi2 + n * n
    i = poisson_draw(rng, nonc / 2.0)
    return chisquare_draw(rng, df + 2 * i)


def noncentral_f_draw(rng, dfnum, dfden, nonc):
    t = noncentral_chisquare_draw(rng, dfnum, nonc) * dfden
    return prims.fdiv(t, chisquare_draw(rng, dfden) * dfnum)


def vonmises_draw(rng, mu, kappa):
    """``random_vonmises``: uniform below kappa 1e-8, a wrapped normal above 1e6,
    else Best and Fisher's rejection."""
    if kappa != kappa:
        return kappa
    if kappa < 1e-8:
        return math.pi * (2.0 * prims.rng_next_double(rng) - 1.0)
    if kappa < 1e-5:
        s = 1.0 / kappa + kappa
    elif kappa <= 1e6:
        r = 1.0 + math.sqrt(1.0 + 4.0 * kappa * kappa)
        rho = (r - math.sqrt(2.0 * r)) / (2.0 * kappa)
        s = (1.0 + rho * rho) / (2.0 * rho)
    else:
        result = mu + math.sqrt(1.0 / kappa) * standard_normal(rng)
        if result < -math.pi:
            result = result + 2.0 * math.pi
        if result > math.pi:
            result = result - 2.0 * math.pi
        return result
    while True:
        u = prims.rng_next_double(rng)
        z = prims.cos(math.pi * u)
        w = (1.0 + s * z) / (s + z)
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
    mod = prims.fmod(abs(result) + math.pi, 2.0 * math.pi) - math.pi
    if neg:
        mod = -mod
    return mod


def logseries_draw(rng, p):
    """``random_logseries``."""
    r = prims.log1p(-p)
    while True:
        v = prims.rng_next_double(rng)
        if v >= p:
            return 1
        u = prims.rng_next_double(rng)
        q = -np.expm1(r * u)
        if v <= q * q:
            fr = np.floor(1.0 + prims.fdiv(prims.log(v), prims.log(q)))
            if fr < 1.0 or v == 0.0:
                continue
            return int(fr)
        if v >= q:
            return 1
        return 2


def zipf_draw(rng, a):
    """``random_zipf``: rejection from a truncated continuous Zipf, 1 from a >= 1025."""
    if a >= 1025.0:
        return 1
    am1 = a - 1.0
    b = prims.pow(2.0, am1)
    umin = prims.pow(9.223372036854775807e18, -am1)
    while True:
        u01 = prims.rng_next_double(rng)
        u = u01 * umin + (1.0 - u01)
        v = prims.rng_next_double(rng)
        x = np.floor(prims.pow(u, -1.0 / am1))
        if x > 9.223372036854775807e18 or x < 1.0:
            continue
        t = prims.pow(1.0 + 1.0 / x, am1)
        if v * x * (t - 1.0) / (b - 1.0) <= t / b:
            return int(x)
