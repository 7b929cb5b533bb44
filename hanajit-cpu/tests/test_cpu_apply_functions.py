"""``np.apply_along_axis`` and ``np.fromfunction`` compiled: NumPy's results."""
import numpy as np
import pytest

from hanajit import jit


def double_sum(v):
    return v.sum() * 2


def scaled_reverse(v):
    return v[::-1] * 1.5


def grid(i, j):
    return i * 10 + j


jitted_sum = jit(double_sum)


def _np_sum0(a):
    return np.apply_along_axis(np.sum, 0, a)


def _np_mean1(a):
    return np.apply_along_axis(np.mean, 1, a)


def _user1(a):
    return np.apply_along_axis(double_sum, 1, a)


def _jitted0(a):
    return np.apply_along_axis(jitted_sum, 0, a)


def _lambda_last(a):
    return np.apply_along_axis(lambda v: v.max() > 2, -1, a)


def _lambda_int(a):
    return np.apply_along_axis(lambda v: 3, -2, a)


def _passed(g, a):
    return np.apply_along_axis(g, 0, a)


def _sort0(a):
    return np.apply_along_axis(np.sort, 0, a)


def _rev1(a):
    return np.apply_along_axis(scaled_reverse, 1, a)


def _cumsum_1d(a):
    return np.apply_along_axis(np.cumsum, 0, a)


def _head0(a):
    return np.apply_along_axis(lambda v: v[:2], 0, a)


def _ff_lambda():
    return np.fromfunction(lambda i, j: i + 2 * j, (2, 3))


def _ff_int(n):
    return np.fromfunction(grid, (n, 4), dtype=int)


def _ff_bool():
    return np.fromfunction(lambda i, j: i == j, (3, 3), dtype=int)


def _ff_3d():
    return np.fromfunction(lambda i, j, k: i + j * k, (2, 3, 4), dtype=np.float32)


def _ff_1d(n):
    return np.fromfunction(lambda i: np.sqrt(i), (n,))


def _ff_tuple(n):
    return np.fromfunction(lambda i, j: (i, j * 2.0), (n, 2), dtype=np.int32)


K = {f: jit(f, fallback=False) for f in (
    _np_sum0, _np_mean1, _user1, _jitted0, _lambda_last, _lambda_int, _passed, _sort0, _rev1,
    _cumsum_1d, _head0, _ff_lambda, _ff_int, _ff_bool, _ff_3d, _ff_1d, _ff_tuple)}


def same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def check(f, *args):
    same(K[f](*args), f(*args))


M = np.arange(12.0).reshape(3, 4) * 0.1


@pytest.mark.parametrize("a", [M, np.asfortranarray(M)[::-1, ::2], M.astype(np.float32),
                               np.arange(6, dtype=np.uint8).reshape(2, 3),
                               (np.arange(6) % 2 == 0).reshape(3, 2)])
def test_apply_along_axis_numbers(a):
    every = a.dtype == np.float64           # (other dtypes: the same helpers, a few)
    for f in ((_np_sum0, _np_mean1, _user1, _lambda_last, _lambda_int) if every
              else (_np_sum0, _lambda_int)):
        check(f, a)
    if every:
        check(_jitted0, a)
        check(_passed, double_sum, a)


@pytest.mark.parametrize("a", [M, M[:, ::-1], np.arange(12).reshape(4, 3)[::2],
                               np.array([[3.0, np.nan, -0.0], [0.0, -1.0, np.inf]])])
def test_apply_along_axis_arrays(a):
    check(_sort0, a)
    check(_rev1, a)
    check(_head0, a)
    check(_cumsum_1d, a[0])


def test_apply_along_axis_empty():
    check(_np_sum0, np.ones((0, 3)))
    check(_np_mean1, np.ones((2, 0)))
    for a in (np.ones((3, 0)), np.ones((0, 2))):
        f = _np_sum0 if a.shape[1] == 0 else _np_mean1
        with pytest.raises(ValueError):
            f(a)
        with pytest.raises(ValueError):
            K[f](a)


def test_apply_along_axis_falls_back():
    def one_d(a):
        return np.apply_along_axis(np.sum, 0, a)         # NumPy: a 0-d array

    def extra(a):
        return np.apply_along_axis(np.sum, 0, a, None)
    for f, a in ((one_d, np.arange(3.0)), (extra, M)):
        with pytest.warns(UserWarning):
            got = jit(f)(a)
        assert np.array_equal(got, f(a))


def test_fromfunction():
    check(_ff_lambda)
    check(_ff_int, 3)
    check(_ff_int, 0)
    check(_ff_bool)
    check(_ff_3d)
    check(_ff_1d, 5)
    check(_ff_tuple, 3)
    with pytest.raises(ValueError):
        _ff_int(-1)
    with pytest.raises(ValueError):
        K[_ff_int](-1)


def test_fromfunction_falls_back():
    def number():
        return np.fromfunction(lambda i, j: 1.5, (2, 3))
    with pytest.warns(UserWarning):
        assert jit(number)() == 1.5
