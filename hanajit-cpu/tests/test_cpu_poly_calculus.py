"""np.polyder(p, m), np.polyint(p, m) and np.unwrap(p, discont, period) against
NumPy, bit for bit: dtypes (float32 and int coefficients promote as NumPy's
steps do), orders, empty and short coefficient arrays, list displays, unwrap's
jumps at exactly half a period, NaN/inf, and what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit


def der1(p):
    return np.polyder(p)


def der3(p):
    return np.polyder(p, 3)


def int1(p):
    return np.polyint(p)


def int2(p):
    return np.polyint(p, m=2)


def der_list(x):
    return np.polyder([3.0, 2.0, x])


def unwrap_d(p):
    return np.unwrap(p)


def unwrap_args(p, d, period):
    return np.unwrap(p, discont=d, period=period)


J = {f.__name__: jit(f, fallback=False)
     for f in (der1, der3, int1, int2, der_list, unwrap_d, unwrap_args)}


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    assert got.tobytes() == want.tobytes(), (got, want)


def check(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = fn(*args)
    same(J[fn.__name__](*args), want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32,
                                   np.complex128])
def test_polyder_polyint(dtype):
    base = (np.arange(7) * 3 - 5).astype(dtype)
    for p in (base, base[::-2], base[:0], base[:1], base[:3]):
        for fn in (der1, der3, int1, int2):
            check(fn, p)


def test_special():
    p = np.array([np.nan, np.inf, -0.0, 1e308, 3.0])
    for fn in (der1, der3, int1, int2):
        check(fn, p)
    check(der_list, 1.5)


def test_unwrap():
    r = np.random.default_rng(2)
    x = np.cumsum(r.standard_normal(50) * 3)
    for p in (x, x[::-3], x[:0], x[:1], np.array([0.0, np.pi, 0.0, -np.pi, 2 * np.pi]),
              np.array([0.0, np.nan, 1.0, np.inf, 2.0]), np.array([-0.0, 0.0, -0.0])):
        check(unwrap_d, p)
        check(unwrap_args, p, 1.0, 2 * np.pi)
        check(unwrap_args, p, None, 360.0)
        check(unwrap_args, p, 5, 4)


def test_fallbacks():
    def der0(p):
        return np.polyder(p, 0)

    def int_k(p):
        return np.polyint(p, k=2.0)

    def unwrap_f32(p):
        return np.unwrap(p)

    for fn, a, words in ((der0, np.ones(3), "returns p itself"),
                         (int_k, np.ones(3), "k="),
                         (unwrap_f32, np.ones(3, np.float32), "float64")):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            same(jit(fn)(a), fn(a))
        assert any(words in str(x.message) for x in w), [str(x.message) for x in w]


def test_negative_order():
    def der_neg(p):
        return np.polyder(p, -1)
    with pytest.raises(ValueError):
        der_neg(np.ones(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError):
            jit(der_neg)(np.ones(3))
