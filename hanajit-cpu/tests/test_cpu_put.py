"""``np.put`` / ``a.put`` against NumPy: modes, repeated and negative indices,
values repeated and cast, scalar indices and values, layouts (a non-contiguous
array is untouched when an index is bad, as NumPy's write-back copy is dropped),
empty arrays, and the errors."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import jitted


def put_fn(a, ind, v):
    np.put(a, ind, v)
    return a


def put_wrap(a, ind, v):
    np.put(a, ind, v, mode="wrap")
    return a


def put_clip(a, ind, v):
    a.put(ind, v, "clip")
    return a


def put_method(a, ind, v):
    a.put(ind, v)
    return a


LAYOUTS = {
    "1d": lambda: np.arange(7.0),
    "c2": lambda: np.arange(24.0).reshape(4, 6),
    "f2": lambda: np.asfortranarray(np.arange(24.0).reshape(4, 6)),
    "strided": lambda: np.arange(24.0).reshape(4, 6)[::2, ::-1],
    "int8": lambda: np.arange(-5, 5, dtype=np.int8),
    "bool": lambda: np.zeros(5, bool),
    "complex": lambda: np.arange(4) * (1 + 1j),
}


def _outcome(f, layout, ind, v):
    a = LAYOUTS[layout]()           # a fresh array (with its base) for every call
    try:
        return ("ok", f(a, ind, v), a)
    except Exception as exc:
        return ("raise", type(exc).__name__, str(exc), a)


INDS = [np.array([0, 2, -1]), np.array([[1, 1], [3, 0]]), np.array([5, 5, 5]),
        np.array([9, -30, 2]), np.array([], np.int64), np.array([1, 0], np.int8), 2, -1,
        np.array([True, False, True])]
VALS = [np.array([9.5, -1.25]), 7, np.array([[1, 2, 3]]), np.array([], float), 2.75,
        np.array([True, False])]


def _check(f, layout, ind, v):
    want = _outcome(f, layout, ind, v)
    got = _outcome(jitted(f, fallback=False), layout, ind, v)
    assert got[:-1] == want[:-1] if want[0] == "raise" else got[0] == "ok", \
        (ind, v, got, want)
    # the array afterwards: every write before an error kept (contiguous) or none
    # (a non-contiguous array: NumPy's write-back copy is dropped)
    assert got[-1].dtype == want[-1].dtype
    assert np.array_equal(got[-1], want[-1]), (ind, v, got[-1], want[-1])


# every (indices, values) pair of the 1-D float array; the other arrays (each
# pair of types a compile) with every index against an array and a scalar
# value and every value against an array and a scalar index: the layout
# changes where an index writes, the dtype how a value is cast, neither how
# the two are paired
CROSS = [(ind, v) for i, ind in enumerate(INDS) for j, v in enumerate(VALS)
         if i in (0, 6) or j in (0, 1)]


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_put_is_numpys(layout):
    pairs = [(ind, v) for ind in INDS for v in VALS] if layout == "1d" else CROSS
    for ind, v in pairs:
        _check(put_fn, layout, ind, v)


@pytest.mark.parametrize("f", [put_wrap, put_clip, put_method])
@pytest.mark.parametrize("layout", ["c2", "strided"])
def test_put_modes_and_method(f, layout):
    for ind in INDS[:4] + INDS[6:8]:
        _check(f, layout, ind, VALS[0])
        _check(f, layout, ind, VALS[1])


def test_put_errors():
    a = np.arange(4.0)
    with pytest.raises(IndexError, match="index 4 is out of bounds for axis 0 with size 4"):
        jitted(put_fn, fallback=False)(a, np.array([1, 4]), 0.0)
    assert a[1] == 0.0                  # (a contiguous array keeps the earlier writes)
    with pytest.raises(IndexError, match="cannot replace elements of an empty array"):
        jitted(put_wrap, fallback=False)(np.zeros(0), np.array([0]), 1.0)
    with pytest.raises(OverflowError):
        jitted(put_fn, fallback=False)(np.zeros(3, np.uint8), 0, 300)
