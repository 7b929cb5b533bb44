"""Result types: a compiled function returns what the interpreter returns, NumPy
scalars included (``infer/numpy_results.py``, ``nativescalar.py``, ``cwrapper.py``).

``type(compiled(*args)) is type(py(*args))`` and the values are equal (bit for
bit for floats), over small functions and every argument dtype, with
``HANAJIT_NATIVE_DISPATCH`` on and off.
"""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.dispatch_modes import jitted, mode  # noqa: F401


def add1(x):
    return x + 1


def mul(x, y):
    return x * y


def half(x):
    return x / 2


def neg(x):
    return -x


def absolute(x):
    return abs(x)


def positive(x):
    return x > 0


def root(x):
    return math.sqrt(x)


def add15(x):
    return x + 1.5


def weak_float(x):
    return 2.5 * x - 1


def to_float(x):
    return float(x) + 1


def pair(x, y):
    return x + y, x - 1, not x


def branch(x):
    if x > 1:
        return x * 2
    return x - 3


def elementwise(a, i):
    return a[i] * 2, a[i] + 0.5, a[i] == a[0]


def ufunc(x):
    return np.sqrt(x), np.float32(x) * 2.0


ONE = [add1, half, neg, absolute, positive, root, add15, weak_float, to_float, branch,
       ufunc]
VALUES = [1.5, 3, True, 2 + 1j, np.float64(2.5), np.float32(-1.25), np.int64(7),
          np.int32(-4), np.int16(300), np.int8(-7), np.uint8(250), np.uint16(9),
          np.uint32(70000), np.uint64(2 ** 63 + 3), np.bool_(True),
          np.complex64(1 - 2j), np.complex128(0.5 + 1j)]


def outcome(f, *args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            warnings.simplefilter("ignore", HanaJitFallbackWarning)
            return "ok", f(*args)
    except Exception as exc:       # noqa: BLE001 - compare exception types
        return "raise", type(exc)


def same(got, want):
    if type(got) is not type(want):
        return False
    if isinstance(want, tuple):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, (float, complex, np.inexact)):
        return np.asarray(got).tobytes() == np.asarray(want).tobytes()
    return got == want


def check(fn, *args):
    want = outcome(fn, *args)
    jf = jitted(fn)
    for _ in range(3):          # compile; generate the native dispatcher; use it
        got = outcome(jf, *args)
    assert got[0] == want[0], (fn.__name__, args, got, want)
    if want[0] == "raise":
        assert got[1] is want[1], (fn.__name__, args, got, want)
    else:
        assert same(got[1], want[1]), (fn.__name__, args, got, want)


@pytest.mark.parametrize("fn", ONE, ids=lambda f: f.__name__)
def test_one_argument(mode, fn):  # noqa: F811
    for x in VALUES:
        check(fn, x)


@pytest.mark.parametrize("fn", [mul, pair], ids=lambda f: f.__name__)
def test_two_arguments(mode, fn):  # noqa: F811
    vals = [2.5, 3, np.float64(1.5), np.float32(0.1), np.int32(-3), np.uint8(200),
            np.bool_(False)]
    for x in vals:
        for y in vals:
            check(fn, x, y)


def equal(x, y):
    return x == y


def differ(x, y):
    return x != y


def test_comparisons_of_a_python_complex(mode):  # noqa: F811
    # complex.__eq__ takes an np.float64 (a float subclass) first: a Python bool;
    # the other orders and types reach NumPy's: np.bool
    vals = [1j, np.float64(0.5), np.float32(0.5), np.int64(2), np.complex128(0.5), 0.5]
    for fn in (equal, differ):
        for x in vals:
            for y in vals:
                check(fn, x, y)


def test_array_elements(mode):  # noqa: F811
    for dt in (np.float64, np.float32, np.int64, np.int8, np.uint16, np.bool_,
               np.complex64):
        a = np.arange(1, 4).astype(dt)
        check(elementwise, a, 1)


def test_python_results_stay_python(mode):  # noqa: F811
    # Python numbers in, Python numbers out: nothing changes for them
    for fn, args in [(add1, (1.5,)), (add1, (2,)), (positive, (1,)), (mul, (2, 0.5)),
                     (pair, (1.0, 2)), (root, (2.0,))]:
        got = jitted(fn)(*args)
        assert type(got) is type(fn(*args))


def zd_add(a):
    return a + 1


def zd_local(a, b):
    c = a * b
    c += 1
    return c, a > b


def zd_ufunc(a):
    return np.sqrt(a), np.add(a, 2), -a


def zd_kept(a):
    return a.copy(), a[()], a.sum()


def zd_out(a):
    return np.multiply(a, a, out=a)


def test_zero_d_array_arithmetic_gives_numpy_scalars(mode):  # noqa: F811
    # np.array(3.5) + 1 is np.float64(4.5); copies and out= stay arrays
    for dt in (np.float64, np.float32, np.int32, np.uint8, np.bool_, np.complex128):
        a, b = np.array(3, dt), np.array(2, dt)
        check(zd_add, a)
        if dt is not np.bool_:      # (c += 1 writes into a bool 0-d array: docs)
            check(zd_local, a, b)
        check(zd_ufunc, a)
        for fn in (zd_kept, zd_out):
            got, want = jitted(fn)(a.copy()), fn(a.copy())
            got, want = (got, want) if type(want) is tuple else ((got,), (want,))
            assert [type(v) for v in got] == [type(v) for v in want]
            assert all(np.array_equal(g, w) for g, w in zip(got, want))


def zd_ellipsis(a):
    return a[...], a[...] * 2


def zd_ellipsis_write(a):
    b = a[...]
    b[...] = 5
    return a


def item_ellipsis(v):
    return v[1, ...], v[..., 0], v[1, ...] + 1


def item_ellipsis_write(v):
    v[1, ...] = 7
    return v


def view_attributes(v):
    return v[1:].ndim, v[::2].size, v.T.ndim, v[1, ...].ndim, v[...].shape


def test_an_index_with_an_ellipsis_is_a_view(mode):  # noqa: F811
    """``a[...]`` of a 0-d array and ``v[1, ...]`` of a 1-D one are 0-d arrays
    (views), not the element; an array's ``ndim``/``size`` are Python ints."""
    for dt in (np.float64, np.int8, np.bool_, np.complex64):
        for fn, a in ((zd_ellipsis, np.array(3, dt)), (item_ellipsis, np.arange(3).astype(dt)),
                      (view_attributes, np.arange(4).astype(dt))):
            got, want = jitted(fn)(a.copy()), fn(a.copy())
            assert [type(v) for v in got] == [type(v) for v in want], fn.__name__
            assert all(np.array_equal(g, w) for g, w in zip(got, want))
        for fn, a in ((zd_ellipsis_write, np.array(3, dt)),
                      (item_ellipsis_write, np.arange(3).astype(dt))):
            got, want = a.copy(), a.copy()
            assert jitted(fn)(got) is got and fn(want) is want
            assert np.array_equal(got, want) and got.dtype == want.dtype


def cached_pair(x):
    return x * 2, x > 0


def test_numpy_results_survive_the_disk_cache(tmp_path, monkeypatch):
    from hanajit import cache, jit
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path))
    x = np.float32(1.5)
    first = jit(cached_pair, cache=True)(x)
    hits = cache.stats["hits"]
    again = jit(cached_pair, cache=True)         # a new function: loads the entry
    for _ in range(3):
        got = again(x)
    assert cache.stats["hits"] > hits
    assert same(got, cached_pair(x)) and same(first, cached_pair(x))


def unpacked(a):
    x, y = a
    return x


def contained(x):
    return x in (1, 2), x not in (3.0,)


def chained(x):
    return 0 < x < 3.0


def vdot(a, b):
    return a @ b


def legacy_draws(x):
    np.random.seed(3)
    return (np.random.random(), np.random.randint(5), np.random.normal(),
            np.float32(x) * np.random.random(), np.random.choice(np.arange(4)))


def generator_draws(rng):
    return (rng.integers(5), rng.integers(0, 10), rng.random(), rng.normal(),
            rng.choice(np.arange(3)), rng.choice(4))


def test_which_results_are_numpy_scalars(mode):  # noqa: F811
    """An array's items unpacked are NumPy scalars; ``in`` gives a Python bool,
    a chain of NumPy comparisons a NumPy one; ``v @ w`` of 1-D arrays a NumPy
    scalar; NumPy's random draws are Python numbers (and weak in arithmetic:
    ``np.float32(x) * np.random.random()`` is float32) except
    ``Generator.integers`` and ``choice`` of an array."""
    for a in (np.array([1.0, 2.0]), np.array([1, 2]), np.array([True, False]),
              np.array([1, 2], np.int32)):
        check(unpacked, a)
    for x in (np.float64(1.0), np.int64(3), 1.0, np.float32(2.0)):
        check(contained, x)
        check(chained, x)
    check(vdot, np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    check(vdot, np.array([1, 2]), np.array([3, 4]))
    check(legacy_draws, 0.5)
    want = generator_draws(np.random.default_rng(1))
    assert same(jitted(generator_draws)(np.random.default_rng(1)), want)


def product_or_zero(y):
    if y.shape[0] < 2:
        return 0.0
    return y[0] * y[1]


def product_or_int_zero(y):
    if y.shape[0] < 2:
        return 0
    return y[0] * y[1]


def test_a_numpy_scalar_returned_under_a_wider_result_keeps_its_type(mode):  # noqa: F811
    """``return 0.0`` on one path and a float32 product on another: the result
    type is float64, but the interpreter returns the np.float32 (and the int8
    under an int64 result) -- boxed as its own type, the value exact."""
    for a in (np.array([1.1, 1.3], np.float32), np.array([1.1], np.float32),
              np.array([1.1, 1.3])):
        check(product_or_zero, a)
    for a in (np.array([100, 3], np.int8), np.array([7], np.int8),
              np.array([9, 9], np.uint16)):
        with np.errstate(over="ignore"):
            check(product_or_int_zero, a)
