"""``np.histogram2d(x, y, bins=n)`` compiled: NumPy's counts and edges, bit for bit."""
import numpy as np
import pytest

from hanajit import jit


def _default(x, y):
    return np.histogram2d(x, y)


def _bins(x, y, n):
    return np.histogram2d(x, y, bins=n)


def _positional(x, y):
    return np.histogram2d(x, y, 4)


def _expr(x, y):
    return np.histogram2d(x * 2.0, y[::-1], bins=6)


K = {f: jit(f, fallback=False) for f in (_default, _bins, _positional, _expr)}


def check(f, *args):
    got, want = K[f](*args), f(*args)
    assert isinstance(got, tuple) and len(got) == 3
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes()


RNG = np.random.default_rng(7)
XN, YU = RNG.normal(size=2000), RNG.uniform(-3, 5, size=2000)


def test_float64():
    check(_default, XN, YU)
    check(_positional, XN, YU)
    for n in (1, 2, 3, 17, 64):
        check(_bins, XN, YU, n)
    check(_expr, XN, YU)
    check(_bins, XN[::3], YU[1::3], 5)
    check(_bins, np.array([-0.0, 0.0, 1.0, 0.5]), np.array([0.0, -0.0, 2.0, 1.0]), 2)


def test_integers_and_mixed():
    xi = np.arange(-20, 20)
    check(_bins, xi, xi * 3 % 7, 5)
    check(_bins, xi.astype(np.int32), xi.astype(np.uint8), 8)
    check(_bins, xi.astype(np.int16), XN[:40], 3)
    check(_bins, xi.astype(np.uint32), np.ones(40, np.bool_).astype(np.int8), 2)
    check(_bins, xi.astype(np.float32), XN[:40], 6)        # float64 stack
    big = np.array([2**60, 2**60 + 1, -5])
    check(_bins, big, big, 3)                              # re-run: beyond 2**53


def test_equal_and_empty():
    check(_bins, np.ones(5), np.zeros(5), 4)
    check(_bins, np.ones(0), np.zeros(0), 3)
    check(_default, np.full(3, 1e300), np.array([-1e-300, 0.0, 1e-300]))


@pytest.mark.parametrize("args", [
    (np.ones(3), np.ones(4), 2), (np.ones(3), np.ones(3), 0), (np.ones(3), np.ones(3), -2),
    (np.array([1.0, np.nan]), np.ones(2), 3), (np.ones(2), np.array([np.inf, 0.0]), 3)])
def test_errors(args):
    with pytest.raises(ValueError):
        _bins(*args)
    with pytest.raises(ValueError):
        K[_bins](*args)


def test_falls_back():
    def rng(x, y):
        return np.histogram2d(x, y, bins=3, range=[[0, 1], [0, 1]])

    def f32(x, y):
        return np.histogram2d(x, y, bins=3)
    for f, x in ((rng, XN[:50]), (f32, XN[:50].astype(np.float32))):
        with pytest.warns(UserWarning):
            got, want = jit(f)(x, x), f(x, x)
        for g, w in zip(got, want):
            assert g.tobytes() == w.tobytes() and g.dtype == w.dtype
