"""A dtype given by position (``np.array([n, 2], np.float32)``, ``np.arange(0, n,
1, np.int8)``, ``np.zeros(n, np.int32)``) compiles and gives NumPy's array;
calls NumPy rejects (a dtype by position and by keyword, too many arguments) run
in the interpreter and raise NumPy's error."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning


def array_f32(n):
    return np.array([n, 2], np.float32)


def array_i16_rows(n):
    return np.array([[n, 2.5], [1, 2]], np.int16)


def array_i8_overflow(n):
    return np.array([n, 300], np.int8)


def asarray_i64(a):
    return np.asarray(a, np.int64)


def array_of_array(a):
    return np.array(a, np.float32)


def arange_i8(n):
    return np.arange(0, n, 1, np.int8)


def arange_f32(n):
    return np.arange(1.5, n, 0.5, np.float32)


def arange_u8_negative_step(n):
    return np.arange(n, 0, -2, np.uint8)


def zeros_i32(n):
    return np.zeros(n, np.int32)


def full_u16(n):
    return np.full(n, 7, np.uint16)


def ones_like_f32(a):
    return np.ones_like(a, np.float32)


COMPILED = [(array_f32, 3), (array_f32, -1.5), (array_i16_rows, 3), (array_i8_overflow, 1),
            (asarray_i64, "floats"), (array_of_array, "floats"), (arange_i8, 5),
            (arange_i8, 200), (arange_f32, 4), (arange_u8_negative_step, 9),
            (zeros_i32, 3), (full_u16, 2), (ones_like_f32, "floats")]


def _arg(a):
    return np.array([1.5, -2.25, 3.0]) if isinstance(a, str) else a


def _outcome(fn, *args):
    try:
        r = fn(*args)
    except Exception as exc:                # noqa: BLE001 - compared below
        return type(exc), str(exc)
    return type(r), getattr(r, "dtype", None), np.asarray(r).tolist()


@pytest.mark.parametrize("fn, arg", COMPILED, ids=lambda v: getattr(v, "__name__", str(v)))
def test_compiles_and_matches_numpy(fn, arg):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = _outcome(jit(fn), _arg(arg))
    assert got == _outcome(fn, _arg(arg))


def dtype_twice(n):
    return np.array([n, 2], np.float32, dtype=np.int8)


def arange_dtype_twice(n):
    return np.arange(0, n, 1, np.int8, dtype=np.int16)


def zeros_too_many(n):
    return np.zeros(n, np.int32, "C", 1)


@pytest.mark.parametrize("fn", [dtype_twice, arange_dtype_twice, zeros_too_many])
def test_calls_numpy_rejects_fall_back_and_raise_its_error(fn):
    want = _outcome(fn, 3)
    assert want[0] is TypeError
    with pytest.warns(HanaJitFallbackWarning):
        got = _outcome(jit(fn), 3)
    assert got == want
