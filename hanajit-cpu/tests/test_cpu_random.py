"""``np.random.Generator`` arguments: compiled draws equal the interpreter's.

For every method and every bit generator NumPy ships, a seeded generator gives
the same values compiled as interpreted, and ``bit_generator.state`` is equal
afterwards; errors are NumPy's (type and message) with the same state.  Each
test runs through the generated dispatcher and the Python dispatcher
(``HANAJIT_NATIVE_DISPATCH``).
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.dispatch_modes import jitted
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.random_pairs import pair, same_state

BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")
I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1


def outcome(f, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return ("ok", f(*args))
    except (ValueError, OverflowError) as exc:
        return ("raise", type(exc), str(exc))


def check(py, kind, seed, *args, n=64, repeat=3, dtype=np.float64):
    """Compiled ``py(rng, out, *args)`` against the interpreter: the same values
    bit for bit, the same exception, the same state afterwards.  Repeated so
    later calls run through the generated dispatcher."""
    jf = jitted(py)
    a, b = pair(kind, seed)
    for _ in range(repeat):
        got, want = np.zeros(n, dtype), np.zeros(n, dtype)
        r1, r2 = outcome(jf, a, got, *args), outcome(py, b, want, *args)
        assert r1 == r2, (py.__name__, kind, seed, args)
        assert np.array_equal(got.view(np.int64), want.view(np.int64)), (py.__name__, args)
        assert same_state(a.bit_generator.state, b.bit_generator.state)
    return got


def fill_random(rng, out):
    for i in range(out.shape[0]):
        out[i] = rng.random()


def fill_standard_normal(rng, out):
    for i in range(out.shape[0]):
        out[i] = rng.standard_normal()


def fill_standard_exponential(rng, out):
    for i in range(out.shape[0]):
        out[i] = rng.standard_exponential()


def fill_normal(rng, out, loc, scale):
    for i in range(out.shape[0]):
        out[i] = rng.normal(loc, scale)


def fill_normal_kw(rng, out, scale):
    for i in range(out.shape[0]):
        out[i] = rng.normal(scale=scale)


def fill_uniform(rng, out, low, high):
    for i in range(out.shape[0]):
        out[i] = rng.uniform(low, high)


def fill_exponential(rng, out, scale):
    for i in range(out.shape[0]):
        out[i] = rng.exponential(scale)


def fill_integers(rng, out, low, high):
    for i in range(out.shape[0]):
        out[i] = rng.integers(low, high)


def fill_integers_closed(rng, out, low, high):
    for i in range(out.shape[0]):
        out[i] = rng.integers(low, high, endpoint=True)


def fill_integers_one(rng, out, high):
    for i in range(out.shape[0]):
        out[i] = rng.integers(high)


def fill_mixed(rng, out):
    for i in range(out.shape[0]):
        out[i] = rng.normal(1.0, 2.0) + rng.integers(-5, 5) * rng.random() \
            - rng.exponential(0.5)


@pytest.mark.parametrize("kind", BIT_GENERATORS)
def test_every_method_every_bit_generator(mode, kind):
    check(fill_random, kind, 1)
    check(fill_standard_normal, kind, 2, n=4000)       # the ziggurat's tails too
    check(fill_standard_exponential, kind, 3, n=4000)
    check(fill_normal, kind, 4, 1.5, 0.25)
    check(fill_normal_kw, kind, 5, 3.0)
    check(fill_uniform, kind, 6, -2.0, 7.5)
    check(fill_exponential, kind, 7, 2.0)
    check(fill_integers, kind, 8, -10, 1000, dtype=np.int64)
    check(fill_integers_closed, kind, 9, 0, 6, dtype=np.int64)
    check(fill_integers_one, kind, 10, 1 << 40, dtype=np.int64)
    check(fill_mixed, kind, 11)


@pytest.mark.parametrize("low, high", [
    (0, 1), (5, 6), (I64_MIN, I64_MAX), (I64_MIN, I64_MIN + 1), (I64_MAX - 1, I64_MAX),
    (0, 1 << 32), (0, (1 << 32) - 1), (0, (1 << 32) + 1), (-(1 << 31), 1 << 31),
    (0, (1 << 63) - 1), (-3, 1 << 62), (7, 7), (8, 7), (0, 0), (0, -4)])
def test_integers_edges(mode, low, high):
    for kind in ("PCG64", "MT19937"):
        check(fill_integers, kind, 3, low, high, dtype=np.int64)
        check(fill_integers_closed, kind, 4, low, high, dtype=np.int64)


def test_integers_whole_int64_range_closed(mode):
    # rng = 2**64 - 1: NumPy takes next_uint64 itself
    got = check(fill_integers_closed, "SFC64", 1, I64_MIN, I64_MAX, dtype=np.int64)
    assert len(set(got.tolist())) > 60


@pytest.mark.parametrize("args", [(0.0, 0.0), (1.0, -0.0), (1.0, -1.0), (0.0, np.nan),
                                  (np.inf, 1.0), (-1.0, np.inf)])
def test_normal_edges(mode, args):
    check(fill_normal, "PCG64", 1, *args)


@pytest.mark.parametrize("args", [(0.0, 0.0), (1.0, 1.0), (2.0, 1.0), (0.0, np.inf),
                                  (np.nan, 1.0), (-1e308, 1e308), (3, 4)])
def test_uniform_edges(mode, args):
    check(fill_uniform, "Philox", 2, *args)


@pytest.mark.parametrize("scale", [0.0, -0.0, -2.0, np.nan, np.inf, 5])
def test_exponential_edges(mode, scale):
    check(fill_exponential, "MT19937", 3, scale)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), kind=st.sampled_from(BIT_GENERATORS),
       low=st.integers(I64_MIN, I64_MAX), width=st.integers(0, 2**64 - 1),
       loc=st.floats(-1e6, 1e6), scale=st.floats(0, 1e6))
def test_many_seeds(seed, kind, low, width, loc, scale):
    high = min(low + width, I64_MAX)
    check(fill_integers_closed, kind, seed, low, high, n=16, repeat=1, dtype=np.int64)
    check(fill_normal, kind, seed, loc, scale, n=200, repeat=1)
    check(fill_uniform, kind, seed, loc, loc + scale, n=16, repeat=1)
    check(fill_exponential, kind, seed, scale, n=200, repeat=1)


@jit
def _walk_step(rng, x):
    return x + rng.standard_normal()


def walk(rng, n):
    x = 0.0
    for _ in range(n):
        x = _walk_step(rng, x)
    return x


def test_generator_passed_on_to_another_jitted_function(mode):
    a, b = pair("PCG64", 42)
    jw = jit(walk)
    for _ in range(3):
        assert jw(a, 100) == walk(b, 100)
    assert same_state(a.bit_generator.state, b.bit_generator.state)


def test_returns_python_float_and_int(mode):
    def draw(rng):
        return rng.random(), rng.integers(10)
    a, b = pair("PCG64", 0)
    got, want = jit(draw)(a), draw(b)
    assert got == want and type(got[0]) is float


def test_unsupported_forms_fall_back(mode):
    def draw(rng):
        return rng.normal(np.zeros(3), 1.0)
    a, b = pair("PCG64", 0)
    with pytest.warns(HanaJitFallbackWarning, match="normal"):
        got = jit(draw)(a)
    assert np.array_equal(got, draw(b))


TABLE_F = tuple(k * 0.5 - 3.0 for k in range(40))
TABLE_I = tuple(k * k - 7 for k in range(40))


def table_reads(i):
    return TABLE_F[i] + TABLE_I[i]


@pytest.mark.parametrize("i", [0, 1, 17, 39, -1, -40, 40, -41])
def test_constant_tables_indexed_at_run_time(i):
    # the ziggurat tables' path (TableLoad): values and IndexError as CPython
    def outcome_of(f):
        try:
            return ("ok", f(i))
        except IndexError as exc:
            return ("raise", str(exc))
    assert outcome_of(jit(table_reads)) == outcome_of(table_reads)


# ------------------------------------------------------- size=, poisson, choice
def results_equal(x, y) -> bool:
    if isinstance(x, tuple):
        return len(x) == len(y) and all(results_equal(p, q) for p, q in zip(x, y))
    if isinstance(x, np.ndarray):
        return (isinstance(y, np.ndarray) and x.dtype == y.dtype and x.shape == y.shape
                and np.array_equal(x, y))
    return x == y


def check_result(py, kind, seed, *args, repeat=3):
    """``py(rng, *args)`` compiled and interpreted: equal results (dtype and shape
    of arrays too), exceptions and states."""
    jf = jitted(py)
    a, b = pair(kind, seed)
    for _ in range(repeat):
        r1, r2 = outcome(jf, a, *args), outcome(py, b, *args)
        assert r1[0] == r2[0] and results_equal(r1[1:], r2[1:]), (py.__name__, args, r1, r2)
        assert same_state(a.bit_generator.state, b.bit_generator.state)


def sized_draws(rng, size):
    return (rng.random(size), rng.standard_normal(size), rng.normal(1.0, 2.0, size),
            rng.uniform(-1, 3, size), rng.exponential(2.0, size),
            rng.standard_exponential(size), rng.integers(-7, 100, size),
            rng.integers(1 << 40, size=size, endpoint=True), rng.poisson(3.5, size),
            rng.poisson(40.0, size), rng.choice(11, size))


@pytest.mark.parametrize("kind", BIT_GENERATORS)
@pytest.mark.parametrize("size", [5, 0, (2, 3), (0, 4), (1, 1, 3)])
def test_size_forms(mode, kind, size):
    check_result(sized_draws, kind, 12, size)


def sized_normal(rng, scale, size):
    return rng.normal(0.0, scale, size)


def sized_uniform(rng, low, high, size):
    return rng.uniform(low, high, size)


def sized_integers(rng, low, high, size):
    return rng.integers(low, high, size)


@pytest.mark.parametrize("scale, size", [(-1.0, 3), (1.0, -2), (-1.0, 0), (2.0, (3, -1))])
def test_size_errors(mode, scale, size):
    check_result(sized_normal, "PCG64", 1, scale, size)
    check_result(sized_uniform, "PCG64", 2, 1.0, 1.0 + scale, size)
    check_result(sized_integers, "PCG64", 3, 0, int(scale), size)


def poisson_one(rng, lam):
    return rng.poisson(lam)


@pytest.mark.parametrize("lam", [0.0, 1e-300, 0.5, 3.0, 9.999999, 10.0, 10.5, 77.7, 1e4,
                                 1e12, 9.2e18, 1e19, -1.0, np.nan, np.inf, 5])
def test_poisson(mode, lam):
    for kind in ("PCG64", "MT19937", "SFC64"):
        check_result(poisson_one, kind, 4, lam)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), kind=st.sampled_from(BIT_GENERATORS),
       lam=st.floats(0, 1e9))
def test_poisson_many_seeds(seed, kind, lam):
    check_result(poisson_fifty, kind, seed, lam, repeat=1)


def poisson_fifty(rng, lam):
    return rng.poisson(lam, 50)


def choose(rng, a):
    return rng.choice(a)


def choose_sized(rng, a, size):
    return rng.choice(a, size)


@pytest.mark.parametrize("a", [1, 7, 1 << 40, 0, -3, np.arange(5.0), np.arange(1),
                               np.array([True, False, True]), np.zeros(0)])
def test_choice(mode, a):
    check_result(choose, "PCG64", 5, a)
    check_result(choose_sized, "Philox", 6, a, 4)
    check_result(choose_sized, "MT19937", 7, a, (2, 0))


def shuffled(rng, x):
    y = x.copy()
    rng.shuffle(y)
    return y


def permuted(rng, x):
    return rng.permutation(x)


@pytest.mark.parametrize("kind", BIT_GENERATORS)
@pytest.mark.parametrize("x", [np.arange(10.0), np.arange(0), np.arange(1), np.arange(2),
                               np.arange(1000, dtype=np.int32), np.arange(12)[::-3]])
def test_shuffle_permutation(mode, kind, x):
    check_result(shuffled, kind, 8, x)
    check_result(permuted, kind, 9, x)
    check_result(permuted, kind, 10, len(x))


def test_permutation_of_a_negative_int(mode):
    check_result(permuted, "PCG64", 1, -4)


def range_draws(rng, out):
    for i in range(out.shape[0]):
        out[i] = rng.standard_normal()


def test_parallel_true_loop_with_a_generator_draws_one_stream_per_chunk():
    # a promoted loop draws as a prange loop does (test_cpu_random_parallel.py):
    # chunk k from hanajit.parallel_streams.parallel_streams(rng, T)[k]
    from hanajit import parallel_streams as ps
    from hanajit.errors import HanaJitParallelWarning
    a, b = pair("PCG64", 3)
    got, want = np.zeros(50), np.zeros(50)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitParallelWarning)
        jit(parallel=True, workers=4)(range_draws)(a, got)
    for k, g in enumerate(ps.parallel_streams(b, 4)):
        lo, hi = ps.chunk_bounds(k, 4, 50)
        want[lo:hi] = [g.standard_normal() for _ in range(lo, hi)]
    ps.advance(b, 4)
    assert np.array_equal(got, want)
    assert same_state(a.bit_generator.state, b.bit_generator.state)


@pytest.mark.parametrize("kind", ["PCG64", "MT19937"])
def test_helpers_run_uncompiled_give_numpy_draws(kind):
    # the ported algorithms themselves, in the interpreter (prims through ctypes)
    from hanajit.lib.random import distributions as hr
    a, b = pair(kind, 21)
    with np.errstate(over="ignore"):
        got = [hr.standard_normal(a) for _ in range(300)]
        got += [hr.standard_exponential(a) for _ in range(300)]
        got += [int(hr.integers(a, -5, 1 << 40, False)) for _ in range(50)]
        got += [hr.poisson(a, 30.0) for _ in range(50)]
    want = [b.standard_normal() for _ in range(300)]
    want += [b.standard_exponential() for _ in range(300)]
    want += [int(b.integers(-5, 1 << 40)) for _ in range(50)]
    want += [b.poisson(30.0) for _ in range(50)]
    assert got == want
    assert same_state(a.bit_generator.state, b.bit_generator.state)


def hands_back(rng):
    return rng


def test_returning_the_generator_falls_back(mode):
    a = np.random.default_rng(0)
    with pytest.warns(HanaJitFallbackWarning, match="return of a random generator"):
        assert jit(hands_back)(a) is a
