"""Deoptimisation (re-running a call in the interpreter where compiled code cannot
represent CPython's result) needs a call that changed nothing: a function given a
writeable array deoptimises unless it may write into it (passes/writes.py)."""
import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import UnsupportedError


def reads(a, k):
    return len(a) ** k          # int ** negative int is a float: deoptimises


def writes(a, k):
    a[0] = 1.0
    return len(a) ** k


def writes_inplace(a, k):
    a += 1.0
    return len(a) ** k


def writes_by_method(a, k):
    a.sort()
    return len(a) ** k


def _store(a):
    a[0] = 5.0


STORE = jit(_store)


def writes_through_a_call(a, k):
    STORE(a)
    return len(a) ** k


def writes_by_copyto(a, k):
    np.copyto(a, a + 1.0)
    return len(a) ** k


def test_a_reading_function_deoptimises():
    a = np.zeros(4)
    f = jit(reads, fallback=False)
    assert f(a, 2) == 16
    assert f(a, -1) == 0.25         # the interpreter's answer
    assert f.signatures             # compiled, not a fallback
    ro = np.zeros(4)
    ro.flags.writeable = False
    assert f(ro, -1) == 0.25


@pytest.mark.parametrize("fn", [writes, writes_inplace, writes_by_method,
                                writes_through_a_call, writes_by_copyto])
def test_a_writing_function_cannot_deoptimise(fn):
    f = jit(fn, fallback=False)
    assert f(np.zeros(4), 2) == 16
    with pytest.raises(UnsupportedError, match="writes to its arguments"):
        f(np.zeros(4), -1)


def writes_own_arrays(a, k):
    out = np.zeros(len(a))
    for i in range(len(a)):
        out[i] = a[i] * 2.0
    c = a.copy()
    c[0] = 3.0
    return (out[0] + c[0]) * len(a) ** k


def writes_after_rebinding(a, k):
    b = a
    b[0] = 1.0
    c = np.zeros(2)
    c = a
    c[1] = 2.0
    return len(a) ** k


def test_stores_into_new_arrays_are_not_writes():
    f = jit(writes_own_arrays, fallback=False)
    a = np.arange(4.0) + 1.0
    assert f(a, 2) == writes_own_arrays(a, 2)
    assert f(a, -1) == writes_own_arrays(a, -1)     # re-run in the interpreter
    assert a[0] == 1.0


def test_a_local_that_may_be_an_argument_is_written():
    f = jit(writes_after_rebinding, fallback=False)
    assert f(np.zeros(4), 2) == 16
    with pytest.raises(UnsupportedError, match="writes to its arguments"):
        f(np.zeros(4), -1)
