"""``a.flat[i]`` and ``for v in a.flat`` give array items: NumPy scalars (the
result's type, and NEP 50 promotion with Python numbers, follow the array's dtype)."""
import numpy as np
import pytest

from hanajit import jit

TABLE = np.arange(9.0).reshape(3, 3)


def global_flat_sum(idx):
    total = 0.0
    for i in idx:
        total += TABLE.flat[i]
    return total


def flat_item(a, i):
    return a.flat[i]


def flat_plus(a, i):
    return a.flat[i] + 1


def flat_loop(a):
    t = 0.0
    for v in a.flat:
        t += v
    return t


def flat_loop_int(a):
    t = 0
    for v in a.flat:
        t = t + v
    return t


J = {f.__name__: jit(f, fallback=False)
     for f in (global_flat_sum, flat_item, flat_plus, flat_loop, flat_loop_int)}


def same(a, b):
    assert type(a) is type(b), (a, b)
    assert np.asarray(a).dtype == np.asarray(b).dtype
    assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), (a, b)


def test_global_table():
    idx = np.array([1, 2, 5, 8])
    same(J["global_flat_sum"](idx), global_flat_sum(idx))


ARRAYS = [np.arange(12.0).reshape(3, 4), np.arange(12.0).reshape(3, 4, order="F"),
          np.arange(24, dtype=np.int32).reshape(4, 6)[::-1, ::2],
          np.arange(250, 256, dtype=np.uint8), np.array([1.5, -0.0], np.float32),
          np.array([True, False]), np.array([1 + 2j, 3j])]


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_items(a):
    for i in (0, a.size - 1):
        same(J["flat_item"](a, i), flat_item(a, i))
        if a.dtype != np.bool_:
            with np.errstate(over="ignore"):
                same(J["flat_plus"](a, i), flat_plus(a, i))
    if a.dtype.kind != "c":
        same(J["flat_loop"](a), flat_loop(a))
    if a.dtype.kind in "iu":
        with np.errstate(over="ignore"):
            same(J["flat_loop_int"](a), flat_loop_int(a))


def test_empty_loop():
    a = np.empty((0, 3))
    same(J["flat_loop"](a), flat_loop(a))


def test_index_error():
    a = np.arange(4.0)
    with pytest.raises(IndexError):
        flat_item(a, 4)
    with pytest.raises(IndexError):
        J["flat_item"](a, 4)
