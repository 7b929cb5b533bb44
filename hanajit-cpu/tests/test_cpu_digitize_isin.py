"""``np.digitize`` and ``np.isin`` compile (they fell back) and give NumPy's
results: its monotonicity check and error, rising and falling bins, the common
type of the comparisons, NaN and signed zeros, integers through the table of
flags or the sorted tests, numbers as well as arrays."""
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import assert_same_bits

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")


def digitize_both(x, bins):
    return np.digitize(x, bins), np.digitize(x, bins, right=True)


def digitize_flag(x, bins, right):
    return np.digitize(x, bins, right)


def isin_both(a, t):
    return np.isin(a, t), np.isin(a, t, invert=True)


DIG = jit(digitize_both)
DIG_FLAG = jit(digitize_flag)
ISIN = jit(isin_both)


def check(jf, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = jf.py_func(*args)
        except ValueError as exc:
            with pytest.raises(ValueError, match=str(exc)):
                jf(*args)
            return
    assert_same_bits(jf(*args), want)


BINS = [np.array([-2.0, 0.0, 1.0, 1.0, 3.0]), np.array([3.0, 1.0, 1.0, 0.0, -2.0]),
        np.array([1, 2, 3]), np.array([], float), np.array([5.0, 5.0]),
        np.array([1.0, np.nan, 3.0]), np.array([np.nan, 1.0, 2.0]),
        np.array([1.0, 2.0, np.nan]), np.array([1.0, 3.0, 2.0]),
        np.array([-0.0, 0.0, 1.0]), np.array([3, 2], np.uint8),
        np.array([0.5, 1.5], np.float32)]


@pytest.mark.parametrize("bins", BINS, ids=range(len(BINS)))
def test_digitize_against_numpy(bins):
    rng = np.random.default_rng(len(bins))
    x = rng.choice(np.array([-3.0, -2.0, -0.0, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0, np.nan,
                             np.inf]), size=(4, 9))
    check(DIG, x, bins)
    check(DIG, x[:, ::2].astype(np.float32), bins)
    check(DIG, x.astype(np.int64) if not np.isnan(x).any() else x[0], bins)
    check(DIG, 1.0, bins)
    check(DIG, np.int64(2), bins)
    for right in (False, True):
        check(DIG_FLAG, x[0], bins, right)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=12), st.lists(st.integers(-6, 6), max_size=30),
       st.booleans())
def test_digitize_generated(bins, xs, falling):
    b = np.sort(np.array(bins, np.float64))
    if falling:
        b = b[::-1].copy()
    check(DIG, np.array(xs, np.float64) / 2, b)


@pytest.mark.parametrize("dtypes", [(np.int64, np.int64), (np.int8, np.int16),
                                    (np.uint8, np.int64), (np.bool_, np.int64),
                                    (np.uint64, np.uint32), (np.int32, np.float64),
                                    (np.float64, np.float32), (np.float32, np.float32)])
def test_isin_against_numpy(dtypes):
    rng = np.random.default_rng(3)
    da, dt = dtypes
    for span in (10, 1000, 10**12):
        hi = min(span, np.iinfo(np.int8).max) if da == np.int8 else span
        a = rng.integers(0, hi, (6, 50)).astype(da)
        t = rng.integers(0, hi, 40).astype(dt)
        check(ISIN, a, t)
        check(ISIN, a[:, ::3], t.reshape(4, 10))
        check(ISIN, a, t[:0])
        check(ISIN, a[0, 0], t)
        check(ISIN, a, t[0])


def test_isin_extremes_and_special_floats():
    big = np.array([np.iinfo(np.int64).min, -1, 0, np.iinfo(np.int64).max])
    check(ISIN, big, big[[0, 3]])
    check(ISIN, np.arange(-5, 5), big)
    u = np.array([0, 2**63, 2**64 - 1], np.uint64)
    check(ISIN, u, u[1:])
    f = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.5])
    check(ISIN, f, np.array([np.nan, 0.0, np.inf]))
    check(ISIN, f, np.array([-0.0]))
    check(ISIN, f.astype(np.float32), f)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 3000), m=st.integers(0, 90), seed=st.integers(0, 2**32 - 1))
def test_isin_of_few_and_many_floats(n, m, seed):
    """Few tests: a pass of ``==`` per test (NumPy's loop); many: sorted tests and
    a binary search.  Both on either side of NumPy's measure, NaN and zeros."""
    rng = np.random.default_rng(seed)
    pool = np.array([np.nan, 0.0, -0.0, np.inf, 0.5, 1.0, 2.5, -1.0])
    a = np.where(rng.random(n) < 0.3, rng.choice(pool, n), rng.integers(0, 40, n) / 2)
    t = np.where(rng.random(m) < 0.2, rng.choice(pool, m), rng.integers(0, 40, m) / 2)
    check(ISIN, a, t)
    check(ISIN, a.astype(np.float32), t)


def test_mixed_uint64_and_signed_falls_back_with_the_reason():
    f = jit(isin_both)
    with pytest.warns(Warning, match="uint64 with signed"):
        want = f(np.array([1, 2], np.uint64), np.array([2, -1]))
    assert_same_bits(want, isin_both(np.array([1, 2], np.uint64), np.array([2, -1])))


def searchsorted_both(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right")


SEARCH = jit(searchsorted_both)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, -1.0, np.nan]), max_size=12),
       st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, -1.0, 0.5, np.nan]), max_size=20),
       st.booleans())
def test_searchsorted_of_any_array_gives_numpys_positions(a, v, sort):
    """NumPy searches an array of keys in order, each search starting from where
    the last one left off when the keys rise: on an array that is not sorted (or
    has a NaN inside) its positions are that algorithm's, which a fresh binary
    search per key does not always find."""
    a = np.array(a)
    if sort:
        a = np.sort(a)
    check(SEARCH, a, np.array(v))
    check(SEARCH, a, np.array(v).reshape(-1, 1)[::2])
    check(SEARCH, a, 1.5)


def test_tile_and_roll_copy_without_remainders():
    """``np.tile`` loops over the copies and the source (no 64-bit remainder per
    element); ``np.roll`` is two block copies (no index wrapped per element)."""
    @jit
    def tile(a):
        return np.tile(a, 5)

    @jit
    def roll(a, s):
        return np.roll(a, s)

    a = np.arange(7.0)
    assert_same_bits(tile(a), np.tile(a, 5))
    assert_same_bits(roll(a, -3), np.roll(a, -3))
    assert "srem" not in tile.inspect_llvm()
    assert roll.inspect_llvm().count("srem") <= 1      # the shift's, once


def lex2(a, b):
    return np.lexsort((a, b))


def lex_rows(m):
    return np.lexsort(m)


def test_lexsort_is_numpys_permutation():
    """``np.lexsort`` (it fell back): a stable argsort per key from the first to
    the last gives NumPy's permutation -- ties in their original order, NaN
    last, ``-0.0`` equal to ``0.0`` -- for a tuple of keys of mixed dtypes and
    for the rows of a 2-D array; NumPy's ValueError for keys of two lengths."""
    j2, jr = jit(lex2), jit(lex_rows)
    rng = np.random.default_rng(12)
    for n in (0, 1, 5, 100, 3000):
        a = rng.integers(0, 4, n)
        b = rng.choice(np.array([0.0, -0.0, 1.0, np.nan]), n)
        assert_same_bits(j2(a, b), lex2(a, b))
        assert_same_bits(j2(b.astype(np.float32), a.astype(np.uint8)), lex2(b.astype(np.float32),
                                                                            a.astype(np.uint8)))
        m = rng.integers(0, 3, (3, n))
        assert_same_bits(jr(m), lex_rows(m))
        assert_same_bits(jr(m[:, ::-1]), lex_rows(m[:, ::-1]))
    with pytest.raises(ValueError, match="same shape"):
        j2(np.arange(3), np.arange(4.0))
