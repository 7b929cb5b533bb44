"""ndarray subclasses as arguments: np.memmap compiles as an array (results of
operations are ndarrays, views stay memmaps, as in NumPy); subclasses that change
operators or indexing (np.matrix, np.recarray, masked arrays) run in the
interpreter with the reason.  Before, any object of a ``numpy`` type with a
``dtype`` was taken for a NumPy scalar (a 1-element bool memmap gave 2)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.typing_rules import typeof
from hanajit.ir import types as T
from hanajit.testing.jitted import jitted


def add(x, y):
    return x + y


def tail(x):
    return x[1:]


def scale(x, k):
    for i in range(x.shape[0]):
        x[i] *= k


def first(x):
    return x[0]


@pytest.fixture
def memmaps(tmp_path):
    m = np.memmap(tmp_path / "f.dat", dtype=np.float64, mode="w+", shape=(5,))
    m[:] = [1.0, -0.0, 2.5, np.nan, 4.0]
    b = np.memmap(tmp_path / "b.dat", dtype=np.bool_, mode="w+", shape=(1,))
    b[0] = True
    return m, b


def _same(got, want):
    assert type(got) is type(want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    else:
        assert got == want or (got != got and want != want)


@pytest.mark.parametrize("fn, args", [
    (add, lambda m, b: (b, b)),             # array([ True]), not 2
    (add, lambda m, b: (m, 1.0)),
    (add, lambda m, b: (m, m)),
    (tail, lambda m, b: (m,)),
])
def test_memmap_arguments_compile_as_arrays(memmaps, fn, args):
    a = args(*memmaps)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = jitted(fn, fallback=False)(*a)
    _same(got, fn(*a))


def test_an_element_of_a_memmap(memmaps):
    m, _ = memmaps
    # as of any float64 array: a Python float (docs/semantics.md, "NumPy scalars")
    assert jitted(first, fallback=False)(m) == 1.0


def test_a_view_of_a_memmap_is_a_memmap_of_the_same_file(memmaps):
    m, _ = memmaps
    got = jitted(tail, fallback=False)(m)
    assert isinstance(got, np.memmap) and got.filename == m.filename
    got[0] = 7.0
    assert m[1] == 7.0


def test_writes_land_in_the_mapped_file(memmaps, tmp_path):
    m, _ = memmaps
    jitted(scale, fallback=False)(m, 2.0)
    m.flush()
    back = np.fromfile(tmp_path / "f.dat", dtype=np.float64)
    assert back[0] == 2.0 and back[4] == 8.0


def _matrix():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix([[1.0, 2.0], [3.0, 4.0]])


@pytest.mark.parametrize("make, name", [
    (_matrix, "numpy.matrix"),
    (lambda: np.arange(3.0).view(np.recarray), "recarray"),
    (lambda: np.ma.masked_array([1.0, 2.0], mask=[False, True]), "MaskedArray"),
])
def test_subclasses_that_change_operators_fall_back_with_the_reason(make, name):
    x = make()
    f = jit(add)
    with pytest.warns(HanaJitFallbackWarning, match=f"{name}.*ndarray subclass"):
        got = f(x, x)
    want = add(x, x)
    assert type(got) is type(want)
    assert np.array_equal(np.asarray(got), np.asarray(want), equal_nan=True)


def test_numpy_scalars_are_still_scalars():
    assert typeof(np.float32(1.5)) == T.FLOAT32
    assert typeof(np.bool_(True)) == T.BOOL
    assert typeof(np.uint8(3)) == T.UINT8
    assert typeof(np.array(1.0)) == T.ArrayType(T.FLOAT64, 0, "C")
