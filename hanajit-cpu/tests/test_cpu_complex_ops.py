"""Complex array division and ordering against NumPy, bit for bit, over special
values (zeros of both signs, infinities, NaNs, subnormals, huge values) and random
values of wide magnitude; complex64, complex128 and mixed operands; NumPy complex
scalars (array elements) follow the same loops."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hanajit import jit

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
        assert _bits_equal(jit(divide, fallback=False)(a, b), want)
        assert _bits_equal(jit(divide_elements, fallback=False)(a, b),
                           divide_elements(a, b))
        # a complex array by a real scalar, and the other way round
        assert _bits_equal(jit(divide, fallback=False)(a, 3.0), divide(a, 3.0))
        assert _bits_equal(jit(divide, fallback=False)(2.0, b[::-3]), divide(2.0, b[::-3]))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_ordering_is_numpys_lexicographic_order(dtype):
    a, b = _operands(dtype, n=2000)
    # equal real parts are the interesting case
    b.real[::2] = a.real[::2]
    got = jit(orders, fallback=False)(a, b)
    for g, w in zip(got, orders(a, b)):
        assert np.array_equal(g, w)
    got = jit(orders, fallback=False)(a.reshape(-1, 2), np.float64(1.0))
    for g, w in zip(got, orders(a.reshape(-1, 2), np.float64(1.0))):
        assert np.array_equal(g, w)
