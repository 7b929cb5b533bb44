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


def _r_range():
    return np.r_[0:5], np.r_[0:1:0.25], np.r_[5:0:-2], np.r_[0:1:5j], np.r_[-1:1:1j]


def _r_mixed(a, b):
    return np.r_[a, 0:3, 7, b, -1:1:3j]


def _r_arrays(a, b):
    return np.r_[a, b]


def _r_scalar(a):
    return np.r_[a, 7]


def _r_bool(a):
    return np.r_[a, 1]


def _r_weak_float(a):
    return np.r_[a, 2.5]


def _c_cols(a, b):
    return np.c_[a, b]


def _c_mixed(a):
    return np.c_[a, 0:3, 1.5:4.5]


def _c_rows(a):
    return np.c_[a, 0, 0, a]


def _mgrid1(n):
    return np.mgrid[0:n], np.mgrid[0:1:5j], np.mgrid[1:2:1j], np.mgrid[0:1:0.25], np.mgrid[5:0:-1]


def _mgrid2(n, m):
    return np.mgrid[0:n, 0:m:2]


def _mgrid_float(n):
    return np.mgrid[0:1:3j, -1:n:0.5], np.mgrid[0:n,], np.mgrid[0:2:1j, 0:2]


def _ogrid(n, m):
    return np.ogrid[0:n, 0:m:2], np.ogrid[0:1:4j, 0.5:n], np.ogrid[0:n]


def _mgrid_zero_step(n):
    return np.mgrid[0:n:0, 0:2]


def test_r():
    _check(_r_range)
    for dt in (np.int64, np.int8, np.float32, np.complex128):
        _check(_r_mixed, np.arange(3).astype(dt), np.array([5, 6]).astype(dt))
        _check(_r_scalar, np.arange(3).astype(dt))
    _check(_r_bool, np.array([True, False]))
    _check(_r_weak_float, np.ones(2, np.float32))
    _check(_r_arrays, np.arange(6.0).reshape(3, 2), np.ones((1, 2)))
    _check(_r_arrays, np.arange(6.0).reshape(3, 2)[::-1], np.ones((2, 2), np.float32))
    _check(_r_arrays, np.arange(6.0).reshape(3, 2), np.ones((1, 3)))        # ValueError
    _check(_r_arrays, np.array([], np.int32), np.arange(2, dtype=np.uint8))


def test_c():
    _check(_c_cols, np.arange(3), np.arange(3.0))
    _check(_c_cols, np.arange(6.0).reshape(3, 2), np.arange(3, dtype=np.int8))
    _check(_c_cols, np.arange(3), np.arange(4))                               # ValueError
    _check(_c_mixed, np.arange(3, dtype=np.int32))
    _check(_c_rows, np.array([[1, 2, 3]], np.int16))


def test_mgrid_ogrid():
    _check(_mgrid1, 4)
    _check(_mgrid1, 0)
    _check(_mgrid2, 3, 5)
    _check(_mgrid2, -2, 5)                      # ValueError: negative dimensions
    _check(_mgrid_float, 2)
    _check(_ogrid, 3, 5)
    _check(_ogrid, -2, 5)                       # (an open grid of an empty range)
    _check(_mgrid_zero_step, 3)                 # ZeroDivisionError


def _r_directive(a):
    return np.r_["0,2", a, a]


def _r_number(x, a):
    return np.r_[x, a]


def _reason(f, *args):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        _same(jit(f)(*args), f(*args))
    return " ".join(str(x.message) for x in w)


def test_fallbacks():
    assert "string directives" in _reason(_r_directive, np.arange(3))
    assert "OverflowError" in _reason(_r_number, 5, np.ones(2, np.int8))


def test_python_or_numpy_number():
    # a Python float is weak (float32), np.float64 is not (float64), as in NumPy
    _check(_r_number, 2.5, np.ones(2, np.float32))
    _check(_r_number, np.float64(2.5), np.ones(2, np.float32))
    _check(_r_number, np.float32(2.5), np.ones(2, np.int16))
    _check(_r_number, 7, np.ones(2, np.int64))
    _check(_r_number, np.int16(7), np.ones(2, np.int8))
