"""np.linalg.matrix_power and np.linalg.multi_dot (NumPy's Python source step by
step: the same matmul/dot calls on the same operands), bit for bit against NumPy:
dtypes, C/Fortran/strided inputs, constant and run-time exponents, 2 to 6
operands with 1-D ends, NumPy's run-time choice of order, errors and fallbacks."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.lib.linalg import lapack

pytestmark = pytest.mark.skipif(not lapack.available("dgesv"),
                                reason="NumPy's LAPACK is not its wheels' OpenBLAS")

RNG = np.random.default_rng(7)


def same(got, want):
    assert type(got) is type(want) or (np.isscalar(got) and np.isscalar(want))
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def power(a, n):
    return np.linalg.matrix_power(a, n)


def power_minus3(a):
    return np.linalg.matrix_power(a, -3)


def power_kw(a):
    return np.linalg.matrix_power(a, n=6)


def dot2(a, b):
    return np.linalg.multi_dot([a, b])


def dot3(a, b, c):
    return np.linalg.multi_dot([a, b, c])


def dot4(a, b, c, d):
    return np.linalg.multi_dot((a, b, c, d))


def dot6(a, b, c, d, e, f):
    return np.linalg.multi_dot([a, b, c, d, e, f])


J = {f.__name__: jit(f, fallback=False)
     for f in (power, power_minus3, power_kw, dot2, dot3, dot4, dot6)}


def matrix(shape, dt):
    x = RNG.standard_normal(shape) * 2
    if np.dtype(dt).kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    if np.dtype(dt).kind in "iub":
        x = RNG.integers(0, 3, shape)
    return x.astype(dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.complex64])
def test_matrix_power_floats(dt):
    a = matrix((6, 6), dt)
    # (float64's strided view before its Fortran copy, which then runs through the
    # any-layout specialisation: matrix_power reads every layout the same way)
    views = (a, a[::-1, ::-2][:3, :3], np.asfortranarray(a)) if dt == np.float64 else (a,)
    for x in views:
        for n in (0, 1, 2, 3, 4, 5, 7, 8, 13, 64, -1, -2, -3, -6):
            same(J["power"](x, n), power(x, n))
        same(J["power_minus3"](x), power_minus3(x))
        same(J["power_kw"](x), power_kw(x))


@pytest.mark.parametrize("dt", [np.int64, np.int32, np.uint8])
def test_matrix_power_integers(dt):
    a = matrix((5, 5), dt)
    for x in (a, a[::-1, ::-1]) if dt == np.int64 else (a,):
        for n in (0, 1, 2, 3, 6, 11):
            same(J["power"](x, n), power(x, n))
        # a negative run-time n re-runs in the interpreter (a float64 result)
        same(J["power"](x + np.eye(5, dtype=dt), -2), power(x + np.eye(5, dtype=dt), -2))
    b = np.array([[2, 1], [1, 1]], dt)
    same(J["power_minus3"](b), power_minus3(b))


def test_matrix_power_empty_and_errors():
    for dt in (np.float64, np.int64):
        e = np.zeros((0, 0), dt)
        for n in (0, 1, 5):
            same(J["power"](e, n), power(e, n))
    with pytest.raises(np.linalg.LinAlgError):
        J["power"](np.ones((2, 3)), 2)
    with pytest.raises(np.linalg.LinAlgError):
        power(np.ones((2, 3)), 2)
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    with pytest.raises(np.linalg.LinAlgError):
        J["power"](s, -1)
    with pytest.raises(np.linalg.LinAlgError):
        power(s, -1)
    # a stack of matrices and boolean matrices fall back
    x = matrix((2, 3, 3), np.float64)
    with pytest.warns(HanaJitFallbackWarning):
        same(jit(power)(x, 3), power(x, 3))
    x = matrix((3, 3), np.bool_)
    with pytest.warns(HanaJitFallbackWarning):
        same(jit(power)(x, 3), power(x, 3))


@pytest.mark.parametrize("dt", [np.float64, np.complex64, np.int64])
def test_multi_dot_two_three(dt):
    a, b, c = matrix((4, 7), dt), matrix((7, 3), dt), matrix((3, 5), dt)
    same(J["dot2"](a, b), dot2(a, b))
    v = matrix((7,), dt)
    same(J["dot2"](v, b), dot2(v, b))
    same(J["dot2"](v, v), dot2(v, v))
    # both orders NumPy can choose, and 1-D ends; other layouts (each a compile of
    # its own) for float64, whose BLAS calls the other dtypes share
    cases = [(a, b, c), (matrix((40, 2), dt), matrix((2, 30), dt), matrix((30, 3), dt)),
             (matrix((2, 30), dt), matrix((30, 40), dt), matrix((40, 50), dt))]
    for x, y, z in cases:
        same(J["dot3"](x, y, z), dot3(x, y, z))
        same(J["dot3"](x[0], y, z), dot3(x[0], y, z))
        same(J["dot3"](x, y, z[:, 0]), dot3(x, y, z[:, 0]))
        same(J["dot3"](x[1], y, z[:, 1]), dot3(x[1], y, z[:, 1]))
    if dt == np.float64:        # (the layouts: matrices, and both ends 1-D)
        x, y, z = np.asfortranarray(a), b[::-1], c[:, ::2].copy()
        same(J["dot3"](x, y, z), dot3(x, y, z))
        same(J["dot3"](x[1], y, z[:, 1]), dot3(x[1], y, z[:, 1]))


def test_multi_dot_chains():
    dt = np.float64
    shapes = [((10, 100), (100, 5), (5, 50), (50, 3)),
              ((3, 40), (40, 2), (2, 50), (50, 60)),
              ((30, 35), (35, 15), (15, 5), (5, 10))]
    for sh in shapes:
        xs = [matrix(s, dt) for s in sh]
        same(J["dot4"](*xs), dot4(*xs))
        same(J["dot4"](xs[0][0], *xs[1:]), dot4(xs[0][0], *xs[1:]))
        same(J["dot4"](*xs[:3], xs[3][:, 0]), dot4(*xs[:3], xs[3][:, 0]))
    for dims in ((30, 35, 15, 5, 10, 20, 25), (5, 60, 2, 70, 3, 80, 4), (1, 2, 3, 4, 5, 6, 7)):
        xs = [matrix((dims[k], dims[k + 1]), dt) for k in range(6)]
        same(J["dot6"](*xs), dot6(*xs))
    # (1-D ends of longer chains -- the same column/flat around the same chain
    # code: dot4 above; each dot6 form compiles every bracketing)


def test_multi_dot_errors_and_fallbacks():
    a, b = np.ones((3, 4)), np.ones((5, 2))
    with pytest.raises(ValueError):
        J["dot3"](a, b, b)
    with pytest.raises(ValueError):
        dot3(a, b, b)
    f = jit(dot3)
    x = np.ones((2, 3, 3))
    with pytest.warns(HanaJitFallbackWarning):
        with pytest.raises(np.linalg.LinAlgError):
            f(np.ones((3, 3)), x, np.ones((3, 3)))
    g = jit(dot4)
    xs = [np.ones((3, 3)), np.ones((3, 3), np.float32), np.ones((3, 3)), np.ones((3, 3))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        same(g(*xs), dot4(*xs))
