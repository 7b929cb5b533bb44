"""np.nancumsum and np.nancumprod against NumPy: values bit for bit, dtypes (int64
for small integers and booleans), axes, NaN/inf/signed zeros, complex NaNs,
layouts, empty arrays; the argument left unchanged."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import strict as jitted


def ncs(a):
    return np.nancumsum(a)


def ncs0(a):
    return np.nancumsum(a, axis=0)


def ncs_last(a):
    return np.nancumsum(a, -1)


def ncp(a):
    return np.nancumprod(a)


def ncp1(a):
    return np.nancumprod(a, axis=1)


def check(fn, a):
    before = a.copy()
    with np.errstate(all="ignore"):
        want = fn(a)
    got = jitted(fn)(a)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()
    assert a.tobytes() == before.tobytes()


M = np.array([[1.5, np.nan, -0.0], [np.inf, 2.5, np.nan]])
C = M.astype(np.complex128)
C.imag = M[::-1]
ARRAYS = [M, M.astype(np.float32), M.T, M[:, ::-1], C,
          np.array([[1, 2, 3], [4, 5, 6]], np.int32), np.array([[True, False, True]] * 2),
          np.array([[200, 100, 7]] * 2, np.uint8), np.zeros((2, 0))]


@pytest.mark.parametrize("a", ARRAYS)
def test_nancumulative(a):
    for fn in (ncs, ncs0, ncs_last, ncp, ncp1):
        check(fn, a)
