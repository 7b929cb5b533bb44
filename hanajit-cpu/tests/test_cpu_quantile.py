"""np.percentile / np.quantile against NumPy, bit for bit (the sign of a zero and
the bits of a NaN included): whole arrays and one axis (keepdims), every real
dtype, q a Python number, a NumPy scalar, a 0-d or 1-D array or a list/tuple
display, integer q's (values read, the data's type), NaN/inf/-0.0/duplicates
in the data, empty arrays and bad q's (NumPy's exceptions), strided views; the
partition that picks which of equal values is read is NumPy's own.
Unsupported forms fall back with a warning naming them."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.jitted import jitted
from hanajit.testing.probe import outcome
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = settings(max_examples=15, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def both(a, p, q):
    return np.percentile(a, p), np.quantile(a, q)


def pct(a, q):
    return np.percentile(a, q)


def qnt(a, q):
    return np.quantile(a, q)


def displays(a):
    return (np.percentile(a, [0, 12.5, 50, 99.9, 100]), np.quantile(a, (0.25, 1)),
            np.quantile(a, [0, 1]), np.percentile(a, []), np.quantile(a, (True, 0)))


def ax0(a, q):
    return np.quantile(a, q, axis=0)


def ax1k(a, q):
    return np.percentile(a, q, axis=1, keepdims=True)


def axm1(a, q):
    return np.quantile(a, q, axis=-1)


def keep_all(a, q):
    return np.percentile(a, q, keepdims=True)


def ax_pos(a):
    return np.percentile(a, 40.0, 1, None, False, "linear", True)


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
    got = outcome(jitted(fn, fallback=False), list(args))
    if want[0] == "raise" or got[0] == "raise":
        assert got == want
    else:
        assert same(got[1], want[1]), (got[1], want[1])


FLOATS = [0.0, -0.0, 1.0, -1.5, 2.0, 0.1, np.nan, -np.nan, np.inf, -np.inf, 3e38]
INTS = {np.int8: [-128, 127, 0, 5, -3], np.int64: [-2**63, 2**63 - 1, 0, 7, -7],
        np.uint64: [0, 2**64 - 1, 2**63, 3]}


@st.composite
def data(draw, dtype, min_size=0):
    pool = FLOATS if np.dtype(dtype).kind == "f" else INTS.get(dtype, [0, 1, 2, 100])
    vals = draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=40))
    with np.errstate(over="ignore"):
        return np.array(vals, dtype=np.float64).astype(dtype) if np.dtype(dtype).kind == "f" \
            else np.array(vals, dtype=dtype)


QS = st.one_of(st.sampled_from([0.0, 1.0, 0.5, 0.25, 0.75, 1 / 3, 0.999999, 1e-300]),
               st.floats(0.0, 1.0))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.int64, np.uint64])
@SETTINGS
@given(st.data())
def test_whole_array_matches_numpy(dtype, d):
    a = d.draw(data(dtype))
    q = d.draw(QS)
    check(both, a, q * 100, q)                                       # weak q's
    qs = np.array(d.draw(st.lists(QS, max_size=5)))
    check(both, a, qs * 100, qs)                                     # q arrays


def test_signed_zeros_follow_numpys_partition():
    rng = np.random.default_rng(7)
    for n in (3, 4, 7, 20, 64, 257, 1000):
        for _ in range(3):
            a = np.where(rng.random(n) < 0.5, -0.0, 0.0)
            a[rng.random(n) < 0.1] = 1.0
            qs = np.concatenate([rng.random(6), [0.0, 0.5, 1.0]])
            check(both, a, qs * 100, qs)
            check(both, a, 75.0, 0.999)


def test_median_of_medians_fallback_matches():
    # Musser's median-of-3 killer makes NumPy's introselect switch pivots
    for n in (64, 128, 500):
        k = n // 2
        a = np.zeros(n)
        for i in range(1, k + 1):
            if i % 2 == 1:
                a[i - 1], a[i] = i, k + i
            a[k + i - 1] = 2 * i
        a[a == 4] = -0.0
        check(both, a, np.array([50.0, 33.3, 0.1]), np.array([0.5, 0.333, 0.001]))


SCALAR_FORMS = [
    (pct, np.arange(5, dtype=np.float32), np.float32(37.5)),       # float32 q: float32
    (pct, np.arange(5, dtype=np.float32), np.array([37.5, 50], np.float32)),
    (pct, np.arange(5, dtype=np.float32), np.array([37.5, 50])),   # float64 q: float64
    (pct, np.array([1.0, np.nan], np.float32), np.array([50.0])),
    (pct, np.arange(7, dtype=np.int8), np.float32(33)),            # int8 x float32
    (pct, np.arange(7, dtype=np.int32), np.float32(33)),           # int32 x float32
    (pct, np.array([200, 3, 255], np.uint8), 50),                  # weak int q
    (pct, np.array([-2**63, 2**63 - 1]), np.array([50.0])),        # b - a wraps
    (pct, np.arange(6.0), np.array(40.0)),                         # 0-d q
    (pct, np.arange(6.0), np.int64(40)),                           # NumPy int q
    (pct, np.arange(6), True),
    (qnt, np.array([3.0, np.nan, 1.0]), 1),                        # integer q: read
    (qnt, np.array([3, 9, 1], np.int16), np.array([0, 1, 1, 0])),
    (qnt, np.array([True, False]), np.array([1, 0])),
    (qnt, np.arange(4.0), np.float64(0.5)),
    (qnt, np.arange(4), np.float32(0.1)),                          # float64 result
    (qnt, np.array(3.5), 0.5),                                   # 0-d data
]


@pytest.mark.parametrize("k", range(len(SCALAR_FORMS)))
def test_forms_match_numpy(k):
    fn, a, q = SCALAR_FORMS[k]
    check(fn, a, q)


def test_displays_and_views():
    for a in (np.array([4.0, -0.0, 2.0, 0.0, 1.0]), np.arange(24.0).reshape(4, 6)[::-1, ::2],
              np.array([3.0, np.nan, 1.0])):
        check(displays, a)
    check(displays, np.arange(10, 0, -1)[::3])


@pytest.mark.parametrize("fn", [ax0, ax1k, axm1, keep_all])
@SETTINGS
@given(st.data())
def test_axis_matches_numpy(fn, d):
    shape = d.draw(st.sampled_from([(3, 4), (1, 5), (4, 1), (2, 3), (5, 2)]))
    pool = FLOATS[:8]
    a = np.array(d.draw(st.lists(st.sampled_from(pool), min_size=int(np.prod(shape)),
                                 max_size=int(np.prod(shape))))).reshape(shape)
    q = d.draw(QS) * (100 if fn in (ax1k, keep_all) else 1)
    check(fn, a, q)
    qs = np.array(d.draw(st.lists(QS, max_size=3))) * (100 if fn in (ax1k, keep_all) else 1)
    check(fn, a, qs)


def test_axis_positional_and_3d():
    check(ax_pos, np.arange(24.0).reshape(2, 3, 4) % 5)
    check(ax0, np.arange(24).reshape(2, 3, 4) % 7, np.array([0.1, 0.9]))
    check(axm1, np.arange(24.0).reshape(2, 3, 4)[:, ::-1], 0.3)
    check(ax1k, np.asfortranarray(np.arange(12.0).reshape(3, 4) % 5), np.array([10.0, 75.0]))
    check(ax0, np.zeros((3, 0)), 0.5)               # no lanes: empty result
    check(ax0, np.zeros((0, 3)), 0.5)               # empty lanes: IndexError


@pytest.mark.parametrize("a,q", [
    (np.arange(4.0), 101.0), (np.arange(4.0), -1.0), (np.arange(4.0), np.nan),
    (np.arange(4), np.array([50.0, 100.5])), (np.arange(4.0), np.array([np.nan])),
    (np.zeros(0), 50.0), (np.zeros(0, int), 50.0), (np.zeros(0, int), np.zeros(0)),
    (np.zeros(0), np.zeros(0))])
def test_numpys_exceptions(a, q):
    check(pct, a, q)
    check(qnt, a, q / 100 if isinstance(q, (float, np.ndarray)) else q)


def unsupported_method(a):
    return np.percentile(a, 50, method="lower")


def unsupported_weights(a):
    return np.quantile(a, 0.5, weights=a)


def unsupported_out(a, o):
    return np.quantile(a, 0.5, axis=0, out=o)


def unsupported_overwrite(a):
    return np.quantile(a, 0.5, overwrite_input=True)


def unsupported_interpolation(a):
    return np.quantile(a, 0.5, interpolation="linear")


def unsupported_q2d(a, q):
    return np.quantile(a, q)


def unsupported_axes(a):
    return np.quantile(a, 0.5, axis=(0, 1))


def _run(f, args):
    """``outcome`` without silencing the fallback warning."""
    try:
        return ("ok", f(*args))
    except Exception as exc:        # noqa: BLE001 - compared with the interpreter's
        return ("raise", type(exc).__name__)


@pytest.mark.parametrize("fn,args,match", [
    (unsupported_method, (np.arange(4.0),), "method"),
    (unsupported_weights, (np.arange(4.0),), "weights"),
    (unsupported_out, (np.ones((2, 2)), np.zeros(2)), "out"),
    (unsupported_overwrite, (np.arange(4.0),), "overwrite_input"),
    (unsupported_interpolation, (np.arange(4.0),), "interpolation"),
    (unsupported_q2d, (np.arange(4.0), np.array([[0.5]])), "2-D q"),
    (unsupported_axes, (np.ones((2, 2)),), "axis"),
    (pct, (np.array([1 + 2j]), 50.0), "complex"),
    (pct, (np.array([True, False]), 50.0), "boolean"),
    (qnt, (np.array([1.0, np.nan], np.float32), np.float64(0.5)), "NaN"),
    (qnt, (np.arange(3), np.int8(1)), "int8 q"),
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
