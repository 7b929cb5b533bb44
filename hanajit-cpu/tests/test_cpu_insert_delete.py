"""``np.append``, ``np.delete``, ``np.insert`` (``lib/arrays/insert_delete.py``)
against NumPy: values (bytes), dtype, shape and the same exceptions, over dtypes,
layouts, axes, every compiled form of ``obj`` and empty arrays."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit


def ap(a, b):
    return np.append(a, b)


def ap0(a, b):
    return np.append(a, b, axis=0)


def ap1(a, b):
    return np.append(a, b, axis=-1)


def de(a, o):
    return np.delete(a, o)


def de0(a, o):
    return np.delete(a, o, axis=0)


def de1(a, o):
    return np.delete(a, o, axis=1)


def de_list(a):
    return np.delete(a, [0, 2], axis=0)


def ins(a, o, v):
    return np.insert(a, o, v)


def ins0(a, o, v):
    return np.insert(a, o, v, axis=0)


def ins1(a, o, v):
    return np.insert(a, o, v, axis=1)


def ins_list(a, v):
    return np.insert(a, [1], v, axis=1)


JITTED = {}


def run(f, *args):
    try:
        want = ("ok", f(*args))
    except Exception as exc:        # noqa: BLE001 - compared by class and text
        want = ("raise", type(exc), str(exc))
    g = JITTED.setdefault(f, jit(f, fallback=False))
    if want[0] == "raise":
        with pytest.raises(want[1]) as info:
            g(*args)
        assert str(info.value) == want[2]
        return
    got = g(*args)
    w = want[1]
    assert type(got) is type(w) and got.dtype == w.dtype and got.shape == w.shape, (got, w)
    assert got.tobytes() == w.tobytes(), (got, w)


DTYPES = [np.uint8, np.float64, np.complex128]   # (each dtype compiles every kernel anew)


def layouts(a):
    """C order for every dtype; Fortran order and a reversed view for float64 (each
    layout is a compiled variant of its own)."""
    yield a
    if a.dtype == np.float64:
        yield np.asfortranarray(a)
        yield a[::-1]


@pytest.mark.parametrize("dt", DTYPES)
def test_append(dt):
    a = (np.arange(12) - 3).astype(dt).reshape(3, 4)
    for x in layouts(a):
        run(ap, x, a[0])
        run(ap, x, 5)
        run(ap, x, np.float32(2.5))
        run(ap0, x, x[:1])
        run(ap1, x, x[:, :2])
        run(ap0, x, np.zeros((0, 4), np.int8))
    run(ap0, a, np.zeros((2, 3), dt))             # NumPy's ValueError
    run(ap, np.zeros(0, dt), np.array([np.nan, -0.0]))


@pytest.mark.parametrize("dt", DTYPES)
def test_delete(dt):
    a = (np.arange(12) - 3).astype(dt).reshape(3, 4)
    for x in layouts(a):
        for o in (0, 1, -1, -12, 11, 12, -13):
            run(de, x, o)
        for o in (0, 2, -3, 3, -4):
            run(de0, x, o)
        for o in ([1, 3], [0], [5], [-1, -1, 0], [], [4], [1, 7]):
            run(de1, x, np.array(o, np.int64))
        run(de1, x, np.array([[1, 3]], np.int32))
        run(de1, x, np.array([True, False, False, True]))
        run(de1, x, np.array([True, False]))
        run(de0, x, np.array([2], np.uint8))
        run(de_list, x)
    run(de, np.zeros(0, dt), np.array([], np.int64))
    run(de, np.zeros(0, dt), 0)


@pytest.mark.parametrize("dt", DTYPES)
def test_insert(dt):
    a = (np.arange(12) - 3).astype(dt).reshape(3, 4)
    for x in layouts(a):
        for o in (0, 1, -1, 12, -12, 13, -13):
            run(ins, x, o, 1)
        run(ins, x, np.array([1, 3, 1]), np.array([7, 8, 9]))
        run(ins, x, np.array([-1, -1, 0]), np.array([7, 8, 9]))
        run(ins, x, np.array([2]), np.array([7, 8, 9]))
        run(ins, x, np.array([30]), 1)
        run(ins, x, np.array([1, 30]), 1)
        run(ins, x, np.array([True] + [False] * 11), 5)
        run(ins1, x, 1, np.array([7.5, 8, 9]))
        run(ins1, x, 1, np.array([[7], [8], [9]]))
        run(ins1, x, np.array([1]), np.array([[7], [8], [9]]))
        run(ins1, x, np.array([1, 2]), np.array([7, 8]))
        run(ins1, x, np.array([1, 2]), np.array([7, 8, 9]))       # broadcast ValueError
        run(ins0, x, 1, np.array([[1, 2, 3, 4], [5, 6, 7, 8]]))
        run(ins0, x, 3, 0.5)
        run(ins0, x, -4, 0)
        run(ins0, x, np.array([], np.int64), 0)
        run(ins_list, x, np.array([1, 2, 3]))
    run(ins, np.zeros(0, dt), 0, np.array([1, 2]))


def test_insert_python_numbers():
    a = np.arange(5, dtype=np.int8)
    run(ins, a, 1, 300)                 # NumPy's OverflowError
    run(ins, a, 1, -128)
    run(ins, a, 1, 3.7)
    run(ins, a, 1, float("nan"))
    run(ins, np.arange(5.0), 1, float("-inf"))
    run(ins, np.arange(5.0), 1, -0.0)
    run(ins, a, np.array([0, 2]), np.array([1.5, np.nan]).astype(np.float32))
