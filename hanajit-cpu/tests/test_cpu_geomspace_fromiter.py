"""``np.geomspace`` (``lib/arrays/log_ranges.py``) and ``np.fromiter`` against
NumPy.

``geomspace`` follows NumPy's steps on ``logspace``: dtype, shape, the ends and
NumPy's ValueError exactly; the values bit for bit wherever NumPy's power is C's
``pow`` (``math.pow``), within 4 ulp where it is not (NumPy's SIMD power loop on
AVX-512 hosts), as for ``np.logspace`` (test_cpu_logspace.py); a NaN where
NumPy's is one (its sign is not specified: docs/semantics.md)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit


def geom(a, b, n):
    return np.geomspace(a, b, n)


def geom_default(a, b):
    return np.geomspace(a, b)


def geom_open(a, b, n):
    return np.geomspace(a, b, num=n, endpoint=False, axis=-1)


def geom_f32(a, b, n, e):
    return np.geomspace(a, b, n, e, np.float32)


JIT = {f: jit(f, fallback=False) for f in (geom, geom_default, geom_open, geom_f32)}


def _reference(a, b, n=50, endpoint=True, dtype=np.float64):
    """NumPy's steps with C's ``pow`` for the power."""
    s, e = np.float64(a), np.float64(b)
    sign = np.sign(s)
    s, e = s / sign, e / sign
    y = np.linspace(np.log10(s), np.log10(e), n, endpoint)
    r = np.array([math.pow(10.0, v) for v in y])
    if n > 0:
        r[0] = s
        if n > 1 and endpoint:
            r[-1] = e
    return (r * sign).astype(dtype)


def check(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = f(*args)
        except ValueError as e:
            with pytest.raises(ValueError) as got:
                JIT[f](*args)
            assert str(got.value) == str(e)
            return
        got = JIT[f](*args)
        extra = (False,) if f is geom_open else (args[3], np.float32) if f is geom_f32 else ()
        ref = _reference(*args[:3], *extra) if len(args) > 2 else _reference(*args)
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
    it = np.int64 if got.dtype == np.float64 else np.int32
    g, w = got.view(it).astype(np.int64), want.view(it).astype(np.int64)
    both_nan = np.isnan(got) & np.isnan(want)
    assert (np.isnan(got) == np.isnan(want)).all(), (args, got, want)
    assert (both_nan | (np.abs(g - w) <= 4)).all(), (args, got, want)
    exact = (want == ref) & ~both_nan
    assert got[exact].tobytes() == want[exact].tobytes(), (args, got, want)
    if want.size:       # the ends are the bounds themselves
        assert got[:1].tobytes() == want[:1].tobytes()


CASES = [(1, 1000, 4), (1.0, 1000.0, 50), (-1.0, -1e5, 7), (2.5, 0.001, 13),
         (-1, 100, 5), (np.float32(3), 7, 11), (1, 2, 0), (1, 2, 1), (np.nan, 3.0, 3),
         (np.inf, 1.0, 4), (1e-300, 1e300, 9), (True, 8, 4), (np.int32(5), np.uint8(2), 6),
         (0, 1, 3), (1, -0.0, 3), (1, 2, -1), (-0.0, 0, -1)]


@pytest.mark.parametrize("args", CASES)
def test_geomspace(args):
    check(geom, *args)
    check(geom_open, *args)
    check(geom_f32, *args, True)
    check(geom_f32, *args, False)


@pytest.mark.parametrize("args", [(1, 1e6), (-2.0, -7.0), (0.5, 0.25)])
def test_geomspace_default(args):
    check(geom_default, *args)


def geom_axis1(a):
    return np.geomspace(1, a, 3, axis=1)


def geom_f32_bounds(a, b):
    return np.geomspace(a, b, 5, dtype=np.float32)


def geom_int(a):
    return np.geomspace(1, a, 5, dtype=np.int64)


def geom_complex(a):
    return np.geomspace(1j, a, 5)


@pytest.mark.parametrize("fn,args", [(geom_axis1, (8.0,)),
                                     (geom_f32_bounds, (np.float32(1), np.float32(9))),
                                     (geom_int, (100.0,)), (geom_complex, (8.0,))])
def test_geomspace_falls_back(fn, args):
    try:
        want = fn(*args)
    except Exception as e:
        want = e
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            got = jit(fn)(*args)
        except Exception as e:
            got = e
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)
    if isinstance(want, Exception):
        assert type(got) is type(want)
    else:
        assert got.tobytes() == want.tobytes() and got.dtype == want.dtype


# -- np.fromiter (frontend/fromiter_calls.py) ------------------------------------

def it_range(n):
    return np.fromiter(range(n), np.float32)


def it_gen_filter(n):
    return np.fromiter((i * 0.5 for i in range(n) if i % 3), np.int64)


def it_gen_count(n, c):
    return np.fromiter((i * i for i in range(n)), np.uint8, c)


def it_lazy(c):
    # NumPy reads count items: the fourth, which divides by zero, is never computed
    return np.fromiter((10 // (3 - i) for i in range(5)), np.int64, count=c)


def it_nested(n, c):
    return np.fromiter((i * 10 + j for i in range(n) for j in range(i)), np.int16, c)


def it_array(a):
    return np.fromiter(a, np.int32, count=3)


def it_array_items(a):
    return np.fromiter((x for x in a), np.uint8)


def it_listcomp(n):
    return np.fromiter([i / 2 for i in range(n)], None)


def it_bool(a):
    return np.fromiter((x > 1 for x in a), bool)


def it_complex(n):
    return np.fromiter((i * 1.5 for i in range(n)), np.complex128)


def it_used(n):
    return np.fromiter(range(n), np.float64).sum() * 2


FROMITER = [
    (it_range, (40,)), (it_range, (0,)), (it_gen_filter, (40,)), (it_gen_count, (10, 5)),
    (it_gen_count, (10, -5)), (it_gen_count, (10, 0)), (it_gen_count, (10, 20)),
    (it_gen_count, (20, -1)), (it_gen_count, (16, -1)), (it_lazy, (3,)), (it_lazy, (-1,)),
    (it_nested, (8, 10)), (it_nested, (8, -1)), (it_nested, (3, 9)),
    (it_array, (np.arange(5.5),)), (it_array, (np.arange(2.0),)),
    (it_array_items, (np.array([1, 300, -1]),)), (it_array_items, (np.array([1.5, 2.0]),)),
    (it_array_items, (np.array([1.5, np.nan]),)), (it_array_items, (np.arange(40)[::-3],)),
    (it_listcomp, (7,)), (it_listcomp, (0,)), (it_bool, (np.arange(4.0),)),
    (it_complex, (5,)), (it_used, (33,)),
]

_FI_JIT = {}


@pytest.mark.parametrize("fn,args", FROMITER)
def test_fromiter(fn, args):
    jf = _FI_JIT.setdefault(fn, jit(fn, fallback=False))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # (NumPy's cast of a NaN)
        try:
            want = fn(*args)
        except Exception as e:
            with pytest.raises(type(e)) as got:
                jf(*args)
            assert str(got.value) == str(e)
            return
        got = jf(*args)
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def it_gen_overflow(n):
    return np.fromiter((i * 100 for i in range(n)), np.uint8)


def test_fromiter_python_int_out_of_range():
    with pytest.raises(OverflowError) as want:
        it_gen_overflow(5)
    with pytest.raises(OverflowError) as got:
        jit(it_gen_overflow, fallback=False)(5)
    assert str(got.value) == str(want.value)


def it_no_dtype(n):
    return np.fromiter(range(n))


def it_2d(a):
    return np.fromiter(a, np.float64)


def it_listcomp_count(n):
    return np.fromiter([i for i in range(n)], np.int64, 2)


@pytest.mark.parametrize("fn,args", [(it_no_dtype, (3,)), (it_2d, (np.ones((2, 2)),)),
                                     (it_listcomp_count, (4,))])
def test_fromiter_falls_back(fn, args):
    try:
        want = fn(*args)
    except Exception as e:
        want = e
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            got = jit(fn)(*args)
        except Exception as e:
            got = e
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)
    if isinstance(want, Exception):
        assert type(got) is type(want) and str(got) == str(want)
    else:
        assert got.tobytes() == want.tobytes() and got.dtype == want.dtype
