"""``np.split``, ``np.array_split``, ``np.hsplit``, ``np.vsplit`` and ``np.dsplit``
with constant sections or indices (``lib/arrays/split.py``): the parts are views of
the array with NumPy's shapes, strides and data offsets; a returned split is a list
(``frontend/split_lists.py``); unpacking, indexing, ``len`` and loops over the parts
compile.  Compared with CPython running the same function."""
import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.jitted import strict as jitted


def ret_split3(a):
    return np.split(a, 3)


def ret_array_split4_axis1(a):
    return np.array_split(a, 4, axis=1)


def ret_indices(a):
    return np.split(a, [1, -2, 9, 2])


def ret_indices_last_axis(a):
    parts = np.array_split(a, (2,), axis=-1)
    return parts


def ret_hsplit(a):
    return np.hsplit(a, 2)


def ret_vsplit(a):
    return np.vsplit(a, [1])


def ret_dsplit(a):
    return np.dsplit(a, 2)


def unpacked(a):
    x, y, z = np.split(a, 3)
    return x * 2 + z - y


def second(a):
    return np.split(a, 3)[1]


def looped(a):
    total = 0.0
    n = 0
    for p in np.array_split(a, 5):
        total += p.sum()
        n += len(p)
    return total, n, len(np.array_split(a, 5))


def write_through(a):
    p = np.split(a, 2)[1]
    p[0] = 7
    return a


def _offset(part, base):
    return part.__array_interface__["data"][0] - base.__array_interface__["data"][0]


def check_parts(got, want, base):
    assert type(got) is list and type(want) is list
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes()
        if w.size:
            # (hanajit hands back any empty view as a new empty array: its
            # strides and data are not the view's, as for ``a[4:2]``)
            assert g.strides == w.strides
            assert _offset(g, base) == _offset(w, base)
        assert np.shares_memory(g, base) == np.shares_memory(w, base)


_BASE = np.arange(48).reshape(6, 8)
ARRAYS = [
    np.arange(12, dtype=np.int64),
    np.arange(24, dtype=np.float32).reshape(6, 4),
    np.asfortranarray(np.arange(24.0).reshape(6, 4)),
    _BASE[::-1, ::2].astype(np.int32)[::1],
    _BASE[::-1, ::-2],
    (np.arange(12) % 3 == 0),
    np.arange(12, dtype=np.uint8),
    np.arange(12) * (1 + 2j),
    np.zeros((0, 4)),
    np.array([np.nan, -0.0, np.inf, 0.0, -np.inf, 1.5]),
]

@pytest.mark.parametrize("a", ARRAYS, ids=range(len(ARRAYS)))
@pytest.mark.parametrize("fn", [ret_split3, ret_indices])
def test_returned_parts(fn, a):
    check_parts(jitted(fn)(a), fn(a), a)


@pytest.mark.parametrize("a", [ARRAYS[1], ARRAYS[2], ARRAYS[4], ARRAYS[8]])
@pytest.mark.parametrize("fn", [ret_array_split4_axis1, ret_indices_last_axis, ret_hsplit,
                                ret_vsplit])
def test_returned_parts_2d(fn, a):
    check_parts(jitted(fn)(a), fn(a), a)


def test_hsplit_1d_and_dsplit():
    a = np.arange(8.0)
    check_parts(jitted(ret_hsplit)(a), ret_hsplit(a), a)
    b = np.arange(24).reshape(2, 3, 4)[:, ::-1]
    check_parts(jitted(ret_dsplit)(b), ret_dsplit(b), b)


@pytest.mark.parametrize("n", [0, 1, 3, 4, 5, 7, 11])
def test_array_split_uneven(n):
    a = np.arange(n * 2.0).reshape(2, n)
    check_parts(jitted(ret_array_split4_axis1)(a), ret_array_split4_axis1(a), a)
    b = np.arange(float(n))
    check_parts(jitted(ret_indices)(b), ret_indices(b), b)


@pytest.mark.parametrize("a", [ARRAYS[0], ARRAYS[1], ARRAYS[4], ARRAYS[9], ARRAYS[8]])
def test_used_inside(a):
    got, want = jitted(unpacked)(a), unpacked(a)
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()
    got, want = jitted(second)(a), second(a)
    assert got.strides == want.strides and got.tobytes() == want.tobytes()
    assert np.shares_memory(got, a) == np.shares_memory(want, a)
    got, want = jitted(looped)(a), looped(a)
    assert got[1:] == want[1:] and type(got[0]) is type(want[0])
    assert np.float64(got[0]).tobytes() == np.float64(want[0]).tobytes()


def test_writes_reach_the_array():
    a, b = np.arange(6.0), np.arange(6.0)
    assert jitted(write_through)(a) is a
    write_through(b)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("fn,a", [(ret_split3, np.arange(7.0)), (unpacked, np.arange(4)),
                                  (ret_hsplit, np.arange(15.0).reshape(3, 5)),
                                  (ret_dsplit, np.zeros((1, 1, 3)))])
def test_unequal_division(fn, a):
    with pytest.raises(ValueError) as want:
        fn(a)
    with pytest.raises(ValueError) as got:
        jitted(fn)(a)
    assert str(got.value) == str(want.value) == \
        "array split does not result in an equal division"
    # NumPy raises it from None in an except TypeError: the same context
    assert type(got.value.__context__) is type(want.value.__context__) is TypeError
    assert str(got.value.__context__) == str(want.value.__context__)
    assert got.value.__suppress_context__ and want.value.__suppress_context__


def split_n(a, n):
    return np.split(a, n)


def split_zero(a):
    return np.split(a, 0)


def split_many(a):
    return np.split(a, 100)


def vsplit_1d(a):
    return np.vsplit(a, 2)


def in_tuple(a):
    return np.split(a, 2), 1


def mixed_name(a, c):
    parts = np.split(a, 2)
    if c:
        parts = a
    return parts


_JR = jit(ret_split3)


def calls_a_split_function(a):
    return len(_JR(a))


@pytest.mark.parametrize("fn,args", [
    (calls_a_split_function, (np.arange(6.0),)),
    (split_n, (np.arange(6.0), 3)), (split_zero, (np.arange(6.0),)),
    (split_many, (np.arange(200.0),)),
    (vsplit_1d, (np.arange(6.0),)), (in_tuple, (np.arange(6.0),)),
    (mixed_name, (np.arange(6.0), False))])
def test_falls_back(fn, args):
    try:
        want = fn(*args)
    except Exception as e:
        want = e
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            got = jit(fn)(*args)
        except Exception as e:
            got = e
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)
    if isinstance(want, Exception):
        assert type(got) is type(want) and str(got) == str(want)
    else:
        assert type(got) is type(want)
