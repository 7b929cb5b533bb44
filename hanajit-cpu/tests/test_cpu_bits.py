"""np.bitwise_count, np.packbits and np.unpackbits against NumPy: values, dtypes
(uint8), both bit orders, empty arrays, layouts; NumPy's TypeError for floats."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import strict as jitted


def count(a):
    return np.bitwise_count(a)


def count_item(a):
    return np.bitwise_count(a[0])


def pack(a):
    return np.packbits(a)


def pack_little(a):
    return np.packbits(a, bitorder="little")


def unpack(a):
    return np.unpackbits(a)


def unpack_little(a):
    return np.unpackbits(a, axis=None, bitorder="little")


def check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:
        with pytest.raises(type(exc)):
            jitted(fn)(*args)
        return
    got = jitted(fn)(*args)
    assert type(got) is type(want)
    assert np.asarray(got).dtype == np.asarray(want).dtype
    assert np.asarray(got).shape == np.asarray(want).shape
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


INTS = [np.array([-128, 127, -1, 0, 85], np.int8), np.array([-2 ** 63, 2 ** 63 - 1, -1, 5]),
        np.array([2 ** 64 - 1, 3, 0], np.uint64), np.array([True, False]),
        np.arange(-6, 6, dtype=np.int32).reshape(3, 4).T, np.array([255, 1], np.uint8)[::-1],
        np.zeros(0, np.int16)]


@pytest.mark.parametrize("a", INTS)
def test_bitwise_count(a):
    check(count, a)
    if a.size and a.ndim == 1:
        check(count_item, a)


def test_bitwise_count_float_raises():
    with pytest.raises(TypeError):
        count(np.array([1.0]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")        # (falls back: NumPy's TypeError)
        with pytest.raises(TypeError):
            jit(count)(np.array([1.0]))


BITS = [np.array([[1, 0, 1], [1, 1, 1], [0, 0, 1]], np.uint8), np.array([True, False] * 9),
        np.array([0, 2, -3, 0, 0, 0, 0, 0, 7], np.int64), np.zeros(0, np.int32),
        np.arange(20, dtype=np.uint8).reshape(4, 5).T[::-1]]


@pytest.mark.parametrize("a", BITS)
def test_packbits(a):
    check(pack, a)
    check(pack_little, a)


@pytest.mark.parametrize("a", [np.array([[2, 255], [7, 128]], np.uint8),
                               np.array([1, 170, 85], np.uint8)[::-1], np.zeros(0, np.uint8)])
def test_unpackbits(a):
    check(unpack, a)
    check(unpack_little, a)
    check(unpack, np.packbits(np.unpackbits(a)))
