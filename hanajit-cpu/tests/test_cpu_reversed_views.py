"""Expressions of reversed views (``a[::-1]``, ``np.flip``, ``m[:, ::-1]``): in
the fast copy of their loops the view's innermost stride is the constant minus
one item (``elementwise._stepping_back``), so they load whole vectors and
reverse them; every other stride takes the general copy.  Checked against
NumPy for every dtype kind, steps of -1 and others, lengths 0 and 1,
broadcasting on either side, and 2-D reversals."""
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit


def flip_copy(a):
    return np.flip(a).copy()


def reversed_copy(a):
    return a[::-1].copy()


def reversed_plus(a, b):
    return a[::-1] + b


def stepped(a, b):
    return a[::-2] * 2 + b[: len(a[::-2])][::-1]


def rows_back(m, r):
    return m[:, ::-1] * r


def row_back(m, r):
    return m + r[::-1]


def flip_both(m):
    return np.flip(m) * 3


def part_back(a):
    return a[5:0:-1] + 1


FUNCS = [flip_copy, reversed_copy, reversed_plus, stepped, rows_back, row_back,
         flip_both, part_back]
JITTED = {f.__name__: jit(f, fallback=False) for f in FUNCS}

# every kind and item size (each dtype is a compile of each function): int32 and
# int64 reverse vectors of 4 and 8 bytes as float32 and float64 (or complex64) do
DTYPES = [np.bool_, np.int8, np.uint16, np.float32, np.float64, np.complex64, np.complex128]


def data(rng, dtype, shape):
    x = rng.standard_normal(shape) * 100
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=want.dtype.kind in "fc")


@settings(max_examples=24, deadline=None)
@given(st.sampled_from(DTYPES), st.integers(0, 300), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_matches_numpy(dtype, n, rows, seed):
    rng = np.random.default_rng(seed)
    a, b = data(rng, dtype, n), data(rng, dtype, n)
    m, r = data(rng, dtype, (rows, n)), data(rng, dtype, n)
    for f, args in ((flip_copy, (a,)), (reversed_copy, (a,)), (reversed_plus, (a, b)),
                    (stepped, (a, b)), (rows_back, (m, r)), (row_back, (m, r)),
                    (flip_both, (m,)), (part_back, (a,)), (flip_copy, (m,)),
                    (reversed_plus, (a[::3], b[::3])), (reversed_plus, (m, r)),
                    (rows_back, (m, r[:1])), (rows_back, (m[:, :1], r))):
        if f is rows_back and m.shape[1] != r.shape[0] and 1 not in (m.shape[1], r.shape[0]):
            continue
        same(JITTED[f.__name__](*args), f(*args))


def test_reversed_reads_are_vector_loads():
    """The fast copy of ``np.flip(a).copy()`` loads vectors (and reverses them),
    where a run-time stride left one load per value."""
    g = jit(flip_copy, fallback=False)
    a = np.arange(1000.0)
    same(g(a), flip_copy(a))
    ir = g.inspect_llvm()
    assert re.search(r"load <\d+ x double>", ir)
    assert re.search(r"shufflevector <(\d+) x double> [^,]+, <\d+ x double> poison, "
                     r"<\d+ x i32> <i32 (\d+)", ir)
