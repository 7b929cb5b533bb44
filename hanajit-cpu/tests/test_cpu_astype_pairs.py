"""``a.astype(dtype)`` for every pair of the 13 numeric dtypes over edge values
(zeros of both signs, +-1, fractions, out-of-range values, 2**63, NaN, infinities,
float32 overflow and subnormals), element for element NumPy's result on this
machine (out-of-range float -> int casts are what x86-64 NumPy gives)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted

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


def assign(out, a):
    out[1:] = a[1:]
    return out


def scatter(out, a):
    out[np.arange(len(a))] = a
    return out


def as_array(a, b):
    return np.array(a, dtype=b.dtype)


@pytest.mark.parametrize("src", DTYPES[9:], ids=lambda d: d.__name__)
def test_array_to_array_casts_are_numpys(src):
    # a[:] = b, a[idx] = b and np.array(b, dtype=) cast as astype does (a scalar
    # stored converts as Python does instead: ValueError for NaN, as NumPy)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for dst in DTYPES:
            a = VALUES.astype(src)
            if dst == np.uint32:      # (NaN and out-of-range values re-run, which a
                a = a[np.abs(a) < 2.0 ** 31]      # function writing arrays cannot)
            b = np.zeros(1, dst)
            stores = (assign, scatter)
            if np.dtype(src).kind == "c" and np.dtype(dst).kind != "c":
                stores = ()   # (storing complex into real arrays falls back: ComplexWarning)
            for f in stores:
                got = jitted(f, fallback=False)(np.zeros(len(a), dst), a)
                want = f(np.zeros(len(a), dst), a)
                assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc"), \
                    (f.__name__, src, dst, got, want)
            got, want = jitted(as_array, fallback=False)(a, b), as_array(a, b)
            assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc")
