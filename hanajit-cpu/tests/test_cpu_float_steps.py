"""``np.nextafter`` and ``np.spacing`` compiled, against NumPy 2 bit for bit:
random bit patterns of float64 and float32 (subnormals, NaNs with payloads,
infinities, signed zeros) against each other, zero and inf; every pair of the
edge values (signed zeros, smallest subnormal, smallest normal, largest finite,
infinities, NaN); NumPy's loops for integers (int16 -> float32, int32/int64 ->
float64), Python floats with float32 arrays, NumPy scalars; layouts and
broadcasting; float16 loops fall back with the reason."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit.errors import HanaJitError
from hanajit.testing.jitted import jitted

RNG = np.random.default_rng(20250101)
UINT = {np.float64: np.uint64, np.float32: np.uint32}


def nextafter(x, y):
    return np.nextafter(x, y)


def spacing(x):
    return np.spacing(x)


def toward_python_float(x):
    return np.nextafter(x, 1.5), np.nextafter(-2.5, x)


def _numpy(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn(*args)


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.tobytes() != want.tobytes():
        g, w = got.reshape(-1), want.reshape(-1)
        bad = np.nonzero(g.view(np.uint8).reshape(g.size, -1)
                         != w.view(np.uint8).reshape(w.size, -1))[0]
        raise AssertionError(f"{bad.size} differ, first at {bad[0]}: "
                             f"{g[bad[0]]!r} != {w[bad[0]]!r}")


def _check(fn, *args):
    got = jitted(fn, fallback=False)(*args)
    want = _numpy(fn, *args)
    assert type(got) is type(want)
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            assert type(g) is type(w)
            _same(g, w)
    else:
        _same(got, want)


def _edges(dt):
    fi = np.finfo(dt)
    v = [0.0, 1.0, 1.5, 3.0, 0.1, fi.max, fi.smallest_subnormal, 2 * fi.smallest_subnormal,
         fi.tiny, fi.tiny - fi.smallest_subnormal, 2 * fi.tiny, np.inf, 2.0 ** 20]
    v = np.array(v, dt)
    return np.concatenate([v, -v, [np.nan, -np.nan]]).astype(dt)


def _bits(dt, n):
    u = UINT[dt]
    return RNG.integers(0, np.iinfo(u).max, n, dtype=u, endpoint=True).view(dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_nextafter_edges_and_random_bits(dt):
    e = _edges(dt)
    _check(nextafter, np.repeat(e, e.size), np.tile(e, e.size))
    b = _bits(dt, 4000)
    _check(nextafter, b, b[::-1])
    _check(nextafter, b, np.zeros(1, dt))
    _check(nextafter, b.reshape(40, 100), np.array(np.inf, dt))
    _check(nextafter, np.array(-np.inf, dt), b.reshape(40, 100).T)
    _check(nextafter, b, b)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_spacing_edges_and_random_bits(dt):
    _check(spacing, _edges(dt))
    b = _bits(dt, 4000)
    _check(spacing, b)
    _check(spacing, b.reshape(50, 80)[::-2, ::3])
    _check(spacing, np.asfortranarray(b.reshape(40, 100)))


def test_signed_zero_cases():
    z = np.array([0.0, -0.0, 0.0, -0.0, 5e-324, -5e-324])
    t = np.array([-0.0, 0.0, -1.0, 1.0, 0.0, 0.0])
    _check(nextafter, z, t)
    assert str(np.nextafter(0.0, -0.0)) == "-0.0"


def test_integer_loops_python_floats_and_scalars():
    for dt in (np.int16, np.int32, np.int64, np.uint16, np.uint64):
        i = np.array([0, 1, 7, 100], dt)
        _check(nextafter, i, i[::-1])
        _check(spacing, i)
    f32 = _edges(np.float32)
    _check(toward_python_float, f32)
    _check(nextafter, np.float32(1.0), np.float32(2.0))
    _check(spacing, np.float64(-1.0))
    _check(spacing, -3.0)
    _check(nextafter, 1.0, 0.0)


FALLBACKS = [
    (nextafter, (np.array([1, 2], np.int8), np.array([0, 0], np.int8)), "float16"),
    (spacing, (np.array([True]),), "float16"),
    (spacing, (np.array([1.0], np.float16),), "float16"),
    (nextafter, (np.array([1j]), np.array([0j])), "TypeError"),
]


@pytest.mark.parametrize("fn, args, why", FALLBACKS, ids=range(len(FALLBACKS)))
def test_float16_loops_and_type_errors_fall_back(fn, args, why):
    from hanajit import jit
    with pytest.raises(HanaJitError, match=why):
        jit(fn, fallback=False)(*args)
