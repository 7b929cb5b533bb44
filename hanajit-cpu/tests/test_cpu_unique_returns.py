"""np.unique(a, return_index=, return_inverse=, return_counts=, equal_nan=) and
np.unique_values/unique_counts/unique_inverse/unique_all against NumPy: values,
dtypes and shapes of every item (the inverse in the input's shape), bit for bit
(signed zeros, NaNs collapsed or not), dtypes and layouts, empty arrays, the
named tuples' fields, and what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit


def u_all(a):
    return np.unique(a, return_index=True, return_inverse=True, return_counts=True)


def u_index(a):
    return np.unique(a, return_index=True)


def u_inverse(a):
    return np.unique(a, return_inverse=True)


def u_counts(a):
    return np.unique(a, return_counts=True)


def u_counts_nan(a):
    return np.unique(a, return_counts=True, equal_nan=False)


def u_false(a):
    return np.unique(a, return_counts=False)


def api_values(a):
    return np.unique_values(a)


def api_counts(a):
    r = np.unique_counts(a)
    return r.values, r.counts


def api_inverse(a):
    return np.unique_inverse(a)


def api_all(a):
    r = np.unique_all(a)
    return r.values, r.indices, r.inverse_indices, r.counts


def api_all_tuple(a):
    return np.unique_all(a)


KERNELS = [u_all, u_index, u_inverse, u_counts, u_counts_nan, u_false, api_counts,
           api_inverse, api_all]
J = {f.__name__: jit(f, fallback=False) for f in KERNELS + [api_values, api_all_tuple]}


def same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    assert got.tobytes() == want.tobytes(), (got, want)


def check(fn, a):
    same(J[fn.__name__](a), fn(a))


def inputs(dtype):
    r = np.random.default_rng(1)
    base = r.integers(0, 9, 30).astype(dtype)
    return [base, base[::-2], base[:0], base[:1], base.reshape(5, 6),
            np.asfortranarray(base.reshape(5, 6)), base.reshape(2, 3, 5)[:, ::-1, 1:]]


@pytest.mark.parametrize("dtype", [np.int64, np.uint8, np.float64, np.float32])
def test_unique_returns(dtype):
    arrays = inputs(dtype)
    for a in arrays:
        check(u_all, a)
        check(u_inverse, a)
    for a in arrays[:4]:          # (1-D: each kernel's own steps)
        for fn in KERNELS:
            check(fn, a)


def test_bool():
    a = np.array([[True, False], [True, True]])
    for fn in (u_all, u_counts):
        check(fn, a)


def test_special_floats():
    for a in (np.array([np.nan, 1.0, np.nan, -np.inf, 2.0, np.inf, np.nan]),
              np.array([0.0, -0.0, 1.0, -0.0]), np.array([-0.0, 0.0]),
              np.array([np.nan, -np.nan, 1.0]), np.array([np.nan, np.nan]),
              np.array([-0.0, -0.0, 3.0])):
        for fn in KERNELS + [api_values]:
            check(fn, a)
        check(u_all, a.astype(np.float32))


def test_named_tuple():
    a = np.array([3, 1, 1, 2, 3, 3])
    got, want = J["api_all_tuple"](a), api_all_tuple(a)
    assert type(got).__name__ == type(want).__name__ == "UniqueAllResult"
    same(tuple(got), tuple(want))
    same(got.inverse_indices, want.inverse_indices)
    x = np.array([2.5, np.nan, -1.0, 2.5, np.nan])
    same(J["api_values"](x), api_values(x))


def test_fallbacks():
    def with_axis(a):
        return np.unique(a, return_counts=True, axis=0)

    def complex_counts(a):
        return np.unique(a, return_counts=True)

    def int_values(a):
        return np.unique_values(a)

    for fn, a, words in ((with_axis, np.ones((2, 2)), "axis="),
                         (complex_counts, np.array([1j, 1j]), "complex"),
                         (int_values, np.array([3, 1]), "hash table")):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            got = jit(fn)(a)
        same(got, fn(a)) if fn is not int_values else None
        assert any(words in str(x.message) for x in w), [str(x.message) for x in w]
