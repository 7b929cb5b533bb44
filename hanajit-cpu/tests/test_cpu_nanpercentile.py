"""``np.nanpercentile``/``np.nanquantile`` of one lane (``axis=None`` or 1-D
data) and along an axis, lane by lane: NaNs dropped as NumPy's
``_remove_nan_1d`` drops them (NaNs near the front replaced by the values at
the end, so the partition meets NumPy's arrangement and picks its zero), then
``percentile``'s steps, bit for bit and of NumPy's types; empty arrays and
all-NaN lanes run in the interpreter (NumPy warns and answers in the data's
dtype)."""
import warnings

import numpy as np
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
    m[1] = np.nan                       # an all-NaN lane: NumPy warns
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = jit(along)(m)
    assert [str(w.message) for w in caught] == ["All-NaN slice encountered"]
    assert np.array_equal(got, along(m), equal_nan=True)


def along_axes(m):
    return (np.nanpercentile(m, 30.0, axis=0), np.nanquantile(m, [0.1, 0.5, 1.0], axis=1),
            np.nanpercentile(m, 75, axis=-1, keepdims=True),
            np.nanquantile(m, (0.0, 0.9), axis=0, keepdims=True), np.nanquantile(m, 1, axis=1))


G = jit(along_axes, fallback=False)
_ANY_FIRST = []


def _any_layout_first():
    """float32 and int64 compiled for a strided view first, checked too: their C and
    Fortran arrays then run that specialisation (the lanes are read by their
    strides in any layout); float64 compiles each of the three layouts."""
    if not _ANY_FIRST:
        rng = np.random.default_rng(1)
        for x in (rng.standard_normal((7, 30)).astype(np.float32),
                  rng.integers(-50, 50, (7, 30))):
            same(G(x[:, ::-2]), along_axes(x[:, ::-2]))
        _ANY_FIRST.append(True)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(["normal", "zeros", "float32", "int64"]), st.integers(1, 40),
       st.integers(1, 300), st.floats(0.0, 0.9), st.sampled_from(["C", "T", "view"]),
       st.integers(0, 2**32 - 1))
def test_along_an_axis_lane_by_lane(kind, rows, cols, nans, form, seed):
    # NumPy applies its 1-D function to each lane (apply_along_axis): each
    # lane's own NaNs dropped, its own ranks
    rng = np.random.default_rng(seed)
    if kind == "int64":
        m = rng.integers(-50, 50, (rows, cols))
    else:
        m = rng.standard_normal((rows, cols))
        if kind == "zeros":
            m[np.abs(m) < 0.7] = 0.0
            m[rng.random(m.shape) < 0.5] *= -1
        m[rng.random(m.shape) < nans] = np.nan
        m[:, 0] = 1.25                  # no all-NaN lane either way
        m[0] = -2.5
        if kind == "float32":
            m = m.astype(np.float32)
    x = {"C": m, "T": m.T, "view": m[:, ::-2]}[form]
    _any_layout_first()
    same(G(x), along_axes(x))


def test_three_dimensions_along_each_axis():
    def each(c):
        return (np.nanpercentile(c, 40.0, axis=0), np.nanquantile(c, [0.2, 0.8], axis=1),
                np.nanpercentile(c, 60.0, axis=2, keepdims=True))
    rng = np.random.default_rng(8)
    c = rng.standard_normal((5, 6, 7))
    c[rng.random(c.shape) < 0.3] = np.nan
    c[0, 0, :] = 1.0
    c[:, 0, 0] = 1.0
    c[0, :, 0] = 1.0
    same(jit(each, fallback=False)(c), each(c))
