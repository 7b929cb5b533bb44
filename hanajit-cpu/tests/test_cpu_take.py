"""``np.take`` / ``a.take`` against NumPy: flattened and per-axis, scalar and
array indices (negative, out of bounds, 2-D, empty), any layout."""
import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.jitted import jitted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")


def take_flat(a, i):
    return np.take(a, i)


def take_ax0(a, i):
    return np.take(a, i, axis=0)


def take_ax1(a, i):
    return np.take(a, i, 1)


def take_axm1(a, i):
    return np.take(a, i, axis=-1)


def take_method(a, i):
    return a.take(i)


def take_method_axis(a, i):
    return a.take(i, axis=0)



def compiled(fn):
    return jitted(fn, fallback=False)


def check(fn, a, i):
    try:
        want = fn(a, i)
    except IndexError:
        with pytest.raises(IndexError):
            compiled(fn)(a, i)
        return
    got = compiled(fn)(a, i)
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        got[...] = 0                   # a copy, never a view of ``a``
        np.testing.assert_array_equal(fn(a, i), want)
    else:
        assert got == want


def _layouts(m):
    return [m, np.asfortranarray(m), m[::-1], m.T]


@pytest.mark.parametrize("fn", [take_flat, take_ax0, take_ax1, take_axm1, take_method,
                                take_method_axis])
def test_take_matches_numpy(fn):
    for a in _layouts(np.arange(12.0).reshape(3, 4)):
        for i in (np.array([0, 2, -1]), np.array([[1, 0], [2, -3]]), np.array([7]),
                  np.array([], dtype=np.int64), np.array([2], dtype=np.int32), 1, -2, 9):
            check(fn, a, i)


@settings(max_examples=36, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.lists(st.integers(0, 4), min_size=1, max_size=3),
       idx=st.lists(st.integers(-6, 6), max_size=5), data=st.data())
def test_take_property(shape, idx, data):
    a = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    if data.draw(st.booleans()):
        a = a[..., ::-1]
    i = np.array(idx, dtype=np.int64)
    check(take_flat, a, i)
    if a.ndim >= 2:
        check(take_ax1, a, i)
    check(take_ax0, a, i)


def test_an_unknown_mode_falls_back_with_a_warning():
    def bad(a, i):
        return np.take(a, i, mode="nearest")
    with pytest.warns(HanaJitFallbackWarning, match="mode"):
        with pytest.raises(ValueError):
            jit(bad)(np.arange(3), np.array([5, -1]))


def take_wrap(a, i):
    return np.take(a, i, mode="wrap")


def take_clip_axis(a, i):
    return np.take(a, i, axis=1, mode="clip")


def take_wrap_method(a, i):
    return a.take(i, axis=0, mode="wrap")


@pytest.mark.parametrize("fn", [take_wrap, take_clip_axis, take_wrap_method])
def test_wrap_and_clip_modes(fn):
    m = np.arange(12.0).reshape(3, 4)
    for a in (m, m.T, m[:, ::-2], np.zeros((0, 4)), np.zeros((3, 0))):
        # (not huge indices: NumPy's wrap mode subtracts the length repeatedly)
        for i in (np.array([0, -1, 5, -13, 1001]), np.array([[7, -2], [3, 0]]),
                  np.zeros(0, np.int64), np.array([1], np.int8), 5, -7, 0):
            check(fn, a, i)
