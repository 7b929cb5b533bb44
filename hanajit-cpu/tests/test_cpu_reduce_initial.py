"""initial= of np.min/np.max/np.sum/np.prod (and the methods) and where= of
np.mean/np.min/np.max/np.sum against NumPy, bit for bit: dtypes, layouts,
empty arrays, NaN/inf/signed zeros (NumPy's loop order decides between zeros of
both signs: those re-run in the interpreter, same result), keepdims, NumPy's
errors, and what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit


def max_i(a, v):
    return np.max(a, initial=v)


def min_i(a, v):
    return np.min(a, initial=v)


def max_m(a, v):
    return a.max(initial=v)


def min_m(a, v):
    return a.min(initial=v)


def sum_i(a, v):
    return np.sum(a, initial=v)


def prod_i(a, v):
    return np.prod(a, initial=v)


def max_keep(a, v):
    return np.max(a, initial=v, keepdims=True)


def sum_axis0(a, v):
    return np.sum(a, axis=0, initial=v)


def max_where(a, m, v):
    return np.max(a, where=m, initial=v)


def min_where(a, m, v):
    return np.min(a, where=m, initial=v)


def sum_where_i(a, m, v):
    return np.sum(a, where=m, initial=v)


def mean_where(a, m):
    return np.mean(a, where=m)


def mean_where_m(a, m):
    return a.mean(where=m)


J = {f.__name__: jit(f, fallback=False)
     for f in (max_i, min_i, max_m, min_m, sum_i, prod_i, max_keep, sum_axis0, max_where,
               min_where, sum_where_i, mean_where, mean_where_m)}


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


def check(name, *args):
    fn = globals()[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = fn(*args)
        except Exception as e:
            with pytest.raises(type(e)):
                J[name](*args)
            return
        same(J[name](*args), want)


def arrays(dtype):
    r = np.random.default_rng(5)
    base = (r.standard_normal(37) * 50).astype(dtype) if np.dtype(dtype).kind != "u" \
        else r.integers(0, 200, 37).astype(dtype)
    m2 = base[:36].reshape(6, 6)
    if dtype != np.float64:
        return [base, base[::-3], base[:0], m2]
    return [base, base[::-3], base[:0], m2, np.asfortranarray(m2), m2[::2, ::-1],
            base[:36].reshape(3, 3, 4)]


DTYPES = [np.float64, np.float32, np.int32, np.uint8]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["max_i", "min_i", "max_m", "min_m", "sum_i", "prod_i"])
def test_initial(name, dtype):
    inits = [0, 7, -3] if np.dtype(dtype).kind in "iu" else [0.0, 2.5, -1e9, np.inf]
    for a in arrays(dtype):
        if name == "prod_i":
            a = np.clip(a, -3, 3) if np.dtype(dtype).kind != "u" else a % 3
        for v in inits:
            if name in ("sum_i", "prod_i") and a.ndim > 1 and not a.flags.c_contiguous \
                    and np.dtype(dtype).kind == "f":
                continue        # (falls back: test_fallbacks)
            check(name, a, v)


def test_initial_complex_sum_prod():
    z = (np.arange(12) - 5.5 + 1j * np.arange(12)[::-1]).astype(np.complex128)
    for v in (0, 1.5, 2 + 1j):
        check("sum_i", z, v)
        check("prod_i", z / 4, v)
        check("sum_i", z[:0], v)


def test_special_values():
    for a in (np.array([np.nan, 1.0, 2.0]), np.array([1.0, -np.inf]), np.array([-0.0]),
              np.array([0.0, -0.0, 0.0]), np.zeros(40), -np.zeros(40),
              np.array([-1.0, -0.0, -2.0] * 7), np.array([-np.nan, 1.0])):
        for v in (0.0, -0.0, 1.0, -1.0, np.nan, -np.inf, np.inf):
            for name in ("max_i", "min_i", "sum_i", "prod_i"):
                check(name, a, v)
            check("max_i", a.astype(np.float32), v)


def test_keepdims_axis():
    a = np.arange(12.0).reshape(3, 4)
    check("max_keep", a, 100.0)
    check("max_keep", a, -1.0)
    check("sum_axis0", np.arange(5.0), 1.5)


def test_initial_conversion():
    check("max_i", np.array([1, 2], np.uint8), -1)         # OverflowError
    check("max_i", np.array([1, 2], np.int32), 2**40)      # OverflowError
    check("max_i", np.array([1, 2], np.int8), 100)
    check("sum_i", np.array([1, 2], np.int8), 300)         # (sums in int64)
    check("max_i", np.array([1, 2], np.float32), 1e300)    # NumPy warns
    check("min_i", np.array([1, 2], np.float32), 0.1)
    check("sum_i", np.array([1, 2], np.float32), 0.1)
    check("max_i", np.array([], np.int64), 5)
    check("min_i", np.array([], np.float32), np.nan)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_where(dtype):
    r = np.random.default_rng(3)
    for a in arrays(dtype):
        if a.ndim > 1 and not a.flags.c_contiguous:
            continue
        for p in (0.0, 0.3, 1.0):
            m = r.random(a.shape) < p
            for v in (0, 5, -100):
                check("max_where", a, m, dtype(v))
                check("min_where", a, m, v)
                check("sum_where_i", a, m, v)
            if np.dtype(dtype).kind == "f":
                check("mean_where", a, m)
                check("mean_where_m", a, m)


def test_where_special():
    a = np.array([np.nan, 1.0, -0.0, 0.0, np.inf, -2.0])
    for k in range(64):
        m = np.array([(k >> i) & 1 for i in range(6)], bool)
        for v in (0.0, -0.0, -np.inf, np.nan):
            check("max_where", a, m, v)
            check("min_where", a, m, v)
            check("sum_where_i", a, m, v)
        check("mean_where", a, m)          # (nothing selected: NumPy warns)
    z = np.array([1 + 2j, 3 - 1j, 0.5j])
    check("mean_where", z, np.array([True, False, True]))
    check("mean_where", z.astype(np.complex64), np.array([True, True, True]))
    # a mask that broadcasts re-runs in the interpreter
    check("mean_where", np.ones((2, 3)), np.array([[True, False, True]]))


def test_fallbacks():
    def max_where_no_initial(a, m):
        return np.max(a, where=m)

    def max_axis(a):
        return np.max(a, axis=0, initial=0.0)

    def sum_bool(a):
        return np.sum(a, initial=1)

    def mean_int_where(a, m):
        return np.mean(a, where=m)

    def sum_f(a):
        return np.sum(a, initial=1.0)

    a2 = np.ones((3, 2))
    cases = [(max_where_no_initial, (a2, a2 > 0), "needs initial"),
             (max_axis, (a2,), "whole arrays only"),
             (sum_bool, (np.array([True]),), "bool"),
             (mean_int_where, (np.arange(3), np.arange(3) > 0), "integer array"),
             (sum_f, (np.asfortranarray(a2),), "C-contiguous")]
    for fn, args, words in cases:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            try:
                want = fn(*args)
            except ValueError:
                want = None
            try:
                got = jit(fn)(*args)
            except ValueError:
                got = None
            if want is not None:
                same(got, want)
        assert any(words in str(x.message) for x in w), [str(x.message) for x in w]
