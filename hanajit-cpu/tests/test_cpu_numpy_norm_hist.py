"""Complex sorting, ``np.histogram`` with bin arrays / weights / density and
``np.linalg.norm`` with ``axis=`` on the CPU target, checked against NumPy running
the same function.  Every compiled call has ``fallback=False``."""
import functools
import math

import hanajit
import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted
from hanajit.testing.compare import check_on_copies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")

SETTINGS = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
# the sweeps where nearly every example is a compile of its own (dtype, layout,
# edges' dtype, ord): fewer a run, others drawn the next
FEWER = settings(SETTINGS, max_examples=10)


def compiled(fn):
    return jitted(fn, fallback=False)


def bits(x):
    """Values with their exact bits (NaN payloads aside, -0.0 apart from 0.0)."""
    x = np.asarray(x)
    if x.dtype.kind == "c":
        return np.stack([bits(x.real), bits(x.imag)])
    if x.dtype.kind == "f":
        return np.where(np.isnan(x), np.nan, x).astype(np.float64).view(np.int64)
    return x


def _rtol(exp):
    """Sums in another order: a few ulps of the result's type."""
    return 1e-5 if np.asarray(exp).dtype == np.float32 else 1e-12


def same(got, exp, exact=True):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e, exact)
        return
    if isinstance(exp, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == exp.shape and got.dtype == exp.dtype, (got, exp)
        if exact:
            np.testing.assert_array_equal(bits(got), bits(exp))
        else:
            np.testing.assert_allclose(got, exp, rtol=_rtol(exp), atol=0, equal_nan=True)
        return
    if isinstance(exp, (float, np.floating)):
        if exact:
            assert bits(got) == bits(exp), (got, exp)
        else:
            assert (math.isnan(got) and math.isnan(exp)) or math.isclose(
                got, exp, rel_tol=_rtol(exp)), (got, exp)
        return
    assert got == exp, (got, exp)


def check(fn, *args, exact=True):
    check_on_copies(fn, compiled(fn), args, lambda got, exp: same(got, exp, exact))


# ----------------------------------------------------------- complex sorting
def sort_default(a):
    return np.sort(a)


def sort_stable(a):
    return np.sort(a, kind="stable")


def sort_flat(a):
    return np.sort(a, axis=None, kind="stable")


def argsort_stable(a):
    return np.argsort(a, kind="stable")


def sort_method(a):
    a.sort(kind="stable")
    return a


PARTS = [0.0, -0.0, 1.0, -1.0, 2.5, math.inf, -math.inf, math.nan]


@st.composite
def complex_arrays(draw):
    dtype = draw(st.sampled_from([np.complex128, np.complex64]))
    shape = draw(st.sampled_from([(0,), (1,), (7,), (40,), (3, 5), (2, 0)]))
    n = int(np.prod(shape))
    vals = draw(st.lists(st.tuples(st.sampled_from(PARTS), st.sampled_from(PARTS)),
                         min_size=n, max_size=n))
    a = np.array([complex(r, i) for r, i in vals], dtype=dtype).reshape(shape)
    view = draw(st.sampled_from(["c", "rev", "step"]))
    if view == "rev":
        return a[..., ::-1]
    if view == "step":
        return np.repeat(a, 2, axis=-1)[..., ::2]
    return a


@SETTINGS
@given(complex_arrays())
def test_complex_sort_matches_numpy(a):
    # np.sort's default kind orders equal values (-0.0, 0.0) arbitrarily
    exp = np.sort(a)
    got = compiled(sort_default)(a.copy())
    np.testing.assert_array_equal(got, exp)
    assert got.dtype == exp.dtype
    assert np.array_equal(np.isnan(got.real), np.isnan(exp.real))
    assert np.array_equal(np.isnan(got.imag), np.isnan(exp.imag))
    check(sort_stable, a)
    check(sort_flat, a)
    check(argsort_stable, a)
    check(sort_method, a.copy())


def test_complex_sort_nan_order():
    nan = math.nan
    a = np.array([complex(nan, 1), 1 + 2j, complex(1, nan), 1 + 1j, complex(nan, nan),
                  5j, complex(nan, 0), -1 + 0j, complex(-math.inf, 3)])
    check(sort_stable, a)
    check(argsort_stable, a)
    got = compiled(sort_stable)(a)
    assert str(got) == str(np.sort(a, kind="stable"))


def unique(a):
    return np.unique(a)


@SETTINGS
@given(complex_arrays())
def test_complex_unique_keeps_the_first_of_equal_values(a):
    # NumPy hashes complex values: of 0j and -0j, and of all NaNs, the first stays
    exp = np.unique(a)
    got = compiled(unique)(a.copy())
    assert repr(got) == repr(exp)
    np.testing.assert_array_equal(bits(got), bits(exp))


# ------------------------------------------------------------------ histogram
def hist_edges(a, edges):
    return np.histogram(a, edges)


def hist_edges_weighted(a, edges, w):
    return np.histogram(a, bins=edges, weights=w)


def hist_edges_density(a, edges):
    return np.histogram(a, edges, density=True)


def hist_edges_weighted_density(a, edges, w):
    return np.histogram(a, edges, weights=w, density=True)


def hist_weighted(a, w):
    return np.histogram(a, 4, weights=w)


def hist_range_weighted_density(a, w):
    return np.histogram(a, bins=3, range=(-2, 2.5), density=True, weights=w)


def hist_density(a):
    return np.histogram(a, 5, density=True)


EDGE_VALUES = [-3.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 3.5, math.inf, -math.inf]


@st.composite
def hist_data(draw):
    kind = draw(st.sampled_from(["f", "i"]))
    shape = draw(st.sampled_from([(0,), (1,), (9,), (30,), (4, 5)]))
    n = int(np.prod(shape))
    if kind == "f":
        vals = draw(st.lists(st.one_of(st.sampled_from(EDGE_VALUES + [math.nan, 1e-300]),
                                       st.floats(-4, 4)), min_size=n, max_size=n))
        a = np.array(vals, dtype=np.float64).reshape(shape)
    else:
        a = np.array(draw(st.lists(st.integers(-4, 4), min_size=n, max_size=n)),
                     dtype=np.int64).reshape(shape)
    if draw(st.booleans()) and a.ndim == 1:
        a = a[::-1]
    return a


@st.composite
def bin_edges(draw):
    dtype = draw(st.sampled_from([np.float64, np.int64, np.float32]))
    vals = draw(st.lists(st.sampled_from(EDGE_VALUES[:8] + [math.nan]), min_size=0,
                         max_size=6))
    if draw(st.integers(0, 5)):       # mostly increasing, with repeats
        vals = sorted(vals)           # (a NaN stays where it is: NumPy accepts it)
    return np.array(vals, dtype=dtype) if dtype != np.int64 else \
        np.array([0 if math.isnan(v) else int(v) for v in vals], dtype=np.int64)


@settings(SETTINGS, max_examples=6)        # a compile a (data, edges) dtype pair
@given(hist_data(), bin_edges(), st.data())
def test_histogram_bin_arrays(a, edges, data):
    check(hist_edges, a, edges)
    check(hist_edges_density, a, edges)
    # integer-valued weights: the sums are exact, so any order gives NumPy's bits
    w = np.array(data.draw(st.lists(st.integers(-3, 3), min_size=a.size,
                                    max_size=a.size)), dtype=np.float64).reshape(a.shape)
    check(hist_edges_weighted, a, edges, w)
    check(hist_edges_weighted_density, a, edges, w)
    check(hist_weighted, a, w)
    check(hist_range_weighted_density, a, w)
    check(hist_density, a)


@SETTINGS
@given(hist_data(), st.data())
def test_histogram_float_weights(a, data):
    w = np.array(data.draw(st.lists(st.floats(-1e3, 1e3), min_size=a.size,
                                    max_size=a.size)), dtype=np.float64).reshape(a.shape)
    edges = np.array([-2.0, -0.5, 0.0, 1.0, 3.0])
    check(hist_weighted, a, w)                      # sequential per block as NumPy
    check(hist_range_weighted_density, a, w)
    # tie order may differ: NumPy sorts the values and takes differences of the
    # cumulative sums of the weights in that order, so equal values whose weights
    # are added in another order change the rounding of later partial sums -- by
    # at most about len(w) * eps * sum|w|, large against a result that cancels
    bound = 2 * w.size * np.finfo(np.float64).eps * np.abs(w).sum()
    counts, edges_out = hist_edges_weighted(a, edges, w)
    got = compiled(hist_edges_weighted)(a, edges, w)
    np.testing.assert_allclose(got[0], counts, rtol=0, atol=bound)
    np.testing.assert_array_equal(got[1], edges_out)
    got = compiled(hist_edges_weighted_density)(a, edges, w)
    want = hist_edges_weighted_density(a, edges, w)
    total = abs(counts.sum())
    if total > len(edges) * bound:
        # density = counts / width / counts.sum(): both roundings, relative to the sum
        width = np.diff(edges)
        atol = bound / total * (1 / width.min() + np.abs(want[0]).max() * len(edges))
        np.testing.assert_allclose(got[0], want[0], rtol=0, atol=atol)
    np.testing.assert_array_equal(got[1], want[1])


def test_histogram_errors_and_blocks():
    a = np.arange(10.0)
    check(hist_edges, a, np.array([0.0, 2.0, 1.0]))           # not monotonic
    check(hist_edges_weighted, a, np.array([0.0, 5.0]), np.ones(9))  # weights shape
    check(hist_edges_weighted, a, np.array([0.0, 5.0]), np.ones((2, 5)))
    check(hist_edges, a, np.array([0.0, 0.0, 5.0, 5.0, 9.0]))  # empty bins
    check(hist_edges_density, a, np.array([0.0, 0.0, 5.0, 5.0, 9.0]))   # inf, nan
    check(hist_density, np.array([], dtype=np.float64))
    data = np.array([0.5, math.nan, 2.0, -1.0, 1.0, 3.0])
    check(hist_edges, data, np.array([0.0, math.nan, 1.0, 2.0]))     # NaN edges pass
    check(hist_edges, data, np.array([math.nan, math.nan]))
    big = np.random.default_rng(3).standard_normal(150_000)   # several blocks
    wb = np.random.default_rng(4).integers(0, 5, big.size).astype(np.float64)
    check(hist_edges, big, np.array([-1.0, 0.0, 0.5, 2.0]))
    check(hist_weighted, big, wb)
    check(hist_edges_weighted, big, np.array([-1.0, 0.0, 0.5, 2.0]), wb)
    check(hist_density, big)


def hist_int_weights(a):
    return np.histogram(a, 3, weights=a)


def test_histogram_int_weights_fall_back_with_the_name():
    f = jit(hist_int_weights)
    with pytest.warns(hanajit.HanaJitFallbackWarning, match="histogram"):
        got = f(np.arange(5))
    same(got, hist_int_weights(np.arange(5)))


# ------------------------------------------------------------------ norms
INF = math.inf


@functools.cache
def vector_norms(o):
    """Kernels with the constant order ``o`` (a closure: ord must be constant)."""

    def along_axes(x):
        return (np.linalg.norm(x, o, axis=0), np.linalg.norm(x, ord=o, axis=-1),
                np.linalg.norm(x, ord=o, axis=1, keepdims=True))

    def whole(v):
        return np.linalg.norm(v, o)
    return along_axes, whole


def norm_axis0_inf(x):
    return np.linalg.norm(x, INF, axis=0)


def norm_none_keep(x):
    return np.linalg.norm(x, keepdims=True)


def matrix_norms(x):
    return (np.linalg.norm(x, "fro", axis=(0, 1)), np.linalg.norm(x, 1, axis=(0, 1)),
            np.linalg.norm(x, -1, axis=(1, 0)), np.linalg.norm(x, INF, axis=(-1, 0)),
            np.linalg.norm(x, -INF, axis=(0, 1)), np.linalg.norm(x, axis=(1, 0)))


def matrix_norms_3d(x):
    return (np.linalg.norm(x, 1, axis=(2, 0)), np.linalg.norm(x, -INF, axis=(0, 2)),
            np.linalg.norm(x, "fro", axis=(1, 2), keepdims=True),
            np.linalg.norm(x, INF, axis=(1, 2), keepdims=True))


ORDS = [None, 1, 2, INF, -INF, 0, 3, 0.5, -1, -2]


@st.composite
def norm_arrays(draw, ndim):
    dtype = draw(st.sampled_from([np.float64, np.float32, np.int64, np.complex128]))
    shape = tuple(draw(st.integers(0, 4)) for _ in range(ndim))
    n = int(np.prod(shape))
    vals = draw(st.lists(st.sampled_from([0.0, 1.0, -2.0, 0.5, 3.0, -0.0, INF, math.nan]),
                         min_size=n, max_size=n))
    a = np.array(vals).reshape(shape)
    if np.dtype(dtype).kind == "i":
        a = np.nan_to_num(a, posinf=7, neginf=-7).astype(np.int64)
    elif np.dtype(dtype).kind == "c":
        c = np.zeros(shape, dtype)
        c.real = a
        c.imag = a.reshape(-1)[::-1].reshape(shape)
        a = c
    else:
        a = a.astype(dtype)
    if draw(st.booleans()) and ndim >= 2:
        a = a.T
    return a


@settings(SETTINGS, max_examples=12)
@given(norm_arrays(2), st.sampled_from(ORDS))
def test_vector_norms_along_an_axis(x, o):
    along_axes, whole = vector_norms(o)
    check(along_axes, x, exact=False)
    check(whole, x.reshape(-1), exact=False)


@FEWER
@given(norm_arrays(2))
def test_matrix_norms_with_axes(x):
    check(matrix_norms, x, exact=False)
    check(norm_none_keep, x, exact=False)


@FEWER
@given(norm_arrays(3))
def test_matrix_norms_3d(x):
    check(matrix_norms_3d, x, exact=False)
    check(norm_axis0_inf, x, exact=False)
    check(norm_none_keep, x, exact=False)

# matrix ord 2, -2 and 'nuc' (singular values): test_cpu_norm_svd.py
