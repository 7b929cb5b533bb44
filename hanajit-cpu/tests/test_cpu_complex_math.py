"""NumPy's complex math functions (np.exp, np.log, np.sqrt, trigonometric and
hyperbolic functions and their inverses of complex values) compiled as the C
library's cexp, clog ... and compared with NumPy bit for bit: arrays, NumPy
scalars and Python complex numbers, complex128 and complex64, over a grid of
special values (signed zeros, infinities, NaNs, huge and tiny parts) and random
values of wide magnitude."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.sourcefile import load_module

NAMES = ["exp", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin",
         "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "log2", "log10", "exp2", "expm1", "log1p"]

MODULE = load_module("import numpy as np\n" + "".join(
    f"def f_{n}(z):\n    return np.{n}(z)\n\n\n"
    f"def loop_{n}(z):\n    out = np.empty_like(z)\n    for i in range(len(z)):\n"
    f"        out[i] = np.{n}(z[i])\n    return out\n\n\n" for n in NAMES), "complex_math")


def _values(dtype):
    special = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-300, 1e-40, 1e300, 88.0, -750.0,
               np.inf, -np.inf, np.nan]
    rng = np.random.default_rng(11)
    r = rng.standard_normal((2, 3000)) * np.exp(rng.uniform(-12, 12, (2, 3000)))
    with np.errstate(all="ignore"):
        grid = np.array([complex(a, b) for a in special for b in special], dtype)
        return np.concatenate([grid, (r[0] + 1j * r[1]).astype(dtype)])


def _bits_equal(got, want):
    f = want.real.dtype
    ints = np.uint32 if f == np.float32 else np.uint64
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        nan = np.isnan(w)
        if not np.array_equal(nan, np.isnan(g)):
            return False
        if not np.array_equal(g[~nan].view(ints), w[~nan].view(ints)):
            return False
    return True


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("name", NAMES)
def test_array_and_element_calls_are_numpys_bit_for_bit(name, dtype):
    z = _values(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
        got = jit(getattr(MODULE, f"f_{name}"))(z)
        got_loop = jit(getattr(MODULE, f"loop_{name}"))(z)
    assert got.dtype == want.dtype and got_loop.dtype == want.dtype
    assert _bits_equal(got, want)
    assert _bits_equal(got_loop, want)


def rotate(theta, n):
    out = np.empty(n, np.complex128)
    for k in range(n):
        out[k] = np.exp(1j * theta * k)          # a Python complex argument
    return out


def dft(x):
    n = len(x)
    out = np.zeros(n, np.complex128)
    for k in range(n):
        s = 0j
        for t in range(n):
            s += x[t] * np.exp(-2j * np.pi * k * t / n)
        out[k] = s
    return out


def test_kernels_with_complex_exponentials():
    np.testing.assert_array_equal(jit(rotate)(0.3, 50), rotate(0.3, 50))
    x = np.random.default_rng(2).standard_normal(48)
    np.testing.assert_array_equal(jit(dft)(x), dft(x))
    np.testing.assert_allclose(jit(dft)(x), np.fft.fft(x), atol=1e-12)
