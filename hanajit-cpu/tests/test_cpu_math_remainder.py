"""``math.remainder(x, y)``: the IEEE 754 remainder (``x - n*y`` with ``n`` the
integer nearest ``x / y``, ties to even), exact, as CPython: the C library's
``remainder`` is exact too; ValueError for an infinite ``x`` or a zero ``y``
(NaN arguments excepted), ``x`` for an infinite ``y``; a zero result has the
sign of ``x``; ints and NumPy scalars converted to float."""
import math
import struct

import numpy as np
import pytest

from hanajit import jit


def rem(x, y):
    return math.remainder(x, y)


def rem_loop(a, y):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = math.remainder(a[i], y)
    return out


VALS = [0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -7.5, 7.5, 2.5, 3.5, -2.5, 1e308, -1e308, 5e-324,
        math.inf, -math.inf, math.nan, 10, -3, True, np.float32(1.5), np.float64(6.0),
        np.int64(-9)]
J = jit(rem, fallback=False)


def outcome(f, x, y):
    try:
        v = f(x, y)
    except Exception as ex:     # noqa: BLE001 - compared by type
        return type(ex), None
    return type(v), struct.pack("d", v)


@pytest.mark.parametrize("x", VALS, ids=range(len(VALS)))
def test_like_cpython(x):
    for y in VALS:
        assert outcome(J, x, y) == outcome(rem, x, y), (x, y)


def test_in_a_loop():
    a = np.linspace(-10, 10, 41)
    for y in (3.0, -0.75, math.inf):
        assert rem_loop(a, y).tobytes() == jit(rem_loop, fallback=False)(a, y).tobytes()
    with pytest.raises(ValueError, match="math domain error"):
        jit(rem_loop, fallback=False)(a, 0.0)
