"""Complex products of arrays read backwards, rounded as NumPy rounds them: on
AVX-512 NumPy's complex64 multiply/square loops take their plain scalar code when
a 1-D input runs backwards (unless every operand does, output included: it then
turns the loop around), and their fused-multiply-add SIMD code otherwise
(``product_forms.reversed_operands``); with more dimensions a backwards operand
re-runs the call in the interpreter.  complex128 is the same code either way."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.jitted import jitted


def mul(x, y):
    return x * y


def multiply(x, y):
    return np.multiply(x, y)


def imul(x, y):
    x *= y
    return x


def square(x):
    return np.square(x)


def power2(x):
    return x ** 2


def multiply_out(x, y, o):
    np.multiply(x, y, out=o)
    return o


rng = np.random.default_rng(8)


def values(dtype, n):
    return (rng.standard_normal(n) * 10 + 1j * rng.standard_normal(n) * 10).astype(dtype)


def backwards(a):
    """A backwards view of a copy of ``a`` (same values in the same order)."""
    return np.array(a[::-1])[::-1]


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_one_dimensional_layouts(dtype):
    x, y = values(dtype, 301), values(dtype, 301)
    for a in (x, backwards(x), x[::3], backwards(x)[::2]):
        for b in (y, backwards(y), y[::3], backwards(y)[::2], y[7]):
            if np.ndim(b) and len(b) != len(a):
                b = b[:len(a)] if len(b) > len(a) else b
                if len(b) != len(a):
                    continue
            for fn in (mul, multiply):
                assert np.array_equal(jitted(fn, fallback=False)(a, b), fn(a, b))
            a1, a2 = np.array(a), np.array(a)
            v1 = a1 if a.strides[0] > 0 else a1[::-1]
            v2 = a2 if a.strides[0] > 0 else a2[::-1]
            v1[...] = a
            v2[...] = a
            imul(v1, b)
            jitted(imul, fallback=False)(v2, b)
            assert np.array_equal(a1, a2)
        for fn in (square, power2):
            assert np.array_equal(jitted(fn, fallback=False)(a), fn(a))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_output_runs_backwards(dtype):
    x, y = values(dtype, 64), values(dtype, 64)
    for xa, yb in ((x, y), (backwards(x), backwards(y)), (backwards(x), y)):
        o1, o2 = np.zeros(128, dtype), np.zeros(128, dtype)
        multiply_out(xa, yb, o1[63::-1])
        jitted(multiply_out, fallback=False)(xa, yb, o2[63::-1])
        assert np.array_equal(o1, o2)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_two_dimensional_layouts(dtype):
    X = values(dtype, 40 * 30).reshape(40, 30)
    Y = values(dtype, 40 * 30).reshape(40, 30)
    for a, b in ((X, Y), (X[:, ::-1], Y[:, ::-1]), (X[::-1, ::-1], Y[::-1, ::-1]),
                 (X.T, Y.T), (X[::-1], Y), (X, Y[0, ::-1])):
        assert np.array_equal(jitted(mul)(a, b), a * b)     # (re-run when backwards)
        assert np.array_equal(jitted(square)(a), np.square(a))


def square_out(x, o):
    np.square(x, out=o)
    return o


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_one_element_of_operands_of_different_dimensions(dtype):
    """A result of one element from arrays of different dimensions (``(1, 1) *
    (1,)``, in place, into ``out=``) is NumPy's plain scalar product, not its
    SIMD one; same dimensions, a 0-d operand, or more elements: the SIMD one
    (``product_forms.one_element_broadcast``; measured: they differ in the last
    bit for about half of all products)."""
    fm, fmul, fim = jitted(mul), jitted(multiply), jitted(imul)
    fout, fsq = jitted(multiply_out), jitted(square_out)
    for _ in range(40):
        x, y = values(dtype, 1) * 1000, values(dtype, 1)
        for a, b in ((x.reshape(1, 1), y), (x, y.reshape(1, 1, 1)),
                     (x.reshape(1, 1), y.reshape(1, 1)), (x.reshape(1, 1), y.reshape(())),
                     (x.reshape(1, 1)[:, ::-1], y), (np.repeat(x, 3).reshape(3, 1), y)):
            for f, g in ((mul, fm), (multiply, fmul)):
                assert_same(g(a, b), f(a, b))
            if np.ndim(b) <= a.ndim:
                assert_same(fim(a.copy(), b), imul(a.copy(), b))
        for a, b, o in ((x, y, np.empty((1, 1), dtype)), (x.reshape(1, 1), y.reshape(1, 1),
                                                          np.empty((1, 1), dtype))):
            assert_same(fout(a, b, o.copy()), multiply_out(a, b, o.copy()))
        o = np.empty((1, 1), dtype)
        assert_same(fsq(x, o.copy()), square_out(x, o.copy()))


def assert_same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got.real.view(np.uint8), want.real.view(np.uint8))
    assert np.array_equal(got.imag.view(np.uint8), want.imag.view(np.uint8))
