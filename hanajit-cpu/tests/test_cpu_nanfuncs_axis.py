"""``np.nansum``/``np.nanprod``/``np.nanmean`` along axes (``statistics/nanfuncs_axis.py``):
NumPy's NaN-replaced copy reduced in NumPy's order, bit for bit, for every dtype and the
layouts NumPy's copy keeps; other N-D views run in the interpreter with the reason."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning

_RNG = np.random.default_rng(0)
_X = _RNG.standard_normal((37, 29)) * np.exp(_RNG.uniform(-4, 4, (37, 29)))
_X[_RNG.random(_X.shape) < 0.2] = np.nan
_X3 = _RNG.standard_normal((5, 7, 9))
_X3[_X3 > 1] = np.nan
ARRAYS = {"C": _X, "F": np.asfortranarray(_X), "float32": _X.astype(np.float32),
          "float32 F": np.asfortranarray(_X.astype(np.float32)),
          "int": np.arange(20).reshape(4, 5), "bool": _X > 0, "3-D": _X3,
          "3-D F": np.asfortranarray(_X3), "1-D view": _X[::-2, 3],
          "all NaN": np.full((3, 4), np.nan), "empty": np.zeros((0, 3))}


def nansum0(a):
    return np.nansum(a, axis=0)


def nansum_last_keep(a):
    return np.nansum(a, axis=-1, keepdims=True)


def nanprod0(a):
    return np.nanprod(a, axis=0)


def nanmean0(a):
    return np.nanmean(a, axis=0)


def nanmean_last_keep(a):
    return np.nanmean(a, -1, keepdims=True)


def nansum_tuple(a):
    return np.nansum(a, axis=(0, 1))


@pytest.mark.parametrize("fn", [nansum0, nansum_last_keep, nanprod0, nanmean0,
                                nanmean_last_keep, nansum_tuple])
def test_along_axes_as_numpy(fn):
    g = jit(fn, fallback=False)
    for name, a in ARRAYS.items():
        if fn is nansum_tuple and a.ndim < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)     # (NumPy's empty slices)
            want, got = fn(a), g(a)
        assert type(got) is type(want), name
        got, want = np.asarray(got), np.asarray(want)
        assert got.dtype == want.dtype and got.shape == want.shape, name
        assert got.tobytes() == want.tobytes(), name


def test_other_views_fall_back_with_the_reason():
    a = _X[::2, ::3]
    with pytest.warns(HanaJitFallbackWarning, match="neither C- nor Fortran"):
        got = jit(nansum0)(a)
    assert np.array_equal(got, nansum0(a))
