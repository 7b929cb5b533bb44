"""np.median / np.nanmedian against NumPy, bit for bit (the sign of a zero and
the bits of a NaN included): whole arrays and every axis (negative too),
keepdims, 0- and 1-length axes, odd and even lengths, every real dtype, NaN,
inf, -0.0 and duplicates, strided, reversed and Fortran views; nanmedian's
two paths (np.ma.median along an axis shorter than 600 of a 2-D or wider
array, _nanmedian1d otherwise) and all-NaN lanes.  Unsupported forms fall
back with a warning naming them."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.jitted import jitted
from hanajit.testing.probe import outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=16, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def one_d(a):
    return (np.median(a), np.median(a, axis=0), np.median(a, axis=-1, keepdims=True),
            np.nanmedian(a), np.nanmedian(a, axis=0), np.nanmedian(a, keepdims=True),
            np.nanmedian(a, axis=-1, keepdims=True))


def two_d(a):
    return (np.median(a), np.median(a, axis=0), np.median(a, axis=1),
            np.median(a, axis=-1, keepdims=True), np.median(a, keepdims=True),
            np.nanmedian(a), np.nanmedian(a, axis=0), np.nanmedian(a, axis=-1),
            np.nanmedian(a, axis=0, keepdims=True), np.nanmedian(a, keepdims=True))


def three_d(a):
    return (np.median(a, axis=0), np.median(a, axis=1, keepdims=True),
            np.median(a, axis=-1), np.median(a),
            np.nanmedian(a, axis=-3, keepdims=True), np.nanmedian(a, axis=1),
            np.nanmedian(a, axis=2), np.nanmedian(a, keepdims=True))


def positional(a):
    return np.median(a, 1, None, False, True), np.nanmedian(a, 0, None, False, False)


def nan_axis0(a):
    return np.nanmedian(a, axis=0)


def nan_whole(a):
    return np.nanmedian(a)


def med_axis1(a):
    return np.median(a, axis=1)


def _bits(x):
    return np.ascontiguousarray(x).tobytes()


def same(got, want):
    """Same type (a scalar for a scalar), shape, dtype and bytes."""
    if isinstance(want, tuple):
        return isinstance(got, tuple) and len(got) == len(want) and all(
            same(g, w) for g, w in zip(got, want))
    if isinstance(want, np.ndarray):
        return (isinstance(got, np.ndarray) and got.dtype == want.dtype
                and got.shape == want.shape and _bits(got) == _bits(want))
    w = np.asarray(want)
    if np.ndim(got) != 0 or isinstance(got, np.ndarray):
        return False
    return _bits(np.asarray(got).astype(w.dtype)) == _bits(w)



def check(fn, *args):
    want = outcome(fn, [a.copy() if isinstance(a, np.ndarray) else a for a in args])
    before = [a.copy() for a in args]
    got = outcome(jitted(fn, fallback=False), list(args))
    assert all(_bits(a) == _bits(b) for a, b in zip(args, before))   # input kept
    if want[0] == "raise" or got[0] == "raise":
        assert got == want
    else:
        assert same(got[1], want[1]), (got[1], want[1])


def _nan(bits):
    return np.array([bits], np.uint64).view(np.float64)[0]


# NaNs of four bit patterns: which one NumPy returns is part of the answer
FLOATS = [0.0, -0.0, 1.0, -1.5, 2.0, 0.1, np.nan, -np.nan, _nan(0x7FF0000000000123),
          _nan(0xFFF8000000000456), np.inf, -np.inf, 1e308, -1e308, 5e-324]
SHAPES_2D = [(0, 3), (3, 0), (1, 1), (1, 5), (4, 1), (2, 3), (3, 4), (5, 2), (6, 7)]


@st.composite
def arrays(draw, shapes, dtype=np.float64, pool=FLOATS):
    shape = draw(st.sampled_from(shapes))
    size = int(np.prod(shape))
    vals = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size))
    with np.errstate(all="ignore"):
        return np.array(vals, dtype=np.float64).astype(dtype).reshape(shape)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@SETTINGS
@given(st.data())
def test_two_d_matches_numpy(dtype, d):
    check(two_d, d.draw(arrays(SHAPES_2D, dtype)))


@SETTINGS
@given(arrays([(0,), (1,), (2,), (5,), (8,), (13,)]))
def test_one_d_matches_numpy(a):
    check(one_d, a)


@SETTINGS
@given(arrays([(2, 3, 4), (1, 4, 3), (3, 1, 2), (2, 2, 0), (4, 5, 1)], pool=FLOATS[:8]))
def test_three_d_matches_numpy(a):
    check(three_d, a)


INTS = {np.int8: [-128, 127, 0, 5, -3, 5], np.uint8: [0, 255, 7, 7],
        np.int64: [-2**63, 2**63 - 1, 2**53 + 1, 0, 7, -7],
        np.uint64: [0, 2**64 - 1, 2**63, 3], np.int32: [-2**31, 2**31 - 1, 1, 1],
        np.uint16: [0, 65535, 9], np.bool_: [True, False, True]}


@pytest.mark.parametrize("dtype", list(INTS))
def test_integer_and_bool_dtypes(dtype):
    """Integers are partitioned in their own dtype and averaged in float64: int32
    and uint16 take the code of int8 and uint8 at another width (each a compile
    of ten medians), so they run the two medians of ``positional``."""
    rng = np.random.default_rng(5)
    f = positional if dtype in (np.int32, np.uint16) else two_d
    for shape in [(3, 4), (1, 2), (2, 1), (0, 2), (5, 3)]:
        a = rng.choice(np.array(INTS[dtype], dtype), size=shape)
        check(f, a)


def test_views_and_layouts():
    rng = np.random.default_rng(11)
    base = rng.choice(np.array(FLOATS[:8]), size=(6, 8))
    for a in (base[::-1, ::2], base[1::2, ::-3], base.T, np.asfortranarray(base)):
        check(two_d, a)
    b3 = rng.choice(np.array(FLOATS[:8]), size=(3, 4, 5))
    for a in (np.asfortranarray(b3), b3[:, ::-1, 1::2], b3.transpose(2, 0, 1)):
        check(three_d, a)
    check(one_d, base[::-1, 3])
    check(one_d, np.arange(10.0)[::-3])
    check(positional, base)
    check(positional, np.arange(12).reshape(3, 4) % 5)


def test_expressions_and_zero_d():
    from hanajit.testing.sourcefile import load_module
    mod = load_module("import numpy as np\n\n\ndef expr(a):\n"
                      "    return np.median(a * 2, axis=0), "
                      "np.nanmedian(a - 1.0, axis=1, keepdims=True)\n\n\n"
                      "def zero_d(a):\n"
                      "    return np.median(a), np.nanmedian(a), "
                      "np.median(a, keepdims=True)\n", "median_axis_expr")
    check(mod.expr, np.arange(12.0).reshape(3, 4) % 5)
    check(mod.expr, np.array([[np.nan, 1.0], [2.0, -0.0]]))
    check(mod.zero_d, np.array(3.5))
    check(mod.zero_d, np.array(np.nan))


def test_all_nan_lanes_and_signed_zeros():
    n = np.nan
    m = -np.nan
    p = _nan(0x7FF0000000000123)
    for a in (np.array([[n, m], [p, n]]), np.array([[n, m, p]]), np.array([[p], [m]]),
              np.array([[-0.0, -0.0, n], [-0.0, 0.0, 0.0]]), np.array([[-0.0]]),
              np.array([[m, 1.0, p, 2.0, n, 3.0]]), np.array([[1e308, 1e308, n]]),
              np.array([[-np.inf, np.inf], [np.inf, n]])):
        check(two_d, a)
        with np.errstate(all="ignore"):
            check(two_d, a.astype(np.float32))
    check(one_d, np.array([m, p, n]))
    check(one_d, np.array([n, p, m]))
    check(one_d, np.array([p, 1.0, m, -0.0, n, 0.0, 2.0]))


@pytest.mark.parametrize("length", [599, 600, 601, 1000])
def test_nanmedian_long_axes(length):
    # below 600 NumPy takes np.ma.median (2 * x / 2: inf for 1e308), from 600 on
    # _nanmedian1d (the value itself)
    rng = np.random.default_rng(length)
    a = rng.choice(np.array([1e308, 1e308, -0.0, 0.0, np.nan, 1.0]), size=(2, length))
    a[1, :] = np.nan
    a[1, 5] = 1e308
    check(nan_axis0, a.T)
    check(nan_axis0, np.ascontiguousarray(a.T))
    check(nan_whole, a)
    check(med_axis1, a)


def test_median_of_medians_pivots():
    # Musser's median-of-3 killer makes NumPy's introselect switch pivots: the
    # NaN that ends up last is NumPy's
    for n in (64, 128, 500):
        k = n // 2
        a = np.zeros(n)
        for i in range(1, k + 1):
            if i % 2 == 1:
                a[i - 1], a[i] = i, k + i
            a[k + i - 1] = 2 * i
        a[a == 4] = -0.0
        b = np.stack([a, a[::-1], -a])
        b[0, 7] = -np.nan
        b[0, n - 3] = np.nan
        check(med_axis1, b)
        check(nan_axis0, b.T)


def unsupported_out(a, o):
    return np.median(a, axis=0, out=o)


def unsupported_overwrite(a):
    return np.nanmedian(a, overwrite_input=True)


def unsupported_axes(a):
    return np.median(a, axis=(0, 1))


def unsupported_axis_arg(a, k):
    return np.nanmedian(a, axis=k)


def unsupported_keepdims_arg(a, k):
    return np.median(a, keepdims=k)


def unsupported_list(a):
    return np.median([1.0, 2.0, a])


def _run(f, args):
    """``outcome`` without silencing the fallback warning."""
    try:
        return ("ok", f(*args))
    except Exception as exc:        # noqa: BLE001 - compared with the interpreter's
        return ("raise", type(exc).__name__)


@pytest.mark.parametrize("fn,args,match", [
    (unsupported_out, (np.ones((2, 2)), np.zeros(2)), "out"),
    (unsupported_overwrite, (np.arange(4.0),), "overwrite_input"),
    (unsupported_axes, (np.ones((2, 2)),), "axis"),
    (unsupported_axis_arg, (np.ones((2, 2)), 0), "axis"),
    (unsupported_keepdims_arg, (np.ones((2, 2)), True), "keepdims"),
    (unsupported_list, (3.0,), "median"),
    (med_axis1, (np.array([[1 + 2j, 3j]]),), "complex"),
    (med_axis1, (np.ones(3),), "axis=1"),
])
def test_unsupported_forms_fall_back(fn, args, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = outcome(fn, list(args))
        with pytest.warns(HanaJitFallbackWarning, match=match):
            got = _run(jit(fn), args)
    assert got[0] == want[0]
    if want[0] == "raise":
        assert got == want
