"""np.broadcast_to, np.take_along_axis and np.put_along_axis against NumPy:
values bit for bit, dtypes, shapes, the view's strides and read-only flag, and
NumPy's ValueError / IndexError."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import strict as jitted


def bcast(a, shape):
    return np.broadcast_to(a, shape)


def bcast_int(a, n):
    return np.broadcast_to(a, n)


def bcast_write(a):
    b = np.broadcast_to(a, (2, a.shape[0], a.shape[1]))
    b[0] = 1
    return b


def bcast_sum(a):
    return np.broadcast_to(a, (3, a.shape[0], a.shape[1])).sum(axis=0)


def take1(a, i):
    return np.take_along_axis(a, i, 1)


def take0(a, i):
    return np.take_along_axis(a, i, axis=0)


def take_last(a, i):
    return np.take_along_axis(a, i)


def take_sorted(a):
    return np.take_along_axis(a, np.argsort(a, axis=-1), axis=-1)


def put1(a, i, v):
    b = a.copy()
    np.put_along_axis(b, i, v, 1)
    return b


def put0(a, i, v):
    b = a.copy()
    np.put_along_axis(b, i, v, axis=0)
    return b


def put_reversed(a, i):
    b = a.copy()
    np.put_along_axis(b, i, b[:, ::-1], 1)
    return b


def check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:
        with pytest.raises(type(exc)):
            jitted(fn)(*args)
        return None
    got = jitted(fn)(*args)
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()
    return got, want


BASE = np.arange(12.0).reshape(3, 4)
ARRAYS = [BASE, BASE.astype(np.int32), (BASE > 4), BASE.astype(np.uint8).T,
          (BASE + 1j * BASE).astype(np.complex64)[::-1], BASE[:, ::-2].copy(order="F"),
          np.array([[np.nan, -0.0, np.inf, 1.0]])]


@pytest.mark.parametrize("a", ARRAYS)
def test_broadcast_to(a):
    for shape in [a.shape, (2,) + a.shape, (2, 1) + a.shape, (0,) + a.shape]:
        got, want = check(bcast, a, shape)
        assert not got.flags.writeable
        if got.size:        # (an empty view's strides are hanajit's own)
            assert got.strides == want.strides and np.shares_memory(got, a)
    row = a[:1]
    got, want = check(bcast, row, (5, a.shape[1]))
    assert got.strides == want.strides
    check(bcast, row, (3, 0))
    check(bcast, a, (2, 5))
    check(bcast, a, (-1,) + a.shape)
    check(bcast_int, a[0], a.shape[1])
    check(bcast_int, a[0], 7)
    check(bcast_sum, a)
    with pytest.raises(ValueError):
        bcast_write(a)
    with pytest.raises(ValueError):
        jitted(bcast_write)(a)


IDX1 = [np.array([[3, 0], [1, -1], [2, 2]]), np.array([[0], [1], [-4]], np.int8),
        np.zeros((3, 0), np.int64), np.array([[1, 2, 3, 0, 0]]),
        np.array([[4], [0], [0]]), np.array([[0], [-5], [0]]), np.zeros((2, 2), np.int64)]
# (each dtype and layout compiles anew: a few kinds, one each)
SOME = [BASE, BASE.astype(np.int32).T.copy(order="F").T, ARRAYS[4], ARRAYS[2]]


@pytest.mark.parametrize("a", SOME)
def test_take_along_axis(a):
    for i in IDX1:
        check(take1, a, i)
        check(take_last, a, i)
        check(take0, a, i.T)
    check(take1, a[:, :1], np.array([[0, 0, 0]]))      # arr broadcast along axis 0
    if not a.dtype.kind == "c":
        check(take_sorted, a)


@pytest.mark.parametrize("a", SOME[:3])
def test_put_along_axis(a):
    for i in IDX1:
        check(put1, a, i, 7)
        check(put0, a, i.T, 7)
        check(put1, a, i, np.arange(i.shape[1], dtype=np.int8))
    check(put1, a, np.array([[0, 0], [1, 1], [3, 2]]), np.array([[5], [6], [7]], a.dtype))
    check(put1, a, np.array([[0], [1], [2]]), np.array([1.0, 2.0]))   # ValueError
    check(put_reversed, a, np.tile(np.arange(4), (a.shape[0], 1)) if a.shape[1] == 4
          else np.zeros((a.shape[0], 1), np.int64))


def test_put_float_into_int():
    check(put1, np.zeros((2, 3), np.int16), np.array([[1], [2]]), np.array([[1.9], [-2.7]]))
