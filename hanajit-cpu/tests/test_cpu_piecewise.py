"""``np.piecewise(x, condlist, funclist)`` with list displays of conditions and
of values or lambdas (``frontend/piecewise_calls.py``, ``lib/arrays/piecewise.py``),
compared with CPython running the same function: values bit for bit, dtype
(``x``'s), shape, and NumPy's errors."""
import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit


def two_lambdas(x):
    return np.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2])


def values_and_otherwise(x):
    return np.piecewise(x, [x < 1, x > 3], [1.5, 3, lambda v: v + 1])


def otherwise_scalar(x):
    return np.piecewise(x, (x > 2,), (lambda v: v - 2, 7))


def overlapping(x):
    # a later condition overwrites an earlier one, as in NumPy's loop
    return np.piecewise(x, [x > 0, x > 2, x > 4], [1, lambda v: v * v, 9])


def dtype_change(x):
    return np.piecewise(x, [x > 2], [lambda v: v / 3, lambda v: 5])


def nonbool_conds(x, m):
    return np.piecewise(x, [m, x == 1], [lambda v: v + 10, -3])


def used_in_expression(x):
    y = np.piecewise(x, [x < 2], [0, lambda v: v]) * 2
    return y + 1


JITTED = {}


def jitted(fn):
    if fn not in JITTED:
        JITTED[fn] = jit(fn, fallback=False)
    return JITTED[fn]


def same(got, want):
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


_2D = np.arange(-6.0, 6.0).reshape(3, 4)
ARRAYS = [
    np.arange(-3.0, 7.0), np.arange(-3, 7), np.arange(-3, 7, dtype=np.int32),
    np.arange(0, 10, dtype=np.uint8), np.arange(-3, 7, dtype=np.float32),
    np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 2.5, 3.0, 1e300]),
    np.asfortranarray(_2D), _2D[::-1, ::2], np.arange(10.0)[::-3], np.zeros(0),
    np.zeros((0, 3)), np.arange(-3.0, 7.0)[::2],
]


CASES = [(fn, k) for fn in (two_lambdas, values_and_otherwise) for k in range(len(ARRAYS))] + [
    (fn, k) for fn in (otherwise_scalar, overlapping, dtype_change, used_in_expression)
    for k in (1, 3, 5, 7, 9)]


@pytest.mark.parametrize("fn,k", CASES)
def test_piecewise(fn, k):
    a = ARRAYS[k]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = fn(a)
        got = jitted(fn)(a)
    same(got, want)


def test_input_unchanged():
    a = np.arange(-3.0, 7.0)
    b = a.copy()
    jitted(two_lambdas)(a)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("m", [np.array([0, 2, 0, 0, -1, 0]), np.array([0.0, np.nan, 0, 1, 0, 0]),
                               np.array([True, False] * 3)])
def test_nonbool_conditions(m):
    x = np.arange(6.0)
    same(jitted(nonbool_conds)(x, m), nonbool_conds(x, m))


def complex_x(x):
    return np.piecewise(x, [x.real < 0], [lambda v: v * 1j, 2.5])


def test_complex():
    x = np.arange(-3, 4) * (1 + 2j)
    same(jitted(complex_x)(x), complex_x(x))


def too_few(x):
    return np.piecewise(x, [x < 0, x > 1], [1.0])


def too_many(x):
    return np.piecewise(x, [x < 0], [1.0, 2.0, 3.0])


def wrong_shape(x, c):
    return np.piecewise(x, [c], [1.0])


def negative_into_uint8(x):
    return np.piecewise(x, [x > 3], [-1])


@pytest.mark.parametrize("fn,args,exc", [
    (too_few, (np.arange(3.0),), ValueError), (too_many, (np.arange(3.0),), ValueError),
    (wrong_shape, (np.arange(3.0), np.array([True, False])), IndexError),
    (wrong_shape, (np.arange(6.0).reshape(2, 3), np.ones((3, 2), bool)), IndexError),
    (negative_into_uint8, (np.arange(6, dtype=np.uint8),), OverflowError)])
def test_errors(fn, args, exc):
    with pytest.raises(exc) as want:
        fn(*args)
    with pytest.raises(exc) as got:
        jitted(fn)(*args)
    assert str(got.value) == str(want.value)


def closure_lambda(x, k):
    return np.piecewise(x, [x > 0], [lambda v: v * k, 0])


def conds_by_name(x):
    conds = [x > 0]
    return np.piecewise(x, conds, [1.0, 2.0])


def extra_args(x):
    return np.piecewise(x, [x > 0], [lambda v, s: v * s], 3)


def scalar_condition(x):
    return np.piecewise(x, [True, False, True], [1.0])


@pytest.mark.parametrize("fn,args", [(closure_lambda, (np.arange(-2.0, 3.0), 2.0)),
                                     (conds_by_name, (np.arange(-2.0, 3.0),)),
                                     (extra_args, (np.arange(-2.0, 3.0),)),
                                     (scalar_condition, (np.arange(3.0),))])
def test_falls_back(fn, args):
    want = fn(*args)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = jit(fn)(*args)
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)
    same(got, want)
