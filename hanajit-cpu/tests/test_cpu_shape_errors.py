"""Shape mismatches NumPy words with whole shapes ("operands could not be
broadcast together with shapes (2,3) (4,3) ", "cannot reshape array of size 3
into shape (2,2)", matmul's gufunc text, ``np.dot``'s, ``np.concatenate``'s):
compiled code finds the mismatch and, for a call that wrote into no argument,
re-runs it in the interpreter, so the exception is NumPy's own, text included --
and where NumPy broadcasts what the compiled code refused (``np.trapezoid`` of
a length-2 ``x``), NumPy's result (``errors.RERUN``).  A call that wrote into
its arguments raises the compiled text, the same class."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit


def add(a, b):
    return a + b


def reshape22(a):
    return a.reshape(2, 2)


def matmul(a, b):
    return a @ b


def dot(a, b):
    return np.dot(a, b)


def join(a, b):
    return np.concatenate((a, b))


def trapezoid(y, x):
    return np.trapezoid(y, x)


def fancy(a, i, j):
    return a[i, j]


def broadcast_to35(a):
    return np.broadcast_to(a, (3, 5))


def add_into(a, b):
    a += b
    return a


def outcome(f, *args):
    try:
        r = f(*[x.copy() if isinstance(x, np.ndarray) else x for x in args])
    except Exception as e:          # noqa: BLE001 - compared by class and text
        return type(e), str(e)
    return "ok", r


Z = np.zeros


@pytest.mark.parametrize("f, args", [
    (add, (Z(3), Z(4))), (add, (Z((2, 3)), Z((4, 3)))), (add, (Z((2, 1, 3)), Z((4, 2)))),
    (reshape22, (np.arange(3.0),)), (matmul, (Z((2, 3)), Z((2, 3)))),
    (dot, (Z(2), Z(1))), (dot, (Z((2, 3)), Z((2, 3)))), (join, (Z((2, 2)), Z((2, 3)))),
    (fancy, (Z((3, 3)), np.array([0, 1]), np.array([0, 1, 2]))),
    (trapezoid, (np.array([1.0, 2.0]), np.array([0.0, 1.0, 2.0]))),
    (trapezoid, (np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0]))),
    (trapezoid, (np.array([1.0, 2.0, 4.0, 5.0]), np.array([0.0, 1.0, 2.0]))),
    (broadcast_to35, (Z(4),)), (broadcast_to35, (Z((2, 5)),)), (broadcast_to35, (Z(1),)),
])
def test_shape_errors_are_numpys_own(f, args):
    got, want = outcome(jit(f, fallback=False), *args), outcome(f, *args)
    assert got[0] == want[0]
    if want[0] == "ok":
        assert np.array_equal(got[1], want[1])
    else:
        assert got[1] == want[1]


def test_a_call_that_wrote_into_its_arguments_raises_the_compiled_text():
    got = outcome(jit(add_into, fallback=False), Z(3), Z(4))
    assert got == (ValueError, "operands could not be broadcast together (axis 0: sizes 3 "
                               "and 4)")
