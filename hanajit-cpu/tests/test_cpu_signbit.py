"""``np.signbit``: the sign bit of floats (``-0.0`` and NaNs with the bit set
too), ``x < 0`` of signed integers, False for unsigned ones and booleans; of
numbers and arrays, NumPy's result types; complex numbers fall back (NumPy
raises TypeError)."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit


def signbit(x):
    return np.signbit(x)


def count_negative(a):
    n = 0
    for v in a:
        if np.signbit(v):
            n += 1
    return n


def masked(a):
    return np.where(np.signbit(a), -a, a)


F = jit(signbit, fallback=False)
SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, -np.nan, 5e-324, -5e-324]


def same(got, want):
    assert type(got) is type(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint16,
                                   np.bool_])
def test_arrays_and_numpy_scalars(dtype):
    x = np.array(SPECIAL) if np.dtype(dtype).kind == "f" else np.arange(-5, 5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = x.astype(dtype)
    same(F(a), signbit(a))
    same(F(a[::-2]), signbit(a[::-2]))
    for v in a:
        same(F(v), signbit(v))
    same(jit(count_negative, fallback=False)(a), count_negative(a))
    if np.dtype(dtype).kind != "b":
        same(jit(masked, fallback=False)(a), masked(a))


@settings(max_examples=60, deadline=None)
@given(st.floats(allow_nan=True) | st.integers(-2**63, 2**63 - 1) | st.booleans())
def test_python_numbers(x):
    same(F(x), signbit(x))


def test_complex_falls_back_with_numpys_error():
    g = jit(signbit)
    with pytest.warns(HanaJitFallbackWarning):
        with pytest.raises(TypeError):
            g(1 + 2j)
