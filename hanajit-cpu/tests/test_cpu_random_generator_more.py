"""``Generator.standard_normal`` / ``standard_exponential`` / ``standard_gamma``
with ``dtype=np.float32`` (NumPy's float ziggurats), ``standard_exponential(
method='inv')``, ``hypergeometric``, ``multinomial``, ``dirichlet`` and
``multivariate_hypergeometric`` (both methods): compiled
draws equal NumPy's bit for bit, the bit generator's state afterwards is the
same, and NumPy's ValueErrors (type and message) come in its order.

Parameters cover each algorithm's branches: the ziggurats' tails (enough draws
to reach layer 0), gamma's shape 0, below 1, 1 and above; hypergeometric's
switch between item-by-item sampling and HRUA (a sample of 9/10, within 10 of
the population); dirichlet's stick breaking (every alpha below 0.1, zeros among
them) and its gamma normalisation (0.1 itself, NaN, inf).
"""
from __future__ import annotations

import numpy as np
import pytest

from hanajit.testing.compare import strict_jit
from hanajit.testing.random_pairs import compare, pair

KINDS = ["PCG64", "MT19937", "SFC64"]


# ------------------------------------------------------------ float32 ziggurats
def float_draws(rng, n):
    return (rng.standard_normal(n, dtype=np.float32), rng.standard_normal(dtype=np.float32),
            rng.standard_exponential(n, dtype=np.float32),
            rng.standard_exponential(dtype="f4"),
            rng.standard_exponential(n, method="inv"), rng.standard_exponential(method="inv"),
            rng.standard_exponential(n, np.float32, "inv"),
            rng.standard_exponential(dtype=np.float32, method="inv"),
            rng.standard_normal((2, n), np.float32), rng.standard_normal(n, np.float64),
            rng.standard_exponential((n, 1), dtype=np.float64, method="zig"))


@pytest.mark.parametrize("kind", KINDS)
def test_float32_ziggurats_draw_numpys_values(kind):
    jf = strict_jit(float_draws)
    for n in (0, 1, 7, 30000):          # (30000: each tail and wedge is reached)
        compare(jf, float_draws, kind, 11 + n, n)


def gamma_draws(rng, shape, n):
    return (rng.standard_gamma(shape, n, dtype=np.float32),
            rng.standard_gamma(shape, dtype=np.float32),
            rng.standard_gamma(shape, (n, 2), np.float32), rng.standard_gamma(shape, n),
            rng.standard_gamma(shape=shape))


GAMMA_SHAPES = [0.0, -0.0, -1.0, -1e-50, 1e-50, 1e-3, 0.5, 0.999, 1.0, 1.0000001, 2.5, 1e6,
                1e40, float("nan"), float("inf"), float("-inf")]


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")
@pytest.mark.parametrize("kind", KINDS)
def test_float32_standard_gamma(kind):
    """``random_standard_gamma_f``; the check is of the shape rounded to float32
    (-1e-50 is -0.0 there: ValueError), made before a size is allocated."""
    jf = strict_jit(gamma_draws)
    for shape in GAMMA_SHAPES:
        for n in (0, 3, 500):
            compare(jf, gamma_draws, kind, 5, shape, n)


# ----------------------------------------------------------------- hypergeometric
def hyper(rng, ngood, nbad, nsample, n):
    return rng.hypergeometric(ngood, nbad, nsample, n), \
        rng.hypergeometric(ngood, nbad, nsample), \
        rng.hypergeometric(ngood, nbad, nsample, size=(2, n))


HYPER = [(0, 0, 0), (5, 0, 3), (0, 5, 5), (5, 7, 0), (5, 7, 12), (5, 7, 3), (9, 9, 9),
         (10, 10, 9), (10, 10, 10), (10, 10, 11), (15, 15, 20), (15, 15, 21), (3, 40, 10),
         (40, 3, 30), (100, 200, 50), (200, 100, 250), (1000, 1000000, 500000),
         (999999999, 999999999, 7), (999999999, 999999999, 12345678), (700, 900, 1590),
         # NumPy's errors, in its order
         (10**9, 1, 1), (1, 10**9, 1), (5, 5, 11), (-1, 5, 2), (5, -1, 2), (5, 5, -1),
         (-3, -4, -8), (-1, 10**9, 0)]


@pytest.mark.parametrize("kind", KINDS)
def test_hypergeometric(kind):
    jf = strict_jit(hyper)
    for ngood, nbad, nsample in HYPER:
        for n in (0, 1, 300):
            compare(jf, hyper, kind, abs(ngood + nsample + n), ngood, nbad, nsample, n)


def hyper_types(rng, ngood, nbad, nsample):
    return rng.hypergeometric(ngood, nbad, nsample, 4)


def test_hypergeometric_integer_types():
    jf = strict_jit(hyper_types)
    compare(jf, hyper_types, "PCG64", 1, np.int32(30), np.uint8(40), True)
    compare(jf, hyper_types, "PCG64", 1, np.int32(-30), np.uint8(40), True)


# ------------------------------------------------------------------- multinomial
def multi(rng, count, pvals, n):
    return rng.multinomial(count, pvals, n), rng.multinomial(count, pvals), \
        rng.multinomial(count, pvals, size=(n, 2))


PVALS = [[1.0], [0.0], [0.5], [0.2, 0.3, 0.5], [0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 1.0],
         [1.0, 0.0], [1 / 3, 1 / 3, 1 / 3], [0.1] * 10, [0.3, 0.3, 0.3, 0.3 + 1e-13],
         [0.999, 0.001], [1e-300, 0.5, 0.49], [0.9999999999999, 5e-13, 0.2],
         # NumPy's errors: bounds (NaN too), then the sum of all but the last
         [], [0.5, float("nan")], [-0.0, 1.0], [-0.1, 1.0], [1.1], [0.6, 0.6, 0.0],
         [0.5, 0.5 + 2e-12, 0.0], [float("inf"), 0.0]]


@pytest.mark.parametrize("kind", KINDS)
def test_multinomial(kind):
    jf = strict_jit(multi)
    for p in PVALS:
        for count in (0, 1, 7, 100, 10**6, -1):
            for n in (0, 3):
                compare(jf, multi, kind, count % 97 + n, count, np.array(p, np.float64), n)


def multi_forms(rng, count, ints, strided):
    return rng.multinomial(count, ints, 2), rng.multinomial(count, strided), \
        rng.multinomial(count, (0.25, 0.25, 0.5), 3), rng.multinomial(np.int32(count), (1, 0))


def test_multinomial_forms():
    """An integer array, a strided view, a tuple of floats and of ints; a
    negative size (np.zeros' ValueError, before n's check)."""
    jf = strict_jit(multi_forms)
    p = np.array([0.1, 9.0, 0.2, 9.0, 0.7])[::2]
    for count in (0, 5, 50, -2):
        compare(jf, multi_forms, "PCG64", 3, count, np.array([0, 1, 0]), p)
    compare(jf, multi_forms, "PCG64", 3, 4, np.array([2, 0]), p)
    jm = strict_jit(multi)
    compare(jm, multi, "PCG64", 3, -5, np.array([0.5, 0.5]), -1)


# --------------------------------------------------------------------- dirichlet
def diri(rng, alpha, n):
    return rng.dirichlet(alpha, n), rng.dirichlet(alpha), rng.dirichlet(alpha, (2, n))


ALPHAS = [[], [1.0], [0.05], [0.0], [0.0, 0.0], [0.01, 0.02, 0.03], [0.05, 0.0, 0.01],
          [0.0, 0.05], [0.09999999, 0.05], [0.1, 0.05], [1e-300, 1e-300, 0.01],
          [1.0, 2.0, 3.0], [0.5, 0.5], [30.0, 1e-3, 0.0], [1e5, 1e-5], [0.0, 1.0],
          [float("nan"), 0.01], [float("inf"), 1.0], [0.01, float("nan")],
          [-0.0, 1.0], [0.5, -0.1], [-1e-300]]
# (not -0.0 among alphas below 0.1: NumPy's beta of a = -0.0 never returns)


@pytest.mark.parametrize("kind", KINDS)
def test_dirichlet(kind):
    jf = strict_jit(diri)
    for a in ALPHAS:
        for n in (0, 1, 50):
            compare(jf, diri, kind, len(a) + n, np.array(a, np.float64), n)


def diri_forms(rng, ints, single):
    return rng.dirichlet(ints, 3), rng.dirichlet(single), rng.dirichlet((0.02, 0.03), 2), \
        rng.dirichlet((1, 2, 3))


def test_dirichlet_forms():
    jf = strict_jit(diri_forms)
    for kind in KINDS:
        compare(jf, diri_forms, kind, 9, np.array([1, 0, 2]), np.array([0.5, 2.0], np.float32))
    jd = strict_jit(diri)
    compare(jd, diri, "PCG64", 9, np.array([0.5, 2.0]), -2)


# ----------------------------------------------------------------- fall backs
def test_unsupported_forms_fall_back():
    """Array parameters, float32 pvals, another dtype: the interpreter's answer
    (with a warning naming the reason)."""
    from hanajit import jit

    def f(rng, p):
        return rng.multinomial(3, p), rng.standard_normal(2, dtype=np.float16)
    jf = jit(f)
    r1, r2 = pair("PCG64", 1)
    with pytest.warns(Warning):
        with pytest.raises(TypeError):
            jf(r1, np.array([0.5, 0.5], np.float32))
    with pytest.raises(TypeError):
        f(r2, np.array([0.5, 0.5], np.float32))


# ------------------------------------------------- multivariate_hypergeometric
def mvhg(rng, colors, nsample, size):
    return (rng.multivariate_hypergeometric(colors, nsample, size),
            rng.multivariate_hypergeometric(colors, nsample, size, method="count"),
            rng.multivariate_hypergeometric(colors, nsample), rng.random())


COLORS = [np.array([3, 4, 5]), np.array([10, 0, 2, 50]), np.array([0, 0]),
          np.array([], np.int64), np.array([1000000, 1]), np.array([7], np.int32),
          (20, 1, 300), np.array([-1, 4]), np.array([2**62, 2**62])]


@pytest.mark.parametrize("colors", COLORS, ids=range(len(COLORS)))
@pytest.mark.parametrize("kind", KINDS[:2])
def test_multivariate_hypergeometric(kind, colors):
    """Each method's draws and the complement above half the total; NumPy's
    ValueErrors in its order (nsample, colors, their sum, nsample > sum, then a
    negative size)."""
    jf = strict_jit(mvhg)
    total = int(np.sum(colors)) if np.all(np.asarray(colors) < 2**40) else 0
    for nsample in sorted({0, 1, total // 2, total // 2 + 1, total, total + 1, -1}):
        for size in (None, 3, (2, 2), -1, 0):
            compare(jf, mvhg, kind, 5 + nsample % 7, colors, nsample, size)


def mvhg_method(rng, method):
    return rng.multivariate_hypergeometric((2, 3), 2, method=method)


def test_multivariate_hypergeometric_bad_method():
    compare(strict_jit(mvhg_method), mvhg_method, "PCG64", 1, "other")
