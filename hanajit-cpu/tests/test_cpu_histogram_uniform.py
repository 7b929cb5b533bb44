"""``np.histogram`` with an integer number of bins (``histogram_algorithms``: the
positions as vector code per chunk, then corrected against the edges and
counted) against NumPy running the same function, bit for bit: values on and
next to the edges, NaN and infinities, float32 data in NumPy's float32 and
float64 arithmetic, weights, ``range=`` of ints, floats and both, chunk and
block boundaries, and the ranges too wide for float64 that take the slow path.
Every compiled call has ``fallback=False`` unless a test says otherwise."""
import math
import warnings

import hanajit
import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.compare import check_on_copies
from hanajit.testing.jitted import jitted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def bits(x):
    """The values' bits (any NaN as one NaN, -0.0 apart from 0.0)."""
    x = np.asarray(x)
    if x.dtype.kind == "f":
        return np.where(np.isnan(x), np.nan, x).astype(np.float64).view(np.int64)
    return x


def same(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e)
        return
    assert isinstance(got, np.ndarray)
    assert got.shape == exp.shape and got.dtype == exp.dtype, (got, exp)
    np.testing.assert_array_equal(bits(got), bits(exp))


def check(fn, *args):
    check_on_copies(fn, jitted(fn, fallback=False), args, same)


def hist(a, bins):
    return np.histogram(a, bins)


def hist_range(a, bins, lo, hi):
    return np.histogram(a, bins=bins, range=(lo, hi))


def hist_weights(a, bins, w):
    return np.histogram(a, bins, weights=w)


def hist_range_weights(a, bins, lo, hi, w):
    return np.histogram(a, bins, range=(lo, hi), weights=w)


def hist_density(a, bins):
    return np.histogram(a, bins, density=True)


def hist_range_density(a, bins, lo, hi):
    return np.histogram(a, bins, range=(lo, hi), density=True)


def hist_literal_range(a):
    return (np.histogram(a, 5, range=(-2, 2.5)), np.histogram(a, 4, range=(-3, 3)),
            np.histogram(a, 3, range=(0.1, 0.7)))


def on_edges(dt, lo, hi, bins):
    """NumPy's own edges for the data range and for ``range=(lo, hi)``, each with
    its neighbours one ulp away, shuffled."""
    pts = [np.histogram_bin_edges(np.array([lo, hi], dt), bins),
           np.linspace(lo, hi, bins + 1).astype(dt)]
    pts = np.concatenate(pts)
    a = np.concatenate([pts, np.nextafter(pts, dt(np.inf)), np.nextafter(pts, dt(-np.inf))])
    np.random.default_rng(bins).shuffle(a)
    return a.astype(dt)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("lo,hi,bins", [(0.0, 1.0, 10), (-3.7, 2.1, 64), (0.1, 0.7, 3),
                                        (1e-5, 1e-5 + 1e-3, 1000), (123456.789, 123457.0, 7),
                                        (-1.0, 1e6, 1), (0.0, 1.5, 1024)])
def test_values_on_and_next_to_edges(dt, lo, hi, bins):
    a = on_edges(dt, lo, hi, bins)
    w = np.random.default_rng(1).standard_normal(a.size)
    check(hist, a, bins)
    check(hist_range, a, bins, lo, hi)
    check(hist_weights, a, bins, w)
    check(hist_range_weights, a, bins, lo, hi, w)
    check(hist_density, a, bins)
    check(hist_range_density, a, bins, lo, hi)


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_nan_and_infinities(dt):
    a = np.array([0.5, math.nan, 2.0, -math.inf, 1.0, math.inf, 3.0, -1.0], dt)
    w = np.arange(8.0)
    check(hist, a, 4)                                   # ValueError: not finite
    check(hist_weights, a, 4, w)
    check(hist_range, a, 4, -1.0, 3.0)                  # dropped, as NumPy
    check(hist_range_weights, a, 4, -1.0, 3.0, w)
    check(hist_range, a, 4, 0.0, math.inf)              # ValueError: range not finite
    check(hist_range, a, 4, 3.0, -1.0)                  # ValueError: min > max
    check(hist_range, a[[0, 2, 4, 6]], 2, 1.0, 1.0)     # an empty range widened
    check(hist, np.array([math.nan], dt), 1)


def hist_given_range(a, bins, r):
    return np.histogram(a, bins, range=r)[0]


def _error(f, *args):
    try:
        f(*args)
    except ValueError as e:
        return str(e)
    return None


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
def test_errors_print_the_range_as_numpy_does(dt):
    """"autodetected range of [1.0, inf] is not finite", "supplied range of [0,
    inf] ..." -- the values as NumPy prints them, an int of the range as an int,
    in NumPy's order of checks (the bin count, then min > max)."""
    inf, nan = math.inf, math.nan
    a = np.array([1, 2, 3], dt)
    f = jitted(hist_given_range, fallback=False)
    for r in [(0, inf), (-inf, 0), (0.0, inf), (nan, 1), (1, nan), (inf, 1), (1, -inf),
              (-inf, inf), (2, 1), (np.int64(3), nan), (nan, nan), (-inf, 2.5)]:
        for bins in (0, 3):
            assert _error(f, a, bins, r) == _error(hist_given_range, a, bins, r), (r, bins)
    if dt != np.int64:
        g = jitted(hist, fallback=False)
        for data in ([1.0, inf], [nan, 1.0], [-inf, 0.1, 1e300]):
            b = np.array(data, dt)
            assert _error(g, b, 7) == _error(hist, b, 7) is not None


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_small_and_constant_data(dt):
    for a in (np.array([], dt), np.array([2.5], dt), np.full(5, -0.0, dt),
              np.full(3000, 7.25, dt), np.array([1e-45, 0.0, -1e-45], dt)):
        for bins in (1, 3, 64):
            check(hist, a, bins)
            check(hist_weights, a, bins, np.ones(a.size))
            check(hist_range, a, bins, -1, 1)
    check(hist, np.array([1.0], dt), 0)                 # ValueError: bins
    # ValueError: too many bins (edges that repeat).  float64 edges over [0, 1] are
    # all distinct at 2**25 bins (NumPy then counts into 2**25 bins: seconds and
    # 256 MB, the same steps as 64 bins): its edges repeat over one ulp instead
    wide = np.array([0.0, 1.0], dt) if dt == np.float32 else np.array([1.0, 1 + 2**-52])
    check(hist, wide, 2**25 if dt == np.float32 else 3)


def test_float32_ranges():
    """float32 data over a range of Python numbers: float32 keep test
    (``float32(0.1) <= 0.1`` holds), float64 edges rounded to float32, the
    position divided by a float64 ``hi - lo`` (exact for ints)."""
    a = np.array([0.1, 0.3, 0.7, 0.2, 0.1 + 2**-26, 1.0, 3.0, -3.0, 2**24 + 1.0, 0.0],
                 np.float32)
    for lo, hi in [(0.1, 0.7), (0.1, 0.3), (-3, 3), (-2, 2.5), (0, 2**24 + 1), (3, 3),
                   (0.5, 0.5), (-1e300, 1e300), (-2**62, 2**62), (0.0, 1e-40)]:
        for bins in (1, 3, 64):
            check(hist_range, a, bins, lo, hi)
            check(hist_range_weights, a, bins, lo, hi, np.linspace(-1.0, 2.0, a.size))
    check(hist_literal_range, a)
    check(hist_literal_range, a.astype(np.float64))


def test_float32_range_of_numpy_scalars_falls_back():
    """A range of NumPy scalars changes NumPy's types (np.float64 bounds make
    float64 edges): not compiled, and the interpreter gives NumPy's result."""
    def strong(a):
        return np.histogram(a, 3, range=(np.float64(0.0), np.float64(1.0)))
    a = np.array([0.1, 0.5, 0.9], np.float32)
    with pytest.raises(hanajit.UnsupportedError, match="NumPy scalars"):
        jit(strong, fallback=False)(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", hanajit.HanaJitFallbackWarning)
        same(jit(strong)(a), strong(a))


@pytest.mark.parametrize("n", [1023, 1024, 1025, 2049, 65536, 65537, 140_000])
@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64])
def test_chunks_and_blocks(n, dt):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * 3).astype(dt)
    w = rng.standard_normal(n)
    check(hist, a, 64)
    check(hist_range, a, 64, -2.5, 2)
    check(hist_weights, a, 7, w)                        # summed per block, in order
    check(hist_range_weights, a, 7, -2, 2.5, w)


def test_ranges_too_wide_for_float64():
    """``hi - lo`` overflows to inf: each position is 0 or NaN, and NumPy's
    edge lookup of a NaN position raises IndexError; the edges are NaN and inf,
    too many bins for more than one.  The chunk is redone value by value."""
    wide = (-1e308, 1e308)
    check(hist_range, np.array([0.0, 5.0, 1e307]), 1, *wide)        # edges [nan, 1e308]
    check(hist_range, np.array([-1e308, 1e308, 0.0]), 1, *wide)     # IndexError
    check(hist_range, np.array([0.0, 1.0]), 2, *wide)               # ValueError
    check(hist, np.array([-1e308, 1e308]), 1)                       # IndexError
    big = np.concatenate([np.linspace(-1.0, 1.0, 3000), [1e307]])
    check(hist_range_weights, big, 1, *wide, np.ones(big.size))


def test_positions_beyond_int32_take_the_exact_path():
    """The vector pass converts positions to int32 (``prims.to_int32``): with
    more bins than that it refuses every value, and the chunk is binned value
    by value.  (NumPy's own call would allocate a tally of 16 GiB, so the pass
    is called directly, its bins read nowhere but ``edges[0]``.)"""
    from hanajit.lib.statistics import histogram_algorithms as ha

    def positions(a, bins, edges, step):
        buf = np.empty(a.size)
        out = np.empty(a.size, np.int64)
        bad = ha._chunk_positions(a, 0, a.size, buf, 0.0, 1.0, False, 0.0, 1.0,
                                  float(bins), bins, edges, out, step)
        return bad, out

    a = np.linspace(0.0, 1.0, 9)
    f = jit(positions, fallback=False)
    edges = np.array([0.0, 1.0])
    for bins in (2**31 - 2, 2**31, 2**40):
        bad, _ = f(a, bins, edges, 1.0 / bins)
        assert bad, bins
    bins = 2**31 - 3                    # the most the int32 positions take
    bad, out = f(a, bins, edges, 1.0 / bins)
    assert not bad and out[0] == 0 and out[-1] == bins - 1 and np.all(np.diff(out) > 0)
    bad, out = f(a, 8, np.linspace(0.0, 1.0, 9), 0.125)
    assert not bad and out.tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 7]


@st.composite
def data(draw):
    dt = draw(st.sampled_from([np.float64, np.float32]))
    n = draw(st.integers(0, 40))
    pool = st.one_of(st.floats(-4, 4, width=32), st.sampled_from(
        [0.0, -0.0, 0.25, -1.0, 1.0, 2.5, 0.1, math.nan, math.inf, -math.inf]))
    return np.array(draw(st.lists(pool, min_size=n, max_size=n)), dt)


@SETTINGS
@given(data(), st.integers(1, 70), st.sampled_from([(-1.0, 1.0), (0, 4), (-2, 2.5),
                                                     (0.1, 0.3), (1, 1)]))
def test_histogram_matches_numpy(a, bins, rng):
    w = np.linspace(-3.0, 5.0, a.size)
    check(hist, a, bins)
    check(hist_range, a, bins, *rng)
    check(hist_weights, a, bins, w)
    check(hist_range_weights, a, bins, *rng, w)
    check(hist_range_density, a, bins, *rng)


@pytest.mark.parametrize("lo,hi,bins", [(0.0, 1.0, 10), (-3.7, 2.1, 64), (0.1, 0.7, 3),
                                        (1e-5, 1e-5 + 1e-3, 1000), (-1.0, 1e6, 1)])
def test_linear_edges_are_computed_not_loaded(lo, hi, bins):
    """``np.linspace``'s edges are ``j * step + first`` (``_linear_step``), so
    the vector pass corrects each value's bin itself (the tests above check the
    result at every edge); edges that are not, such as float32 roundings of
    them, keep the loaded-edge correction."""
    from hanajit.lib.statistics import histogram_algorithms as ha
    edges = np.linspace(lo, hi, bins + 1)
    assert ha._linear_step(edges, bins) == (hi - lo) / bins
    if bins > 1:                # (one bin: the first edge alone is always linear)
        bent = edges.copy()
        bent[bins // 2] = np.nextafter(bent[bins // 2], np.inf)
        assert ha._linear_step(bent, bins) == 0.0


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32])
def test_narrow_integer_data(dt):
    """Image-like data (uint8 ...) compiles: binned as int64, the same values and
    every step of NumPy's exact on them, the type's extremes included."""
    info = np.iinfo(dt)
    rng = np.random.default_rng(int(info.max) % 1000)
    a = rng.integers(info.min, info.max, 5000, endpoint=True).astype(dt)
    a[:2] = info.min, info.max
    for bins in (1, 7, 256):
        check(hist, a, bins)
        check(hist_weights, a, bins, np.linspace(0.0, 1.0, a.size))
        check(hist_range, a, bins, 0, 100)
        check(hist_range, a, bins, -0.5, 1e4)
    check(hist, a[::3], 5)
    check(hist, np.full(9, info.max, dt), 4)
    check(hist, np.array([], dt), 4)
