"""``np.prod`` of complex arrays along an axis, and of views of any strides as a
whole, as NumPy computes it bit for bit (``statistics/complex_products.py``):
NumPy's iterator order from ``1 + 0j``, products rounded as its reduce loop
(plain) where the innermost axis is reduced and as its multiply loop (fused on
FMA hosts) where a kept axis is innermost; float products of views as a whole in
the iterator's order too."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.sourcefile import load_module

AXES = [None, 0, 1, 2, -1]
_FNS = load_module("import numpy as np\n" + "".join(
    f"def along_{k}(x):\n    return np.prod(x, axis={a})\n"
    f"def kept_{k}(x):\n    return np.prod(x, axis={a}, keepdims=True)\n"
    for k, a in enumerate(AXES)), "prod_axes")


_JITTED = {}


def _jitted(fn):
    """One jitted function per kernel: the views of one type share its code."""
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn)
    return _JITTED[fn]


def _views(x):
    return {"C": x, "F": np.asfortranarray(x), "T": x.T, "stepped": x[::2],
            "reversed": x[::-1], "reversed last": x[..., ::-1],
            "swapped": np.swapaxes(x, 0, 1)}


def _check(fn, x):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        got = _jitted(fn)(x)
        want = fn(x)
    assert type(got) is type(want)
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.tobytes() == want.tobytes(), x.strides


@pytest.mark.parametrize("k", range(len(AXES)))
@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_products_along_axes(k, dtype):
    rng = np.random.default_rng(k)
    for shape in [(3, 4, 5), (1, 6, 2), (7, 1, 9), (2, 3, 40)]:
        x = ((1 + rng.standard_normal(shape) * 0.3)
             + 1j * rng.standard_normal(shape) * 0.3).astype(dtype)
        x.flat[rng.integers(x.size)] = complex(np.inf, 1.0)    # special values on the way
        for v in _views(x).values():
            _check(getattr(_FNS, f"along_{k}"), v)
        _check(getattr(_FNS, f"kept_{k}"), x[::-1])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_products_of_views_as_a_whole(dtype):
    rng = np.random.default_rng(3)
    for shape in [(3, 4, 5), (90, 200), (7, 1, 9)]:
        x = (1 + rng.standard_normal(shape) * 0.01).astype(dtype)
        for v in _views(x).values():
            _check(_FNS.along_0, v)          # (AXES[0]: None, the whole array)
            _check(_FNS.kept_0, v)
