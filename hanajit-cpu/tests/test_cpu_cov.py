"""``np.cov`` (``lib/statistics/cov.py``) against NumPy: the same bits, shape and
type (a 0-d array for one variable), the same exceptions, over random shapes
(empty and single rows and columns included), dtypes, strides of 1-D data,
``y``, ``rowvar``, ``bias`` and ``ddof``; unsupported forms fall back naming why."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit


def outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as exc:        # noqa: BLE001 - compared by class and text
        return "raise", type(exc), str(exc)


def of_m(m):
    return np.cov(m)


def of_m_y(m, y):
    return np.cov(m, y)


def columns(m):
    return np.cov(m, rowvar=False)


def columns_y(m, y):
    return np.cov(m, y, rowvar=False)


def biased(m):
    return np.cov(m, bias=True)


def with_ddof(m, d):
    return np.cov(m, ddof=d)


def off_diagonal(x, y):
    return np.cov(x, y)[0, 1]


JIT = {f: jit(f) for f in (of_m, of_m_y, columns, columns_y, biased, with_ddof,
                           off_diagonal)}
DTYPES = [np.float64, np.float32, np.int64, np.int8, np.uint16, np.bool_]


def same(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # (NumPy's dof <= 0)
        want = outcome(f, *args)
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            got = outcome(JIT[f], *args)
    assert got[0] == want[0], (f.__name__, args, got, want)
    if want[0] == "raise":
        assert got[1:] == want[1:], (f.__name__, got, want)
        return
    g, w = got[1], want[1]
    assert type(g) is type(w), (f.__name__, g, w)
    g, w = np.asarray(g), np.asarray(w)
    assert g.shape == w.shape and g.dtype == w.dtype, (f.__name__, g, w)
    assert g.tobytes() == w.tobytes(), (f.__name__, args, g, w)


def data(rng, shape, dtype):
    if dtype is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(0, 50, shape).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 4), st.integers(0, 40),
       st.sampled_from(DTYPES), st.booleans())
def test_matrices(seed, k, n, dtype, one_d):
    rng = np.random.default_rng(seed)
    m = data(rng, (n,) if one_d else (k, n), dtype)
    for f in (of_m, columns, biased):
        same(f, m)
    for d in (0, 1, 2, n, n + 3):
        same(with_ddof, m, d)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 3), st.integers(1, 3),
       st.integers(1, 30), st.sampled_from(DTYPES), st.booleans())
def test_with_y(seed, km, ky, n, dtype, one_d):
    rng = np.random.default_rng(seed)
    if one_d:
        m, y = data(rng, (n,), dtype), data(rng, (n,), np.float64)
    else:
        m, y = data(rng, (km, n), dtype), data(rng, (ky, n), np.float32)
    same(of_m_y, m, y)
    same(off_diagonal, data(rng, (n,), dtype), data(rng, (n,), dtype))
    if not one_d:
        same(columns_y, m.T.copy(), y.T.copy())


def test_columns_with_y_keep_numpys_order():
    """NumPy concatenates the transposed ``m`` and ``y`` in Fortran order, so
    each variable's mean adds in index order, not pairwise: long columns show it.
    Of one column each its concatenation is C-ordered (the strides tie) and the
    means add pairwise (found by hypothesis: ``n=21``, float32 ``y``)."""
    rng = np.random.default_rng(11)
    for n in (9, 21, 100, 1001):
        same(columns_y, rng.standard_normal((n, 2)) * 10, rng.standard_normal((n, 3)))
        same(columns_y, rng.standard_normal((n, 1)), rng.standard_normal((n, 1)))
        same(columns_y, rng.standard_normal((n, 1)) * 10,
             (rng.standard_normal((n, 1)) * 10).astype(np.float32))
        same(columns_y, rng.standard_normal((n, 1)), rng.standard_normal((n, 2)))


def test_strided_and_long_data():
    """Pairwise means over long rows; 1-D data with a step."""
    rng = np.random.default_rng(4)
    same(of_m, rng.random(3001)[::3])
    same(of_m, rng.random((3, 5000)))
    same(columns, rng.random((2000, 3)))
    same(of_m_y, rng.random(999)[::-1], rng.random(999))


def test_errors_are_numpys():
    same(of_m_y, np.ones(3), np.ones(4))          # concatenate's ValueError
    same(of_m_y, np.ones((2, 3)), np.ones((2, 5)))


def of_complex(m):
    return np.cov(m + 0j)


def weighted(m):
    return np.cov(m, aweights=np.ones(m.shape[1]))


@pytest.mark.parametrize("f, args, why", [
    (of_complex, (np.ones((3, 4)),), "real array"),
    (of_m, (np.asfortranarray(np.ones((3, 4))),), "not C-contiguous"),
    (weighted, (np.ones((3, 4)),), "aweights"),
    (with_ddof, (np.ones((3, 4)), 1.5), "ddof"),
])
def test_fall_backs_name_why(f, args, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got, want = outcome(jit(f), *args), outcome(f, *args)
    assert got[0] == want[0] and (got[0] == "raise" or np.array_equal(got[1], want[1]))
