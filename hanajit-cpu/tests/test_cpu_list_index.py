"""List displays as indices (``a[[0, 2]]``): NumPy reads them as ``np.array`` of
the list, so they gather, scatter and mask exactly as index arrays do."""
import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.jitted import jitted


def gather(a):
    return a[[0, 2, 1, -1]]


def gather_rows(m):
    return m[[1, 0, 1]]


def gather_pairs(m):
    return m[[0, 1, -1], [1, 0, 2]]


def gather_cols(m):
    return m[1:, [0, 2]]


def gather_scalar_and_list(m, i):
    return m[i, [2, 0]]


def gather_2d_index(a):
    return a[[[0, 1], [2, 0]]]


def mask_list(a):
    return a[[True, False, True, False]]


def scatter(a, v):
    a[[0, 2]] = v
    return a


def scatter_rows(m):
    m[[0, -1]] = 7.0
    return m


def aug_scatter(a):
    a[[0, 0, 1]] += 1      # NumPy: buffered, a repeated index is updated once
    return a


def out_of_bounds(a):
    return a[[0, 9]]


def from_variables(a, i, j):
    return a[[i, j, i]]


CASES = [
    (gather, lambda: (np.arange(5.0),)),
    (gather, lambda: (np.arange(10, dtype=np.int32)[::2],)),
    (gather_rows, lambda: (np.arange(12.0).reshape(3, 4),)),
    (gather_rows, lambda: (np.asfortranarray(np.arange(12.0).reshape(3, 4)),)),
    (gather_pairs, lambda: (np.arange(12).reshape(3, 4),)),
    (gather_cols, lambda: (np.arange(12.0).reshape(3, 4),)),
    (gather_scalar_and_list, lambda: (np.arange(12.0).reshape(3, 4), -1)),
    (gather_2d_index, lambda: (np.arange(4.0) * 1.5,)),
    (mask_list, lambda: (np.arange(4.0),)),
    (scatter, lambda: (np.zeros(4), 2.5)),
    (scatter_rows, lambda: (np.zeros((3, 2)),)),
    (aug_scatter, lambda: (np.zeros(3, dtype=np.int64),)),
    (out_of_bounds, lambda: (np.arange(5.0),)),
    (from_variables, lambda: (np.arange(5.0), 3, -2)),
    (from_variables, lambda: (np.arange(5.0), 7, 0)),
]


@pytest.mark.parametrize("fn,make", CASES,
                         ids=[f"{fn.__name__}-{k}" for k, (fn, _) in enumerate(CASES)])
def test_list_index_matches_numpy(fn, make):
    # fresh arguments for each side (``make`` keeps strided and F-ordered layouts)
    want_args, got_args = make(), make()
    try:
        want = fn(*want_args)
    except IndexError:
        with pytest.raises(IndexError):
            jitted(fn, fallback=False)(*got_args)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            got = jitted(fn, fallback=False)(*got_args)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    for g, w in zip(got_args, want_args):
        if isinstance(w, np.ndarray):
            np.testing.assert_array_equal(g, w)


def empty(a):
    return a[[]]


def empty_pairs(m):
    return m[[], []], m[:, []], m[[], 1], m[[]]


def empty_store(a):
    a[[]] = 5
    a[[]] += 1
    return a


@pytest.mark.parametrize("fn, make", [
    (empty, lambda: (np.arange(3.0),)),
    (empty, lambda: (np.zeros(0, np.int8),)),
    (empty_pairs, lambda: (np.arange(12.0).reshape(3, 4),)),
    (empty_store, lambda: (np.arange(3),)),
])
def test_empty_list_index_is_an_empty_integer_array(fn, make):
    # NumPy indexes with np.array([], dtype=np.intp): empty gathers of the right
    # shape and dtype, stores that change nothing
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = jit(fn)(*make())
    want = fn(*make())
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)


# ----------------------------------------------------- boolean scalars as indices
def bool_index(a, b):
    return a[b]


def bool_and_int(m, b):
    return m[b, 1]


def bool_of_compare(a, x):
    return a[x > 0]


def bool_store(a, b):
    a[b] = 7.0
    return a


@pytest.mark.parametrize("fn,args", [
    (bool_index, (np.arange(3.0), True)),
    (bool_index, (np.arange(3.0), False)),
    (bool_index, (np.arange(3.0), np.True_)),
    (bool_of_compare, (np.arange(3.0), 2.5)),
    (bool_store, (np.arange(3.0), False)),
    (bool_store, (np.arange(3.0), True)),
    (bool_and_int, (np.arange(6.0).reshape(2, 3), True)),
])
def test_boolean_scalar_index_is_a_mask_not_an_integer(fn, args):
    # NumPy reads a[True] as a 0-d mask (a new axis, a copy), never as a[1]: a
    # boolean number as the whole index compiles (test_cpu_bool_index.py); with
    # other indices (m[b, 1]) it runs in the interpreter, with a warning
    want_args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = fn(*want_args)
    if fn is bool_and_int:
        with pytest.warns(HanaJitFallbackWarning, match="boolean scalar"):
            got = jit(fn)(*args)
    else:
        got = jitted(fn, fallback=False)(*args)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(args[0], want_args[0])
