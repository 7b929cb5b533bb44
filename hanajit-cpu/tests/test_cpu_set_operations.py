"""``np.union1d``, ``np.intersect1d``, ``np.setdiff1d`` and ``np.setxor1d``
compiled, against NumPy 2 bit for bit (dtype, shape, which of -0.0/0.0 stays):
floats with NaNs and signed zeros, integers of two dtypes (NumPy's promoted
result), bools, empty and N-D inputs, Fortran and reversed views, lists,
``assume_unique=True`` of ``intersect1d``/``setxor1d``; what falls back says why."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.errors import HanaJitError
from hanajit.testing.jitted import jitted

RNG = np.random.default_rng(7)
NAN = np.nan


def union(a, b):
    return np.union1d(a, b)


def intersect(a, b):
    return np.intersect1d(a, b)


def setdiff(a, b):
    return np.setdiff1d(a, b)


def setxor(a, b):
    return np.setxor1d(a, b)


def intersect_unique(a, b):
    return np.intersect1d(a, b, assume_unique=True)


def setxor_unique(a, b):
    return np.setxor1d(a, b, True)


def intersect_no_indices(a, b):
    return np.intersect1d(a, b, False, return_indices=False)


FNS = (union, intersect, setdiff, setxor)


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


def _check(fn, a, b):
    _same(jitted(fn, fallback=False)(a, b), fn(a, b))


def _floats(n, dtype):
    v = RNG.choice(np.array([NAN, -0.0, 0.0, 1.5, -2.0, np.inf, -np.inf, 3.25, 7.0]), n)
    return v.astype(dtype)


FLOAT_CASES = [
    (np.array([3., -0.0, NAN, 1, 0.0, NAN, 2, 3]), np.array([[0.0, 2], [NAN, 5]])),
    (np.array([0.0, -0.0]), np.array([-0.0])),
    (np.array([-0.0, 0.0, -0.0]), np.array([0.0, -0.0, NAN, NAN])),
    (np.array([NAN]), np.array([NAN])),
    (np.array([], np.float64), np.array([1.0, NAN])),
    (np.array([], np.float64), np.array([], np.float64)),
    (_floats(50, np.float64), _floats(40, np.float64)),
    (_floats(300, np.float64).reshape(10, 30), _floats(200, np.float64)[::-1]),
    (np.asfortranarray(_floats(60, np.float64).reshape(6, 10)), _floats(3, np.float64)),
]


@pytest.mark.parametrize("fn", FNS + (intersect_unique, setxor_unique, intersect_no_indices))
def test_float64_nans_signed_zeros_layouts(fn):
    for k, (a, b) in enumerate(FLOAT_CASES):
        _check(fn, a, b)
        if k < 6:                   # (each order of types compiles anew)
            _check(fn, b, a)


@pytest.mark.parametrize("fn", FNS)
def test_float32_with_float64(fn):
    a, b = _floats(70, np.float32), _floats(30, np.float64)
    _check(fn, a, b)
    _check(fn, b[::2], a.reshape(7, 10).T)


@pytest.mark.parametrize("fn", FNS)
def test_integers_of_two_dtypes(fn):
    a = RNG.integers(-20, 20, 90).astype(np.int32)
    b = RNG.integers(-5, 40, (4, 5)).astype(np.int64)
    u = RNG.integers(0, 30, 33).astype(np.uint8)
    _check(fn, a, b)
    _check(fn, u, a[::-3])
    _check(fn, u, u[:0])
    _check(fn, a[:0], b[:0])


@pytest.mark.parametrize("fn", FNS)
def test_bools_and_mixed(fn):
    t = np.array([True, False, True])
    f = np.array([[False, False]])
    _check(fn, t, f)
    _check(fn, f, f)
    _check(fn, t, np.array([], np.bool_))
    _check(fn, t, np.array([1, 2], np.int16))       # bool with int16: int16
    _check(fn, np.array([0.5, 1.0]), t)


def test_lists_and_ints_with_floats():
    def on_lists(a):
        return np.union1d([3, 1, 2], a), np.setdiff1d(a, [1.0, 2.0])
    a = np.array([2.0, -0.0, NAN, 5.0])
    got, want = jitted(on_lists, fallback=False)(a), on_lists(a)
    for g, w in zip(got, want):
        _same(g, w)
    i = np.array([1, 5, 2**40], np.int64)
    for fn in (union, intersect, setxor):
        _check(fn, i, np.array([5.0, NAN]))


def test_large_random_ints():
    a = RNG.integers(-1000, 1000, 5000)
    b = RNG.integers(-1000, 1000, 3000).astype(np.int16)
    for fn in FNS:
        _check(fn, a, b)
    c = RNG.integers(0, 2**64 - 1, 400, dtype=np.uint64)
    for fn in FNS:
        _check(fn, c, c[::3])


FALLBACKS = [
    (lambda a, b: np.intersect1d(a, b, return_indices=True), "return_indices"),
    (lambda a, b: np.setdiff1d(a, b, assume_unique=True), "assume_unique=True"),
    (lambda a, b: np.union1d(a, b.astype(np.complex128)), "complex128"),
    (lambda a, b: np.setdiff1d(a.astype(np.int64), b), "int64 and float64"),
    (lambda a, b: np.setdiff1d(a.astype(np.uint64), b.astype(np.int8)), "uint64"),
    (lambda a, b: np.union1d(a, 3.0), "arrays only"),
]


@pytest.mark.parametrize("fn, why", FALLBACKS, ids=range(len(FALLBACKS)))
def test_falls_back_with_reason(fn, why):
    from hanajit import jit
    a, b = np.array([1.0, 2.0]), np.array([2.0, 3.0])
    with pytest.raises(HanaJitError, match=why):
        jit(fn, fallback=False)(a, b)
