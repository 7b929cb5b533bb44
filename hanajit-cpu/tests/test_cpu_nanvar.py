"""``np.nanvar`` / ``np.nanstd`` compiled, against NumPy 2 bit for bit: float64 and
float32 arrays with NaNs (none, some, all), infinities and empty lanes, as a whole
(1-D of any stride, C- and Fortran-contiguous N-D) and along any axis of
C-contiguous arrays or over a tuple of them, ``ddof`` int and float, ``keepdims``;
result dtypes and types (NumPy scalar or array); integer arrays (NumPy's
``np.var``); the layouts and arguments NumPy's order is not reproduced for fall
back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitError, HanaJitFallbackWarning
from hanajit.testing.jitted import jitted


def nvar(a):
    return np.nanvar(a)


def nstd(a):
    return np.nanstd(a)


def nvar_ddof(a, d):
    return np.nanvar(a, ddof=d)


def nstd_ddof(a, d):
    return np.nanstd(a, ddof=d)


def nvar_keep(a):
    return np.nanvar(a, ddof=1, keepdims=True)


def nvar_last(a):
    return np.nanvar(a, axis=-1)


def nstd_last(a, d):
    return np.nanstd(a, axis=1, ddof=d)


def nvar_last_keep(a):
    return np.nanvar(a, axis=-1, keepdims=True, ddof=2)


def nstd_first(a):
    return np.nanstd(a, 0)


def in_expression(a):
    return np.nanstd(a * 2.0) + np.nanvar(a)


def nvar_axis0(a):
    return np.nanvar(a, axis=0)


def nstd_middle_keep(a, d):
    return np.nanstd(a, axis=-2, ddof=d, keepdims=True)


def nvar_axes01(a):
    return np.nanvar(a, axis=(0, 1))


def nstd_axes_keep(a):
    return np.nanstd(a, axis=(2, 0), keepdims=True, ddof=1)


def nvar_dtype(a):
    return np.nanvar(a, dtype=np.float64)


def same(got, want):
    """Equal values bit for bit (NaN where NumPy's is NaN), dtype, result type."""
    assert type(got) is type(want), (type(got), type(want))
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    u = np.uint64 if want.dtype == np.float64 else np.uint32
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got.view(u)[~nan], want.view(u)[~nan])


def check(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = fn(*args)
        got = jitted(fn, fallback=False)(*args)
    same(got, want)


def data(n, dtype, seed, nan_share=0.2):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(n) * rng.choice([1.0, 1e3, 1e-3], n) + 3.0).astype(dtype)
    a[rng.random(n) < nan_share] = np.nan
    return a


SIZES = [0, 1, 2, 7, 8, 9, 127, 128, 129, 1000, 5000]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_whole_1d(dtype):
    for k, n in enumerate(SIZES):
        for share in (0.0, 0.3, 1.0):
            a = data(n, dtype, k, share)
            for fn in (nvar, nstd):
                check(fn, a)
            for d in (0, 1, 2, 1.5, -1, n):
                check(nvar_ddof, a, d)
            check(nstd_ddof, a, 1)
            check(nvar_keep, a)
    a = data(3001, dtype, 99)
    for view in (a[::3], a[::-1], a[5:-7:2]):
        check(nvar, view)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_whole_nd_in_memory_order(dtype):
    a = data(24 * 50, dtype, 5)
    for arr in (a.reshape(24, 50), a.reshape(2, 12, 50), a.reshape(24, 50).T,
                np.asfortranarray(a.reshape(40, 30)), a.reshape(24, 50)[:, :0]):
        check(nvar, arr)
    check(nstd, a.reshape(24, 50))
    check(nvar_keep, a.reshape(2, 12, 50))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_along_the_last_axis(dtype):
    a = data(30 * 300, dtype, 11)
    a[:300] = np.nan                        # an all-NaN row: dof <= 0, NaN
    a[300:302] = [np.inf, 1.0]              # an infinity: inf - inf in a deviation
    for arr in (a.reshape(30, 300), a.reshape(300, 30), a[:0].reshape(0, 5),
                a[:200].reshape(1, 200)):
        check(nvar_last, arr)
        for d in (0, 1, 1.5, 299):
            check(nstd_last, arr, d)
    if dtype == np.float64:
        for arr in (a.reshape(30, 300), a.reshape(3, 10, 300), a.reshape(30, 300)[:, 0]):
            check(nvar_last_keep, arr)
        check(nvar_last, a.reshape(3, 10, 300))
        check(nstd_first, a[:50])               # axis 0 of a 1-D array


def test_along_other_axes_of_c_arrays():
    # NumPy's sums along an outer axis add in index order (or pairwise where its
    # iterator makes that axis innermost): np.sum's own order, reused
    a = data(6000, np.float64, 12, 0.3)
    a[:100] = np.nan                        # an all-NaN column of (60, 100)
    for shape in ((60, 100), (3000, 2), (2, 3000), (1000, 6), (0, 4)):
        b = a[:int(np.prod(shape))].reshape(shape)
        check(nvar_axis0, b)
        check(nvar_axis0, b.astype(np.float32))
    b = a[:3000].reshape(6, 5, 100)
    check(nvar_axis0, b)
    for d in (0, 1, 60):
        check(nstd_middle_keep, b, d)
    check(nvar_axis0, a[:600].reshape(60, 10) * 2.0)     # an expression's temporary


def test_over_a_tuple_of_axes():
    a = data(4 * 30 * 50, np.float64, 13, 0.3)
    a[:50] = np.nan
    for shape in ((4, 30, 50), (30, 4, 50), (0, 3, 5), (1, 1, 7)):
        b = a[:int(np.prod(shape))].reshape(shape)
        check(nvar_axes01, b)
        check(nstd_axes_keep, b)
    check(nvar_axes01, a[:1500].reshape(30, 50))            # every axis: a scalar


def test_special_values_and_expressions():
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e308, 5e-324, 1.0])
    rng = np.random.default_rng(3)
    for _ in range(200):
        a = rng.choice(specials, rng.integers(0, 12))
        check(nvar, a)
        check(nstd_ddof, a, 1)
        with np.errstate(over="ignore"):
            check(nvar, a.astype(np.float32))
    a = data(700, np.float64, 4)
    check(in_expression, a)
    check(in_expression, a.astype(np.float32))


def test_integer_and_bool_arrays_are_nps_var():
    rng = np.random.default_rng(8)
    for x in (rng.integers(-1000, 1000, 3000), rng.integers(0, 9, (30, 40)).astype(np.int8),
              np.array([True, False, True]), np.arange(7, dtype=np.uint16)[::2]):
        check(nvar, x)
        check(nstd, x)
        check(nvar_ddof, x, 1)


@pytest.mark.parametrize("fn, arg", [
    (nvar_axis0, np.ones((3, 4), order="F")),           # an F array along an axis
    (nvar_last, np.ones((4, 6))[:, ::2]),               # a stepped 2-D view
    (nvar_last, np.asfortranarray(np.ones((3, 4)))),    # an F array along its last axis
    (nvar_axes01, np.ones((3, 4, 2), order="F")),       # ... over a tuple of axes
    (nvar_axes01, np.ones((3, 4, 2), np.int64)),        # np.var of ints: no tuples
    (nvar, np.ones((4, 6))[::2]),                       # an N-D view of unknown order
    (nvar_dtype, np.ones(3)),                           # dtype=
    (nvar, np.ones(3, complex)),                        # complex
])
def test_orders_not_reproduced_fall_back(fn, arg):
    with pytest.raises(HanaJitError):
        jit(fn, fallback=False)(arg)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        got = jit(fn)(arg)
    same(got, fn(arg))
