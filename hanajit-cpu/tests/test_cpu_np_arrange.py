"""np.flip/fliplr/flipud, np.expand_dims, np.atleast_1d/2d/3d, np.vstack/hstack/
column_stack, np.diag, np.trace and np.count_nonzero against NumPy: values,
dtypes, shapes, and for views the memory shared with the argument and NumPy's
writeability (np.diag of a matrix is read-only)."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit


def flips(a):
    return np.flip(a), np.flip(a, 0), np.flip(a, -1), np.flipud(a)


def flips_2d(a):
    return np.flip(a, axis=(0, 1)), np.fliplr(a), np.flip(a, (1,))


def dims(a):
    return (np.expand_dims(a, 0), np.expand_dims(a, -1), np.atleast_1d(a),
            np.atleast_2d(a), np.atleast_3d(a))


def vstack(a, b):
    return np.vstack((a, b))


def hstack(a, b):
    return np.hstack((a, b))


def column_stack(a, b):
    return np.column_stack((a, b))


def diagonals(v, m):
    return (np.diag(v), np.diag(v, 1), np.diag(v, -2), np.diag(m), np.diag(m, 1),
            np.diag(m, -1), np.diag(m, 7), np.trace(m), np.count_nonzero(m),
            np.count_nonzero(v))


def write_through_flip(a):
    f = np.flip(a)
    f[0] = -1.0
    return a


def write_diag(m):
    d = np.diag(m)
    d[0] = 5.0


M = np.arange(12.0).reshape(3, 4)
ARRAYS = [np.arange(5.0), M, M.T, M[::-1, ::2], np.arange(4)[::-1], np.zeros((0, 3)),
          np.array(2.5), np.arange(24, dtype=np.int8).reshape(2, 3, 4),
          np.array([True, False, True])]


def _check(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_views_match_numpy(a):
    cases = [dims] + ([flips] if a.ndim >= 1 else []) + ([flips_2d] if a.ndim >= 2 else [])
    for f in cases:
        for got, want in zip(jit(f)(a), f(a)):
            _check(got, want)
            if want.size:            # a view of the argument, as NumPy's
                assert np.shares_memory(got, a) and got.flags.writeable


@pytest.mark.parametrize("a,b", [
    (np.arange(3.0), np.arange(3)), (M, M + 1), (M.T, M.T), (np.arange(4.0),
     np.ones(4, np.float32)), (np.array(1.0), np.array(2.0)), (np.zeros((2, 0)), np.ones((2, 3))),
     (np.zeros((0, 3)), np.ones((2, 3)))])
def test_stacking_matches_numpy(a, b):
    for f in (vstack, hstack, column_stack):
        try:
            want = f(a, b)
        except ValueError:          # (shapes that do not join: the same error)
            with pytest.raises(ValueError):
                jit(f)(a, b)
            continue
        _check(jit(f)(a, b), want)


def test_stacking_shape_mismatch_raises_value_error():
    with pytest.raises(ValueError, match="must match exactly"):
        jit(vstack)(np.arange(3.0), np.arange(4.0))


@pytest.mark.parametrize("v,m", [(np.arange(3.0), M), (np.arange(4), M.T.copy()),
                                 (np.zeros(0), np.zeros((0, 2))),
                                 (np.array([1 + 2j, 3j]), np.eye(3) * (1 - 1j)),
                                 (np.array([True, False]), np.ones((2, 2), bool))])
def test_diagonals_match_numpy(v, m):
    got, want = jit(diagonals)(v, m), diagonals(v, m)
    for g, w in zip(got, want):
        _check(g, w)
    assert not got[3].flags.writeable
    assert np.shares_memory(got[3], m) or not got[3].size


def test_writes_through_views():
    a = np.arange(4.0)
    assert jit(write_through_flip)(a.copy()).tolist() == write_through_flip(a.copy()).tolist()
    with pytest.raises(ValueError, match="read-only"):
        jit(write_diag)(np.ones((2, 2)))


def traces(m):
    return np.trace(m), m.trace(), np.trace(m, 1), m.trace(-2), np.trace(m, offset=50)


_TRACES = jit(traces, fallback=False)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int8,
                                   np.uint32, np.bool_])
def test_trace_is_numpys_sum_of_the_diagonal(dtype):
    # NumPy's trace is add.reduce of the diagonal view: pairwise for floats from
    # eight values on, in np.sum's dtype (int8 -> int64, uint32 -> uint64)
    rng = np.random.default_rng(5)
    for n in (0, 3, 8, 9, 130, 300):
        m = rng.standard_normal((n, n + 2)) * 10.0 ** rng.uniform(-6, 6, (n, n + 2))
        if np.dtype(dtype).kind == "c":
            m = m + 1j * m[::-1]
        m = m.astype(dtype) if np.dtype(dtype).kind in "fcb" else \
            (m * 1e-3).astype(np.int64).astype(dtype)
        for x in (m, np.asfortranarray(m), m[::-1, ::2]):
            for got, want in zip(_TRACES(x), traces(x)):
                assert type(got) is type(want) and \
                    np.asarray(got).tobytes() == np.asarray(want).tobytes(), (n, dtype)
