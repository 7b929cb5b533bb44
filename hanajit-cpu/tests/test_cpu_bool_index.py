"""A boolean number as the whole index, as NumPy reads it: a 0-d mask, so
``a[True]`` is a copy with a new first axis of length 1 and ``a[False]`` one of
length 0 (not the integer 1 or 0); ``a[b] = v`` writes through ``a[np.newaxis]``
when ``b`` is true, broadcasting ``v`` as NumPy does (a shape error even when
false)."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import jitted


def get(a, b):
    return a[b]


def get_true(a):
    return a[True]


def get_mask(a, x):
    return a[x > 0]


def put(a, b, v):
    a[b] = v
    return a


ARRAYS = [np.arange(6.0).reshape(2, 3), np.arange(4), np.array(3.5),
          np.arange(12.0).reshape(3, 4)[::2, ::-1], np.zeros((0, 2)),
          np.arange(8, dtype=np.int8).reshape(2, 2, 2)]


@pytest.mark.parametrize("k", range(len(ARRAYS)))
@pytest.mark.parametrize("b", [True, False, np.True_, np.False_])
def test_read_is_a_copy_with_a_new_axis(k, b):
    a = ARRAYS[k]
    got, want = jitted(get, fallback=False)(a, b), get(a, b)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want) and not np.shares_memory(got, a)
    got[...] = 0                                        # a copy: `a` is unchanged
    assert np.array_equal(a, ARRAYS[k])
    assert np.array_equal(jitted(get_true, fallback=False)(a), get_true(a))
    assert np.array_equal(jitted(get_mask, fallback=False)(a, 1.0), get_mask(a, 1.0))
    assert jitted(get_mask, fallback=False)(a, -1.0).shape == (0,) + a.shape


@pytest.mark.parametrize("k", range(len(ARRAYS)))
@pytest.mark.parametrize("b", [True, False])
def test_write_through_the_new_axis(k, b):
    a = ARRAYS[k]
    for v in (5, np.ones(a.shape[-1:]) * 2 if a.ndim else 2.0, np.full((1,) + a.shape, 3)):
        x, y = a.copy(), a.copy()
        jitted(put, fallback=False)(x, b, v)
        put(y, b, v)
        assert np.array_equal(x, y)


def test_shape_errors_even_when_false():
    for b in (True, False):
        with pytest.raises(ValueError):
            jitted(put, fallback=False)(np.arange(3.0), b, np.ones(5))
        with pytest.raises(ValueError):
            put(np.arange(3.0), b, np.ones(5))
