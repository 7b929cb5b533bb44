"""``np.min``/``np.max`` of whole float arrays through the 32 vector
accumulators of ``lane_kernels`` (``lanes_min``/``lanes_max``), read from the
first value on a 64-byte boundary (``extreme_lanes._aligned``): bits of the
result against NumPy's on random arrays with NaNs and zeros of both signs at
random places, sizes around the 16- and 32-value steps of the lanes, the
peeled head and the 8192-value blocks, every alignment of the first value
(views from offsets 0-15 items into a buffer), float32 and float64, strided
views (the stepped and buffered lanes, which keep 16 lanes of the 32), and the
row lanes of ``axis=-1`` and ``np.argmin``/``np.argmax`` (the same block
extremes)."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit.lib.arrays.zero_pick import simd_lanes
from hanajit.testing.jitted import jitted


def extremes(a):
    return np.min(a), np.max(a), a.min(), a.max(), np.argmin(a), np.argmax(a)


def rows(a):
    return np.min(a, axis=-1), np.max(a, axis=-1)


_f = jitted(extremes, fallback=False)
_rows = jitted(rows, fallback=False)
SIZES = [31, 32, 33, 47, 48, 49, 63, 64, 65, 79, 80, 95, 96, 97, 130, 1000, 8191, 8192,
         8193, 8192 + 48, 3 * 8192 - 17, 20000]


def _same(got, want):
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes() or (np.isnan(g).all() and np.isnan(w).all()), (g, w)


def _needs_model(dt):
    if not simd_lanes(np.dtype(dt).name):
        pytest.skip("NumPy's reduce on this host is not the loop minmax_algorithms follows")


def _data(rng, n, dt, nans, zeros):
    a = (rng.standard_normal(n) * 100).astype(dt)
    for _ in range(zeros):
        a[rng.integers(n)] = rng.choice([0.0, -0.0])
    for _ in range(nans):
        a[rng.integers(n)] = np.nan
    return a


def _placed(a, off):
    """``a`` copied to start ``off`` items after a 64-byte boundary."""
    buf = np.empty(len(a) + 64, a.dtype)
    k = (-buf.ctypes.data % 64) // a.itemsize + off
    v = buf[k:k + len(a)]
    v[:] = a
    return v


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_random_sizes_alignments(dt):
    _needs_model(dt)
    rng = np.random.default_rng(7)
    step = 64 // np.dtype(dt).itemsize
    for n in SIZES:
        for off in range(step):
            for nans, zeros in ((0, 0), (1, 0), (0, 2), (2, 3)):
                a = _placed(_data(rng, n, dt, nans, zeros), off)
                _same(_f(a), extremes(a))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_extreme_at_each_place(dt):
    """The least and the largest value (or one NaN) at every position of the
    lanes' first 96 values and the peeled head, at three alignments."""
    _needs_model(dt)
    rng = np.random.default_rng(1)
    for off in (0, 1, 5):
        base = _placed(rng.uniform(1, 2, 300).astype(dt), off)
        for i in range(0, 300, 3):
            for v in (-5.0, 5.0, np.nan, -np.inf, np.inf):
                a = base.copy() if off == 0 else _placed(base, off)
                a[i] = v
                _same(_f(a), extremes(a))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_zeros_only_signs(dt):
    _needs_model(dt)
    rng = np.random.default_rng(3)
    for n in (40, 100, 9000):
        for off in (0, 3):
            a = _placed(np.where(rng.random(n) < 0.5, -0.0, 0.0).astype(dt), off)
            _same(_f(a), extremes(a))
            a = _placed(np.abs(_data(rng, n, dt, 0, 3)), off)
            _same(_f(a), extremes(a))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_strided_views(dt):
    _needs_model(dt)
    rng = np.random.default_rng(5)
    for n in (100, 1001, 20000):
        for nans, zeros in ((0, 0), (1, 0), (0, 2)):
            a = _data(rng, n, dt, nans, zeros)
            for v in (a[::2], a[1::4], a[::-1], a[::3], a[::16]):
                _same(_f(v), extremes(v))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_rows(dt):
    rng = np.random.default_rng(9)
    for shape in ((7, 33), (5, 100), (3, 1000)):
        m = _data(rng, shape[0] * shape[1], dt, 2, 0).reshape(shape)
        _same(_rows(m), rows(m))
        _same(_rows(m[:, 1:]), rows(m[:, 1:]))


def test_empty_raises():
    for dt in (np.float64, np.float32):
        a = np.empty(0, dt)
        with pytest.raises(ValueError):
            extremes(a)
        with pytest.raises(ValueError):
            _f(a)
