"""np.iinfo / np.finfo attributes and a.dtype.itemsize as compile-time constants,
against NumPy: values and their Python or NumPy types; what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import strict as jitted


def int_limits(a):
    return np.iinfo(np.int32).max, np.iinfo(np.int8).min, np.iinfo(np.uint16).bits


def int_of_array(a):
    return np.iinfo(a.dtype).max, np.iinfo(a.dtype).min


def float_limits(a):
    return (np.finfo(a.dtype).eps, np.finfo(a.dtype).max, np.finfo(a.dtype).min,
            np.finfo(a.dtype).tiny, np.finfo(a.dtype).smallest_normal,
            np.finfo(a.dtype).resolution, np.finfo(a.dtype).epsneg, np.finfo(a.dtype).bits)


def held_in_name(a):
    f = np.finfo(a.dtype)
    return f.eps


def float_types(a):
    return (np.finfo(np.float32).eps, np.finfo(float).tiny,
            np.finfo(np.complex64).max, np.finfo(np.float64).bits)


def scaled(a):
    return a + np.finfo(a.dtype).eps * 4


def itemsize(a):
    return a.dtype.itemsize


def uint64_max(a):
    return np.iinfo(np.uint64).max


def same(got, want):
    assert type(got) is type(want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    elif isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    else:
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


@pytest.mark.parametrize("dt", [np.int8, np.int64, np.uint8, np.uint32])
def test_iinfo(dt):
    a = np.zeros(2, dt)
    same(jitted(int_limits)(a), int_limits(a))
    same(jitted(int_of_array)(a), int_of_array(a))
    same(jitted(itemsize)(a), itemsize(a))


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.complex64, np.complex128])
def test_finfo(dt):
    a = np.array([1.0, -2.5], dt)
    same(jitted(float_limits)(a), float_limits(a))
    same(jitted(float_types)(a), float_types(a))
    same(jitted(scaled)(a), scaled(a))
    same(jitted(itemsize)(a), itemsize(a))


def test_falls_back():
    a = np.zeros(2)
    with pytest.raises(Exception):
        jit(uint64_max, fallback=False)(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert jit(uint64_max)(a) == 2 ** 64 - 1
        assert jit(held_in_name)(a) == np.finfo(np.float64).eps
        with pytest.raises(ValueError):
            jit(int_of_array)(np.zeros(2))    # NumPy's ValueError for a float dtype
