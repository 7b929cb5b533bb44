"""More NumPy on the CPU target -- sign/round, outer/diff/roll/tile/repeat/copyto,
sorting and searching, histogram, norms, var/std with axes, array attributes
(.dtype, .real/.imag, .flat) and np.ndindex -- each checked against NumPy running
the same function."""
import math
import warnings

import hanajit
import numpy as np
import pytest
from hanajit import jit
from hanajit.lib.sorting.sort_algorithms import intro_sort
from hanajit.testing.jitted import jitted
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")

SETTINGS = settings(max_examples=8, deadline=None)
# one of the two views an example (``view``): every (dtype, ndim, layout) is its own
# compile, so an example checking both views compiles two; each run draws others
ONE_VIEW = settings(max_examples=6, deadline=None)


def compiled(fn):
    """One JitFunction per test function, so examples share specialisations."""
    return jitted(fn, fallback=False)


def _builtin(exc):
    return next(c for c in type(exc).__mro__ if c.__module__ == "builtins")


def run_both(fn, *args, fresh=None):
    """(compiled result, NumPy's result); ``fresh`` rebuilds the arguments for
    functions that write into them.  Exceptions must match (by builtin class)."""
    py_args = fresh() if fresh else args
    jit_args = fresh() if fresh else args
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            exp = fn(*py_args)
        except Exception as exc:      # noqa: BLE001 - compare exception types
            with pytest.raises(_builtin(exc)):
                compiled(fn)(*jit_args)
            return None, None
        got = compiled(fn)(*jit_args)
    return got, exp


def same(got, exp, rtol=0.0, zeros=True, atol=1e-300):
    """Equal (or within ``rtol``) values, shapes and dtypes, NaN == NaN, the sign of
    zeros included unless ``zeros`` is false; tuples item by item."""
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e, rtol, zeros, atol)
        return
    if isinstance(exp, np.ndarray):
        assert isinstance(got, np.ndarray), got
        assert got.shape == exp.shape and got.dtype == exp.dtype, (got, exp)
        if rtol:
            np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True)
        else:
            np.testing.assert_array_equal(got, exp)
            if exp.dtype.kind in "fc" and zeros:
                assert np.array_equal(np.signbit(got.real), np.signbit(exp.real))
        return
    if exp is None:
        assert got is None
        return
    exp = exp.item() if isinstance(exp, np.generic) else exp
    if isinstance(exp, float):
        if math.isnan(exp):
            assert math.isnan(got), (got, exp)
        elif rtol:
            assert got == pytest.approx(exp, rel=rtol, abs=atol), (got, exp)
        else:
            assert got == exp and math.copysign(1, got) == math.copysign(1, exp), (got, exp)
        return
    assert got == exp, (got, exp)


def check(fn, *args, fresh=None, rtol=0.0, zeros=True, atol=1e-300):
    got, exp = run_both(fn, *args, fresh=fresh)
    if exp is not None or got is not None:
        same(got, exp, rtol, zeros, atol)
    return got


# ------------------------------------------------------------------ strategies
# a spread of types (each one is a specialisation to compile)
INTS = [np.int8, np.int64, np.uint16, np.uint64]
REALS = INTS + [np.float32, np.float64]


def arrays(dtypes, min_dims=1, max_dims=2, min_side=0, max_side=6, elements=None):
    dt = st.sampled_from(dtypes) if isinstance(dtypes, list) else st.just(dtypes)
    return dt.flatmap(lambda d: hnp.arrays(
        d, hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side),
        elements=elements(d) if elements else _elements(d)))


def _elements(d):
    d = np.dtype(d)
    if d.kind == "f":
        return hnp.from_dtype(d, allow_nan=True, allow_infinity=True, allow_subnormal=False)
    return hnp.from_dtype(d)


def _finite(d):
    d = np.dtype(d)
    if d.kind == "c":
        part = _finite(np.float64 if d.itemsize == 16 else np.float32)
        return st.builds(complex, part, part)
    if d.kind == "f":
        return hnp.from_dtype(d, allow_nan=False, allow_infinity=False, min_value=-1e6,
                              max_value=1e6, allow_subnormal=False)
    if d.kind in "iu":
        info = np.iinfo(d)
        return st.integers(max(info.min, -1000), min(info.max, 1000))
    return hnp.from_dtype(d)


def views(a: np.ndarray):
    """The array itself and a view with negative and non-unit strides."""
    yield a
    yield a[::-1][..., ::2]


def view(a: np.ndarray, strided: bool) -> np.ndarray:
    """One of :func:`views`: the array itself or its strided view."""
    return a[::-1][..., ::2] if strided else a


# ------------------------------------------------------------ sign and round
def sign(a):
    return np.sign(a)


def round_all(a):
    return np.round(a), np.round(a, 2), np.around(a, -1), np.round(a, decimals=3), a.round(1)


def round_k(a, k):
    return np.round(a, k)


@SETTINGS
@given(arrays([np.int16, np.float64]), arrays([np.int16, np.float64], elements=_finite))
def test_sign_round(a, b):
    # integers whose rounding overflows their type are left out: NumPy's own answer
    # then depends on its SIMD path (a C cast of an out-of-range float)
    for v in views(a):
        check(sign, v)
    for v in views(b):
        check(round_all, v)


@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 5])
def test_round_decimals(k):
    f = np.array([-0.0, 0.0, np.nan, np.inf, -np.inf, 0.5, 1.5, 2.5, -2.5, 0.125, 2.675,
                  1e300, -3.14159, 1234.5678, 5e-324])
    with np.errstate(over="ignore"):
        f32 = f.astype(np.float32)
    for a in (f, f32, np.array([-3, 0, 7, 15, 25, -15, 2 ** 62 + 1]),
              np.array([0, 5, 15, 25, 35], np.int8), np.array([0, 3, 250], np.uint8)):
        check(round_k, a, k)
    check(round_k, 2.675, k)
    check(round_k, 12345, k)


def test_sign_round_complex_and_scalars():
    c = np.array([complex(1, np.nan), complex(np.inf, 1), complex(np.inf, np.inf),
                  complex(0, -0.0), 3 + 4j, complex(np.nan, np.inf), 1.25 + 2.5j,
                  complex(-np.inf, 2), complex(3, -np.inf)])
    for a in (c, c.astype(np.complex64)):
        check(sign, a)
        check(round_all, a)
    for x in (2.5, -0.0, float("nan"), -3, 0, 7):
        check(sign, x)
        check(round_k, x, 0)


# ------------------------------------------------- outer diff roll tile repeat
def outer(a, b):
    return np.outer(a, b)


def diffs(a):
    return np.diff(a), np.diff(a, 2), np.diff(a, axis=0), np.diff(a, n=0), np.diff(a, 3, -1)


def roll(a, s):
    return np.roll(a, s), np.roll(a, s, axis=0), np.roll(a, shift=s, axis=-1)


def rolls_of_tuples(a, s):
    return (np.roll(a, s, axis=(0, -1)), np.roll(a, (s, -1), axis=(-1, 0)),
            np.roll(a, (s, 3), axis=0), np.roll(a, (1, s)), np.roll(a, (s, s, 1), axis=(0, 1, 0)))


@pytest.mark.parametrize("a", [np.arange(20.0).reshape(4, 5), np.arange(60).reshape(3, 4, 5),
                               np.arange(20.0).reshape(4, 5)[::-1, ::2], np.zeros((0, 3))],
                         ids=range(4))
def test_roll_with_tuples_of_shifts_and_axes(a):
    for s in (-7, 0, 2):
        for g, w in zip(jit(rolls_of_tuples, fallback=False)(a, s), rolls_of_tuples(a, s)):
            assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)


def rolls_positional_axis(a, s):
    return np.roll(a, s, 0), np.roll(np.roll(a, s, 0), -1, 1), np.roll(a, (s, 1), (1, 0))


def life_step(g):
    n = np.zeros_like(g)
    for di in (-1, 0, 1):
        for dj in (-1, 0, 1):
            if di or dj:
                n += np.roll(np.roll(g, di, 0), dj, 1)
    return ((n == 3) | ((g == 1) & (n == 2))).astype(g.dtype)


def test_roll_with_a_positional_axis():
    """``np.roll(a, shift, axis)`` with the axis as third positional argument
    (had fallen back: the typer counted it as a second shift)."""
    for a in (np.arange(20.0).reshape(4, 5), np.arange(20).reshape(4, 5)[::-1, ::2].copy(),
              np.arange(20, dtype=np.uint8).reshape(5, 4).T):
        for s in (-7, 0, 2):
            for g, w in zip(jit(rolls_positional_axis, fallback=False)(a, s),
                            rolls_positional_axis(a, s)):
                assert g.dtype == w.dtype and g.shape == w.shape and np.array_equal(g, w)
    g = (np.arange(36).reshape(6, 6) % 3 == 0).astype(np.int64)
    for _ in range(3):
        want = life_step(g)
        got = jit(life_step, fallback=False)(g)
        assert got.dtype == want.dtype and np.array_equal(got, want)
        g = want


def tiles(a):
    return np.tile(a, 2), np.tile(a, (2, 3)), np.tile(a, (2, 1, 2)), np.tile(a, 0)


def repeats(a, r):
    return np.repeat(a, r), np.repeat(a, r, axis=0), np.repeat(a, r, axis=-1)


def shape_ops(a, s, r):
    return (np.diff(a), np.diff(a, 2), np.diff(a, axis=0), np.diff(a, n=0), np.diff(a, 3, -1),
            np.roll(a, s), np.roll(a, s, axis=0), np.roll(a, shift=s, axis=-1),
            np.tile(a, 2), np.tile(a, (2, 3)), np.tile(a, (2, 1, 2)), np.tile(a, 0),
            np.repeat(a, r), np.repeat(a, r, axis=0), np.repeat(a, r, axis=-1),
            np.outer(a, a[..., :3]))


@ONE_VIEW
@given(arrays([np.uint8, np.float64], elements=_finite), st.integers(-9, 9), st.booleans())
def test_shape_ops(a, s, strided):
    check(shape_ops, view(a, strided), s, abs(s) % 4)


@pytest.mark.parametrize("dt", [np.int8, np.uint64, np.float32, np.bool_, np.complex128])
def test_shape_ops_dtypes(dt):
    a = (np.arange(12) % 5 - 2).astype(dt).reshape(3, 4)
    check(shape_ops, a, 5, 2)


def test_shape_ops_errors_and_fusion():
    a = np.arange(12.0).reshape(3, 4)
    check(repeats, a, -1)                    # ValueError as NumPy

    def fused(x):
        return np.sum(np.diff(x) ** 2) + np.roll(x, 1)[0, 0] + np.outer(x[0], x[1]).sum()
    check(fused, a)


def copyto(d, s):
    np.copyto(d, s)
    return d


@pytest.mark.parametrize("dst,src", [
    (np.zeros((3, 4)), np.arange(4)),
    (np.zeros((3, 4)), np.arange(12.0).reshape(3, 4)[::-1]),
    (np.zeros((3, 4), np.int32), np.arange(4, dtype=np.int8)),
    (np.zeros(5), 2.5),
    (np.zeros(5, np.int16), 7),
    (np.zeros(4, np.int64), np.arange(4.0)),             # TypeError: same_kind
    (np.zeros((2, 3)), np.arange(4.0)),                  # ValueError: broadcast
    (np.zeros((2, 3)), np.ones((2, 2, 3))),              # ValueError: broadcast
])
def test_copyto(dst, src):
    def fresh():
        return dst.copy(), src.copy() if isinstance(src, np.ndarray) else src
    check(copyto, fresh=fresh)


def test_copyto_overlap_and_readonly():
    def shift(a):
        np.copyto(a[1:], a[:-1])
        return a
    check(shift, fresh=lambda: (np.arange(6.0),))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        jitted(copyto, fallback=False)(ro, 1.0)


# ------------------------------------------------------------ sort and search
def sorts(a):
    return (np.sort(a, kind="stable"), np.sort(a, axis=None, kind="stable"),
            np.sort(a, -1, "stable"))


def sort_any_kind(a):
    return np.sort(a), np.sort(a, axis=None)


def argsorts(a):
    return np.argsort(a, kind="stable"), np.argsort(a, axis=None, kind="stable")


def argsort_default(a):
    return np.argsort(a, kind="stable")


def argsort_any_kind(a):
    return np.argsort(a)


def sort_method(a):
    a.sort()
    return a


def unique(a):
    return np.unique(a)


def stable_sorting(a):
    return (np.sort(a, kind="stable"), np.sort(a, axis=None, kind="stable"),
            np.argsort(a, kind="stable"), np.argsort(a, axis=None, kind="stable"))


def any_sorting(a):
    return np.sort(a), np.sort(a, -1), np.unique(a)


@ONE_VIEW
@given(arrays([np.int8, np.float64], max_side=40), st.booleans())
def test_sort_argsort_unique(a, strided):
    v = view(a, strided)
    check(stable_sorting, v)
    check(any_sorting, v, zeros=False)          # NumPy's quicksort: either zero first
    check(sort_method, fresh=lambda: (a.copy(),), zeros=False)


@pytest.mark.parametrize("dt", [np.bool_, np.uint64, np.int32, np.float32])
def test_sort_dtypes(dt):
    a = (np.arange(60) * 7919 % 23 - 11).astype(dt).reshape(3, 20)
    check(stable_sorting, a)
    check(any_sorting, a)


def test_sort_nans_and_zeros():
    a = np.array([3.0, np.nan, -np.inf, 1.0, np.nan, -0.0, 0.0, np.inf, -1.0, 0.0, -0.0])
    check(sorts, a)
    check(argsorts, a)
    check(unique, a, zeros=False)
    got = compiled(argsort_any_kind)(a)
    np.testing.assert_array_equal(a[got], np.sort(a))         # any kind: sorted order
    big = np.random.default_rng(0).integers(0, 50, (7, 300))
    check(sorts, big)
    check(argsorts, big)
    check(unique, big)


def sort_default(a):
    return np.sort(a)


def intro_depth0(a):
    intro_sort(a, 0, len(a), 0)          # straight to the heap-sort fallback
    return a


@pytest.mark.parametrize("pattern", ["sorted", "reversed", "equal", "organ", "random",
                                     "nans"])
def test_introsort_patterns(pattern):
    n = 3001
    a = {"sorted": np.arange(n, dtype=np.float64), "reversed": np.arange(n, 0, -1.0),
         "equal": np.full(n, 2.0), "organ": np.abs(np.arange(n) - n // 2).astype(float),
         "random": np.random.default_rng(5).integers(0, 40, n).astype(float),
         "nans": np.where(np.arange(n) % 7 == 0, np.nan, np.arange(n) % 13 * 1.0)}[pattern]
    check(sort_default, a)
    got = compiled(intro_depth0)(a.copy())
    np.testing.assert_array_equal(got, np.sort(a))


def search(a, v):
    return np.searchsorted(a, v), np.searchsorted(a, v, side="right"), \
        np.searchsorted(a, v, "left")


@SETTINGS
@given(arrays([np.int64, np.float64], max_dims=1, max_side=30),
       arrays(np.float64, max_dims=2, max_side=5))
def test_searchsorted(a, v):
    a = np.sort(a)
    check(search, a, v)
    check(search, a[::-2][::-1], v[::-1])
    if v.size:
        check(search, a, v.flat[0])


@pytest.mark.parametrize("dt", [np.uint8, np.int32, np.float32])
def test_searchsorted_dtypes(dt):
    a = np.array([0, 1, 1, 3, 7, 7, 7, 9], dt)
    check(search, a, np.array([-1, 0, 1, 2, 7, 8, 9, 10]))
    check(search, a, 7)


# ------------------------------------------------------------------ histogram
def hist(a, bins):
    return np.histogram(a, bins)


def hist_range(a, bins, lo, hi):
    return np.histogram(a, bins=bins, range=(lo, hi))


@SETTINGS
@given(arrays([np.int64, np.float64], max_dims=2, max_side=30), st.integers(1, 20))
def test_histogram(a, bins):
    for v in views(a):
        check(hist, v, bins)
        check(hist_range, v, bins, -3, 4)
        check(hist_range, v, bins, -2.5, 100.25)


@pytest.mark.parametrize("a", [np.array([2**62 + 1, 0]), np.array([-2**63, 2**63 - 1, 5]),
                               np.array([2**62 + 1, 7, 2**53 + 1])])
def test_histogram_of_int64_beyond_float_precision(a):
    """Every value is kept without a range (found by hypothesis: the float64
    upper bound 2**62 once dropped 2**62 + 1); with a range NumPy compares in
    float64."""
    for bins in (1, 3, 4):
        check(hist, a, bins)
    check(hist_range, a, 2, 0.0, 2.0**62)


def test_histogram_edges_and_errors():
    xx = np.array([0.1, 0.2, 0.3, 0.7, 1.0, np.nan, 0.0, -0.0, 1e-17, 0.30000000000000004])
    for bins in (1, 3, 10, 7):
        check(hist_range, xx, bins, 0.0, 1.0)           # right edge in the last bin
        check(hist_range, xx, bins, 0.1, 0.7)
    check(hist, np.linspace(0, 1, 101), 10)
    check(hist, np.array([2.0, 2.0]), 3)                # empty range widened by 0.5
    check(hist, np.array([]), 4)
    check(hist, np.array([np.nan, 1.0]), 3)             # ValueError: not finite
    check(hist, np.arange(5.0), 0)                      # ValueError: bins
    check(hist_range, np.arange(5.0), 3, 2.0, 1.0)      # ValueError: min > max
    check(hist_range, np.arange(5.0), 3, 0.0, np.inf)   # ValueError: not finite


# ------------------------------------------------------------------ norms
def vnorms(a):
    return (np.linalg.norm(a), np.linalg.norm(a, 2), np.linalg.norm(a, 1),
            np.linalg.norm(a, np.inf), np.linalg.norm(a, -np.inf), np.linalg.norm(a, 0),
            np.linalg.norm(a, ord=3), np.linalg.norm(a, 0.5))


def mnorms(a):
    return (np.linalg.norm(a), np.linalg.norm(a, "fro"), np.linalg.norm(a, 1),
            np.linalg.norm(a, np.inf), np.linalg.norm(a, -1), np.linalg.norm(a, -np.inf))


@ONE_VIEW
@given(arrays([np.int32, np.float32, np.float64, np.complex128], min_dims=1, max_dims=1,
              min_side=1, elements=_finite), st.booleans())
def test_vector_norms(a, strided):
    rtol = 1e-5 if a.dtype == np.float32 else 1e-12
    check(vnorms, view(a, strided), rtol=rtol)


@ONE_VIEW
@given(arrays([np.int64, np.float64, np.complex64], min_dims=2, max_dims=2, min_side=1,
              elements=_finite), st.booleans())
def test_matrix_norms(a, strided):
    rtol = 1e-5 if a.dtype == np.complex64 else 1e-12
    check(mnorms, view(a, strided), rtol=rtol)


def inf_norm(a):
    return np.linalg.norm(a, np.inf)


def test_norm_special_values():
    check(vnorms, np.array([0.0, np.nan, 1.0]))
    check(vnorms, np.array([np.inf, -1.0]))
    check(inf_norm, np.zeros(0))
    check(vnorms, np.zeros(0))                # ValueError (-inf: min of nothing)
    check(mnorms, np.zeros((0, 3)))           # ValueError (-inf)
    check(mnorms, np.zeros((3, 0)))           # ValueError (-1)


# ------------------------------------------------------------ var/std with axis
def var_std(a):
    return (np.var(a, axis=0), np.std(a, axis=-1, ddof=1), np.var(a, axis=-1, keepdims=True),
            a.std(0), np.var(a), np.std(a, ddof=2), a.var(axis=-1, ddof=1.5))


@settings(max_examples=4, deadline=None)   # a compile each, nearly
@given(arrays([np.int64, np.float64, np.complex128], min_dims=2, max_dims=2,
              elements=_finite), st.booleans())
def test_var_std_axis(a, strided):
    # sums in another order: compare to the data's scale (a constant row's variance
    # is rounding noise, in NumPy as here; its std, the root of that noise, is a
    # few ulp of the data: 7.6e-24 for a constant row of 5.1e-8, NumPy 0.0)
    scale = float(np.max(np.abs(a), initial=0.0)) ** 2
    check(var_std, view(a, strided), rtol=1e-9,
          atol=1e-12 * scale + 1e-14 * scale ** 0.5 + 1e-300)


# ------------------------------------------------------- attributes and indices
def dtype_args(a, b):
    x = np.empty(3, a.dtype)
    x[:] = 1
    return (x, np.zeros_like(b, dtype=a.dtype), b.astype(a.dtype), np.zeros(2, dtype=b.dtype),
            np.full(2, 7, a.dtype), np.ones((2, 2), b.dtype))


@pytest.mark.parametrize("da,db", [(np.float32, np.int64), (np.uint8, np.complex128),
                                   (np.bool_, np.float64)])
def test_dtype_attribute(da, db):
    check(dtype_args, np.zeros(2, da), np.arange(4).astype(db))


def real_imag(a):
    return a.real.copy(), a.imag.copy(), a.real.sum(), a.imag[1:], np.abs(a.real - a.imag)


def write_parts(a):
    a.real[:] = 0.5
    a.imag[0] = -1
    a.imag[1:] *= 2
    a.real[-1] += a.imag[-1]
    return a


@pytest.mark.parametrize("dt", [np.complex64, np.complex128])
def test_real_imag_views(dt):
    c = (np.arange(12) + 1j * (np.arange(12) - 5)).astype(dt).reshape(3, 4)
    check(real_imag, c)
    check(real_imag, c[::-1, ::2])
    check(write_parts, fresh=lambda: (c.copy(),))
    check(write_parts, fresh=lambda: (c.copy()[:, ::-2],))


def test_real_imag_of_real_arrays():
    a = np.arange(5.0)
    check(real_imag, a)
    check(real_imag, np.arange(6, dtype=np.int16))

    def write_imag(x):
        x.imag[0] = 1.0
        return x
    check(write_imag, fresh=lambda: (np.arange(3.0),))     # ValueError: read-only


def flat_ops(a):
    s = 0
    for v in a.flat:
        s += v
    t = 0
    for k, v in enumerate(a.flat):
        t += k * v
    first, last = a.flat[0], a.flat[-1]
    a.flat[0] = 9
    a.flat[-1] += 1
    return s, t, first, last, a


@SETTINGS
@given(arrays([np.int32, np.float64], min_dims=1, max_dims=3, min_side=1,
              elements=_finite))
def test_flat(a):
    check(flat_ops, fresh=lambda: (a.copy(),))
    check(flat_ops, fresh=lambda: (a.copy()[::-1][..., ::2],))   # strided view
    check(flat_ops, fresh=lambda: (a.T.copy().T,))              # Fortran order


def flat_index(a, i):
    return a.flat[i]


def test_flat_errors():
    a = np.arange(6.0).reshape(2, 3)
    check(flat_index, a, 5)
    check(flat_index, a, -6)
    check(flat_index, a, 6)                   # IndexError
    check(flat_index, a, -7)                  # IndexError
    ro = np.zeros(3)
    ro.flags.writeable = False

    def write(x):
        x.flat[0] = 1.0
    with pytest.raises(ValueError):
        compiled(write)(ro)


def ndindex_sum(a):
    t = 0
    for idx in np.ndindex(a.shape):
        t += a[idx] * (idx[0] + 1)
    c = 0
    for i, j in np.ndindex(3, 2):
        c += i * 10 + j
    for (i,) in np.ndindex(a.shape[0]):
        c += i
    n = 0
    for _ in np.ndindex(a.shape[0], 0):
        n += 1
    return t, c, n


@pytest.mark.parametrize("shape", [(3, 4), (1, 2, 3), (0, 2), (5,)])
def test_ndindex(shape):
    check(ndindex_sum, np.arange(math.prod(shape), dtype=np.int64).reshape(shape))


def ndindex_negative(n):
    c = 0
    for _ in np.ndindex(2, n):
        c += 1
    return c


def test_ndindex_negative():
    check(ndindex_negative, -1)               # ValueError as NumPy


# ------------------------------------------------- fallbacks name the construct
def sort_order(a):
    return np.sort(a, axis=0, order=None)         # (order= is not supported)


def unique_axis(a):
    return np.unique(a, axis=0)


def hist_weights(a):
    return np.histogram(a, 3, weights=a)


def norm_2d_two(a):
    o = 2 if len(a) > 1 else 1          # an ord known only at run time
    return np.linalg.norm(a, o)


def flat_value(a):
    f = a.flat
    return f[0]


def dtype_value(a):
    d = a.dtype
    return np.zeros(2, d)


@pytest.mark.parametrize("fn,arg,name", [
    (sort_order, np.arange(6.0).reshape(2, 3), "np.sort"),
    (unique_axis, np.array([1, 1, 2]), "np.unique"),
    (hist_weights, np.arange(5), "np.histogram"),          # integer weights
    (norm_2d_two, np.eye(3), "ord must be a constant"),
    (flat_value, np.arange(3.0), "flat"),
    (dtype_value, np.arange(3.0), "dtype"),
])
def test_fallback_names_the_call(fn, arg, name):
    with pytest.warns(hanajit.HanaJitFallbackWarning, match=name):
        got = jit(fn)(arg)
    same(got, fn(arg))
