"""``int(x).bit_length()`` (Python ints and bools) and ``a.view(dtype)`` of the
same itemsize, compiled: CPython's and NumPy's results."""
import numpy as np
import pytest

from hanajit import jit


def _bits(x):
    return int(x).bit_length()


def _loop_bits(n):
    s = 0
    for i in range(-n, n):
        s += i.bit_length()
    return s


def _bool_bits(b):
    return (b > 0).bit_length()


def _as_i8(a):
    return a.view(np.int64)


def _as_f4(a):
    return a.view("f4")


def _as_u1(a):
    return a.view(dtype=np.uint8)


def _same(a):
    return a.view()


def _write_through(a):
    v = a.view(np.uint64)
    v[0] = 0
    v[-1] = v[-1] | np.uint64(1)
    return a


def _expr_view(a):
    return (a + 1.0).view(np.int64)


K = {f: jit(f, fallback=False) for f in (_bits, _loop_bits, _bool_bits, _as_i8, _as_f4,
                                          _as_u1, _same, _write_through, _expr_view)}


@pytest.mark.parametrize("v", [0, 1, -1, 5, -5, 255, 256, 2**62, -2**62, 2**63 - 1, -2**63,
                               np.int64(-7), np.uint8(200), np.int32(-2**31),
                               np.uint64(2**64 - 1), np.uint64(2**63), 3.7, -0.5, True])
def test_bit_length(v):
    got = K[_bits](v)
    assert type(got) is int and got == _bits(v)


def test_bit_length_loop_and_bool():
    assert K[_loop_bits](300) == _loop_bits(300)
    assert K[_bool_bits](3) == _bool_bits(3) and K[_bool_bits](-3) == _bool_bits(-3)


def test_bit_length_of_numpy_scalar_falls_back():
    def f(x):
        return x.bit_length()
    with pytest.warns(UserWarning), pytest.raises(AttributeError):
        jit(f)(np.int64(3))
    with pytest.raises(AttributeError):
        f(np.int64(3))


def same_view(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides or got.size == 0
    assert got.tobytes() == want.tobytes()


def test_view_layouts():
    x = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.5])
    m = np.arange(12.0).reshape(3, 4)
    for a in (x, m, np.asfortranarray(m), m[:, ::-1], m[::2, 1:], x[::-2], x[:0],
              np.arange(4, dtype=np.complex64), np.arange(3, dtype=np.uint64)):
        same_view(K[_as_i8](a), _as_i8(a))
        same_view(K[_same](a), _same(a))
    for a in (np.arange(6, dtype=np.int32).reshape(2, 3), np.arange(5, dtype=np.uint32)[::-1],
              np.float32([1.5, -0.0, np.nan])):
        same_view(K[_as_f4](a), _as_f4(a))
    for a in (np.array([True, False, True]), np.arange(-3, 3, dtype=np.int8)):
        same_view(K[_as_u1](a), _as_u1(a))
    same_view(K[_expr_view](x), _expr_view(x))


def test_view_shares_memory():
    a = np.array([-1.5, 2.0, 3.0])
    got = K[_write_through](a.copy())
    assert got.tobytes() == _write_through(a.copy()).tobytes()


def test_view_falls_back():
    def other_size(a):
        return a.view(np.int32)

    def as_bool(a):
        return a.view(np.bool_)
    for f, a in ((other_size, np.arange(3.0)), (as_bool, np.arange(3, dtype=np.uint8))):
        with pytest.warns(UserWarning):
            same_view(jit(f)(a), f(a))
