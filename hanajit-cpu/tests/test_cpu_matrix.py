"""np.eye, np.identity, np.tril, np.triu and np.fill_diagonal against NumPy, byte
for byte: dtypes, offsets k beyond the matrix, 1-D/2-D/3-D and strided inputs to
tril/triu, wrap and repeated values in fill_diagonal, NumPy's errors."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.jitted import jitted


def eye(n):
    return np.eye(n)


def eye_full(n, m, k):
    return np.eye(n, m, k, dtype=np.int32)


def eye_bool(n, k):
    return np.eye(n, k=k, dtype=bool)


def identity(n):
    return np.identity(n, dtype=np.complex64)


def identity_float(n):
    return np.identity(n)


def tril(m):
    return np.tril(m)


def tril_k(m, k):
    return np.tril(m, k)


def triu_k(m, k):
    return np.triu(m, k=k)


def fill(a, v):
    np.fill_diagonal(a, v)
    return a


def fill_wrap(a, v):
    np.fill_diagonal(a, v, wrap=True)
    return a


def fill_3d(a):
    np.fill_diagonal(a, 1.0)
    return a


def check(fn, *args):
    fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    try:
        want = fn(*fresh)
    except Exception as exc:                            # noqa: BLE001
        with pytest.raises(type(exc)):
            jitted(fn, fallback=False)(*args)
        return
    got = jitted(fn, fallback=False)(*args)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.tobytes() == want.tobytes(), (got, want)


@pytest.mark.parametrize("n", [0, 1, 3, 6])
def test_eye_and_identity(n):
    for fn in (eye, identity, identity_float):
        check(fn, n)
    for m, k in ((n, 0), (n + 2, 1), (max(n - 1, 0), -1), (4, 9), (4, -9), (2, -1)):
        check(eye_full, n, m, k)
        check(eye_bool, n, k)
    check(eye, -1)                                     # ValueError, as NumPy


MATRICES = [np.arange(12.0).reshape(3, 4), np.arange(5), np.arange(24).reshape(2, 3, 4),
            np.arange(20.0).reshape(5, 4)[::-1, ::2], np.zeros((0, 3)),
            np.array([[-0.0, np.nan], [np.inf, 1j]]), np.ones((4, 4), bool),
            np.asfortranarray(np.arange(16, dtype=np.uint8).reshape(4, 4))]


@pytest.mark.parametrize("k", range(len(MATRICES)))
def test_tril_and_triu(k):
    m = MATRICES[k]
    check(tril, m)
    for d in (-5, -2, -1, 0, 1, 2, 7):
        check(tril_k, m, d)
        check(triu_k, m, d)


TARGETS = [np.zeros((3, 5)), np.zeros((5, 3)), np.zeros((4, 4), np.int8), np.zeros((0, 3)),
           np.zeros((3, 0)), np.zeros((6, 2))[::2], np.zeros((4, 4), complex),
           np.zeros((2, 2), np.uint8)]
VALUES = [7, 2.5, -1, np.array([1.0, 2.0]), np.array([], float), np.arange(10),
          np.array([[3, 4], [5, 6]])]


@pytest.mark.parametrize("k", range(len(TARGETS)))
def test_fill_diagonal(k):
    for v in VALUES:
        check(fill, TARGETS[k], v)
        check(fill_wrap, TARGETS[k], v)


def test_fill_diagonal_writes_in_place_and_falls_back_for_nd():
    a = np.zeros((3, 3))
    jitted(fill, fallback=False)(a, 4.0)
    assert np.array_equal(a, 4.0 * np.eye(3))
    ro = np.zeros((2, 2))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        jitted(fill, fallback=False)(ro, 1.0)
    with pytest.warns(HanaJitFallbackWarning, match="fill_diagonal"):
        r = jit(fill_3d)(np.zeros((2, 2, 2)))
    assert r[1, 1, 1] == 1.0
