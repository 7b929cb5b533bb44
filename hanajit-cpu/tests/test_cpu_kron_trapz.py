"""np.kron and np.trapezoid against NumPy, byte for byte: kron of arrays of mixed
dimensions, dtypes (bool, int, float32, complex), empty and strided operands;
trapezoid of a 1-D float y with x, dx (weak Python numbers and NumPy scalars) or
neither, the terms summed pairwise as NumPy's sum adds them."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.jitted import jitted


def kron(a, b):
    return np.kron(a, b)


def trapezoid(y):
    return np.trapezoid(y)


def trapezoid_x(y, x):
    return np.trapezoid(y, x)


def trapezoid_dx(y, dx):
    return np.trapezoid(y, dx=dx)


def trapezoid_2d(y):
    return np.trapezoid(y)


rng = np.random.default_rng(6)
KRON = [(np.arange(4).reshape(2, 2), np.arange(6.0).reshape(2, 3)), (np.eye(2), np.ones((2, 2))),
        (np.arange(3), np.arange(4.0)), (rng.random((2, 3)), rng.random(4)),
        (rng.random(3).astype(np.float32), rng.random((2, 2)).astype(np.float32)),
        (np.array([True, False]), np.array([True, True])),
        (rng.random((2, 2)) + 1j, rng.random((3, 1))), (np.zeros((0, 2)), np.ones((2, 2))),
        (np.arange(4)[::-1], np.arange(3)[::2]), (rng.random((2, 1, 2)), rng.random((3, 2)))]


def same(got, want):
    w = np.asarray(want)
    g = np.asarray(got, dtype=w.dtype)
    assert g.shape == w.shape and g.tobytes() == w.tobytes(), (got, want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype


@pytest.mark.parametrize("k", range(len(KRON)))
def test_kron(k):
    a, b = KRON[k]
    same(jitted(kron, fallback=False)(a, b), kron(a, b))


@pytest.mark.parametrize("n", [0, 1, 2, 9, 130, 1001])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_trapezoid(n, dtype):
    y = (rng.standard_normal(n) * 10).astype(dtype)
    x = np.sort(rng.random(n)).astype(dtype)
    same(jitted(trapezoid, fallback=False)(y), trapezoid(y))
    same(jitted(trapezoid_x, fallback=False)(y, x), trapezoid_x(y, x))
    x64 = x.astype(np.float64)
    same(jitted(trapezoid_x, fallback=False)(y, x64), trapezoid_x(y, x64))
    same(jitted(trapezoid_x, fallback=False)(y[::-1], x[::-1]), trapezoid_x(y[::-1], x[::-1]))
    for dx in (0.1, 3, np.float32(0.5), np.float64(2.5)):
        same(jitted(trapezoid_dx, fallback=False)(y, dx), trapezoid_dx(y, dx))


def test_fallbacks():
    with pytest.warns(HanaJitFallbackWarning, match="trapezoid"):
        assert np.array_equal(jit(trapezoid_2d)(np.ones((2, 3))), np.trapezoid(np.ones((2, 3))))
    with pytest.warns(HanaJitFallbackWarning, match="kron"):
        assert np.array_equal(jit(kron)(2.0, np.ones(2)), np.kron(2.0, np.ones(2)))
