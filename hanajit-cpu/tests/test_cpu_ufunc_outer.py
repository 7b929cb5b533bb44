"""``np.<ufunc>.outer(a, b)`` compiled: NumPy's values, dtypes, shapes and errors."""
import numpy as np
import pytest

from hanajit import jit


def _add(a, b):
    return np.add.outer(a, b)


def _sub(a, b):
    return np.subtract.outer(a, b)


def _mul(a, b):
    return np.multiply.outer(a, b)


def _max(a, b):
    return np.maximum.outer(a, b)


def _pow(a, b):
    return np.power.outer(a, b)


def _less(a, b):
    return np.less.outer(a, b)


def _eq(a, b):
    return np.equal.outer(a, b)


def _divmod(a, b):
    return np.divmod.outer(a, b)


def _atan2(a, b):
    return np.arctan2.outer(a, b)


def _tuple(a):
    return np.add.outer(a, (1, 2, 3))


KERNELS = {f: jit(f, fallback=False) for f in
           (_add, _sub, _mul, _max, _pow, _less, _eq, _divmod, _atan2, _tuple)}


def same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    assert type(got) is type(want)
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape
    assert g.tobytes() == w.tobytes()


def check(f, *args):
    same(KERNELS[f](*args), f(*args))


DTYPES = [np.int64, np.int32, np.uint8, np.bool_, np.float32, np.float64, np.complex128]


@pytest.mark.parametrize("dt", DTYPES)
def test_add_mul_dtypes(dt):
    a = np.array([0, 1, 2, 3], dtype=dt)
    b = np.array([1, 0, 1], dtype=dt)
    check(_add, a, b)
    check(_mul, a, b)
    check(_eq, a, b)
    if dt is not np.bool_:
        check(_sub, a, b)


def test_mixed_dtypes_and_scalars():
    u8 = np.arange(4, dtype=np.uint8)
    f32 = np.linspace(-1, 1, 5).astype(np.float32)
    check(_add, u8, np.arange(3, dtype=np.int32))
    check(_add, u8, 5)            # Python scalars are strong here: int64
    check(_add, 5, u8)
    check(_mul, f32, 2.5)         # float64
    check(_mul, f32, np.float32(2.5))
    check(_add, 2, 3)             # a NumPy scalar
    check(_add, 2.5, True)
    check(_tuple, u8)


def test_shapes_layouts():
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(8.0).reshape(2, 4)
    check(_add, a, b)
    check(_add, np.asfortranarray(a), b.T)
    check(_sub, a[:, ::-1], b[::-1, ::2])
    check(_add, np.ones((2, 1, 2)), np.arange(12.0).reshape(1, 3, 1, 4))
    check(_add, np.arange(3.0), np.arange(24.0).reshape(2, 3, 4))
    check(_add, np.ones(0), np.ones(3))
    check(_add, np.ones((2, 3)), np.ones((0, 2)))


def test_special_floats():
    a = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.5])
    b = np.array([0.0, -0.0, np.nan, -np.inf, 2.0])
    for f in (_add, _sub, _mul, _max, _less, _atan2, _pow):
        with np.errstate(all="ignore"):
            check(f, a, b)


def test_int_power_divmod():
    a = np.arange(-3, 4)
    check(_pow, a, np.arange(4))
    check(_pow, a.astype(np.uint8), np.arange(3, dtype=np.uint8))
    check(_divmod, a, np.array([1, 2, -3]))
    check(_divmod, np.array([1.5, -2.5, np.inf]), np.array([2.0, -0.5]))
    with pytest.raises(ValueError):
        _pow(a, np.array([-1, 2]))
    with pytest.raises(ValueError):
        KERNELS[_pow](a, np.array([-1, 2]))


def test_falls_back():
    def kw(a, b):
        return np.add.outer(a, b, dtype=np.float32)

    def deep(a, b):
        return np.add.outer(a, b)
    with pytest.warns(UserWarning):
        assert jit(kw)(np.ones(2), np.ones(3)).dtype == np.float32
    with pytest.warns(UserWarning):
        assert jit(deep)(np.ones(2), np.ones((1,) * 5)).shape == (2,) + (1,) * 5
