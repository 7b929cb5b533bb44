"""np.dstack, np.block (list displays, one or two levels) and np.choose against
NumPy: values bit for bit, dtypes, shapes, NumPy's ValueError; np.block of a
tuple falls back to NumPy's TypeError."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import strict as jitted


def dstack2(a, b):
    return np.dstack((a, b))


def dstack_list(a, b):
    return np.dstack([a, b, a])


def block1(a, b):
    return np.block([a, b])


def block2(a, b):
    return np.block([[a, b], [b, a]])


def block_rows(a, b):
    return np.block([[a], [b]])


def block_tuple(a, b):
    return np.block((a, b))


def choose2(i, a, b):
    return np.choose(i, (a, b))


def choose3(i, a, b):
    return np.choose(i, [a, b, a])


def check(fn, *args):
    try:
        want = fn(*args)
    except Exception as exc:
        with pytest.raises(type(exc)):
            jitted(fn)(*args)
        return
    got = jitted(fn)(*args)
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


M = np.arange(6.0).reshape(2, 3)
PAIRS = [(M, M[::-1]), (M.astype(np.int32), M.T.copy().T), (M > 2, M.astype(np.uint8)),
         (np.array([np.nan, -0.0, np.inf]), np.arange(3, dtype=np.int64)),
         (M.astype(np.complex64), M.astype(np.float32)), (M, np.ones((2, 2))),
         (np.zeros((0, 3)), np.zeros((0, 3), np.float32)), (M, np.ones(3))]


@pytest.mark.parametrize("a, b", PAIRS)
def test_dstack_block(a, b):
    check(dstack2, a, b)
    check(dstack_list, a, b)
    check(block1, a, b)
    check(block2, a, b)
    check(block_rows, a, b)


def test_block_tuple_falls_back():
    with pytest.raises(TypeError):
        block_tuple(M, M)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(TypeError):
            jit(block_tuple)(M, M)


# (each dtype and layout compiles anew: a few kinds)
I2 = [np.array([[0, 1, 0], [1, 1, 0]]), np.array([1, 0, 1], np.int8),
      np.array([[0], [1]]), np.array([0, 2, 1], np.int8), np.array([[-1, 0, 0]]),
      np.zeros((0, 3), np.int64)]


@pytest.mark.parametrize("a, b", [PAIRS[0], PAIRS[2], PAIRS[4]])
def test_choose(a, b):
    for i in I2:
        check(choose2, i, a, b)
        check(choose3, i, a, b)
