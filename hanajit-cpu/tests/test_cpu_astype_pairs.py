"""``a.astype(dtype)`` for every pair of the 13 numeric dtypes over edge values
(zeros of both signs, +-1, fractions, out-of-range values, 2**63, NaN, infinities,
float32 overflow and subnormals), element for element NumPy's result on this
machine (out-of-range float -> int casts are what x86-64 NumPy gives)."""
from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from hanajit import jit

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32,
          np.int64, np.uint64, np.float32, np.float64, np.complex64, np.complex128]
VALUES = np.array([0, 1, -1, 2.5, -2.5, 300, -300, 1e10, -1e10, 2.0 ** 63, np.nan, np.inf,
                   -np.inf, -0.0, 3e38, 1e-40])


def cast_like(a, b):
    return a.astype(b.dtype)


@pytest.mark.parametrize("src", DTYPES, ids=lambda d: d.__name__)
def test_astype_every_pair(src):
    f = jit(cast_like, fallback=False)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        a = VALUES.astype(src)
        for dst in DTYPES:
            b = np.zeros(1, dst)
            got, want = f(a, b), cast_like(a, b)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want, equal_nan=got.dtype.kind in "fc"), \
                (src, dst, got, want)
            assert np.array_equal(f(a[::-2], b), cast_like(a[::-2], b),
                                  equal_nan=got.dtype.kind in "fc")
