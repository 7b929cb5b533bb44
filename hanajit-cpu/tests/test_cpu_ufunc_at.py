"""``np.<ufunc>.at(a, indices[, b])`` compiled: NumPy's in-place, unbuffered
updates (repeated indices accumulate), loop dtypes, casts and errors."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted_for


def _add(a, i, b):
    np.add.at(a, i, b)


def _sub(a, i, b):
    np.subtract.at(a, i, b)


def _mul(a, i, b):
    np.multiply.at(a, i, b)


def _max(a, i, b):
    np.maximum.at(a, i, b)


def _min(a, i, b):
    np.minimum.at(a, i, b)


def _fmax(a, i, b):
    np.fmax.at(a, i, b)


def _fmin(a, i, b):
    np.fmin.at(a, i, b)


def _and(a, i, b):
    np.bitwise_and.at(a, i, b)


def _or(a, i, b):
    np.bitwise_or.at(a, i, b)


def _xor(a, i, b):
    np.bitwise_xor.at(a, i, b)


def _land(a, i, b):
    np.logical_and.at(a, i, b)


def _lor(a, i, b):
    np.logical_or.at(a, i, b)


def _lxor(a, i, b):
    np.logical_xor.at(a, i, b)


def _div(a, i, b):
    np.true_divide.at(a, i, b)


def _neg(a, i):
    np.negative.at(a, i)


def _list(a):
    np.add.at(a, [0, 1, 1, -1], 2)


def _list_neg(a):
    np.negative.at(a, [0, 1, 1])


def _tuple2(a):
    np.add.at(a, (1, 2), 5)


def _list2(a):
    np.add.at(a, [1, 2, 1], 5)


def _list_name(a):
    idx = [0, 1, 1]
    np.add.at(a, idx, 2.0)


def _tuple_name(a, i, j):
    idx = (i, j)
    np.add.at(a, idx, 2.0)


def _list_of_arrays(a, i, j):
    np.add.at(a, [i, j], 1.0)


def _local(n, i):
    a = np.zeros(n)
    np.add.at(a, i, 1.0)
    return a


def _check(f, a, *rest):
    """Run ``f`` on a copy of ``a`` in NumPy and compiled: same result in ``a``
    (dtype, bits) or the same exception type."""
    want = a.copy()
    got = a.copy()
    try:
        f(want, *rest)
    except Exception as e:          # noqa: BLE001
        with pytest.raises(type(e)):
            jitted_for(f, (got,) + rest, fallback=False)(got, *rest)
        return
    jitted_for(f, (got,) + rest, fallback=False)(got, *rest)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


IDX = np.array([0, 1, 1, 4, -1, 1])


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.int64, np.int32, np.uint8])
def test_add_repeated(dt):
    a = np.arange(5).astype(dt)
    _check(_add, a, IDX, np.array([3, 1, 2, 7, 1, 5]).astype(dt))
    _check(_add, a, IDX, 3)            # a Python int: strong (int64) as NumPy's asarray
    _check(_add, a, 2, 250)
    _check(_add, a, np.array([], np.int64), 1)


def test_float_order_and_values():
    a = np.array([1e16, 0.0, -0.0, np.inf, np.nan])
    b = np.array([1.0, 1.0, -1e16, -0.0, 0.0, np.nan])
    for f in (_add, _sub, _mul, _max, _min, _fmax, _fmin, _div):
        _check(f, a, IDX, b)
        _check(f, a, IDX, -0.0)
    # float32 a with a Python float: the float64 loop, cast back
    a32 = np.array([1.0, 3.0, 16777216.0], np.float32)
    for v in (0.1, 1e-8, 1.0000001, 1 / 3):
        _check(_add, a32, np.array([0, 1, 2, 2]), v)
        _check(_mul, a32, np.array([0, 1, 2, 2]), v)


def test_complex():
    a = np.array([1 + 2j, -0.0 + 0j, 3j])
    _check(_add, a, np.array([0, 0, 2]), np.array([1j, 2.5, -1 - 1j]))
    _check(_mul, a, np.array([0, 0, 2]), 2 + 1j)
    _check(_neg, a, np.array([0, 2, 2]))


def test_int_ops_and_logical():
    a = np.array([5, 12, 7, 0, 255], np.int64)
    for f in (_and, _or, _xor, _land, _lor, _lxor, _max, _min, _sub, _mul):
        _check(f, a, IDX, np.array([3, 6, 1, 0, 9, 2]))
    for f in (_and, _sub, _mul):
        _check(f, a.astype(np.uint8), IDX, np.array([3, 6, 1, 0, 9, 2], np.uint8))
    b = np.array([True, False, True, True, False])
    for f in (_lxor, _add, _max):
        _check(f, b, IDX, np.array([True, False, False, True, True, False]))
    _check(_add, np.zeros(4, np.int8), np.array([0, 0, 1]), 300)    # wraps as NumPy's cast
    _check(_add, np.zeros(4, np.int8), np.array([0, 0]), np.int16(100))


def test_index_forms_and_layouts():
    a = np.arange(12.0).reshape(3, 4)
    _check(_add, a, (np.array([0, 2, 0]), np.array([1, 1, 1])), np.array([1.0, 2.0, 3.0]))
    _check(_add, a, np.array([0, 2, 0]), np.array([1.0, 2.0, 3.0, 4.0]))   # rows, b broadcast
    _check(_add, a, np.array([[0, 0], [2, 2]]), 1.5)
    _check(_add, a, (1, 2), 1.5)
    _check(_add, a, 1, np.array([1.0, 2.0, 3.0, 4.0]))
    _check(_add, a, a > 5, 1.0)                                     # a boolean mask
    _check(_add, np.asfortranarray(a), (np.array([0, 2, 0]), np.array([3, 1, 3])), 1.0)
    _check(_add, a[::-1, ::2], (np.array([0, 2, 0]), np.array([1, 1, 1])),
           np.array([1.0, 2.0, 3.0]))
    _check(_max, np.arange(6.0)[::-2], np.array([0, 2, 2]), np.array([9.0, 1.0, 4.0]))
    _check(_add, np.arange(6.0), np.array([[0, 1], [1, 5]]), np.array([[1.0, 2.0], [3.0, 4.0]]))
    _check(_add, np.arange(6.0), np.asfortranarray([[0, 1], [1, 5]]),
           np.array([[1.0], [2.0]]))
    for f in (_list, _list_neg, _list2):
        _check(f, np.arange(5.0))
    _check(_list2, np.arange(12.0).reshape(4, 3))
    # tuples of index arrays of one shape (read directly) and of broadcast shapes
    b3 = np.arange(24.0).reshape(2, 3, 4)
    i3 = (np.array([[0, 1], [1, -2]]), np.array([[2, 2], [2, 0]]), np.array([[3, 3], [-1, 3]]))
    _check(_add, b3, i3, np.array([[1.0, 2.0], [3.0, 4.0]]))
    _check(_add, b3[:, ::-1], i3, 0.5)
    _check(_add, b3, (i3[0], i3[1], np.array([[0], [5]])), 1.0)        # IndexError, axis 2
    _check(_add, a, (np.array([[0], [2]]), np.array([1, 1, 3])), 1.0)  # broadcast
    _check(_add, a, (np.array([[0], [2]]), np.array([1, 1, 3, 0, 1])), 1.0)   # IndexError
    _check(_add, a, (np.array([0, 3]), np.array([1, 1])), 1.0)         # IndexError, axis 0
    _check(_tuple2, np.arange(12.0).reshape(4, 3))
    _check(_list_name, np.arange(12.0).reshape(4, 3))
    _check(_list_name, np.arange(3.0))
    _check(_tuple_name, np.arange(12.0).reshape(4, 3), np.array([0, 0]), np.array([2, 1]))


def test_b_view_of_a():
    a = np.arange(6.0)
    want = a.copy()
    np.add.at(want, np.array([0, 1, 2]), want[1:4])
    jitted_for(_add, (a, IDX, a[1:4]), fallback=False)(a, np.array([0, 1, 2]), a[1:4])
    assert a.tobytes() == want.tobytes()


def _unary(a, i):
    np.absolute.at(a, i)
    np.invert.at(a, i)


def test_unary():
    _check(_unary, np.array([-3, 5, -7], np.int32), np.array([0, 2, 2]))
    _check(_neg, np.array([-3, 5, -128], np.int8), np.array([2, 0, 2]))


def test_local_array():
    f = jitted_for(_local, (5, IDX), fallback=False)
    assert f(5, IDX).tobytes() == _local(5, IDX).tobytes()


def test_errors():
    a = np.arange(5.0)
    _check(_add, a, np.array([0, 5]), 1.0)            # IndexError, nothing updated
    _check(_add, a, np.array([0, -6]), 1.0)
    _check(_add, a, np.array([0, 1]), np.ones(3))     # ValueError: not broadcastable
    _check(_add, a, 7, 1.0)
    _check(_add, np.zeros((3, 3)), (np.array([0, 3]), np.array([0, 0])), 1.0)
    _check(_neg, a, np.array([9]))


def _fallback_reason(f, *args):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        jit(f)(*args)
    return " ".join(str(x.message) for x in w)


def test_fallbacks():
    # NumPy's unsafe float -> int cast back into ``a`` (warns for NaN/overflow)
    assert "casts" in _fallback_reason(_add, np.zeros(3, np.int64), np.array([0]), 1.5)
    assert "casts" in _fallback_reason(_div, np.ones(3, np.int64), np.array([0]), 2)
    # NumPy's fast loop reads a broadcast 1-D b past its end here
    assert "flattened" in _fallback_reason(_add, np.zeros(6), np.zeros((2, 3), np.int64),
                                           np.ones(3))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with warnings.catch_warnings(record=True) as w:     # (NumPy's ufunc.at writes
        warnings.simplefilter("always")                 # into a read-only array)
        jit(_add)(ro, np.array([0]), 1.0)
    assert ro[0] == 1.0 and any("read-only" in str(x.message) for x in w)
    a = np.zeros((3, 3))                               # [i, j]: one 2-D index array
    assert "list of arrays" in _fallback_reason(_list_of_arrays, a, np.array([0]),
                                                np.array([2]))
    with pytest.raises(TypeError):                     # NumPy's own error, interpreted
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            jit(_neg)(np.zeros(3, bool), np.array([0]))
