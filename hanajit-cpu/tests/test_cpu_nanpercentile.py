"""``np.nanpercentile``/``np.nanquantile`` of one lane (``axis=None`` or 1-D
data): NaNs dropped as NumPy's ``_remove_nan_1d`` drops them (NaNs near the
front replaced by the values at the end, so the partition meets NumPy's
arrangement and picks its zero), then ``percentile``'s steps, bit for bit and
of NumPy's types; empty and all-NaN arrays run in the interpreter (NumPy warns
and answers in the data's dtype), as does a lane along an axis of 2-D data."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit


def stats(a):
    return (np.nanpercentile(a, 30.0), np.nanquantile(a, [0.0, 0.25, 0.5, 1.0]),
            np.nanpercentile(a, 50, keepdims=True), np.nanquantile(a, 1),
            np.nanpercentile(a, np.linspace(0.0, 100.0, 5)), np.nanquantile(a, 0.5, axis=0))


def same(got, want):
    for g, w in zip(got, want):
        assert type(g) is type(w)
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes(), (g, w)


F = jit(stats, fallback=False)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["normal", "zeros", "few", "float32", "int64"]),
       st.integers(1, 3000), st.floats(0.0, 0.9), st.integers(0, 2**32 - 1))
def test_lanes_with_nans_as_numpy(kind, n, nans, seed):
    rng = np.random.default_rng(seed)
    if kind == "int64":
        a = rng.integers(-50, 50, n)
    else:
        a = rng.standard_normal(n)
        if kind == "zeros":
            a[np.abs(a) < 0.7] = 0.0
            a[rng.random(n) < 0.5] *= -1            # zeros of both signs
        elif kind == "few":
            a = np.round(a)
        a[rng.random(n) < nans] = np.nan
        a[0] = np.nan if rng.random() < 0.5 else a[0]
        if kind == "float32":
            a = a.astype(np.float32)
    if kind != "int64" and np.isnan(a).all():
        a[-1] = 1.5
    same(F(a), stats(a))


def test_two_dimensions_and_views():
    def flat(m):
        return np.nanpercentile(m, [10.0, 90.0]), np.nanmedian(m)
    rng = np.random.default_rng(3)
    m = rng.standard_normal((30, 40))
    m[rng.random(m.shape) < 0.3] = np.nan
    f = jit(flat, fallback=False)
    for x in (m, m.T, m[::2, ::-3]):
        same(f(x), flat(x))


def test_empty_all_nan_and_axes_run_in_the_interpreter():
    def one(a):
        return np.nanpercentile(a, 50.0)
    f = jit(one)
    for a in (np.full(5, np.nan), np.zeros(0)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got, want = f(a), one(a)
        assert np.isnan(got) and type(got) is type(want)

    def along(m):
        return np.nanpercentile(m, 50.0, axis=1)
    m = np.arange(12.0).reshape(3, 4)
    with pytest.warns(Warning, match="along an axis"):
        assert np.array_equal(jit(along)(m), along(m))
