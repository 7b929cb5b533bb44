"""``**`` and ``np.power`` of complex arrays and NumPy complex scalars against
NumPy, bit for bit: NumPy's ``npy_cpow`` (integer exponents by squaring, the C
library's cpow otherwise), and the operator's fast paths for a Python int 2 or
-1 and a Python float 0.5 (square, reciprocal, sqrt) -- over special values
(signed zeros, infinities, NaNs) and random ones, complex128 and complex64."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit

SPECIAL = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.5]


def _operands(dtype, seed):
    rng = np.random.default_rng(seed)
    grid = [complex(x, y) for x in SPECIAL for y in SPECIAL]
    r = rng.standard_normal((2, 400)) * np.exp(rng.uniform(-4, 4, (2, 400)))
    with np.errstate(all="ignore"):
        return np.concatenate([np.array(grid), r[0] + 1j * r[1]]).astype(dtype)


def _bits_equal(got, want):
    got, want = np.atleast_1d(got), np.atleast_1d(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    ints = np.uint32 if want.real.dtype == np.float32 else np.uint64
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        nan = np.isnan(w)
        if not (np.array_equal(nan, np.isnan(g))
                and np.array_equal(g[~nan].view(ints), w[~nan].view(ints))):
            return False
    return True


def power_op(a, k):
    return a ** k


def power_np(a, k):
    return np.power(a, k)


def literal_exponents(a):
    return a ** 2, a ** -1, a ** 0.5, a ** 2.0, a ** 3, a ** -7, a ** 1.5j, a ** True


def elementwise(a, b):
    out = np.empty_like(a)
    for i in range(len(a)):
        out[i] = a[i] ** b[i]              # NumPy complex scalars
    return out


EXPONENTS = [2, -1, 0.5, 2.0, 3, -7, 99, 100, 0, 1, 1.5, -0.5, 2j, 1 - 1j,
             np.float64(2.0), np.int64(-1), np.float64(0.5)]


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_power_is_numpys(dtype):
    a = _operands(dtype, 1)
    b = _operands(dtype, 2)[::-1].copy()
    op, fn = jit(power_op), jit(power_np)
    with np.errstate(all="ignore"):
        for k in EXPONENTS + [b]:
            assert _bits_equal(op(a, k), power_op(a, k)), k
            assert _bits_equal(fn(a, k), power_np(a, k)), k
        for got, want in zip(jit(literal_exponents)(a), literal_exponents(a)):
            assert _bits_equal(got, want)
        assert _bits_equal(jit(elementwise)(a, b), elementwise(a, b))


def test_numpy_complex_scalars():
    f = jit(power_op)
    for z in (np.complex128(1.5 - 2j), np.complex64(-0.5 + 3j)):
        for k in (3, 0.5, -2, 1j, np.float64(2.0)):
            with np.errstate(all="ignore"):
                assert _bits_equal(np.asarray(f(z, k), np.asarray(power_op(z, k)).dtype),
                                   power_op(z, k)), (z, k)


def divide(z, x):
    return z / x


def chained(z, x):
    w = z * x              # a Python complex times an np.float64: a Python complex
    return w / 0.0


@pytest.mark.parametrize("func,args", [
    (power_op, (1.5 + 1j, np.float64(np.inf))), (divide, (1 + 1j, np.float64(0.0))),
    (divide, (1 + 1j, np.float64(3.0))), (chained, (1 + 1j, np.float64(2.0))),
    (power_op, (np.complex128(1.5 + 1j), 2.5)), (power_op, (2.0, np.complex128(1j)))])
def test_python_complex_with_numpy_float_keeps_python_semantics(func, args):
    # complex.__truediv__ takes an np.float64 (a float subclass) before NumPy
    # can: Python's result, ZeroDivisionError included; an np.complex128 operand
    # is NumPy's (it subclasses complex, so its reflected method goes first)
    def run(f):
        try:
            with np.errstate(all="ignore"):
                r = f(*args)
            return type(np.asarray(r).item()).__name__, complex(r)
        except Exception as exc:
            return type(exc).__name__, None
    got, want = run(jit(func)), run(func)
    assert got[0] == want[0]
    if want[1] is not None:
        assert np.array_equal(np.array(got[1]), np.array(want[1]), equal_nan=True)
