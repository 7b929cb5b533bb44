"""Order statistics of long lanes without a partition (``order_stats.quick_kth``,
used by ``np.percentile``/``np.quantile``/``np.median`` of one lane of at least
``SMALLEST`` values): a sorted sample brackets each wanted rank, one pass counts
the values below and copies those inside.  The values are NumPy's bit for bit;
where NumPy's arrangement decides the bits (a zero of either sign, a NaN) or a
bracket misses, the partition runs instead -- each of those cases checked
against NumPy here, on data shaped to hit them: few distinct values, sorted and
periodic data, zeros of both signs at the wanted ranks, NaNs, integers (wide and few)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.lib.statistics import order_stats


def stats(a):
    return (np.percentile(a, 30.0), np.quantile(a, [0.0, 0.25, 0.5, 0.999, 1.0]),
            np.median(a), np.percentile(a, 50, keepdims=True), np.quantile(a, 1),
            np.percentile(a, np.linspace(0.0, 100.0, 9)))


def same(got, want):
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes(), (g, w)


def data(kind, n, seed):
    rng = np.random.default_rng(seed)
    if kind == "normal":
        return rng.standard_normal(n)
    if kind == "few":
        return rng.integers(0, 7, n).astype(np.float64)
    if kind == "sorted":
        return np.sort(rng.standard_normal(n))
    if kind == "periodic":
        # a period of the sample's step (the sample sees one value), or a few steps
        step = n // min(order_stats.SAMPLE, n // 8)
        period = step * int(rng.choice([1, 3, 37]))
        return np.tile(rng.standard_normal(period), n // period + 1)[:n]
    if kind == "zeros":
        a = rng.standard_normal(n)
        a[np.abs(a) < 0.5] = 0.0
        a[rng.random(n) < 0.5] *= -1                   # zeros of both signs at the median
        return a
    if kind == "nan":
        a = rng.standard_normal(n)
        a[rng.integers(0, n)] = np.nan
        return a
    if kind == "float32":
        return rng.standard_normal(n).astype(np.float32)
    if kind == "int64":
        return rng.integers(-10**6, 10**6, n)
    # few distinct integers: int64 too (each dtype is a compile of its own, and
    # the lane's integer path is the same for int16 and int64)
    return rng.integers(-3, 4, n)


KINDS = ["normal", "few", "sorted", "periodic", "zeros", "nan", "float32", "int64", "int_few"]
F = jit(stats, fallback=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(KINDS),
       st.one_of(st.integers(order_stats.SMALLEST - 10, 4 * order_stats.SMALLEST),
                 st.integers(8 * order_stats.SAMPLE - 10, 24 * order_stats.SAMPLE)),
       st.integers(0, 2**32 - 1))
def test_long_lanes_as_numpy(kind, n, seed):
    a = data(kind, n, seed)
    same(F(a), stats(a))


def test_the_quick_path_is_taken_and_gives_up_where_it_must():
    """The library source run by CPython: True (values written) for spread
    data, False (the lane untouched) for a NaN and for a read zero where the
    lane holds zeros of both signs; zeros of one sign, a zero whose sign is not
    read, and an integer zero are values like any other."""
    rng = np.random.default_rng(4)
    n = 4 * max(order_stats.SMALLEST, order_stats.PER_BRACKET)
    kth = np.array([0, n // 3, n // 3 + 1, n - 1])
    quick = order_stats.quick_kth
    a = rng.standard_normal(n)
    v = a.copy()
    assert quick(v, n, kth, True, kth, kth)
    assert np.array_equal(v[kth], np.sort(a)[kth])
    b = a.copy()
    b[7] = np.nan
    v = b.copy()
    assert not quick(v, n, kth, True, kth, kth)
    assert v.tobytes() == b.tobytes()
    z = np.where(np.abs(a) < 1.0, 0.0, a)              # the n // 3rd value a zero
    assert quick(z.copy(), n, kth, True, kth, kth)      # all +0.0
    z[rng.random(n) < 0.5] *= -1                         # zeros of both signs
    v = z.copy()
    assert not quick(v, n, kth, True, kth, kth)
    assert v.tobytes() == z.tobytes()
    ends = kth[[0, 3]]
    assert quick(z.copy(), n, kth, True, ends, ends)   # the zeros' ranks not read
    i = rng.integers(-2, 3, n)
    v = i.copy()
    assert quick(v, n, kth, False, kth, kth)
    assert np.array_equal(v[kth], np.sort(i)[kth])
