"""A ``Generator`` in a ``prange`` loop: one stream per chunk
(``hanajit.parallel_streams``), the same values as the documented interpreter
equivalent, for the same seed and thread count, and never shared by two chunks.

The interpreter equivalent of a loop run in ``T`` chunks is: chunk ``k`` runs
iterations ``chunk_bounds(k, T, n)`` drawing from ``parallel_streams(rng, T)[k]``,
then ``advance(rng, T)``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit, prange
from hanajit import parallel_streams as ps
from hanajit.errors import HanaJitParallelWarning
from hanajit.testing.jitted import jitted
from hanajit.testing.random_pairs import same_state

BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def make(kind, seed):
    return np.random.Generator(getattr(np.random, kind)(seed))


def fill(rng, out):
    for i in prange(out.shape[0]):
        out[i] = rng.standard_normal() + rng.random()


def fill_ints(rng, out):
    for i in prange(out.shape[0]):
        out[i] = rng.integers(0, 1 << 62)


def pi(rng, n):
    inside = 0
    for i in prange(n):
        x = rng.random()
        y = rng.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def interpreted_fill(rng, out, nchunks, draw):
    """The interpreter equivalent of ``fill``/``fill_ints`` in ``nchunks`` chunks."""
    n = out.shape[0]
    chunks = ps.num_chunks(n, nchunks)
    for k, g in enumerate(ps.parallel_streams(rng, chunks)):
        lo, hi = ps.chunk_bounds(k, chunks, n)
        for i in range(lo, hi):
            out[i] = draw(g)
    ps.advance(rng, chunks)


def interpreted_pi(rng, n, threads):
    chunks = ps.num_chunks(n, threads)
    inside = 0
    for k, g in enumerate(ps.parallel_streams(rng, chunks)):
        lo, hi = ps.chunk_bounds(k, chunks, n)
        for _ in range(lo, hi):
            x = g.random()
            y = g.random()
            if x * x + y * y < 1.0:
                inside += 1
    ps.advance(rng, chunks)
    return 4.0 * inside / n


def run_parallel(f, *args, workers):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitParallelWarning)
        # (one compiled function per kernel, worker count and dispatch mode: the
        # generator kinds and lengths share its specialisation)
        return jitted(f, workers=workers)(*args)


@pytest.mark.parametrize("kind", BIT_GENERATORS)
@pytest.mark.parametrize("workers", [1, 3, 4])
def test_draws_equal_the_interpreter_equivalent(mode, kind, workers):
    a, b = make(kind, 7), make(kind, 7)
    got, want = np.zeros(103), np.zeros(103)
    run_parallel(fill, a, got, workers=workers)
    interpreted_fill(b, want, workers, lambda g: g.standard_normal() + g.random())
    assert np.array_equal(got, want)
    assert same_state(a.bit_generator.state, b.bit_generator.state)
    # and the next draw, from the generator as the loop left it
    assert a.random() == b.random()


@pytest.mark.parametrize("n", [0, 1, 2])
def test_fewer_iterations_than_threads(n):
    a, b = make("PCG64", 5), make("PCG64", 5)
    got, want = np.zeros(n), np.zeros(n)
    run_parallel(fill, a, got, workers=4)
    interpreted_fill(b, want, 4, lambda g: g.standard_normal() + g.random())
    assert np.array_equal(got, want)
    assert same_state(a.bit_generator.state, b.bit_generator.state)


@pytest.mark.parametrize("kind", ["PCG64", "SFC64"])
def test_same_seed_and_threads_same_result(kind):
    f = jitted(fill, workers=4)
    first, second = np.zeros(1000), np.zeros(1000)
    f(make(kind, 11), first)
    f(make(kind, 11), second)
    assert np.array_equal(first, second)
    # other thread counts give other (documented) results
    other = np.zeros(1000)
    jitted(fill, workers=3)(make(kind, 11), other)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize("kind", BIT_GENERATORS)
def test_chunks_never_share_numbers(kind):
    rng = make(kind, 3)
    out = np.zeros(4000, np.int64)
    run_parallel(fill_ints, rng, out, workers=4)
    chunks = [set(out[slice(*ps.chunk_bounds(k, 4, 4000))].tolist()) for k in range(4)]
    after = set(rng.integers(0, 1 << 62, 1000).tolist())
    seen = set()
    for c in chunks + [after]:
        assert not (c & seen)
        seen |= c
    assert len(seen) == 5000


@pytest.mark.parametrize("kind", ["PCG64", "MT19937", "Philox", "PCG64DXSM"])
def test_jumped_chain_is_jumped_k(kind):
    # parallel_streams documents chunk k as bit_generator.jumped(k + 1)
    rng = make(kind, 9)
    streams = ps.parallel_streams(rng, 3)
    for k, g in enumerate(streams):
        assert same_state(g.bit_generator.state, rng.bit_generator.jumped(k + 1).state)


def test_monte_carlo_pi(mode):
    for workers in (2, 4):
        a, b = make("PCG64", 2026), make("PCG64", 2026)
        got = run_parallel(pi, a, 200_000, workers=workers)
        assert got == interpreted_pi(b, 200_000, workers)
        assert abs(got - np.pi) < 0.02
        assert same_state(a.bit_generator.state, b.bit_generator.state)


def draw_through(rng):
    return rng.random()


def passed_on(rng, out):
    for i in prange(out.shape[0]):
        out[i] = draw_through_jitted(rng)


draw_through_jitted = jit(draw_through)


def drawn_and_passed_on(rng, out):
    for i in prange(out.shape[0]):
        out[i] = rng.random() + draw_through_jitted(rng)


@pytest.mark.parametrize("kernel, per", [(passed_on, 1), (drawn_and_passed_on, 2)])
def test_generator_passed_to_a_function_stays_serial(kernel, per):
    # the callee could run a parallel loop of its own in a worker thread, where
    # making streams (under the GIL) is not possible: the loop stays serial
    a, b = make("PCG64", 4), make("PCG64", 4)
    got, want = np.zeros(20), np.zeros(20)
    with pytest.warns(HanaJitParallelWarning, match="random generator 'rng'"):
        jit(parallel=True)(kernel)(a, got)
    for i in range(20):
        want[i] = b.random() + (b.random() if per == 2 else 0.0)
    assert np.array_equal(got, want)
    assert same_state(a.bit_generator.state, b.bit_generator.state)


CACHED = '''
import json
import numpy as np
from hanajit import jit, prange
from hanajit import parallel_streams as ps

@jit(cache=True, workers=3)
def fill(rng, out):
    for i in prange(out.shape[0]):
        out[i] = rng.random()

a, b = np.random.default_rng(8), np.random.default_rng(8)
got, want = np.zeros(30), np.zeros(30)
fill(a, got)
for k, g in enumerate(ps.parallel_streams(b, 3)):
    lo, hi = ps.chunk_bounds(k, 3, 30)
    want[lo:hi] = g.random(hi - lo)
ps.advance(b, 3)
print(json.dumps([bool(np.array_equal(got, want)),
                  a.bit_generator.state == b.bit_generator.state]))
'''


def test_disk_cache_keeps_parallel_stream_kernels(tmp_path):
    # the object code names the stream host functions, linked afresh on load
    from hanajit.testing.sourcefile import run_twice_cached
    lines = run_twice_cached(tmp_path, CACHED, "parallel_stream_kernels",
                             "test-cpu-random-parallel")
    assert lines == ["[true, true]"] * 2
    assert list((tmp_path / "cache").rglob("*.hjc"))
