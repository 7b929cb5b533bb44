"""``np.i0`` compiled, against NumPy 2: NumPy's own steps (abs, the two
Chebyshev series, ``exp``, ``sqrt``) in float64 and float32, integers and bools
as float64, N-D and strided inputs, a number giving a 0-d array, the boundary
``|x| == 8``, zeros, infinities and NaN.  Every step but ``exp`` rounds
correctly and the compiled ``i0`` calls the C library's ``exp``/``expf``, so the
results are NumPy's bits wherever NumPy's ``exp`` (its own SIMD code on AVX-512
hosts) equals the C library's on ``abs(x)``; elsewhere within 4 ulp (the two
exps' difference, at most about 2 ulp, and the last product's and quotient's
roundings)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit.errors import HanaJitError
from hanajit.testing.jitted import jitted

RNG = np.random.default_rng(11)


def i0(x):
    return np.i0(x)


def _libm_exp(a):
    """The C library's ``exp`` (``expf`` for float32) of each item of ``a``."""
    import ctypes
    c = ctypes.c_double if a.dtype == np.float64 else ctypes.c_float
    fn = getattr(ctypes.CDLL("libm.so.6"), "exp" if a.dtype == np.float64 else "expf")
    fn.restype, fn.argtypes = c, [c]
    return np.array([fn(v) for v in a.tolist()], a.dtype)


def _numpy(fn, x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            return fn(x)


def _check(x):
    got = jitted(i0, fallback=False)(x)
    want = _numpy(i0, x)
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    g, w = got.reshape(-1), want.reshape(-1)
    xs = np.asarray(x, dtype=w.dtype).reshape(-1)
    a = np.abs(xs)
    e_got, e_want = _libm_exp(a), _numpy(np.exp, a)
    rows = g.size

    def same(a, b):
        n = a.itemsize
        return (a.view(np.uint8).reshape(rows, n) == b.view(np.uint8).reshape(rows, n)).all(1)
    exact = same(e_got, e_want)
    assert same(g, w)[exact].all()
    rest = ~exact & np.isfinite(w)
    ulp = np.spacing(np.abs(w[rest]))
    assert (np.abs(g[rest] - w[rest]) <= 4 * ulp).all()
    assert (np.isnan(g) == np.isnan(w)).all()
    return exact


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_floats(dt):
    x = np.concatenate([RNG.uniform(-60, 60, 3000), RNG.uniform(-9, 9, 2000),
                        [0.0, -0.0, 8.0, -8.0, np.nextafter(8.0, 9), np.nextafter(8.0, 7),
                         1e-300, 700.0, 710.0, np.inf, -np.inf, np.nan]]).astype(dt)
    exact = _check(x)
    assert exact.mean() > 0.3           # (most exps agree: the comparison means something)
    _check(x[:3000].reshape(30, 100)[::-3, ::2])
    _check(np.asfortranarray(x[:3000].reshape(30, 100)))
    _check(x[:0])


def test_integers_bools_and_numbers():
    _check(np.arange(-20, 20, dtype=np.int32))
    _check(np.arange(12, dtype=np.uint8).reshape(3, 4))
    _check(np.array([True, False]))
    _check(0.5)
    _check(np.float32(3.0))
    got = jitted(i0, fallback=False)(3)
    assert type(got) is np.ndarray and got.shape == () and got.dtype == np.float64


def test_lists():
    def on_list():
        return np.i0([0.0, 1.0, 9.0])
    np.testing.assert_array_equal(jitted(on_list, fallback=False)(), on_list())


@pytest.mark.parametrize("x, why", [(np.array([1j]), "complex"),
                                    (np.array([1.0], np.float16), "float16")])
def test_falls_back(x, why):
    from hanajit import jit
    with pytest.raises(HanaJitError, match=why):
        jit(i0, fallback=False)(x)
