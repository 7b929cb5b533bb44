"""``np.prod(m, axis=0)`` of complex matrices (and of arrays whose kept axes
merge into one inner run before a reduced one), the products kept as real and
imaginary parts apart (``complex_products._kept_rows``): bits against NumPy's
for complex128 and complex64, C and Fortran order, stepped, reversed and
transposed views, sizes around the vector widths, NaN/inf/signed zeros on the
way, empty axes, ``keepdims`` and the integer and float dtypes beside them."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.sourcefile import load_module

_FNS = load_module("""import numpy as np
def along0(x):
    return np.prod(x, axis=0)
def kept0(x):
    return np.prod(x, axis=0, keepdims=True)
""", "prod_axis_complex")
_J = {name: jit(getattr(_FNS, name), fallback=False) for name in ("along0", "kept0")}


def _check(name, x):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        got = _J[name](x)
        want = getattr(_FNS, name)(x)
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (x.shape, x.strides)


def _data(rng, shape, dt):
    z = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return (z / np.abs(z)).astype(dt)


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_matrices(dt):
    rng = np.random.default_rng(0)
    for shape in [(2, 1), (3, 7), (5, 8), (4, 15), (9, 16), (3, 17), (6, 33), (50, 101),
                  (1, 9), (9, 1)]:
        x = _data(rng, shape, dt)
        for v in (x, np.asfortranarray(x), x[::2], x[:, ::2], x[::-1], x[:, ::-1], x.T,
                  x[1:, 1:]):
            _check("along0", v)
        _check("kept0", x)


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_special_values(dt):
    rng = np.random.default_rng(1)
    x = _data(rng, (6, 40), dt)
    for i, v in enumerate([np.nan, np.inf, -np.inf, complex(np.inf, 1), complex(0, np.nan),
                           0.0, -0.0, complex(-0.0, -0.0), 1e300, 1e-300]):
        y = x.copy()
        with np.errstate(over="ignore"):        # (1e300 is inf in complex64)
            y[i % 6, (7 * i) % 40] = v
        _check("along0", y)


@pytest.mark.parametrize("dt", [np.complex128, np.complex64])
def test_three_axes_merged_kept(dt):
    rng = np.random.default_rng(2)
    x = _data(rng, (5, 3, 11), dt)
    _check("along0", x)
    _check("along0", x[:, ::-1])
    _check("kept0", x)


@pytest.mark.parametrize("dt", [np.complex128, np.complex64, np.float64, np.int64])
def test_empty(dt):
    for shape in [(0, 4), (4, 0), (0, 0)]:
        _check("along0", np.ones(shape, dt))
