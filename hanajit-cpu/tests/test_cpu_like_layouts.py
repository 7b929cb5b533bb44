"""``np.zeros_like``/``empty_like``/``ones_like``/``full_like`` keep a Fortran-ordered
argument's layout, as NumPy's ``order='K'`` does (``lib/arrays/creation.py``):
the same shape, dtype, strides and values, and the result written through in
loops.  Other layouts (strided views, known only at run time) give C order, as
NumPy's does for them where the strides do not say otherwise."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit


def zeros(a):
    return np.zeros_like(a)


def empty(a):
    return np.empty_like(a)


def ones_int8(a):
    return np.ones_like(a, dtype=np.int8)


def full(a):
    return np.full_like(a, 2.5)


def filled(a):
    out = np.zeros_like(a)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            out[i, j] = a[i, j] * 2 + i
    return out


def summed_rows(a):
    return np.ones_like(a).sum(axis=1) + a[:, 0]


F = np.asfortranarray(np.arange(12.0).reshape(3, 4))
ARGS = [F, F.T, np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(24.0).reshape(2, 3, 4).T,
        np.arange(5.0)]


@pytest.mark.parametrize("f", [zeros, empty, ones_int8, full])
@pytest.mark.parametrize("k", range(len(ARGS)))
def test_layout_is_numpys(f, k):
    a = ARGS[k]
    want, got = f(a), jit(f, fallback=False)(a)
    assert (got.shape, got.dtype, got.strides) == (want.shape, want.dtype, want.strides)
    assert got.flags.f_contiguous == want.flags.f_contiguous
    assert f is empty or np.array_equal(got, want)


def test_empty_arrays():
    """(NumPy gives an empty result zero strides; hanajit C-ordered ones: no
    element is ever at them.)"""
    for a in (np.asfortranarray(np.ones((0, 5))), np.ones((3, 0), order="F")):
        for f in (zeros, ones_int8, full):
            want, got = f(a), jit(f, fallback=False)(a)
            assert (got.shape, got.dtype) == (want.shape, want.dtype)


@pytest.mark.parametrize("f", [filled, summed_rows])
@pytest.mark.parametrize("k", [0, 1, 2])
def test_written_and_read_in_loops(f, k):
    a = ARGS[k]
    want, got = f(a), jit(f, fallback=False)(a)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    if f is filled:
        assert got.strides == want.strides
