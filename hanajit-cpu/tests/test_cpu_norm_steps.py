"""``np.linalg.norm`` along axes as NumPy's ``norm`` computes it, bit for bit
(``statistics/norm_steps.py``): its temporaries' elements as NumPy's loops
compute them, its sums in NumPy's order for every layout and dtype.

One documented exception: on AVX-512 hosts NumPy's float power loop is its own
SIMD ``pow``, not C's, and orders other than 0.5, 1, 2, -1, inf and 0 take it;
there the norm is within 4 ulp of NumPy's (docs/semantics.md)."""
import functools
import math
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.sourcefile import load_module

INF = np.inf
VECTOR_ORDS = [None, 2, 1, 3, 0.5, -1, 2.5, INF, -INF, 0]
MATRIX_ORDS = [None, "fro", 1, -1, INF, -INF]


_JITTED = {}


def _jitted(fn):
    """One jitted function per kernel: the views of one type share its code."""
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn)
    return _JITTED[fn]


def _norm(ord, axis, keepdims):
    src = ("import numpy as np\n\n\ndef norm(x):\n    return np.linalg.norm("
           f"x, ord={ord!r}, axis={axis!r}, keepdims={keepdims!r})\n").replace(
               "inf", "np.inf")
    return load_module(src, "norm").norm


def _arrays(nd, seed):
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 40 if nd == 2 else 12, size=nd))
    x = rng.standard_normal(shape) * np.exp(rng.uniform(-3, 3, shape))
    z = x + 1j * rng.standard_normal(shape)
    steps = (slice(None, None, 2), slice(None, None, -1)) + (slice(None),) * (nd - 2)
    return {"C": x, "F": np.asfortranarray(x), "stepped": x[steps],
            "int": (x * 7).astype(np.int64), "complex F": np.asfortranarray(z),
            "complex64": z.astype(np.complex64)}


@functools.cache
def _power_is_c_pow():
    """Does NumPy's power loop compute C's ``pow`` on this host (both float types)?"""
    x = np.random.default_rng(3).uniform(0.0, 50.0, 512)
    return all(np.array_equal(np.power(x.astype(t), t(2.5)),
                              [t(math.pow(v, 2.5)) for v in x.astype(t)])
               for t in (np.float64, np.float32))


def _check(fn, x, ord=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # (NumPy's divide by zero)
        warnings.simplefilter("error", HanaJitFallbackWarning)
        want = fn(x)
        got = _jitted(fn)(x)
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if ord in (3, 2.5) and not _power_is_c_pow():
        np.testing.assert_array_max_ulp(got, want, 4)
    else:
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=repr)
@pytest.mark.parametrize("axis", [0, -1])
def test_vector_norms_along_an_axis(ord, axis):
    k = VECTOR_ORDS.index(ord)
    fn = _norm(ord, axis, k % 2 == 1)
    arrays = list(_arrays(2, k).values())
    for j in range(axis % 2, len(arrays), 2):      # (each layout along one axis)
        _check(fn, arrays[j], ord)


@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=repr)
def test_vector_norms_of_1d_arrays(ord):
    rng = np.random.default_rng(5)
    fn = _norm(ord, 0, False)
    for n in (1, 8, 300):
        x = rng.standard_normal(n)
        for v in (x[::-1], x + 1j * x[::-1]):
            _check(fn, v, ord)


@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=repr)
def test_matrix_norms(ord):
    k = MATRIX_ORDS.index(ord)
    axis = [(0, 1), (1, 0)][k % 2]            # (each order one way round)
    fn = _norm(ord, axis, k % 3 == 0)
    for x in _arrays(2, k).values():
        _check(fn, x)


@pytest.mark.parametrize("ord,axis", [(None, (0, 2)), (INF, (2, 0)), (3, 1)])
def test_stacks_of_three_dimensions(ord, axis):
    fn = _norm(ord, axis, axis == 2)
    for x in _arrays(3, 1).values():
        _check(fn, x, ord)
