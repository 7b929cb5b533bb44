"""``np.min``/``np.max`` of whole contiguous float arrays longer than one block
of ``extreme_lanes.extreme_zero`` (8192 values): the blocks' extremes, then
NumPy's pick of a zero looked for only in the blocks holding zeros
(``minmax_algorithms.contiguous_blocks``).  Zeros of both signs in a few
blocks, at block edges, in a short last block; NaNs before and after zeros;
infinities; float32 and float64, 1-D and C-ordered 2-D."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit.lib.arrays.zero_pick import simd_lanes
from hanajit.testing.jitted import jitted

BLOCK = 8192


def extremes(a):
    return np.min(a), np.max(a), a.min(), a.max()


_f = jitted(extremes, fallback=False)


def _check(a):
    got, want = _f(a), extremes(a)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype
        assert g.tobytes() == w.tobytes() or (np.isnan(g) and np.isnan(w)), (g, w)


def _needs_model(dt):
    if not simd_lanes(np.dtype(dt).name):
        pytest.skip("NumPy's reduce on this host is not the loop minmax_algorithms follows")


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("n", [3 * BLOCK, 3 * BLOCK + 1, 3 * BLOCK + 31, 3 * BLOCK + 32,
                               2 * BLOCK - 1, 4 * BLOCK + 1000])
def test_few_zeros_over_blocks(dt, n):
    _needs_model(dt)
    rng = np.random.default_rng(n)
    for seed in range(12):
        for side in (1.0, -1.0):       # positive values (a zero min) or negative (a zero max)
            a = (np.abs(rng.standard_normal(n)) + 0.5).astype(dt) * dt(side)
            k = int(rng.integers(1, 6))
            at = rng.integers(0, n, k)
            # block edges and the last values now and then
            if seed % 3 == 0:
                at = np.concatenate([at, np.array([BLOCK - 1, BLOCK, n - 1][: seed % 4], np.int64)])
            a[at] = np.where(rng.random(len(at)) < 0.5, 0.0, -0.0).astype(dt)
            _check(a)
            _check(a[: n - n % 2].reshape(2, -1))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_zeros_of_one_sign_and_dense_zeros(dt):
    _needs_model(dt)
    n = 5 * BLOCK + 7
    a = np.linspace(1, 2, n).astype(dt)
    a[[3, BLOCK + 5, 4 * BLOCK]] = -0.0
    _check(a)
    a[[3, BLOCK + 5, 4 * BLOCK]] = 0.0
    _check(a)
    b = np.maximum(np.random.default_rng(1).standard_normal(n), 0).astype(dt)   # ReLU
    _check(b)
    _check(-b)
    b[::7] = -0.0
    _check(b)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_nans_infinities_and_zeros_over_blocks(dt):
    n = 3 * BLOCK + 100
    base = np.linspace(1, 2, n).astype(dt)
    for nan_at in (0, BLOCK - 1, BLOCK, 2 * BLOCK + 17, n - 1):
        a = base.copy()
        a[[5, 2 * BLOCK + 3]] = -0.0
        a[nan_at] = np.nan
        _check(a)
        a[n - 20] = -np.inf
        a[10] = np.inf
        _check(a)
    a = base.copy()
    a[[7, BLOCK + 1]] = [np.inf, -np.inf]
    _check(a)
    a[[100, 3 * BLOCK + 50]] = 0.0
    _check(a)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_short_lanes(dt):
    # under two lanes' worth of values: in order, then the zero NumPy picks
    for n in (1, 2, 17, 31, 32, 33):
        a = np.ones(n, dt)
        a[n // 2] = -0.0
        a[-1] = 0.0
        _check(a)
        a[0] = np.nan
        _check(a)


def args(a):
    return np.argmax(a), np.argmin(a), a.argmax(), a.argmin()


_g = jitted(args, fallback=False)


def _check_args(a):
    got, want = _g(a), args(a)
    assert [int(g) for g in got] == [int(w) for w in want], (got, want)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 31, 32, 33, BLOCK - 1, BLOCK, 2 * BLOCK + 1, 3 * BLOCK + 31,
                               3 * BLOCK + 32, 3 * BLOCK + 500])
def test_argmax_blocks_ties_nans_zeros(dt, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(dt)
    _check_args(a)
    _check_args(a[: n - n % 2].reshape(2, -1) if n > 1 else a)
    # ties of the extreme in several blocks, at block edges: the first wins
    for at in ([0, n - 1], [BLOCK - 1, BLOCK], [BLOCK, 2 * BLOCK + 1], [n - 1]):
        b = a.copy()
        at = [k for k in at if k < n]
        b[at] = dt(9.0)
        b[[k - 1 for k in at if k >= 1]] = dt(-9.0)
        _check_args(b)
        # -0.0 and 0.0 are equal extremes: the first of them
        c = np.abs(a) + dt(1)
        c[at] = dt(-0.0)
        c[[k for k in (n // 2, n - 1) if k not in at]] = dt(0.0)
        _check_args(c)
        _check_args(-c)
    # the first NaN, wherever it is, before or after the extreme
    for at in ([0], [BLOCK - 1, BLOCK], [BLOCK, 2 * BLOCK + 1], [n - 1], [n // 2, 5]):
        b = a.copy()
        at = [k for k in at if k < n]
        b[at] = np.nan
        b[rng.integers(0, n)] = np.inf
        _check_args(b)
    # infinities as the extremes
    b = a.copy()
    b[[n // 3, n - 1]] = [np.inf, -np.inf]
    _check_args(b)
