"""The array-API names of np.linalg (NumPy 2) against NumPy, bit for bit: each is
NumPy's call of a function hanajit compiles (matrix_transpose, diagonal, trace,
outer, matmul, tensordot, cross, matrix_norm, vector_norm, vecdot, np.vecdot)."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning

L = np.linalg
RNG = np.random.default_rng(3)


def same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


def matrices(x):
    return (L.matrix_transpose(x), L.diagonal(x, offset=1), L.diagonal(x), L.trace(x),
            L.matrix_norm(x), L.matrix_norm(x, ord=1, keepdims=True), L.matrix_norm(x, ord=-np.inf),
            L.vector_norm(x, axis=1, ord=np.inf, keepdims=True), L.vector_norm(x, axis=0))


def vectors(a, b):
    return (L.outer(a, b), L.matmul(a, b), L.tensordot(a, b, axes=1), L.cross(a, b),
            L.vecdot(a, b), np.vecdot(a, b), L.vector_norm(a), L.vector_norm(b, ord=1))


JM, JV = jit(matrices, fallback=False), jit(vectors, fallback=False)


@pytest.mark.parametrize("dt", [np.float64, np.int64])
def test_matrices(dt):
    """float64 compiled for each layout; int64 (its values as float64 in the
    norms, else the same steps) compiled once, for the strided view first,
    which then runs the C and the Fortran array too."""
    x = (RNG.standard_normal((5, 6)) * 4).astype(dt)
    views = (x, np.asfortranarray(x), x[::-1, ::2])
    for v in views if dt == np.float64 else views[::-1]:
        for g, w in zip(JM(v), matrices(v)):
            same(g, w)


@pytest.mark.parametrize("dt", [np.float64, np.float32, np.complex128, np.int32])
def test_vectors(dt):
    a = (RNG.standard_normal(3) * 4).astype(dt)
    b = (RNG.standard_normal(6) * 4).astype(dt)[::2]
    if np.dtype(dt).kind == "c":
        a = a + 1j * a[::-1]
    for g, w in zip(JV(a, b), vectors(a, b)):
        same(g, w)


def test_errors_and_fallbacks():
    a, b = np.ones(4), np.ones(4)
    with pytest.raises(ValueError):
        JV(a, b)
    with pytest.raises(ValueError):
        vectors(a, b)

    def stacked(x):
        return L.outer(x, x)
    x = np.ones((2, 2))
    with pytest.warns(HanaJitFallbackWarning):
        with pytest.raises(ValueError):
            jit(stacked)(x)

    def two(x):                   # (NumPy's LAPACK: test_cpu_linalg_exact_norms.py)
        return L.matrix_norm(x, ord=2)
    same(jit(two, fallback=False)(x), two(x))
