"""``np.unique`` of integer arrays finds the distinct values with a hash table and
sorts them, as NumPy 2 does (``_unique_hash``), instead of sorting every value
(``lib/sorting/sort_algorithms.unique_ints``); past ``HASH_MAX`` distinct values
it sorts the whole array.  Either way the result is NumPy's: the sorted distinct
values, in the input's dtype."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.lib.sorting.sort_algorithms import HASH_MAX
from hanajit.testing.jitted import jitted_for

INTS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


def unique(a):
    return np.unique(a)


def unique_of_expression(a):
    return np.unique(a * 3 - 1)


def compiled_unique(a):
    """``unique`` compiled: one jitted function per dtype and layout, shared by
    the cases."""
    return jitted_for(unique, (a,), fallback=False)(a)


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want)


@pytest.mark.parametrize("dtype", INTS + [np.bool_])
@pytest.mark.parametrize("n", [0, 1, 7, 1000, 5000])
def test_matches_numpy(dtype, n):
    rng = np.random.default_rng(n)
    f = compiled_unique
    if dtype is np.bool_:
        samples = [rng.integers(0, 2, n).astype(dtype)]
    else:
        info = np.iinfo(dtype)
        samples = [rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True),
                   rng.integers(0, 5, n).astype(dtype),
                   np.full(n, info.max, dtype), np.full(n, info.min, dtype)]
    for a in samples:
        same(f(a), np.unique(a))
        same(f(a[::-1]), np.unique(a[::-1]))
        m = a[: n - n % 10].reshape(-1, 10).T             # 2-D, F-ordered
        same(f(m), np.unique(m))


def test_more_distinct_values_than_the_table_holds():
    rng = np.random.default_rng(1)
    many = rng.permutation(HASH_MAX + 5000).astype(np.int32)
    a = np.concatenate([many, many[:1000]])
    f = compiled_unique
    same(f(a), np.unique(a))
    b = a.astype(np.int64) * (1 << 35) - (1 << 40)     # the high halves differ too
    same(f(b), np.unique(b))
    for extra in (0, 1):                # HASH_MAX distinct values fit, one more does not
        a = np.concatenate([rng.integers(-3, 0, 4 * HASH_MAX),
                            rng.permutation(HASH_MAX - 3 + extra)])
        assert len(np.unique(a)) == HASH_MAX + extra
        same(f(a), np.unique(a))


def test_expressions_and_which_dtypes_hash():
    a = np.arange(-50, 50, dtype=np.int16) % 7
    f = jit(unique_of_expression, fallback=False)
    same(f(a), np.unique(a * 3 - 1))
    for dtype, hashed in ((np.int64, True), (np.uint32, True), (np.uint64, False),
                          (np.float64, False), (np.bool_, False)):
        g = jit(unique, fallback=False)
        g(np.zeros(3, dtype))
        names = set(g.ir_module().functions)
        assert ("hj_unique_ints" in names) == hashed, dtype


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**15), 2**15 - 1), max_size=300),
       st.sampled_from([np.int16, np.int32, np.int64]))
def test_hypothesis(values, dtype):
    a = np.array(values, dtype=dtype)
    same(compiled_unique(a), np.unique(a))
