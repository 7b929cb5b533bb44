"""``np.random.RandomState`` objects: passed as arguments and made in the function.

A compiled call on a ``RandomState`` draws the interpreter's values bit for bit,
of its types, raises its errors, and leaves the object's state as the
interpreter does (MT19937 key and position, ``has_gauss``, ``gauss``) -- also
when compiled and interpreted calls alternate, when the call also draws from
the global state, and for a ``RandomState`` of another bit generator.  One made
in the function (``np.random.RandomState(seed)``) draws what NumPy's does from
the same seed.  Both dispatchers where it matters.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit, prange
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted
from hanajit.testing.random_pairs import same
from hanajit.testing.sourcefile import run_twice_cached
from hypothesis import given, settings
from hypothesis import strategies as st


def state(rs):
    s = rs.get_state(legacy=False)
    words = s["state"]
    words = (words["key"].tobytes(), words["pos"]) if s["bit_generator"] == "MT19937" \
        else repr(words)
    return words, s["has_gauss"], np.float64(s["gauss"]).tobytes()


def outcome(f, *args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return ("ok", f(*args))
    except (ValueError, TypeError, OverflowError) as e:
        return ("raise", type(e), str(e))


def make(seed, kind="MT19937", cached=False):
    rs = np.random.RandomState(seed) if kind == "MT19937" else \
        np.random.RandomState(getattr(np.random, kind)(seed))
    if cached:
        rs.standard_normal()            # a second Gaussian cached
    return rs


def compare(jf, py, seed, *args, kind="MT19937", cached=False, calls=1):
    """``calls`` compiled and interpreted calls on twin RandomStates (the global
    state seeded alike for both): same outcomes, same states after."""
    a, b = make(seed, kind, cached), make(seed, kind, cached)
    np.random.seed(seed + 1)
    got = [outcome(jf, a, *args) for _ in range(calls)]
    got_global = state(np.random.mtrand._rand)
    np.random.seed(seed + 1)
    want = [outcome(py, b, *args) for _ in range(calls)]
    for g, w in zip(got, want):
        assert g[0] == w[0], (py.__name__, args, g, w)
        assert same(g[1], w[1]) if g[0] == "ok" else g == w, (py.__name__, args, g, w)
    assert state(a) == state(b), (py.__name__, args)
    assert got_global == state(np.random.mtrand._rand)


# ----------------------------------------------------------------- arguments
def basics(rs, n):
    return (rs.random_sample(), rs.random(), rs.rand(), rs.randn(), rs.standard_normal(),
            rs.normal(1.0, 3.0), rs.uniform(-2.0, 5.0), rs.randint(0, 1000), rs.randint(7),
            rs.random_sample(n), rs.random((n, 2)), rs.rand(n, 2), rs.randn(n),
            rs.standard_normal(n), rs.normal(2.0, 0.5, n), rs.uniform(1, 2, n),
            rs.randint(-3, 3, n), rs.randint(1 << 40, size=n),
            rs.randint(0, 200, n, dtype=np.uint8), rs.randint(-9, 9, dtype=np.int16),
            rs.randint(0, 2, n, dtype=bool), rs.randint(5, 1 << 62, n, dtype=np.uint64))


@pytest.mark.parametrize("kind", ["MT19937", "PCG64", "Philox"])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_basic_methods(mode, kind, n):
    compare(jitted(basics), basics, 3 + n, n, kind=kind, calls=2)
    compare(jitted(basics), basics, 4 + n, n, kind=kind, cached=True)


def choices(rs, a, p, x):
    rs.shuffle(x)
    return (rs.choice(10), rs.choice(10, 3), rs.choice(a, (2, 2)), rs.choice(a, 3, p=p),
            rs.choice(7, 4, replace=False), rs.choice(a, 2, False, p), rs.permutation(6),
            rs.permutation(a), x.copy())


def test_choice_shuffle_permutation(mode):
    a = np.arange(5.0) * 1.5
    p = np.array([0.1, 0.2, 0.3, 0.25, 0.15])
    for seed in range(4):
        compare(jitted(choices), choices, seed, a, p, np.arange(8))


def rows(rs, x):
    rs.shuffle(x)
    return rs.permutation(x), x.copy()


def test_shuffle_and_permutation_of_rows():
    compare(jit(rows), rows, 5, np.arange(24.0).reshape(6, 4))


def every_draw(rs, a, b, n):
    """Each distribution with size=n (some with a tuple), then each scalar form."""
    sized = (rs.exponential(a, n), rs.standard_exponential(n), rs.poisson(a, n),
             rs.poisson(a * 4.0, (2, n)), rs.binomial(n, b, n), rs.geometric(b, n),
             rs.gamma(a, b, n), rs.standard_gamma(a, size=n), rs.beta(a, b, n),
             rs.chisquare(a, n), rs.standard_t(a, size=n), rs.lognormal(a, b, n),
             rs.laplace(a, b, n), rs.logistic(a, b, (n, 2)), rs.gumbel(a, b, n),
             rs.rayleigh(b, n), rs.weibull(a, n), rs.pareto(a, n), rs.power(a, n),
             rs.standard_cauchy(n), rs.triangular(-a, 0.0, b, n), rs.f(a, b, n),
             rs.wald(a, b, n), rs.negative_binomial(a, b, n),
             rs.noncentral_chisquare(a, b, n), rs.noncentral_f(a, b, a + b, n),
             rs.vonmises(a, b, n), rs.logseries(b * 0.99, n), rs.zipf(a + 1.0, n),
             rs.hypergeometric(n, 7, min(n + 7, 12), size=n))
    scalars = (rs.exponential(), rs.standard_exponential(), rs.poisson(),
               rs.poisson(a * 9.0), rs.binomial(n, b), rs.geometric(b), rs.gamma(a),
               rs.standard_gamma(a), rs.beta(a, b), rs.chisquare(a), rs.standard_t(a),
               rs.lognormal(), rs.laplace(), rs.logistic(scale=b), rs.gumbel(a),
               rs.rayleigh(), rs.weibull(a), rs.pareto(a), rs.power(a),
               rs.standard_cauchy(), rs.triangular(a, a, a + b), rs.f(b, a), rs.wald(b, a),
               rs.negative_binomial(a, b), rs.noncentral_chisquare(b, a),
               rs.noncentral_f(b, a, b), rs.vonmises(-a, b * 1e7), rs.logseries(b * 0.5),
               rs.zipf(a * 20.0 + 1.0), rs.hypergeometric(n + 20, 30, 25), rs.randn())
    return sized, scalars


def test_every_distribution_as_a_method():
    jf = jit(every_draw)
    for a in (0.001, 0.3, 1.0, 2.5, 40.0):
        for b in (0.01, 0.3333, 0.34, 1.0):
            for n in (0, 1, 60):
                compare(jf, every_draw, int(a * 1000 + b * 100 + n), a, b, n,
                        cached=n == 1)


def errors(rs, scale, low, high, p):
    return rs.normal(0.0, scale), rs.randint(low, high), rs.geometric(p, 2)


@pytest.mark.parametrize("args", [(-1.0, 0, 5, 0.5), (1.0, 5, 5, 0.5), (1.0, 0, 5, 1.5),
                                  (1.0, -1, 3, np.nan), (np.nan, 0, 1, 0.2)])
def test_errors_are_numpys(args):
    compare(jit(errors), errors, 6, *args)


def with_global(rs, n):
    x = rs.randn(n) + np.random.randn(n)
    return x, rs.randn(), np.random.randn(), rs.gamma(0.5), np.random.gamma(0.5)


def test_the_object_and_the_global_state_stay_apart(mode):
    for n in (1, 2, 3):
        compare(jitted(with_global), with_global, n, n, cached=n == 2, calls=2)


def one_gaussian(rs):
    return rs.randn()


def test_cached_gaussian_crosses_between_compiled_and_interpreted():
    jf = jit(one_gaussian)
    a, b = make(11), make(11)
    order = [jf, one_gaussian, one_gaussian, jf, jf, one_gaussian, jf]
    got = [f(a) for f in order]
    want = [one_gaussian(b) for _ in order]
    assert got == want and state(a) == state(b)


def reseed(rs, s):
    x = rs.randn()
    rs.seed(s)
    return x, rs.random(), rs.randn(2)


@pytest.mark.parametrize("s", [0, 1, 123456789, 2**32 - 1, -1, 2**32])
def test_seed_method(mode, s):
    compare(jitted(reseed), reseed, 8, s, cached=True)


def test_seed_of_another_bit_generator_raises_numpys_typeerror():
    compare(jit(reseed), reseed, 8, 3, kind="PCG64")


class Mine(np.random.RandomState):
    def random_sample(self, size=None):
        return 0.5


def sample_one(rs):
    return rs.random_sample()


def state_of(rs):
    return rs.get_state()


@pytest.mark.parametrize("py, arg", [(sample_one, Mine(1)), (state_of, np.random.RandomState(1))])
def test_subclasses_and_other_methods_fall_back(py, arg):
    with pytest.warns(HanaJitFallbackWarning):
        got = jit(py)(arg)
    assert same(got, py(arg)) if py is sample_one else got[0] == "MT19937"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 6),
       shape=st.sampled_from([(), (3,), (2, 2), (0, 3)]))
def test_many_seeds_and_shapes(seed, n, shape):
    compare(jitted(basics), basics, seed % (2**31), n)
    compare(jitted(shaped), shaped, seed % (2**31), shape, cached=True)


def shaped(rs, shape):
    return (rs.random_sample(shape), rs.standard_normal(shape), rs.gamma(1.5, 2.0, shape),
            rs.randint(0, 9, shape, dtype=np.int8), rs.binomial(20, 0.3, shape))


# --------------------------------------------------------- made in the function
def seeded(s, n):
    rs = np.random.RandomState(s)
    x = rs.randn(n)
    return x, rs.randint(0, 100, n), rs.gamma(2.0), rs.random(), np.random.random()


@pytest.mark.parametrize("s", [0, 1, 5, 2**32 - 1, -1, 2**32, 2**63 - 1])
def test_made_in_the_function(mode, s):
    jf = jitted(seeded)
    np.random.seed(2)
    got = [outcome(jf, s, n) for n in (0, 1, 4)]
    after = state(np.random.mtrand._rand)
    np.random.seed(2)
    want = [outcome(seeded, s, n) for n in (0, 1, 4)]
    assert all(g[0] == w[0] and (same(g[1], w[1]) if g[0] == "ok" else g == w)
               for g, w in zip(got, want)), (got, want)
    assert after == state(np.random.mtrand._rand)


def seeded_unsigned(s):
    return np.random.RandomState(s).random()


def test_seed_of_other_integer_types():
    for s in (np.uint64(7), np.uint64(2**63 + 1), np.uint8(200), np.int16(-3), True):
        assert outcome(jit(seeded_unsigned), s) == outcome(seeded_unsigned, s)


def reseeded_in_a_loop(n):
    total = 0.0
    for k in range(n):
        rs = np.random.RandomState(k)
        rs.seed(k + 1)
        total += rs.standard_normal() + rs.standard_normal()
    return total


def test_made_in_a_loop():
    assert same(jit(reseeded_in_a_loop)(20), reseeded_in_a_loop(20))


def copied():
    rs = np.random.RandomState(1)
    other = rs
    return other.random()


def entropy(n):
    return np.random.RandomState().random(n)


def test_copies_fall_back_and_entropy_gives_fresh_streams():
    with pytest.warns(HanaJitFallbackWarning, match="copied"):
        assert jit(copied)() == copied()
    jf = jit(entropy)
    a, b = jf(4), jf(4)
    assert a.shape == (4,) and not np.array_equal(a, b)


@pytest.mark.parametrize("entropy_words", [(0, 0, 0, 0), (1, 2, 3, 4),
                                           (2**32 - 1, 5, 2**31, 77)])
def test_entropy_seeding_is_seedsequences(entropy_words):
    """``RandomState()``'s MT19937 from four entropy words: ``MT19937.__init__``
    of ``SeedSequence`` of those words (key 0 set, position 623)."""
    from hanajit.lib.random.legacy_algorithms import randomstate_entropy_words
    words = randomstate_entropy_words(*[np.uint64(w) for w in entropy_words])
    entropy = sum(w << (32 * k) for k, w in enumerate(entropy_words))
    want = np.random.MT19937(np.random.SeedSequence(entropy)).state["state"]
    key = words[12:324].view(np.uint32)
    assert np.array_equal(key, want["key"]) and int(words[324] & 0xFFFFFFFF) == want["pos"]


def prange_draws(rs, out):
    for i in prange(out.shape[0]):
        out[i] = rs.random() + rs.randn()


def prange_made_inside(out):
    for i in prange(out.shape[0]):
        out[i] = np.random.RandomState(i).random()


def test_prange_loops_run_serially_in_order():
    from hanajit.errors import HanaJitParallelWarning
    got, want = np.zeros(30), np.zeros(30)
    a, b = make(4), make(4)
    with pytest.warns(HanaJitParallelWarning):
        jit(parallel=True)(prange_draws)(a, got)
    prange_draws(b, want)
    assert same(got, want) and state(a) == state(b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitParallelWarning)
        jit(parallel=True)(prange_made_inside)(got)
    prange_made_inside(want)
    assert same(got, want)


CACHED = """
import json
import numpy as np
from hanajit import jit

@jit(cache=True)
def draws(rs, n):
    return rs.randn(n), rs.randint(0, 1000, n, dtype=np.uint16), rs.gamma(2.0)

@jit(cache=True)
def made(seed, n):
    rs = np.random.RandomState(seed)
    return rs.standard_normal(n), rs.multivariate_normal(np.zeros(2), np.eye(2), n)

a, b = np.random.RandomState(3), np.random.RandomState(3)
ok = [all(np.array_equal(x, y) for x, y in zip(draws(a, 5), draws.py_func(b, 5)))]
ok.append(a.get_state(legacy=False)["gauss"] == b.get_state(legacy=False)["gauss"])
ok.append(all(np.array_equal(x, y) for x, y in zip(made(7, 4), made.py_func(7, 4))))
print(json.dumps(ok))
"""


def test_disk_cache_keeps_randomstate_kernels(tmp_path):
    """The kernels hold no process address: a second process loads them from
    the cache and links MT19937's functions afresh."""
    lines = run_twice_cached(tmp_path, CACHED, "randomstate_kernels", "test-cpu-random")
    assert lines == ["[true, true, true]"] * 2
