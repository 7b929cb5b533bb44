"""``np.matvec(A, v)`` / ``np.vecmat(v, A)`` compiled where NumPy's gufunc loops
give ``np.matmul``'s bits: values (bit for bit), dtypes, shapes and errors; the
other classes fall back."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted_for

RNG = np.random.default_rng(7)


def _mv(a, v):
    return np.matvec(a, v)


def _vm(v, a):
    return np.vecmat(v, a)


def _data(shape, dt):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        return RNG.integers(-50, 50, shape).astype(dt)
    x = RNG.standard_normal(shape) * 10.0 ** RNG.uniform(-3, 3, shape)
    if dt.kind == "c":
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(dt)


def _check(f, x, y):
    try:
        want = f(x, y)
    except Exception as e:          # noqa: BLE001
        with pytest.raises(type(e)):
            jitted_for(f, (x, y), fallback=False)(x, y)
        return
    got = jitted_for(f, (x, y), fallback=False)(x, y)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


SIZES = [(1, 1), (1, 7), (7, 1), (5, 17), (33, 65), (130, 257), (0, 3), (3, 0)]


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.int64, np.int32])
def test_matvec(dt):
    for m, n in SIZES:
        for stack in ((), (3,)):
            a = _data(stack + (m, n), dt)
            v = _data((2 * n,), dt)
            _check(_mv, a, v[::2])                       # (a strided vector)
            _check(_mv, a, v[:n])
            if not stack:
                _check(_mv, np.asfortranarray(a), v[:n])
            if np.dtype(dt).kind != "c":
                b = _data(stack + (n, m), dt)
                _check(_vm, v[:n], b)
                _check(_vm, v[::2], b)
                if not stack:
                    _check(_vm, v[:n], np.asfortranarray(b))


def test_ints_any_layout_and_mixed():
    a = _data((4, 6, 5), np.int64)[:, ::2, ::-1]
    _check(_mv, a, _data((5,), np.int32))
    _check(_vm, _data((3,), np.int16), a)
    _check(_mv, np.asfortranarray(_data((2, 4, 3), np.int32)), _data((3,), np.uint8))


def test_errors():
    _check(_mv, np.ones((3, 4)), np.ones(5))              # ValueError: core dimension
    _check(_vm, np.ones(5), np.ones((3, 4)))
    _check(_mv, np.ones((2, 3, 4), np.int64), np.ones(3, np.int64))


def _reason(f, *args):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = jit(f)(*args)
    want = f(*args)
    assert got.tobytes() == want.tobytes()
    return " ".join(str(x.message) for x in w)


def test_fallbacks():
    a = _data((6, 5), np.float64)
    v = _data((5,), np.float64)
    assert "strided" in _reason(_mv, a[::2], v)
    assert "Fortran" in _reason(_mv, np.asfortranarray(np.stack([a, a])), v)
    assert "complex" in _reason(_vm, v.astype(complex), a.T.astype(complex))
    assert "stack of vectors" in _reason(_mv, a, np.stack([v, v]))
    assert "one float" in _reason(_mv, a, v.astype(np.float32))
