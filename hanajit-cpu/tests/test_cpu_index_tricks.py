"""``np.ix_``, ``np.r_[...]``, ``np.c_[...]``, ``np.mgrid[...]`` and
``np.ogrid[...]`` compiled: NumPy's values, dtypes, shapes and errors."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted_for


def _same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _same(g, w)
        return
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    assert got.tobytes() == want.tobytes(), (got, want)


def _check(f, *args):
    try:
        want = f(*args)
    except Exception as e:          # noqa: BLE001
        with pytest.raises(type(e)):
            jitted_for(f, args, fallback=False)(*args)
        return
    _same(jitted_for(f, args, fallback=False)(*args), want)


def _ix2(r, c):
    return np.ix_(r, c)


def _ix3(a, b, c):
    return np.ix_(a, b, c)


def _ix1(a):
    return np.ix_(a)


def _ix_take(a, r, c):
    return a[np.ix_(r, c)]


def _ix_lists():
    return np.ix_([0, 2], [True, False, True, True], (1, 0))


def _ix_write(a, r, c):
    a[np.ix_(r, c)] = 7.0
    return a


def test_ix():
    _check(_ix2, np.array([0, 1]), np.array([1, 2]))
    _check(_ix2, np.array([0.5, 1.0]), np.array([True, False, True]))
    _check(_ix2, np.arange(6)[::-2], np.array([], np.int32))
    _check(_ix2, np.array([2, 0], np.uint8), np.array([False, False]))
    _check(_ix3, np.arange(2), np.arange(3, dtype=np.int32), np.array([True, True, False, True]))
    _check(_ix1, np.array([3, 1]))
    _check(_ix_lists)
    a = np.arange(20.0).reshape(4, 5)
    _check(_ix_take, a, np.array([0, 3, 3]), np.array([True, False, True, True, False]))
    _check(_ix_take, np.asfortranarray(a), np.array([-1, 0]), np.array([4, 0, 2]))
    _check(_ix_take, a, np.array([0, 4]), np.array([0]))                  # IndexError
    _check(_ix_write, a.copy(), np.array([0, 3]), np.array([1, 2]))
    r = np.arange(3)
    got = jitted_for(_ix2, (r, r), fallback=False)(r, r)
    assert np.shares_memory(got[0], r)                    # views, as NumPy's reshape


def test_ix_not_1d_falls_back():
    a = np.zeros((2, 2), np.int64)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="Cross index must be 1 dimensional"):
            jit(_ix2)(a, np.arange(2))
    assert any("1 dimensional" in str(x.message) for x in w)
