"""``np.where(c, x, y)`` of three numbers: NumPy returns a 0-d array.

Compiled code holds that value as a number of the same dtype; the two agree
wherever only the value is read (arithmetic, comparisons, truth tests,
``float()``, ``math``, ufuncs, a store into an array element, locals read only
so).  Where the 0-d array itself would show -- returned, put in a tuple or list,
handed to ``max`` -- the function falls back naming the call (it had returned a
NumPy scalar where NumPy returns ``array(0.)``).
"""
import math
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError


def same(r, e):
    if isinstance(e, tuple):
        assert type(r) is tuple and len(r) == len(e)
        for u, v in zip(r, e):
            same(u, v)
        return
    assert type(r) is type(e), (r, e)
    if isinstance(e, np.ndarray):
        assert r.dtype == e.dtype and r.shape == e.shape
    assert np.asarray(r).tobytes() == np.asarray(e).tobytes(), (r, e)


def returned(x):
    return np.where(x > 0, x, 0.0)


def returned_local(x):
    v = np.where(x > 0, x, -x)
    return v


def in_tuple(x):
    return x, np.where(x > 0, 1, 2)


def into_max(x):
    return max(np.where(x > 0, 1.0, 2.0), 0.5)


def listed(a):
    return [np.where(v > 0, v, 0.0) for v in a]


def changed_in_place(x):
    v = np.where(x > 0, x, 0.0)
    v += 1.0
    return 1.0


@pytest.mark.parametrize("fn, args", [
    (returned, (-2.0,)), (returned, (3,)), (returned, (np.float32(2),)),
    (returned_local, (-2.5,)), (in_tuple, (1.5,)), (into_max, (1.0,)),
    (listed, (np.array([1.0, -2.0]),)), (changed_in_place, (1.0,))])
def test_the_array_itself_falls_back(fn, args):
    with pytest.raises(UnsupportedError, match=r"np\.where\(\) of numbers: NumPy returns "
                       "a 0-d array"):
        jit(fn, fallback=False)(*args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = jit(fn)(*args)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)
    want = fn(*args)
    if isinstance(want, list):
        assert [type(v) for v in got] == [type(v) for v in want]
    else:
        same(got, want)


def stored(a):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = np.where(a[i] > 0, a[i], 0.0)
    return out


def floated(a):
    s = 0.0
    for v in a:
        s = s + float(np.where(v > 0, v, 0.0))
    return s


def through_math(a):
    t = 0.0
    for i in range(a.shape[0]):
        y = np.where(a[i] > 0, a[i], 0.0) * 2
        t += math.sqrt(abs(y))
    return t


def accumulated(a):
    t = 0.0
    for v in a:
        t += np.where(v > 0, v, -v)
    return t


def plus_scalar(c, y):
    return np.where(c, 1.0, 2.0) + y


def times_int8(c, y):
    v = np.where(c, 1, 2)
    return v * y


def compared(c, y):
    v = np.where(c, 1.5, 2)
    w = v
    return w > y, np.sqrt(np.where(c, 4.0, 9.0))


def as_truth(x):
    if np.where(x > 0, x, 0):
        return 1
    return 2


A = np.array([1.0, -2.0, 3.0, -0.0, np.nan])


@pytest.mark.parametrize("fn, args", [
    (stored, (A,)), (stored, (A.astype(np.float32),)), (stored, (np.array([3, -1, 0]),)),
    (floated, (A,)), (through_math, (A[:4],)), (accumulated, (A,)),
    (accumulated, (A.astype(np.float32),)),
    (plus_scalar, (True, np.float32(1))), (plus_scalar, (False, 2)),
    (times_int8, (False, np.int8(3))), (times_int8, (True, np.uint8(200))),
    (compared, (True, 1)), (compared, (False, np.float32(2.5))),
    (as_truth, (0.0,)), (as_truth, (-1,)), (as_truth, (2.5,))])
def test_values_read_compile(fn, args):
    same(jit(fn, fallback=False)(*args), fn(*args))
