"""np.bincount against NumPy; the old ``f64*`` signature form."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit


@jit(fallback=False)
def bincount(x):
    return np.bincount(x)


@jit(fallback=False)
def bincount_w(x, w, m):
    return np.bincount(x, weights=w, minlength=m)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 40), max_size=50), st.integers(0, 60))
def test_bincount_matches_numpy(values, minlength):
    x = np.array(values, dtype=np.int64)
    np.testing.assert_array_equal(bincount(x), np.bincount(x))
    w = np.linspace(-1, 2, len(values))
    np.testing.assert_array_equal(bincount_w(x, w, minlength),
                                  np.bincount(x, weights=w, minlength=minlength))


@pytest.mark.parametrize("x", [np.array([3], np.int32), np.array([True, False, True]),
                               np.arange(10, dtype=np.uint8)[::3]])
def test_bincount_dtypes_and_views(x):
    np.testing.assert_array_equal(bincount(x), np.bincount(x))


def test_bincount_errors():
    with pytest.raises(ValueError, match="negative"):
        bincount(np.array([1, -1]))
    with pytest.raises(ValueError, match="same length"):
        bincount_w(np.array([1, 2]), np.array([1.0]), 0)
    with pytest.raises(ValueError, match="minlength"):
        bincount_w(np.array([1, 2]), np.array([1.0, 2.0]), -1)


@jit(fallback=False)
def bincount_w_sum(x, w):
    return np.bincount(x, weights=w).sum()


@pytest.mark.parametrize("minlength", [0, 3])
@pytest.mark.parametrize("w", [np.zeros(0), np.zeros(0, np.float32), np.zeros(4),
                               np.zeros(0, np.int64), np.zeros(0, bool)])
def test_bincount_of_an_empty_array_with_weights_is_int64(w, minlength):
    # NumPy returns int64 zeros(minlength) whatever the weights (their length is
    # not checked); the type is known only at run time, so the call re-runs in
    # the interpreter (a deoptimisation, no warning)
    import warnings
    x = np.zeros(0, np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = bincount_w(x, w, minlength)
    want = np.bincount(x, weights=w, minlength=minlength)
    assert got.dtype == want.dtype == np.int64
    np.testing.assert_array_equal(got, want)
    got, want = bincount_w_sum(x, w), np.bincount(x, weights=w).sum()
    assert type(got) is type(want) is np.int64 and got == want
    # a non-empty x keeps float64 sums, and a negative minlength is still checked first
    assert bincount_w(np.array([2], np.int32), np.ones(1), 0).dtype == np.float64
    with pytest.raises(ValueError, match="minlength"):
        bincount_w(x, w, -1)


def test_pointer_signature_is_a_contiguous_array():
    @jit(signature="f64*, i64")
    def total(x, n):
        s = 0.0
        for i in range(n):
            s += x[i]
        return s
    x = np.arange(6.0)
    assert total(x, 6) == 15.0
    with pytest.raises(IndexError):
        total(x, 7)                            # bounds-checked, never a raw read
