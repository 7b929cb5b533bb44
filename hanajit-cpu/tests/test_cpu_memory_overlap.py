"""np.may_share_memory (bounds, NumPy's default) and np.shares_memory (certain
cases compiled, interleaved views re-run in the interpreter) against NumPy."""
import warnings

import numpy as np
import pytest

from hanajit import jit


def may(a, b):
    return np.may_share_memory(a, b)


def shares(a, b):
    return np.shares_memory(a, b)


def shares_views(a):
    return np.shares_memory(a[::2], a[1::2]), np.shares_memory(a[:3], a[2:])


def may_scalar(a):
    return np.may_share_memory(a, 3.0)


J_MAY = jit(may, fallback=False)
J_SHARES = jit(shares, fallback=False)

X = np.arange(24.0).reshape(4, 6)
XF = np.asfortranarray(X)
I8 = np.arange(40, dtype=np.int8)
CASES = [
    (X, X), (X, X.T), (X, X[::-1]), (X[0], X[1]), (X[0], X[0, 2:]), (X[:, 0], X[:, 1]),
    (X[:2], X[2:]), (X[:3], X[2:]), (X, np.zeros(3)), (X[:, ::2], X[:, 1::2]),
    (X[:0], X), (X[1:1], X[1:2]), (XF, XF[:, 1:]), (XF[:, 0], XF[:, 1]),
    (I8[::3], I8[1::3]), (I8[:10], I8[9:]), (I8, I8.view(np.int16)),
    (I8[::-1], I8[5:6]), (X.ravel()[5:], X[1]), (np.float32(1.0) * np.ones(3, np.float32),
                                                  np.ones(2, np.float32)),
]


@pytest.mark.parametrize("k", range(len(CASES)))
def test_may_share_memory(k):
    a, b = CASES[k]
    got = J_MAY(a, b)
    assert type(got) is bool and got == np.may_share_memory(a, b)


@pytest.mark.parametrize("k", range(len(CASES)))
def test_shares_memory(k):
    a, b = CASES[k]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # (a re-run in the interpreter)
        got = jit(shares)(a, b) if k == 9 or k == 14 else J_SHARES(a, b)
    assert type(got) is bool and got == np.shares_memory(a, b)


def test_shares_memory_interleaved_reruns():
    a = np.arange(10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert jit(shares_views)(a) == shares_views(a) == (False, True)


def test_scalar_argument():
    assert jit(may_scalar, fallback=False)(X) is False
