"""np.average against NumPy: no weights, weights of a's shape, 1-D weights along
an axis, ``returned=``, ``keepdims=``, integer/bool/float32/complex data, and
NumPy's errors (weights summing to zero, shapes that differ without an axis or
do not fit the axis).  Values bit for bit (NumPy's pairwise sums), types as
hanajit returns them (NumPy scalars as Python numbers)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.jitted import jitted
from hanajit.testing.reference import same_value


def _same(got, want):
    if isinstance(want, tuple):
        assert type(got) is tuple and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray) and got.dtype == want.dtype, (got, want)
        assert got.shape == want.shape
        assert np.array_equal(np.signbit(got.real), np.signbit(want.real))
        np.testing.assert_array_equal(got, want)
        return
    assert same_value(got, want), (got, want)


def _check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:          # noqa: BLE001 - the same exception, same words
        with pytest.raises(type(exc)) as info:
            jitted(fn, fallback=False)(*args)
        assert str(info.value) == str(exc)
        return
    _same(jitted(fn, fallback=False)(*args), want)


def plain(a):
    return np.average(a)


def plain_returned(a):
    return np.average(a, returned=True)


def axis0(a):
    return np.average(a, axis=0, returned=True)


def axis1_keep(a):
    return np.average(a, axis=-1, keepdims=True, returned=True)


def weighted(a, w):
    return np.average(a, weights=w)


def weighted_returned(a, w):
    return np.average(a, weights=w, returned=True)


def weighted_axis0(a, w):
    return np.average(a, axis=0, weights=w, returned=True)


def weighted_axis1(a, w):
    return np.average(a, 1, w, True)


def weighted_axis1_keep(a, w):
    return np.average(a, axis=1, weights=w, keepdims=True)


RNG = np.random.default_rng(22)
DATA = {
    "f64": RNG.random((7, 300)),
    "f32": RNG.random((5, 40)).astype(np.float32),
    "i64": RNG.integers(-50, 50, (6, 9)),
    "bool": RNG.random((3, 4)) > 0.5,
    # (hanajit sums complex numbers in order, NumPy pairwise: the same up to 8)
    "c128": RNG.random((2, 3)) + 1j * RNG.random((2, 3)),
}


# (complex data only without an axis: hanajit's np.mean of complex along an axis
# divides by the count part by part, a last-bit difference of np.mean itself)
UNWEIGHTED = [(fn, kind) for fn in (plain, plain_returned, axis0, axis1_keep)
              for kind in DATA if kind != "c128" or fn in (plain, plain_returned)]


@pytest.mark.parametrize("fn,kind", UNWEIGHTED,
                         ids=[f"{fn.__name__}-{kind}" for fn, kind in UNWEIGHTED])
def test_unweighted(fn, kind):
    _check(fn, DATA[kind])


@pytest.mark.parametrize("fn", [weighted, weighted_returned, weighted_axis0,
                                weighted_axis1, weighted_axis1_keep])
@pytest.mark.parametrize("wkind", ["f64", "f32", "i64"])
@pytest.mark.parametrize("kind", ["f64", "f32", "i64", "c128"])
def test_weights_of_a_shape(fn, kind, wkind):
    a = DATA[kind][:3, :4]
    w = (DATA[wkind][:3, :4] + 1).astype(DATA[wkind].dtype)
    _check(fn, a, w)


def test_one_dimensional_weights_along_an_axis():
    a = DATA["f64"]
    _check(weighted_axis0, a, RNG.random(7))
    _check(weighted_axis1, a, RNG.random(300))
    _check(weighted_axis1_keep, a, RNG.random(300))
    _check(weighted_axis1, DATA["i64"], np.arange(9))


def test_one_dimensional_data():
    x = RNG.random(1000)
    _check(plain, x)
    _check(weighted_returned, x, RNG.random(1000))
    _check(weighted_axis0, x, RNG.random(1000))


@pytest.mark.parametrize("args", [
    (np.ones((2, 3)), np.zeros((2, 3))),                    # weights sum to zero
    (np.ones((2, 3)), np.array([[1.0, -1.0, 0.0], [2.0, -2.0, 0.0]])),
    (np.ones((2, 3)), np.ones(3)),                           # no axis: TypeError
    (np.ones((2, 3)), np.ones((3, 2))),
], ids=["zero", "cancel", "1d-no-axis", "transposed"])
def test_errors_without_axis(args):
    _check(weighted, *args)


@pytest.mark.parametrize("w", [np.ones(2), np.ones((3, 2)), np.ones((1, 3)),
                               np.array([1.0, -1.0, 0.0])],
                         ids=["wrong-length", "2d-other", "2d-1row", "zero-sum"])
def test_errors_along_an_axis(w):
    _check(weighted_axis1, np.ones((2, 3)), w)


def test_compiles_without_fallback():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _check(weighted_axis1, DATA["f64"], RNG.random(300))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 6), st.sampled_from([np.float64, np.float32]),
       st.integers(0, 2**32 - 1))
def test_random_shapes(n, m, dt, seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, n)).astype(dt)
    w = rng.random((m, n)).astype(dt)
    _check(weighted_returned, a, w)
    _check(weighted_axis1, a, w[0])
    _check(weighted_axis0, a, w[:, 0])
    _check(axis0, a)


def axis1(a):
    return np.average(a, axis=1)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("fn", [axis0, axis1, axis1_keep])
@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (0, 0)])
def test_empty_means(fn, shape):
    # NumPy computes a.size / avg.size even when it is not returned: an empty
    # mean raises ZeroDivisionError, a mean of empty slices is NaN
    _check(fn, np.zeros(shape))
