"""``np.logspace`` (``lib/arrays/log_ranges.py``) against NumPy: dtype, shape
and NumPy's ValueError exactly; the values are ``base`` to the power of NumPy's
own ``linspace`` values (bit for bit), raised by C's ``pow``: bit for bit
wherever NumPy's power is C's ``pow`` (``math.pow``), and within 4 ulp where it
is not (NumPy's SIMD power loop on AVX-512 hosts)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit


def default(a, b):
    return np.logspace(a, b)


def full(a, b, n, endpoint, base):
    return np.logspace(a, b, n, endpoint, base)


JIT = {f: jit(f, fallback=False) for f in (default, full)}


def check(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = f(*args)
        except ValueError:
            with pytest.raises(ValueError):
                JIT[f](*args)
            return
        got = JIT[f](*args)
        y = np.linspace(*args[:2], *args[2:4])
    assert type(got) is type(want) and got.dtype == want.dtype and got.shape == want.shape
    base = float(args[4]) if len(args) > 4 else 10.0
    ref = np.array([math.pow(base, v) if not (base < 0 and v != int(v)) else math.nan
                    for v in y])
    g, w = got.view(np.int64), want.view(np.int64)
    both_nan = np.isnan(got) & np.isnan(want)
    assert (both_nan | (np.abs(g - w) <= 4)).all(), (args, got, want)
    exact = (want == ref) | both_nan
    assert (got[exact].tobytes() == want[exact].tobytes()), (args, got, want)


@pytest.mark.parametrize("args", [(0, 3), (-2.5, 7.1), (1.0, -1.0), (0.0, 0.0),
                                  (-300.0, 300.0), (True, 2)])
def test_default(args):
    check(default, *args)


@pytest.mark.parametrize("args", [(0, 3, 7, False, 2), (0.5, 3.5, 11, True, 2.5),
                                  (1, 2, 0, True, 3.0), (1, 2, 1, False, np.float32(1.5)),
                                  (-1, 5.0, 9, True, 0.5), (1, 2, 4, True, -2.0),
                                  (0, 10, 11, True, 2), (1, 2, -1, True, 10.0),
                                  (-1e308, 1e308, 5, True, 1.0), (np.nan, 1.0, 3, True, 2)])
def test_num_endpoint_base(args):
    check(full, *args)


def exact_powers(n):
    return np.logspace(0, n - 1, n, True, 2)


def test_exact_powers_of_two():
    got, want = jit(exact_powers, fallback=False)(40), exact_powers(40)
    assert got.tobytes() == want.tobytes()


def complex_base(a):
    return np.logspace(0, a, 5, True, 1j)


def with_dtype(a):
    return np.logspace(0, a, 5, dtype=np.float32)


@pytest.mark.parametrize("f, why", [(complex_base, "base"), (with_dtype, "dtype")])
def test_fall_backs_name_why(f, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got = jit(f)(2.0)
    assert got.tobytes() == f(2.0).tobytes()
