"""np.real_if_close, np.isposinf/np.isneginf, np.ndim/np.shape/np.size/np.isscalar
and np.array_equiv against NumPy: values, dtypes, Python vs NumPy result types,
views; NumPy's TypeError for complex isposinf; the deopt of real_if_close."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import strict as jitted


def real_if_close(a):
    return np.real_if_close(a)


def real_if_close_tol(a):
    return np.real_if_close(a, tol=1e-3)


def isposinf(x):
    return np.isposinf(x)


def isneginf(x):
    return np.isneginf(x)


def ndim(a):
    return np.ndim(a)


def shape(a):
    return np.shape(a)


def size(a):
    return np.size(a)


def size_1(a):
    return np.size(a, 1)


def size_axes(a):
    return np.size(a, axis=(0, -1))


def isscalar(x):
    return np.isscalar(x)


def shape_tuple(x):
    return np.shape((x, 2.0, 3)), np.ndim((x, 1)), np.size((x, x, x))


def equiv(a, b):
    return np.array_equiv(a, b)


def equiv_list(a):
    return np.array_equiv(a, [1, 2])


def same(got, want):
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    elif isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    else:
        assert got == want


def check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:
        with pytest.raises(type(exc)):
            jitted(fn)(*args)
        return None
    got = jitted(fn)(*args)
    same(got, want)
    return got


REALS = [np.array([1.0, -0.0, np.inf, -np.inf, np.nan]),
         np.array([1, -2, 3], np.int32), np.array([True, False]),
         np.array([[1.5, np.inf], [-np.inf, 2]], np.float32),
         np.array([[1.5, np.inf], [-np.inf, 2]], np.float32).T,
         np.arange(10.0)[::-3], np.zeros((0, 3)), np.array([0, 255], np.uint8)]


@pytest.mark.parametrize("a", REALS)
def test_real_input(a):
    got = check(real_if_close, a)
    assert np.shares_memory(got, a) or a.size == 0
    check(isposinf, a)
    check(isneginf, a)


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_real_if_close_complex(dt):
    eps = np.finfo(dt).eps
    small = np.array([[1 + 0j, 2 + 50 * eps * 1j], [np.inf - 0j, np.nan + 0j]], dt)
    for a in (small, small.T, small[::-1], small[:0]):
        got = check(real_if_close, a)
        if a.size:      # (an empty view's strides are hanajit's own)
            assert np.shares_memory(got, a)
            assert got.strides == np.real_if_close(a).strides
        check(real_if_close_tol, a)
    # an imaginary part too big: NumPy's complex array (the interpreter's)
    for big in (np.array([1 + 0j, 2 + 1e-10j], dt), np.array([1 + np.nan * 1j], dt)):
        check(real_if_close, big)
    check(real_if_close_tol, np.array([1 + 1e-4j], dt))
    check(real_if_close_tol, np.array([1 + 1e-2j], dt))


@pytest.mark.parametrize("x", [3.0, -np.inf, np.inf, np.float32(-np.inf), np.nan, 7,
                               np.int8(-3)])
def test_signed_inf_scalars(x):
    check(isposinf, x)
    check(isneginf, x)


def test_signed_inf_complex_raises():
    for x in (np.array([1 + 1j]), 1j):
        for fn in (isposinf, isneginf):
            with pytest.raises(TypeError):
                fn(x)
            with pytest.raises(TypeError):
                jitted(fn)(x)


@pytest.mark.parametrize("a", [np.zeros((2, 3, 4)), np.zeros((4, 0), np.int32),
                               np.zeros(5, np.uint8), np.zeros((3, 4), order="F")[:, ::2],
                               np.array(2.5)])
def test_shape_questions(a):
    check(ndim, a)
    check(shape, a)
    check(size, a)
    check(isscalar, a)
    if a.ndim >= 2:
        check(size_1, a)
        check(size_axes, a)


@pytest.mark.parametrize("x", [1.5, 3, True, np.float32(2), 1j])
def test_scalar_questions(x):
    check(ndim, x)
    check(shape, x)
    check(size, x)
    check(isscalar, x)
    check(shape_tuple, x)


def test_isscalar_tuple_and_none():
    check(isscalar, (1, 2))
    check(isscalar, None)


@pytest.mark.parametrize("a, b", [
    (np.ones((2, 3)), np.ones(3)), (np.ones((2, 3)), np.ones(2)),
    (np.arange(6).reshape(2, 3), np.arange(3.0)), (np.zeros((0, 3)), np.ones(3)),
    (np.ones((2, 1)), np.ones((1, 4), np.int8)), (np.array([np.nan]), np.array([np.nan])),
    (np.ones((2, 3), order="F"), np.ones((2, 3))[::-1]), (np.ones(3), np.ones(4))])
def test_array_equiv(a, b):
    check(equiv, a, b)
    check(equiv, b, a)


def test_array_equiv_list():
    check(equiv_list, np.array([1, 2]))
    check(equiv_list, np.array([[1, 2], [1, 3]]))
    check(equiv_list, np.array([1, 2, 3]))
