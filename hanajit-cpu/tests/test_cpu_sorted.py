"""``sorted(...)`` of numbers (``frontend/sorted_lists.py``): assigned to a name
that is only read, returned, or looped over, compared with CPython: values and
types, of a returned list's items too (NumPy scalars where the interpreter's are).
Stability shows in the order of ``-0.0`` and ``0.0``."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit
from hypothesis import given, settings
from hypothesis import strategies as st


def returned(a):
    return sorted(a)


def returned_reversed(a):
    return sorted(a, reverse=True)


def median_low(a):
    s = sorted(a)
    return s[(len(s) - 1) // 2], len(s)


def weighted_ranks(a):
    t = 0.0
    for k, v in enumerate(sorted(a, reverse=True)):
        t += v * (k + 1)
    return t


def squares(a):
    return sorted(x * x for x in a)


def positives_descending(a):
    xs = [v for v in a if v > 0]
    return sorted(xs, reverse=True)


def of_a_comprehension(n):
    xs = [i * 7 % 11 - 5 for i in range(n)]
    s = sorted(xs)
    return s[0] + s[-1] if s else 0


def spread(a):
    s = sorted(a, reverse=True)
    return s[0] - s[-1]


def of_range(n):
    return sorted(range(n, -n, -3))


def of_tuple(t):
    return sorted(t, reverse=True)


def keyed(a):
    return sorted(a, key=lambda v: (v > 1, v))    # tuple keys (key= of numbers compiles)


def item_types(a):
    s = sorted(a)
    # an int32 item with a float32 is float64; a Python int's would be float32
    return s[0] + np.float32(1), s[-1] * 2


JIT = {f: jit(f) for f in (returned, returned_reversed, median_low, weighted_ranks, squares,
                           positives_descending, of_a_comprehension, spread, of_range,
                           of_tuple, keyed, item_types)}


def _key(v):
    """A value as the caller sees it, item types included; floats compared with
    their sign."""
    if isinstance(v, (list, tuple)):
        return type(v), [_key(x) for x in v]
    if isinstance(v, np.generic):
        return "numpy", type(v), v.tobytes()
    if isinstance(v, float):
        return float, np.float64(v).tobytes()
    return type(v), v


def same(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = JIT[f](*args)
    with np.errstate(all="ignore"):
        want = f(*args)
    assert _key(got) == _key(want), (f.__name__, args, got, want)


values = st.lists(st.sampled_from([0.0, -0.0, 1.5, -2.0, 3.0, np.inf, -np.inf, 7.25]),
                  max_size=40)


@settings(max_examples=15, deadline=None)
@given(values, st.sampled_from([np.float64, np.float32, np.int64, np.int8, np.uint16,
                                np.bool_]))
def test_arrays_match_cpython(items, dtype):
    with np.errstate(invalid="ignore", over="ignore"):
        a = np.array(items).astype(dtype)
    for f in (returned, returned_reversed, squares, positives_descending):
        same(f, a)
    for f in (weighted_ranks, spread):
        if a.size and a.dtype.kind == "f":
            same(f, a)
    if a.size:
        same(median_low, a)


def test_views_and_python_numbers():
    a = np.array([2.0, -0.0, 0.0, -1.0, 0.0, -0.0, 5.0])
    same(returned, a[::-2])
    same(returned_reversed, a[::-1])
    for n in (0, 1, 5, 12):
        same(of_a_comprehension, n)
        same(of_range, n)
    same(of_tuple, (3, -1, 2, 2, 0))
    same(of_tuple, (0.0, -0.0, 0.5))
    same(item_types, np.array([3, 1], np.int32))
    same(item_types, np.array([3.5, 1.0], np.float32))


def test_empty():
    same(returned, np.zeros(0))
    same(returned_reversed, np.zeros(0, np.int8))


def test_nan_reruns_in_the_interpreter():
    """Where a NaN goes is CPython's merge algorithm's: the call re-runs."""
    a = np.array([1.0, np.nan, 0.0, -3.0])
    got, want = JIT[returned](a), returned(a)
    assert _key(got) == _key(want)          # the interpreter's own list
    assert JIT[spread](np.array([np.nan, 1.0])) is not None


@pytest.mark.parametrize("f, args, words", [
    (keyed, (np.arange(3.0),), "sorted"),
    (returned, (np.array([1j, 2.0]),), "complex numbers are not ordered"),
])
def test_unsupported_forms_fall_back(f, args, words):
    with pytest.warns(HanaJitFallbackWarning, match=words):
        got = jit(f)(*args) if f is not returned else jit(returned)(*args)
    assert got is not None
