"""np.tri, np.diagflat, np.indices, np.vander and np.linspace(retstep=True) against
NumPy: values bit for bit, dtypes, shapes; NumPy's ValueError for negative
dimensions; the deopt of linspace's Python-float nan step."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import strict as jitted


def tri(n, m, k):
    return np.tri(n, m, k)


def tri_n(n):
    return np.tri(n)


def tri_i8(n, k):
    return np.tri(n, k=k, dtype=np.int8)


def tri_bool(n, m):
    return np.tri(n, m, dtype=bool)


def diagflat(v):
    return np.diagflat(v)


def diagflat_k(v, k):
    return np.diagflat(v, k)


def diagflat_tuple(x):
    return np.diagflat((x, 2.5, 3), k=-1)


def indices(n, m):
    return np.indices((n, m))


def indices_3(n):
    return np.indices((n, 2, 3), dtype=np.int32)


def vander(x):
    return np.vander(x)


def vander_n(x, n, inc):
    return np.vander(x, n, increasing=inc)


def linspace_step(a, b, n):
    return np.linspace(a, b, n, retstep=True)


def linspace_step_open(a, b, n):
    return np.linspace(a, b, n, False, True)


def same(got, want):
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    elif isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    else:
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def check(fn, *args):
    try:
        with np.errstate(all="ignore"):
            want = fn(*args)
    except Exception as exc:
        with pytest.raises(type(exc)):
            jitted(fn)(*args)
        return
    same(jitted(fn)(*args), want)


@pytest.mark.parametrize("n, m, k", [(3, 3, 0), (3, 5, -1), (4, 2, 2), (0, 3, 0), (-1, 2, 0),
                                     (2, -3, 1), (3, 3, -7), (3, 3, 9)])
def test_tri(n, m, k):
    check(tri, n, m, k)
    check(tri_i8, n, k)
    check(tri_bool, n, m)
    check(tri_n, n)


V = [np.array([[1, 2], [3, 4]]), np.array([[1.5, -0.0], [np.nan, np.inf]]).T,
     np.arange(6, dtype=np.uint8)[::-2], np.array([True, False]),
     np.array([1 + 2j, 3 - 1j], np.complex64), np.zeros(0, np.float32),
     np.arange(12, dtype=np.int32).reshape(3, 4)[:, ::2]]


@pytest.mark.parametrize("v", V)
def test_diagflat(v):
    check(diagflat, v)
    for k in (-2, 0, 3):
        check(diagflat_k, v, k)


def test_diagflat_tuple():
    check(diagflat_tuple, 1.0)


@pytest.mark.parametrize("n, m", [(2, 3), (0, 4), (1, 1), (-1, 2), (3, -2)])
def test_indices(n, m):
    check(indices, n, m)
    check(indices_3, n)


X = [np.array([1, 2, 3], np.uint8), np.array([1.5, -2, 0.1], np.float32),
     np.array([0.3, 1e200, np.nan, -0.0]), np.array([1.5 + 1j, 2, -3j]),
     np.array([True, False]), np.array([3, -7, 2 ** 40], np.int64),
     np.array([5, 2 ** 63], np.uint64), np.arange(8.0)[::-3], np.zeros(0, np.int32)]


@pytest.mark.parametrize("x", X)
def test_vander(x):
    check(vander, x)
    for n in (0, 1, 2, 5, -1):
        for inc in (False, True):
            check(vander_n, x, n, inc)


@pytest.mark.parametrize("a, b, n", [(0, 1, 5), (0.0, 1.0, 2), (-3.5, 2, 7), (1, 1, 4),
                                     (0, 1, 1), (0, 1, 0), (2.0, -1e300, 3), (0, 1, -1),
                                     (0, np.inf, 3)])
def test_linspace_retstep(a, b, n):
    check(linspace_step, a, b, n)
    check(linspace_step_open, a, b, n)
