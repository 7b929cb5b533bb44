"""``np.min``/``np.max`` of a whole 2-D float array of any layout as vector code
(``lib/arrays/extreme_layouts.py``): contiguous rows or columns searched in
place, F-contiguous data as one run, other strides through a buffer.  Every
result is NumPy's value (NaN when any value is NaN), and a zero is the one the
index-order loop keeps, the later of equal zeros, as before
(docs/semantics.md, "Signed zeros in max and min")."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hypothesis import given, settings
from hypothesis import strategies as st


def amin(a):
    return a.min()


def amax(a):
    return np.max(a)


FUNCS = {f: jit(f, fallback=False) for f in (amin, amax)}


def later_zero(a, big):
    """The index-order loop's result when it is a zero: the later of equal
    values wins, a NaN stays."""
    m = a.flat[0]
    for x in a.flat:
        if m != m:
            break
        if x != x or (x >= m if big else x <= m):
            m = x
    return m


def check(a):
    for f, big in ((amin, False), (amax, True)):
        want, got = f(a), FUNCS[f](a)
        assert type(got) is type(want), (got, want)
        if np.isnan(want):
            assert np.isnan(got)
        else:
            assert got == want, (got, want)
            if want == 0:
                assert np.signbit(got) == np.signbit(later_zero(a, big))


def layouts(base):
    """2-D views of ``base`` (at least 6 x 6) in the layouts the vector code
    takes apart (``extreme_layouts.extreme_2d``)."""
    yield base.T                        # F-contiguous: one run
    yield base[:, 1:-1]                 # contiguous rows, a gap between them
    yield base[1:-1, :].T               # contiguous columns, a gap between them
    yield base[:, ::2]                  # rows stepped 2, 4, 8 items: read whole
    yield base[:, ::4]
    yield base[1:, 1::8]
    yield base.T[::2, :]                # columns stepped 2 items
    yield base[:, ::3]                  # stepped 3: buffered
    yield base[::2, :]                  # contiguous rows two apart
    yield base[::-1, :]                 # rows at a negative step: buffered
    yield base[:, ::-1]                 # reversed rows: buffered
    yield base[::-2, ::-3]
    yield base[:1, :]                   # one row, one column
    yield base[:, :1]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(6, 6), (7, 9), (40, 50), (130, 70), (3, 5000)])
def test_layouts_match_numpy(dtype, shape):
    rng = np.random.default_rng(shape[0] * shape[1])
    base = rng.standard_normal(shape).astype(dtype)
    for a in layouts(base):
        check(a)
        b = a.copy(order="K")
        b.flat[b.size // 2] = np.nan            # a NaN anywhere gives NaN
        check(b[...])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_zeros_infinities_and_nans(dtype):
    rng = np.random.default_rng(3)
    base = rng.choice(np.array([0.0, -0.0, -1.0, 1.0, np.inf, -np.inf], dtype),
                      (60, 80))
    for a in layouts(base):
        check(a)
    for fill in (0.0, -0.0):
        zeros = np.full((60, 80), fill, dtype)
        zeros[::7, ::3] = -fill
        for a in layouts(zeros):
            check(a)
        neg = -np.abs(rng.standard_normal((60, 80))).astype(dtype)
        neg[5, 5] = fill
        for a in layouts(neg):
            check(a)


def test_empty_raises_numpys_error():
    a = np.ones((4, 0)).T
    for f in (amin, amax):
        with pytest.raises(ValueError, match="zero-size array"):
            FUNCS[f](a)
        with pytest.raises(ValueError, match="zero-size array"):
            f(a)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 70), st.integers(1, 70), st.integers(-3, 3).filter(bool),
       st.integers(-3, 3).filter(bool), st.booleans(),
       st.sampled_from([np.float64, np.float32]))
def test_any_view_matches_numpy(rows, cols, s0, s1, transpose, dtype):
    rng = np.random.default_rng(rows * 71 + cols)
    base = rng.standard_normal((rows * abs(s0), cols * abs(s1))).astype(dtype)
    base[rng.random(base.shape) < 0.05] = 0.0
    a = base[::s0, ::s1]
    check(a.T if transpose else a)


# -- along the first axis: blocks of 16 columns in registers (column_extremes.py)
def max0(a):
    return a.max(axis=0)


def min0_kept(a):
    return np.min(a, axis=0, keepdims=True)


def argmax0(a):
    return a.argmax(axis=0)


def argmin0_kept(a):
    return np.argmin(a, axis=0, keepdims=True)


AXIS = {f: jit(f, fallback=False) for f in (max0, min0_kept, argmax0, argmin0_kept)}


def check_axis(a):
    for f, jf in AXIS.items():
        want, got = f(a), jf(a)
        assert got.shape == want.shape and got.dtype == want.dtype
        if want.dtype.kind == "i":                          # positions
            assert np.array_equal(got, want)
            continue
        assert np.array_equal(np.isnan(got), np.isnan(want))
        fin = ~np.isnan(want)
        # the same values, and the same zeros (the later of equal ones, as NumPy)
        assert np.array_equal(got[fin], want[fin])
        assert np.array_equal(np.signbit(got[fin]), np.signbit(want[fin]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("cols", [1, 15, 16, 17, 33, 100])
def test_along_the_first_axis(dtype, cols):
    rng = np.random.default_rng(cols)
    base = rng.choice(np.array([0.0, -0.0, 1.5, -2.0], dtype), (40, 2 * cols))
    base[rng.random(base.shape) < 0.02] = np.nan        # the first NaN's row wins
    for a in (base[:, :cols], base[:, ::2], base[::-1, cols:], base[:1, :cols],
              np.asfortranarray(base[:, :cols]), base[::3, :cols]):
        check_axis(a)
    check_axis(rng.standard_normal((25, cols)).astype(dtype))


def test_along_the_first_axis_of_nothing():
    for f, jf in AXIS.items():
        with pytest.raises(ValueError, match="zero-size array|empty sequence"):
            jf(np.ones((0, 20)))
        assert jf(np.ones((3, 0))).shape == f(np.ones((3, 0))).shape


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64,
                                   np.uint64])
def test_integers_along_the_first_axis(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(int(info.bits))
    base = rng.integers(info.min, info.max, (30, 70), dtype=dtype, endpoint=True)
    base[3, ::5] = info.min
    base[7, ::3] = info.max
    for a in (base, base[:, :16], base[:, :15], base[::-2, ::3], base.T, base[:1]):
        for f, jf in AXIS.items():
            want, got = f(a), jf(a)
            assert got.dtype == want.dtype and np.array_equal(got, want)
    for jf in AXIS.values():
        with pytest.raises(ValueError, match="zero-size array|empty sequence"):
            jf(np.ones((0, 20), dtype))


def test_the_loops_are_vector_code(monkeypatch):
    """Columns kept in registers, and Fortran-ordered data searched in place,
    are vector loops: a loop whose accumulators are vectors of doubles (the
    library's pieces inlined, to be seen in the caller's module)."""
    import re
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")
    a = np.random.default_rng(5).standard_normal((64, 48))
    for fn, x in ((max0, a), (amax, a.T), (amin, a[:, ::2])):
        g = jit(fn, fallback=False)
        assert np.array_equal(g(x), fn(x))
        assert re.search(r"= phi <\d+ x double>", g.inspect_llvm()), fn.__name__
