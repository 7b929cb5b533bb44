"""``np.sort``, ``np.argsort``, ``a.sort()`` and ``np.unique`` call NumPy's own sort
functions (``lib/sorting/numpy_sorts.py``): NumPy's SIMD sorts order equal values
(``-0.0`` and ``0.0``, argsort's ties) by the host's vector ISA, so only the same
functions give NumPy's answer bit for bit on every host."""
import ctypes
import re

import numpy as np
import pytest

from hanajit import jit
from hanajit.lib.sorting import numpy_sorts


def sort(a):
    return np.sort(a)


def sort_stable(a):
    return np.sort(a, kind="stable")


def sort_heap(a):
    return np.sort(a, kind="heapsort")


def sort_flat(a):
    return np.sort(a, axis=None)


def sort_axis0(a):
    return np.sort(a, axis=0)


def argsort(a):
    return np.argsort(a)


def argsort_stable(a):
    return np.argsort(a, kind="mergesort")


def argsort_axis0(a):
    return np.argsort(a, axis=0)


def sort_in_place(a):
    a.sort(axis=1)
    return a


def unique(a):
    return np.unique(a)


ONE_D = (sort, sort_stable, sort_heap, sort_flat, argsort, argsort_stable, unique)
TWO_D = (sort_axis0, argsort_axis0, sort_in_place, sort_flat, sort, argsort)
DTYPES = ["float64", "float32", "complex128", "complex64", "int64", "int32", "int16",
          "uint8", "bool"]


def ties(rng, dtype, n):
    """Values with many ties: signed zeros, NaNs, ones and twos."""
    if dtype.startswith("complex"):
        pick = [0.0, -0.0, 1.0, np.nan]
        return (rng.choice(pick, n) + 1j * rng.choice(pick, n)).astype(dtype)
    if dtype.startswith("float"):
        return rng.choice(np.array([0.0, -0.0, 1.0, -1.0, np.nan, 2.5]), n).astype(dtype)
    return rng.integers(0, 3, n).astype(dtype)


JITTED = {f: jit(f, fallback=False) for f in set(ONE_D + TWO_D)}


def same(f, x):
    want = np.asarray(f(x.copy()))
    got = np.asarray(JITTED[f](x.copy()))
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (f.__name__, x, got, want)


# Every 2-D kernel, C-ordered and as views neither C nor F (copied into a
# C-ordered buffer whose lanes NumPy's function sorts), for one dtype of each item
# size and kind: the lanes are walked the same for every dtype of an item size
# (``sort_lanes``), and complex64, int64 and int32 reach their own NumPy functions
# in the 1-D cases and along the last axis of a C-ordered 2-D array
STRIDED_2D = {"float64", "float32", "complex128", "int16", "uint8", "bool"}
TWO_D_EACH = (sort, argsort)


@pytest.mark.parametrize("dtype", DTYPES)
def test_equal_values_in_numpys_order(dtype):
    rng = np.random.default_rng(len(dtype))
    for n in (0, 1, 2, 7, 16, 17, 100, 300, 4000):
        a = ties(rng, dtype, n)
        for f in ONE_D:
            same(f, a)
        m = np.resize(a, (3, n))
        for f in TWO_D if dtype in STRIDED_2D else TWO_D_EACH:
            same(f, m)
            if dtype in STRIDED_2D:
                same(f, np.asfortranarray(m)[:, ::-1])


def test_the_compiled_code_calls_numpys_functions():
    a = ties(np.random.default_rng(1), "float64", 50)
    for f, kind in ((sort, "sort_quick"), (argsort_stable, "argsort_stable")):
        g = JITTED[f]                       # (float64 compiled above or here)
        g(a)
        assert re.search(rf"call [^\n]*@\"?hj\.host\.numpy_{kind}_float64", g.inspect_llvm())


def test_without_numpys_functions_the_values_are_the_same(monkeypatch):
    """A target that cannot call into the process (or another NumPy) sorts with
    hanajit's own algorithms: the same values, equal values in some order."""
    monkeypatch.setattr(numpy_sorts, "usable", lambda L, dtype: False)
    a = np.random.default_rng(2).standard_normal(1000)
    for f in (sort, sort_stable, argsort, unique):
        g = jit(f, fallback=False)
        assert np.array_equal(g(a), f(a))
        assert "numpy_sort" not in g.inspect_llvm()


def test_unknown_kind_falls_back_to_numpys_error():
    def bad(a):
        return np.sort(a, kind="bogus")
    with pytest.warns(Warning, match="sort kind"), pytest.raises(ValueError):
        jit(bad)(np.ones(3))


def test_a_failing_numpy_sort_raises_memory_error(monkeypatch):
    """NumPy's functions return -1 when they cannot allocate their buffers
    (np.sort then raises MemoryError): so does the compiled call, never an
    unsorted result."""
    failing = numpy_sorts._SORT(lambda data, n, arr: -1)
    real = numpy_sorts.address
    monkeypatch.setattr(numpy_sorts, "address", lambda name: (
        ctypes.cast(failing, ctypes.c_void_p).value if name.startswith("numpy_sort_stable")
        else real(name)))
    g = jit(sort_stable, fallback=False)
    with pytest.raises(MemoryError, match="sort's buffers"):
        g(np.arange(5.0)[::-1])
