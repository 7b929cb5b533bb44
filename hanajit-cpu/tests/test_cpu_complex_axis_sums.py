"""``np.sum``/``np.mean`` of complex arrays along an axis, and of C- or
F-contiguous ones as a whole, are NumPy's bit for bit (``arrays/sum_order.array_axis``,
``complex_whole``): each lane NumPy's complex pairwise sum
where its iterator makes the axis the innermost, else added in index order,
and a mean divided as NumPy's complex division by the count (complex64 in
complex128)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit


def sum0(a):
    return np.sum(a, axis=0)


def mean_last(a):
    return a.mean(axis=-1)


def mean1_keep(a):
    return np.mean(a, axis=1, keepdims=True)


def whole_sum(a):
    return a.sum()


def whole_mean_keep(a):
    return np.mean(a, keepdims=True)


FUNCS = [sum0, mean_last, mean1_keep, whole_sum, whole_mean_keep]
JITTED = {f: jit(f, fallback=False) for f in FUNCS}


def same(f, arr):
    """Bit for bit, but for the sign of NaNs (NumPy's own depends on how its C
    compiler ordered an addition of two NaNs)."""
    want, got = f(arr), JITTED[f](arr)
    assert type(got) is type(want) and got.shape == want.shape and got.dtype == want.dtype
    w, g = (np.stack([x.real, x.imag]) for x in (want, got))
    nan = np.isnan(w)
    assert np.array_equal(np.isnan(g), nan)
    assert g[~nan].tobytes() == w[~nan].tobytes(), (f.__name__, arr.shape, arr.strides)


def data(rng, shape, dtype):
    return (rng.standard_normal(shape) * 10 + 1j * rng.standard_normal(shape)).astype(dtype)


def views(a):
    v = [a, a.T, np.asfortranarray(a), a[::2], a[..., ::-3]]
    return v + ([a.transpose(1, 2, 0), a[:, ::2].swapaxes(0, 2)] if a.ndim == 3 else [])


def is_contiguous(arr):
    return arr.flags.c_contiguous or arr.flags.f_contiguous


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("shape", [(3, 5), (9, 8), (16, 130), (130, 9), (4, 9, 20)])
def test_layouts_and_lane_lengths(dtype, shape):
    rng = np.random.default_rng(5)
    for arr in views(data(rng, shape, dtype)):
        for f in FUNCS:
            if f in (whole_sum, whole_mean_keep) and not is_contiguous(arr):
                continue        # (in index order: docs/semantics.md)
            same(f, arr)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 4),
       st.sampled_from([np.complex128, np.complex64]), st.integers(0, 2**32 - 1))
def test_random_shapes_match_numpy(n, m, view, dtype, seed):
    arr = views(data(np.random.default_rng(seed), (n, m), dtype))[view]
    for f in FUNCS:
        if f not in (whole_sum, whole_mean_keep) or is_contiguous(arr):
            same(f, arr)


def test_special_values():
    a = np.array([[complex(np.inf, 1), -0.0j, 2 + 3j], [complex(np.nan, 0), 1j, -1.0],
                  [complex(0, -np.inf), 4.0, -0.0]])
    for arr in views(a):
        for f in FUNCS:
            if f not in (whole_sum, whole_mean_keep) or is_contiguous(arr):
                with np.errstate(all="ignore"):
                    same(f, arr)
