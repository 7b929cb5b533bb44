"""np.partition / np.argpartition (and a.partition() in place, a.argpartition())
and np.sort / np.argsort / a.sort() along any axis, against NumPy byte for byte:
element order (of equal values, -0.0/0.0 and NaNs too), dtype and shape.
Every axis (negative too) and axis=None, 1-D/2-D/3-D, 0- and 1-length axes,
strided, reversed and Fortran views, NaN/inf/-0.0 and many duplicates,
hypothesis arrays and kth's (several, negative, 0, -1, repeated), kth arrays,
NumPy's ValueError for a kth out of bounds.  A single kth of the types NumPy
hands to its SIMD quickselect calls NumPy back (test_cpu_partition_single_kth)."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.lib.sorting.partition import simd_single_kth
from hanajit.testing.probe import outcome
from hanajit.testing.compare import same_arrays
from hanajit.testing.jitted import jitted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=13, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def part_1d(a, k):
    return (np.partition(a, k), np.partition(a, k, axis=0), np.argpartition(a, k),
            np.argpartition(a, k, axis=None), np.partition(a, k, axis=None))


def part_2d(a, k):
    return (np.partition(a, k), np.partition(a, k, axis=0), np.partition(a, k, -2),
            np.argpartition(a, k, axis=0), np.argpartition(a, k, axis=-1),
            np.partition(a, k, axis=None), np.argpartition(a, k, axis=None))


def part_3d(a, k):
    return (np.partition(a, k, axis=0), np.partition(a, k, axis=1),
            np.partition(a, k, axis=-1), np.argpartition(a, k, axis=-3),
            np.argpartition(a, k, axis=1), np.argpartition(a, k, axis=2),
            np.partition(a, k, axis=None))


def part_tuples(a):
    return (np.partition(a, (0, -1)), np.argpartition(a, (-1, 0), axis=0),
            np.partition(a, [1, 1], axis=0), np.argpartition(a, (2, 0, -2)),
            np.partition(a, (0, 1, 2, -1), axis=None))


def part_single(a):
    return np.partition(a, 1, axis=0), np.argpartition(a, -1), np.partition(a, 0)


def part_method(a, k):
    a.partition(k, axis=0)
    return a


def part_method_last(a):
    a.partition((2, -1))
    return a


def argpart_method(a):
    return a.argpartition((0, 2)), a.argpartition((1, -1), axis=None), \
        a.argpartition((0, 1), 0)


def sort_axes(a):
    return (np.sort(a, axis=0, kind="stable"), np.argsort(a, axis=0, kind="stable"),
            np.sort(a, 0, "mergesort"), np.argsort(a, axis=-2, kind="stable"),
            np.sort(a, axis=None, kind="stable"))


def sort_axes_default(a):
    return np.sort(a, axis=0), np.sort(a, axis=-2), np.argsort(a, axis=0)


def sort_axes_3d(a):
    return (np.sort(a, axis=0, kind="stable"), np.sort(a, axis=1, kind="stable"),
            np.argsort(a, axis=1, kind="stable"), np.argsort(a, axis=-3, kind="stable"))


def sort_default_3d(a):
    return np.sort(a, axis=0), np.sort(a, axis=-2), np.argsort(a, axis=1)


def sort_method_axis(a):
    a.sort(axis=0)
    return a


def sort_method_stable(a):
    a.sort(0, kind="stable")
    return a



def _bits(x):
    return np.ascontiguousarray(x).tobytes()


same = same_arrays


def check(fn, a, *rest):
    """``fn`` compiled against NumPy (the same exception class when NumPy
    raises); the input left alone."""
    want = outcome(fn, [a.copy(), *rest])
    before = _bits(a)
    got = outcome(compiled(fn), [a, *rest])
    assert _bits(a) == before
    _compare(got, want)


def check_writes(fn, make, *rest):
    """``fn`` writing into the array ``make()`` builds (a view, perhaps)."""
    theirs, mine = make(), make()
    want = outcome(fn, [theirs, *rest])
    got = outcome(compiled(fn), [mine, *rest])
    _compare(got, want)
    assert _bits(mine) == _bits(theirs)


def compiled(fn):
    return jitted(fn, fallback=False)


def _compare(got, want):
    if want[0] == "raise" or got[0] == "raise":
        assert got == want
    else:
        assert same(got[1], want[1]), (got[1], want[1])


def _nan(bits):
    return np.array([bits], np.uint64).view(np.float64)[0]


FLOATS = [0.0, -0.0, 1.0, -1.5, 2.0, 2.0, np.nan, -np.nan, _nan(0x7FF0000000000123),
          np.inf, -np.inf, 1e308, 5e-324]
DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64]


def _values(rng, dtype, shape):
    if np.dtype(dtype).kind == "f":
        with np.errstate(all="ignore"):
            return rng.choice(np.array(FLOATS), size=shape).astype(dtype)
    if dtype is np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    return rng.integers(-3 if np.dtype(dtype).kind == "i" else 0, 6, shape).astype(dtype)


def _kth(rng, m, count):
    return np.array(rng.integers(-m, m, count) if m else [0] * count, np.int64)


# (int64 shares int8's and uint16's integer partition -- signed as int8's -- and
# is partitioned in test_views_and_layouts, sorted in test_sort_axis_dtypes)
@pytest.mark.parametrize("dtype", [d for d in DTYPES if d is not np.int64])
def test_partition_dtypes_and_axes(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num)
    for shape in [(7, 5), (1, 4), (4, 1), (0, 3), (3, 0), (2, 17), (40, 3)]:
        a = _values(rng, dtype, shape)
        m = min(shape)
        for count in (2, 3):
            check(part_2d, a, _kth(rng, m, count))
        if m:
            check(part_2d, a, np.array([0, m - 1, -1, -m], np.int64))
    if dtype not in (np.float64, np.int8):
        return                              # (compile time: the rest for two types)
    for shape in [(3, 4, 5), (2, 1, 6), (4, 3, 0)]:
        a = _values(rng, dtype, shape)
        check(part_3d, a, _kth(rng, min(shape), 2))
    for n in (0, 1, 2, 5, 30, 300):
        a = _values(rng, dtype, (n,))
        check(part_1d, a, _kth(rng, n, 4))


def test_tuples_lists_and_methods():
    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.int8):
        for shape in [(6, 5), (3, 3), (9, 4)]:
            a = _values(rng, dtype, shape)
            check(part_tuples, a)
            if dtype is np.int8:
                continue
            check(argpart_method, a)
            check_writes(part_method, a.copy, _kth(rng, shape[0], 2))
            check_writes(part_method_last, a.copy)
    a = _values(rng, np.float64, (8, 6))
    check_writes(part_method, lambda: a.copy()[::-1, 1::2], np.array([1, -1]))
    check_writes(part_method, lambda: np.asfortranarray(a), np.array([3, 0, 5]))


def test_single_kth():
    # a single kth of int8/bool (and of every type NumPy does not hand to SIMD
    # here) runs the port; of the others NumPy is called back
    # (test_cpu_partition_single_kth)
    rng = np.random.default_rng(9)
    for dtype in (np.bool_, np.int8):
        for shape in [(5, 4), (2, 2), (30, 7)]:
            check(part_single, _values(rng, dtype, shape))
        check(part_2d, _values(rng, dtype, (6, 6)), np.array([-2]))
    assert not simd_single_kth("int8", False) and not simd_single_kth("int8", True)


def test_views_and_layouts():
    rng = np.random.default_rng(11)
    base = _values(rng, np.float64, (9, 12))
    for a in (base[::-1, ::2], base[1::2, ::-3], base.T, np.asfortranarray(base)):
        check(part_2d, a, _kth(rng, min(a.shape), 2))
        check(sort_axes, a)
    b3 = _values(rng, np.int64, (3, 4, 5))
    for a in (np.asfortranarray(b3), b3[:, ::-1, 1::2], b3.transpose(2, 0, 1)):
        check(part_3d, a, _kth(rng, 2, 3))
    check(part_1d, np.arange(20.0)[::-3], np.array([0, -1, 3]))


def test_kth_out_of_bounds():
    a = np.arange(12.0).reshape(3, 4)
    for k in ([0, 4], [-5, 1], [3, -4, 9], [7, 8]):
        check(part_2d, a, np.array(k))
    check(part_1d, np.zeros(0), np.array([5, -9]))          # empty: nothing checked
    check(part_2d, np.zeros((0, 4)), np.array([9, 9]))
    check(part_2d, np.zeros((3, 0)), np.array([-1, 2]))


def test_nans_zeros_duplicates_long():
    rng = np.random.default_rng(21)
    n = 1000
    for pattern in ("nans", "zeros", "equal", "sorted", "reversed"):
        a = {"nans": rng.choice(np.array(FLOATS[:9]), n),
             "zeros": rng.choice(np.array([0.0, -0.0]), n),
             "equal": np.full(n, 2.0), "sorted": np.arange(n, dtype=np.float64),
             "reversed": np.arange(n, 0, -1.0)}[pattern].reshape(2, 500)
        for k in ([0, 499], [250, 251, -1], [3, 100, 400, -3], [-1, -2]):
            check(part_2d, a, np.array(k))
            check(part_2d, np.ascontiguousarray(a.T), np.array(k) // 200)


@st.composite
def arrays_and_kth(draw):
    dtype = draw(st.sampled_from([np.float64, np.int8]))
    shape = draw(st.sampled_from([(0, 4), (1, 1), (3, 5), (5, 3), (8, 8), (2, 40)]))
    size = int(np.prod(shape))
    if dtype is np.float64:
        vals = draw(st.lists(st.sampled_from(FLOATS), min_size=size, max_size=size))
    else:
        vals = draw(st.lists(st.integers(-3, 3), min_size=size, max_size=size))
    m = min(shape)
    k = draw(st.lists(st.integers(-m, m - 1) if m else st.just(0), min_size=2,
                      max_size=5))
    return np.array(vals, dtype=np.float64).astype(dtype).reshape(shape), \
        np.array(k, np.int64)


@SETTINGS
@given(arrays_and_kth())
def test_hypothesis_partition(ak):
    check(part_2d, *ak)


@SETTINGS
@given(arrays_and_kth())
def test_hypothesis_sort_axis(ak):
    a = ak[0]
    check(sort_axes, a)
    # the default kinds give what the last axis gives along it, lane by lane
    got = compiled(sort_axes_default)(a)
    want = (np.sort(a, axis=0), np.sort(a, axis=-2))
    for g, w in zip(got[:2], want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    assert np.array_equal(np.take_along_axis(a, got[2], 0), want[0], equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_axis_dtypes(dtype):
    rng = np.random.default_rng(np.dtype(dtype).num + 100)
    for shape in [(6, 5), (1, 3), (3, 1), (0, 2), (2, 0), (50, 2)]:
        check(sort_axes, _values(rng, dtype, shape))
    if dtype not in (np.float64, np.uint16):
        return
    for shape in [(3, 4, 5), (2, 0, 3)]:
        check(sort_axes_3d, _values(rng, dtype, shape))
    a = _values(rng, dtype, (7, 4))
    check_writes(sort_method_stable, a.copy)
    check_writes(sort_method_stable, lambda: a.copy()[::-1, ::2])


def test_sort_axis_default_kind_matches_last_axis():
    # NumPy sorts each lane as it sorts the last axis (the lane copied to a
    # buffer): so does hanajit, with the same algorithm as along the last axis
    rng = np.random.default_rng(4)
    for dtype in (np.int8, np.int64, np.float64):
        a = _values(rng, dtype, (9, 7))
        if dtype is np.float64:
            a[a == 0] = 3.0                 # (either zero first for quicksort)
            a[np.isnan(a)] = np.nan
        check_writes(sort_method_axis, a.copy)
        check_writes(sort_method_axis, lambda a=a: a.copy()[::-1, ::2])
        got = compiled(sort_axes_default)(a)
        assert same(got[:2], (np.sort(a, axis=0), np.sort(a, axis=-2)))
    distinct = rng.permutation(60).astype(np.float64).reshape(3, 4, 5) - 30.5
    check(sort_default_3d, distinct)
    check(sort_default_3d, distinct.astype(np.int64).transpose(1, 2, 0))


def _run_warning(fn, args):
    """:func:`outcome` keeping the warnings."""
    try:
        return ("ok", fn(*args))
    except Exception as exc:                # noqa: BLE001 - NumPy's error
        return ("raise", type(exc).__name__)


def test_fallbacks():
    a = np.arange(12.0).reshape(3, 4)
    for fn, arg, match in ((part_tuples, a.astype(np.complex128), "real arrays only"),
                           (part_1d, np.arange(4.0), "kth of type"),
                           (sort_axes_3d, np.zeros((2, 2)), "axis")):
        args = [arg, 1.5] if fn is part_1d else [arg]
        want = outcome(fn, args)
        with pytest.warns(HanaJitFallbackWarning, match=match):
            got = _run_warning(jit(fn), args)
        _compare(got, want)
    # a single kth of a SIMD type compiles (NumPy called back), a kth array of
    # run-time length 1 too
    k = np.array([2])
    assert same(jitted(part_2d, fallback=False)(a, k), part_2d(a, k))
    for arg in (a, a.astype(np.int32)):
        check(part_single, arg)
