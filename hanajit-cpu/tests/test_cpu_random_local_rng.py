"""``np.random.default_rng(seed)`` and ``Generator(PCG64(seed))`` made inside a
compiled function: the compiled code seeds PCG64 itself (SeedSequence's
hashing, ``lib/random/seed_algorithms.py``) and every draw equals the
interpreter's for the same seed, bit for bit.  Without a seed each call gets a
fresh stream.  Copies, tuples, returns, array seeds and parallel loops fall back
or stay serial with a plain reason; no memory is kept across calls.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit, prange
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError

SEEDS = (0, 1, 2, 7, 12345, 2**31, 2**32 - 1, 2**32, 2**32 + 7, 2**53 + 1,
         2**62 + 3, 2**63 - 1)


def same(x, y) -> bool:
    if isinstance(x, tuple):
        return len(x) == len(y) and all(same(a, b) for a, b in zip(x, y))
    x, y = np.asarray(x), np.asarray(y)
    return x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()


def scalars(seed):
    rng = np.random.default_rng(seed)
    return (rng.random(), rng.normal(), rng.integers(0, 100), rng.uniform(1.0, 2.0),
            rng.standard_exponential(), rng.integers(-5, 2**40), rng.normal(3.0, 0.5),
            rng.exponential(2.0), rng.standard_normal(), rng.poisson(4.0),
            rng.integers(10, endpoint=True))


def arrays(n, seed):
    rng = np.random.Generator(np.random.PCG64(seed))
    return (rng.random(n), rng.normal(0.0, 2.0, size=(2, 3)), rng.integers(0, 7, n),
            rng.uniform(-1.0, 1.0, n), rng.standard_exponential(n), rng.poisson(2.5, n))


def walk(n, seed):
    rng = np.random.default_rng(seed)
    x = 0.0
    for i in range(n):
        x += rng.normal()
    return x


def choices(seed):
    rng = np.random.default_rng(seed=seed)
    x = np.arange(10.0)
    rng.shuffle(x)
    return x, rng.choice(x, 4), rng.permutation(6), rng.choice(5, 3, replace=False)


def two(seed):
    a = np.random.default_rng(seed)
    b = np.random.default_rng(seed + 1)
    return a.random() - b.random(), a.integers(0, 10), b.random(3)


def reseeded(n):
    out = np.empty(n)
    for i in range(n):
        rng = np.random.default_rng(i)
        out[i] = rng.random() + rng.normal()
    return out


@jit
def _draw_two(r):
    return r.random() + r.normal()


def passed(seed):
    r = np.random.default_rng(seed)
    a = _draw_two(r)
    return a, r.random()


def nested_and_comprehension(seed):
    r = np.random.default_rng(seed)

    def g(k):
        return r.random() * k
    x = g(2.0) + g(3.0)
    return x, np.array([r.normal() for _ in range(4)])


def unseeded(n):
    return np.random.default_rng().random(n)


def unseeded_scalar():
    return np.random.default_rng(None).random()


def negative(seed):
    return np.random.default_rng(seed).random()


def fails_after(seed, k):
    r = np.random.default_rng(seed)
    x = r.random(100)
    if k > 0:
        raise ValueError("late")
    return x.sum()


K = {f.__name__: jit(f, fallback=False) for f in (
    scalars, arrays, walk, choices, two, reseeded, passed, unseeded, unseeded_scalar,
    negative, fails_after, nested_and_comprehension)}


@pytest.mark.parametrize("seed", SEEDS)
def test_scalar_draws(seed):
    assert same(K["scalars"](seed), scalars(seed))


@pytest.mark.parametrize("seed", (0, 3, 2**40 + 9))
def test_array_draws(seed):
    assert same(K["arrays"](7, seed), arrays(7, seed))
    assert same(K["arrays"](0, seed), arrays(0, seed))


def test_draws_in_a_loop():
    for seed in (1, 99, 2**33):
        assert same(K["walk"](50, seed), walk(50, seed))


def test_choice_shuffle_permutation():
    for seed in (0, 5, 77):
        assert same(K["choices"](seed), choices(seed))


def test_two_generators():
    assert same(K["two"](11), two(11))


def test_reseeded_in_a_loop():
    assert same(K["reseeded"](300), reseeded(300))


def test_passed_to_another_function():
    assert same(K["passed"](4), passed(4))


def test_nested_function_and_comprehension():
    f = nested_and_comprehension
    assert same(K[f.__name__](6), f(6))


def test_seed_types():
    f = K["negative"]
    for s in (np.int8(5), np.uint8(200), np.int32(2**31 - 1), True,
              np.uint64(2**64 - 1), np.uint64(2**63 + 11)):
        assert same(f(s), negative(s))


def test_negative_seed_raises():
    for s in (-1, np.int32(-7)):
        with pytest.raises(ValueError, match="expected non-negative integer"):
            negative(s)
        with pytest.raises(ValueError, match="expected non-negative integer"):
            K["negative"](s)


def test_unseeded_streams_are_fresh():
    a, b = K["unseeded"](8), K["unseeded"](8)
    assert a.shape == (8,) and a.dtype == np.float64
    assert not np.array_equal(a, b)
    assert ((a >= 0) & (a < 1)).all()
    vals = [K["unseeded_scalar"]() for _ in range(4000)]
    assert 0.47 < np.mean(vals) < 0.53 and len(set(vals)) == len(vals)


def test_no_leak():
    import resource
    f, g = K["fails_after"], K["walk"]

    def rss():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    def run(n):
        for k in range(n):
            g(3, k)
            K["unseeded"](2)
            try:
                f(k, k % 2)
            except ValueError:
                pass
    run(2000)
    before = rss()
    run(100_000)
    assert rss() - before < 4096          # KiB: 10^5 blocks of 96 B each would be 9 MiB


# ------------------------------------------------------------------ fallbacks
def copied(seed):
    r = np.random.default_rng(seed)
    q = r
    return q.random()


def in_tuple(seed):
    t = (np.random.default_rng(seed), 1)
    return t[1]


def bitgen_variable(seed):
    bg = np.random.PCG64(seed)
    return np.random.Generator(bg).random()


def returned(seed):
    return np.random.default_rng(seed)


def array_seed(seed):
    return np.random.default_rng([seed, 1]).random()


@pytest.mark.parametrize("f, reason", [
    (copied, "copied to another name"), (in_tuple, "put in a tuple"),
    (bitgen_variable, "kept in a variable"), (returned, "cannot hand it back"),
    (array_seed, "a seed of type"),
])
def test_falls_back_with_a_reason(f, reason):
    with pytest.warns(HanaJitFallbackWarning, match=reason):
        r = jit(f)(5)
    want = f(5)
    if isinstance(want, np.random.Generator):
        assert r.random() == want.random()
    else:
        assert r == want


def in_prange(n):
    out = np.zeros(n)
    for i in prange(n):
        r = np.random.default_rng(i)
        out[i] = r.random()
    return out


def test_parallel_loop_stays_serial():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = jit(in_prange)(20)
    assert any("makes a random generator in the loop" in str(x.message) for x in w)
    assert same(got, in_prange(20))


def test_refused_where_code_runs_outside_python():
    f = jit(walk)
    assert f(3, 1) == walk(3, 1)
    with pytest.raises(UnsupportedError, match="NumPy's PCG64 functions in this process"):
        f.ir_module("(int64, int64)")
    g = jit(unseeded_scalar)
    g()
    with pytest.raises(UnsupportedError, match="OS entropy"):
        g.specialize()


def zero_d_draws(seed):
    rng = np.random.default_rng(seed)
    return (rng.random(()), rng.integers(0, 5, size=()), rng.normal(1.0, 2.0, ()),
            rng.standard_normal(()), rng.uniform(0, 1, ()), rng.random((0, 3)))


def test_size_of_an_empty_tuple_is_a_0d_array():
    # size=() made an internal compiler error (new_array read the first of no dims)
    f = jit(zero_d_draws, fallback=False)
    for seed in (0, 7, 2**40):
        assert same(f(seed), zero_d_draws(seed))
