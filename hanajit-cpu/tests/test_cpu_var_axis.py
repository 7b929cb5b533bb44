"""``np.var``/``np.std`` along an axis of a 2-D array (float, integer, bool,
complex) are NumPy's bit for bit in every layout (``lib/statistics/var_axis.py``): the mean as ``np.mean`` takes
it, the squared deviations summed in the order NumPy's temporary (laid out as
the input) gets them, the division by ``max(n - ddof, 0)`` in float64."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit


def var0(a):
    return np.var(a, axis=0)


def var1(a):
    return a.var(axis=1)


def std0_ddof1(a):
    return np.std(a, axis=0, ddof=1)


def std_last_keep(a):
    return np.std(a, axis=-1, keepdims=True)


def var0_float_ddof(a):
    return np.var(a, axis=0, ddof=1.5)


def var1_ddof3_keep(a):
    return np.var(a, 1, ddof=3, keepdims=True)


FUNCS = [var0, var1, std0_ddof1, std_last_keep, var0_float_ddof, var1_ddof3_keep]
JITTED = {f: jit(f, fallback=False) for f in FUNCS}
DTYPES = [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_, np.complex128,
          np.complex64]


def views(a):
    """The layouts NumPy orders differently: C, transposed, F, stepped, reversed."""
    return [a, a.T, np.asfortranarray(a), a[::2], a[:, ::3], a[::-1], a.T[::2, ::-1]]


def same(f, arr):
    with np.errstate(all="ignore"):
        want = f(arr)
        got = JITTED[f](arr)
    assert type(got) is type(want), f
    assert got.shape == want.shape and got.dtype == want.dtype, f
    assert got.tobytes() == want.tobytes(), (f.__name__, arr.shape, arr.strides, arr.dtype)


def data(rng, shape, dtype):
    if dtype == np.bool_:
        return rng.random(shape) < 0.3
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) * 100 + 3j * rng.standard_normal(shape)).astype(dtype)
    if np.dtype(dtype).kind in "iu":
        lo = 0 if np.dtype(dtype).kind == "u" else -1000
        return rng.integers(lo, min(1000, np.iinfo(dtype).max), shape).astype(dtype)
    return (rng.standard_normal(shape) * 100 + 3).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_layout_and_lane_length(dtype):
    """Lanes shorter than 8 (added in order either way), of a pairwise tree's
    blocks (8, 128 and more), and every layout; ``ddof`` and ``keepdims`` for
    one dtype of each kind."""
    rng = np.random.default_rng(3)
    funcs = FUNCS if dtype in (np.float64, np.int64, np.complex64) else [var0, var1]
    for shape in [(1, 1), (3, 5), (9, 8), (16, 130), (130, 7), (257, 3)]:
        a = data(rng, shape, dtype)
        for arr in views(a):
            for f in funcs:
                same(f, arr)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 40), st.integers(0, 40), st.sampled_from(DTYPES),
       st.integers(0, 6), st.integers(0, 2**32 - 1))
def test_random_shapes_match_numpy(n, m, dtype, view, seed):
    rng = np.random.default_rng(seed)
    arr = views(data(rng, (n, m), dtype))[view]
    for f in (var0, std0_ddof1):
        same(f, arr)


def test_special_values():
    """NaN and infinities spread as in NumPy; fewer values than ``ddof`` give
    NaN or inf as NumPy's division does."""
    a = np.array([[1.0, np.nan, 3.0, -0.0], [np.inf, 2.0, -np.inf, 0.0],
                  [5.0, 6.0, 7.0, 8.0]])
    for arr in views(a):
        for f in FUNCS:
            same(f, arr)
    for shape in [(0, 3), (3, 0), (1, 4), (2, 2)]:
        for f in FUNCS:
            same(f, np.ones(shape))


def var2(a):
    return np.var(a, axis=2)


def std1_keep(a):
    return np.std(a, axis=1, keepdims=True)


FUNCS_3D = [var0, var2, std1_keep]
JITTED.update({f: jit(f, fallback=False) for f in FUNCS_3D})


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.complex128])
def test_three_dimensions_in_any_layout(dtype):
    """Along an axis of 3-D arrays: whether NumPy sums each lane pairwise is its
    iterator's innermost axis of the input's layout, axes of length 1 aside."""
    rng = np.random.default_rng(6)
    for shape in [(4, 9, 10), (8, 9, 1), (3, 1, 17)]:
        a = data(rng, shape, dtype)
        for v in (a, a.T, np.asfortranarray(a), a.transpose(1, 0, 2), a[:, ::2, ::-1]):
            for f in FUNCS_3D:
                same(f, v)
