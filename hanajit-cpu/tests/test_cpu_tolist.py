"""``a.tolist()`` compiled: returned (nested lists of Python numbers) and, for a
1-D array, read as a list -- iterated, indexed, ``len``, ``sum`` -- with items
that are Python numbers (Python's int, float, complex and bool semantics)."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted_for


def _loop(a):
    s = 0
    for x in a.tolist():
        s += x
    return s


def _read(a):
    xs = a.tolist()
    n = len(xs)
    return n, xs[0], xs[-1], xs[n // 2]


def _sum(a):
    return sum(a.tolist())


def _index(a, i):
    xs = a.tolist()
    return xs[i]


def _snapshot(a):
    xs = a.tolist()
    a[0] = 100
    t = 0
    for x in xs:
        t += x
    return xs[0], t


def _python_div(a):
    t = 0.0
    for x in a.tolist():
        t += 1 / x           # a Python number: ZeroDivisionError at 0 (NumPy: inf)
    return t


def _python_floordiv(a):
    t = 0
    for x in a.tolist():
        t += 7 // x
    return t


def _returned(a):
    return a.tolist()


def _nested_loop(a):
    s = 0.0
    for row in a.tolist():
        s += len(row)
    return s


def _check(f, *args):
    ref = tuple(x.copy() if isinstance(x, np.ndarray) else x for x in args)
    try:
        want = f(*ref)
    except Exception as e:          # noqa: BLE001
        with pytest.raises(type(e)):
            jitted_for(f, args, fallback=False)(*args)
        return
    got = jitted_for(f, args, fallback=False)(*args)
    assert type(got) is type(want) and repr(got) == repr(want), (got, want)
    if isinstance(want, tuple):
        assert [type(x) for x in got] == [type(x) for x in want]


ARRAYS = [np.array([100, 100, 27], np.int8), np.array([0.1, 0.2, 0.7], np.float32),
          np.array([True, False, True]), np.array([1 + 2j, -0.5j]),
          np.array([0.1, -0.0, 1e308, 1e308])[::-1]]


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}-{a.size}")
def test_read_1d(a):
    for f in (_loop, _read, _sum, _returned):
        _check(f, a)
    _check(_index, a, -1)
    _check(_index, a, len(a))                  # IndexError: list index out of range
    _check(_snapshot, a.copy())


def test_python_ints():
    _check(_loop, np.array([250, 7], np.uint8))
    _check(_loop, np.array([2**62, 2**62, -5]))     # past int64: re-run in the interpreter
    _check(_sum, np.array([3, 1], np.int32))


def test_python_numbers():
    _check(_python_div, np.array([2.0, 4.0], np.float32))
    _check(_python_div, np.array([2.0, 0.0]))           # ZeroDivisionError
    _check(_python_floordiv, np.array([2, 3], np.int16))
    _check(_python_floordiv, np.array([2, 0], np.int16))


def test_empty():
    for f in (_loop, _sum, _returned):
        _check(f, np.array([], np.int64))
    # (``s = 0`` then ``s += x`` of floats in a loop that never runs is 0.0 in compiled
    # code: docs/semantics.md, a variable holding an int and a float)
    _check(_returned, np.zeros(0))


def test_returned_nd():
    for a in (np.arange(6).reshape(2, 3), np.ones((2, 0)), np.arange(8.0).reshape(2, 2, 2).T):
        _check(_returned, a)


def test_nd_read_falls_back():
    a = np.ones((2, 3))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert jit(_nested_loop)(a) == 6.0
    assert any("several dimensions" in str(x.message) for x in w)
