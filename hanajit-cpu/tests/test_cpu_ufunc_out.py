"""``out=`` of NumPy's ufuncs and np.clip (keyword, ``out=(arr,)`` or one
positional operand more): the value written into ``out`` with NumPy's
broadcasting into it, its 'same_kind' casting and its overlap buffering
(``np.add(a[1:], a[:-1], out=a[1:])``); the call returns ``out``."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.jitted import jitted


def add_out(a, b, c):
    np.add(a, b, out=c)
    return c


def add_positional(a, b, c):
    np.add(a, b, c)
    return c


def multiply_returns_out(a, b, c):
    return np.multiply(a, b, out=c)


def clip_in_place(x, lo, hi):
    np.clip(x, lo, hi, out=x)
    return x


def sqrt_in_place(a):
    np.sqrt(a, out=a)
    return a


def shifted_sum(a):
    np.add(a[1:], a[:-1], out=a[1:])
    return a


def negative_tuple_out(a, c):
    np.negative(a, out=(c,))
    return c


def maximum_out(a, b, c):
    return np.maximum(a, b, out=c)


def exp_positional(a, c):
    np.exp(a, c)
    return c


def floor_divide_out(a, b, c):
    np.floor_divide(a, b, out=c)
    return c


def same(fn, *args):
    want = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
    got = jitted(fn, fallback=False)(*[a.copy() if isinstance(a, np.ndarray) else a
                                    for a in args])
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


rng = np.random.default_rng(3)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8,
                                   np.complex128])
def test_into_out_of_each_dtype(dtype):
    a = (rng.random(7) * 10).astype(dtype)
    b = (rng.random(7) * 10).astype(dtype)
    for out_dtype in (dtype, np.float64, np.complex128):
        if np.can_cast(np.result_type(a, b), out_dtype, "same_kind"):
            same(add_out, a, b, np.zeros(7, out_dtype))
            same(add_positional, a, b, np.zeros(7, out_dtype))
            same(multiply_returns_out, a, b, np.zeros(7, out_dtype))


def test_broadcasting_into_out_and_overlap():
    same(add_out, rng.random(3), rng.random(3), np.zeros((2, 3)))
    same(add_out, rng.random((2, 1)), rng.random(3), np.zeros((2, 3)))
    same(add_out, rng.random(3), 2.0, np.zeros(3, np.float32))
    same(shifted_sum, np.arange(8.0))
    same(shifted_sum, np.arange(8))
    a = np.arange(10.0)
    same(add_out, a[::2], a[1::2], np.zeros(5)[::-1])
    same(clip_in_place, rng.random(10), 0.2, 0.8)
    same(sqrt_in_place, rng.random(6))
    same(negative_tuple_out, rng.random(4), np.zeros(4))
    same(maximum_out, np.array([1.0, np.nan, -0.0]), np.array([0.0, 2.0, 0.0]), np.zeros(3))
    same(exp_positional, rng.random(5), np.zeros(5))
    same(floor_divide_out, np.arange(-5, 5), np.array(3), np.zeros(10, np.int64))


def test_in_place_writes_the_callers_array():
    x = rng.random(6)
    want = np.clip(x, 0.3, 0.6)
    jitted(clip_in_place, fallback=False)(x, 0.3, 0.6)
    assert np.array_equal(x, want)


def test_errors_and_fallbacks():
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        jitted(add_out, fallback=False)(np.ones(3), np.ones(3), ro)
    with pytest.raises(ValueError):             # out cannot hold the broadcast result
        jitted(add_out, fallback=False)(np.ones(4), np.ones(4), np.zeros(3))
    for args in ((np.arange(4), 1.5, np.zeros(4, np.int64)),        # 'same_kind'
                 (np.ones((2, 3)), 1.0, np.zeros(3))):               # fewer dimensions
        with pytest.warns(HanaJitFallbackWarning, match="out="), \
                pytest.raises((TypeError, ValueError)):
            jit(add_out)(*args)
