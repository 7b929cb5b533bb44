"""Complex array division and ordering against NumPy, bit for bit, over special
values (zeros of both signs, infinities, NaNs, subnormals, huge values) and random
values of wide magnitude; complex64, complex128 and mixed operands; NumPy complex
scalars (array elements) follow the same loops."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted

SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-310, 1e308, 3.5, -2.25,
           1e-300]


def _operands(dtype, n=20000, seed=1):
    vals = [complex(r, i) for r, i in itertools.product(SPECIAL, SPECIAL)]
    pairs = list(itertools.product(vals, vals))
    rng = np.random.default_rng(seed)
    r = rng.standard_normal((4, n)) * np.exp(rng.uniform(-30, 30, (4, n)))
    with np.errstate(over="ignore"):
        a = np.concatenate([np.array([p for p, _ in pairs], dtype),
                            (r[0] + 1j * r[1]).astype(dtype)])
        b = np.concatenate([np.array([q for _, q in pairs], dtype),
                            (r[2] + 1j * r[3]).astype(dtype)])
    return a, b


def _bits_equal(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if want.dtype.kind == "b":
        return np.array_equal(got, want)
    f = want.real.dtype
    g, w = got.view(f), want.view(f)
    ints = np.int32 if f == np.float32 else np.int64
    return bool(np.all((g.view(ints) == w.view(ints)) | (np.isnan(g) & np.isnan(w))))


def divide(a, b):
    return a / b


def divide_elements(a, b):
    out = np.empty_like(a / b)
    for i in range(len(a)):
        out[i] = a[i] / b[i]
    return out


def orders(a, b):
    return a < b, a <= b, a > b, a >= b


@pytest.mark.parametrize("da, db", [(np.complex128, np.complex128),
                                    (np.complex64, np.complex64),
                                    (np.complex64, np.complex128)])
def test_division_is_numpys_bit_for_bit(da, db):
    a, _ = _operands(da)
    _, b = _operands(db)
    with np.errstate(all="ignore"):
        want = divide(a, b)
        assert _bits_equal(jitted(divide, fallback=False)(a, b), want)
        assert _bits_equal(jitted(divide_elements, fallback=False)(a, b),
                           divide_elements(a, b))
        # a complex array by a real scalar, and the other way round
        assert _bits_equal(jitted(divide, fallback=False)(a, 3.0), divide(a, 3.0))
        assert _bits_equal(jitted(divide, fallback=False)(2.0, b[::-3]), divide(2.0, b[::-3]))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_ordering_is_numpys_lexicographic_order(dtype):
    a, b = _operands(dtype, n=2000)
    # equal real parts are the interesting case
    b.real[::2] = a.real[::2]
    got = jitted(orders, fallback=False)(a, b)
    for g, w in zip(got, orders(a, b)):
        assert np.array_equal(g, w)
    got = jitted(orders, fallback=False)(a.reshape(-1, 2), np.float64(1.0))
    for g, w in zip(got, orders(a.reshape(-1, 2), np.float64(1.0))):
        assert np.array_equal(g, w)


def complex_extrema(a):
    return (a.max(), a.min(), np.argmax(a), np.argmin(a), np.max(a, axis=0),
            np.argmin(a, axis=-1), np.amin(a, keepdims=True), a.argmax(axis=0))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_min_max_argmin_argmax_follow_numpys_order(dtype):
    # NumPy orders complex numbers lexicographically and the first element with a
    # NaN part wins; ties between equal values (0.0 and -0.0 parts) keep the first
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5]
    rng = np.random.default_rng(7)
    f = jit(complex_extrema)
    for trial in range(400):
        shape = (int(rng.integers(1, 4)), int(rng.integers(1, 5)))
        a = np.empty(shape, dtype)
        a.real = rng.choice(vals, shape)
        a.imag = rng.choice(vals, shape)
        if trial % 3 == 1:          # other layouts: free of NaN (see semantics.md)
            a = np.nan_to_num(a, nan=3.0)[:, ::-1]
        elif trial % 3 == 2:
            a = np.nan_to_num(a, nan=3.0).T
        for got, want in zip(f(a), complex_extrema(a)):
            want = np.asarray(want)
            got = np.asarray(got, dtype=want.dtype)
            assert _bits_equal(np.atleast_1d(got), np.atleast_1d(want)), (a, got, want)


def complex_max(a):
    return a.max()


def test_extrema_of_empty_complex_arrays_raise_as_numpy():
    with pytest.raises(ValueError, match="zero-size array"):
        jit(complex_max)(np.zeros(0, complex))


def complex_pick(a, b, c):
    return (np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b),
            np.clip(a, b, c), np.clip(a, 0.5, c))


def complex_pick_elements(a, b, c):
    out = np.empty((6, len(a)), a.dtype)
    for i in range(len(a)):
        out[0, i] = np.maximum(a[i], b[i])
        out[1, i] = np.minimum(a[i], b[i])
        out[2, i] = np.fmax(a[i], b[i])
        out[3, i] = np.fmin(a[i], b[i])
    out[4] = np.clip(a, b, c)
    out[5] = np.clip(a, 0.5, c)
    return out


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_maximum_minimum_fmax_fmin_clip_are_numpys(dtype):
    vals = [0.0, -0.0, 1.0, -1.0, np.inf, np.nan, 0.5]
    z = [complex(r, i) for r in vals for i in vals]
    a, b, c = (np.array(t, dtype) for t in zip(*itertools.product(z, z[::4], z[::5])))
    with np.errstate(all="ignore"):
        want = complex_pick(a, b, c)
        got = jit(complex_pick)(a, b, c)
        got_elements = jit(complex_pick_elements)(a, b, c)
    for k, (g, w) in enumerate(zip(got, want)):
        assert _bits_equal(g, w), k
        assert _bits_equal(got_elements[k], w), k


def complex_predicates(a):
    return np.isnan(a), np.isinf(a), np.isfinite(a), np.isnan(a[0]), np.isfinite(a[-1])


def math_isnan_of_complex(z):
    import math
    return math.isnan(z)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_isnan_isinf_isfinite_of_complex_are_numpys(dtype):
    vals = [0.0, -1.5, np.inf, -np.inf, np.nan]
    a = np.array([complex(r, i) for r in vals for i in vals], dtype)
    for got, want in zip(jit(complex_predicates)(a), complex_predicates(a)):
        np.testing.assert_array_equal(got, want)


def test_math_isnan_still_refuses_complex():
    from hanajit import HanaJitFallbackWarning
    with pytest.warns(HanaJitFallbackWarning), pytest.raises(TypeError):
        jit(math_isnan_of_complex)(1j)


def complex_products(a, b):
    out = np.empty((4, len(a)), a.dtype)
    for i in range(len(a)):
        out[0, i] = a[i] * b[i]                     # NumPy scalars: scalar code
        out[1, i] = np.multiply(a[i], b[i])         # the ufunc on 0-d operands
        out[2, i] = np.square(a[i])
    out[3] = a * b[0]
    return a * b, np.multiply(a, b[::-1]), np.square(a), a[::2] * b[1::2], out


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_products_round_as_numpys_loops(dtype):
    # NumPy's SIMD loops multiply with fused multiply-adds where its scalar code
    # does not; each path is measured and reproduced (lib/complex/product_forms.py)
    rng = np.random.default_rng(17)
    r = rng.standard_normal((4, 3000)) * np.exp(rng.uniform(-6, 6, (4, 3000)))
    a = (r[0] + 1j * r[1]).astype(dtype)
    b = (r[2] + 1j * r[3]).astype(dtype)
    got, want = jit(complex_products)(a, b), complex_products(a, b)
    for g, w in zip(got[:4], want[:4]):
        assert _bits_equal(g, w)
    for k in range(4):
        assert _bits_equal(got[4][k], want[4][k]), k
