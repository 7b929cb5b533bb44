"""``np.roots`` and ``np.polyfit`` compiled: NumPy's bits, dtypes, shapes, errors."""
import warnings

import numpy as np
import pytest

from hanajit import jit


def _roots(p):
    return np.roots(p)


def _roots_display(a, b):
    return np.roots((1.0, a, b))


def _polyfit(x, y, deg):
    return np.polyfit(x, y, deg)


def _polyfit_expr(x, y):
    return np.polyfit(x * 2.0, y[::-1], 3)


K = {f: jit(f, fallback=False) for f in (_roots, _roots_display, _polyfit, _polyfit_expr)}


def same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def check(f, *args):
    same(K[f](*args), f(*args))


@pytest.mark.parametrize("p", [
    [1.0, -3.0, 2.0], [0, 0, 1.0, -6.0, 11.0, -6.0, 0, 0], [2.0, -0.0, -8.0], [0.0, 0.0],
    [], [0.0, 5.0, 0.0], [3.0], [1.0, 2.0, -5.0, -6.0, 0.5, 0.25], [1e-3, 1.0, -1e3], [-0.0, 2.0, 1.0, -0.0]])
def test_roots_float64(p):
    check(_roots, np.array(p, dtype=np.float64))


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint8, np.bool_])
def test_roots_integers(dt):
    check(_roots, np.array([1, 0, 0, 1, 0], dtype=np.int64).astype(dt))
    check(_roots, np.array([0, 1, 1, 0], dtype=dt))
    if dt is not np.bool_:
        check(_roots, np.array([1, 5, 6], dtype=dt))


def test_roots_complex_and_layouts():
    check(_roots, np.array([1 + 1j, 2, 3j, 0]))
    check(_roots, np.array([0j, 1, -2j, 4]))
    check(_roots, np.array([0j, 2, 0]))              # degree 0: float64, re-run
    check(_roots, np.zeros(3, np.complex128))
    check(_roots, np.array([1.0, 9.0, -3.0, 20.0, -6.0, 2.0])[::-2])
    check(_roots, np.array([1.0, 2.0, 1.0])[::-1])
    check(_roots, np.array([1.0, 0.0, 1.0]))         # complex roots: re-run
    check(_roots_display, -5.0, 6.0)


def test_roots_errors():
    p = np.array([1.0, np.nan])
    with pytest.raises(np.linalg.LinAlgError):
        _roots(p)
    with pytest.raises(np.linalg.LinAlgError):
        K[_roots](p)


def test_roots_falls_back():
    def f(p):
        return np.roots(p)
    for p in (np.float32([1, -3, 2]), np.ones((2, 2))):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                want = np.roots(p)
            except ValueError:
                with pytest.raises(ValueError):
                    jit(f)(p)
            else:
                same(jit(f)(p), want)
        assert w


X = np.linspace(-1.0, 3.0, 25)


@pytest.mark.parametrize("deg", [0, 1, 2, 3, 5])
def test_polyfit_degrees(deg):
    y = np.sin(X) + 0.25 * X
    check(_polyfit, X, y, deg)
    check(_polyfit, X, np.stack([y, np.cos(X), -y], axis=1), deg)


def test_polyfit_dtypes_layouts():
    xi = np.arange(12)
    check(_polyfit, xi, xi ** 2 - 3 * xi, 2)
    check(_polyfit, xi.astype(np.int32), np.arange(12.0)[::-1], 1)
    check(_polyfit, xi.astype(np.uint8), (xi % 2).astype(np.bool_), 1)
    check(_polyfit, X[::-1], np.cos(X)[::-1], 4)
    y2 = np.asfortranarray(np.stack([np.cos(X), X ** 3], axis=1))
    check(_polyfit, X, y2, 3)
    check(_polyfit_expr, X, np.exp(X))


def test_polyfit_rank_deficient_reruns():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        same(K[_polyfit](np.ones(5), np.arange(5.0), 2), _polyfit(np.ones(5), np.arange(5.0), 2))
    assert any("poorly conditioned" in str(x.message) for x in w)


@pytest.mark.parametrize("args, exc", [
    ((np.ones(3), np.ones(3), -1), ValueError),
    ((np.ones(0), np.ones(0), 1), TypeError),
    ((np.ones(3), np.ones(4), 1), TypeError)])
def test_polyfit_errors(args, exc):
    with pytest.raises(exc):
        _polyfit(*args)
    with pytest.raises(exc):
        K[_polyfit](*args)


def test_polyfit_keywords_fall_back():
    def f(x, y):
        return np.polyfit(x, y, 2, w=x)
    with pytest.warns(UserWarning):
        same(jit(f)(X + 2.0, np.sin(X)), f(X + 2.0, np.sin(X)))
