"""``range(...)`` inside ``zip``/``enumerate`` of a ``for`` loop
(``for i, v in zip(range(n), a)``, had fallen back: "'range' is not
supported"): its length is the range's (ValueError for a zero step), its items
``start + i * step`` are Python ints; a non-integer bound falls back (CPython
raises TypeError) and so does a NumPy uint64 one."""
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError


def weighted(a, n):
    s = 0.0
    for i, v in zip(range(n), a):
        s += i * v
    return s


def stepped(a, lo, hi, step):
    out = np.zeros(a.shape[0] + 1, np.int64)
    last = -1
    for k, (i, v) in enumerate(zip(range(lo, hi, step), a)):
        out[k] = k * 1000 + v + (i % 7)
        last = i
    return out, last


def last_index(a, n):
    j = -1
    for j, v in enumerate(range(n, 0, -2), 1):
        if v < a[0]:
            break
    else:
        j = -j
    return j, v


def nested_items(a):
    last = -1
    for k, (x, v) in enumerate(zip((1, 2, 3), a)):
        last = x
    return last, k


def three(a, b):
    t = 0.0
    for i, x, y in zip(range(1, 100), a, b):
        t += i * x - y
    return t


A = np.array([3, -1, 4, 1, -5, 9, 2, 6])


def same(r, e):
    assert type(r) is type(e), (r, e)
    if isinstance(e, tuple):
        for u, v in zip(r, e):
            same(u, v)
    else:
        assert np.asarray(r).tobytes() == np.asarray(e).tobytes()


@pytest.mark.parametrize("n", [0, 3, 8, 20, -2, np.int64(5), True])
def test_zip_with_a_range(n):
    same(jit(weighted, fallback=False)(A, n), weighted(A, n))
    same(jit(weighted, fallback=False)(A.astype(np.float32), n),
         weighted(A.astype(np.float32), n))


@pytest.mark.parametrize("lo, hi, step", [(0, 8, 1), (2, 20, 3), (10, -10, -3),
                                          (5, 5, 1), (7, 0, 2), (-2**62, 2**62, 2**61)])
def test_enumerate_of_zip_with_steps(lo, hi, step):
    same(jit(stepped, fallback=False)(A, lo, hi, step), stepped(A, lo, hi, step))


@pytest.mark.parametrize("n", [0, 1, 7, 8])
def test_enumerate_of_a_range_with_else(n):
    for a in (A, A[::-1]):
        if n == 0:          # (v is never bound: UnboundLocalError in both)
            with pytest.raises(UnboundLocalError):
                last_index(a, n)
            with pytest.raises(UnboundLocalError):
                jit(last_index, fallback=False)(a, n)
            continue
        same(jit(last_index, fallback=False)(a, n), last_index(a, n))


def test_nested_tuple_items_keep_their_kind():
    """``k, (x, v)`` of ``enumerate(zip(python_ints, a))``: ``x`` is a Python int
    (it had come back as ``np.int64``: the inner tuple's items were judged
    together)."""
    same(jit(nested_items, fallback=False)(A), nested_items(A))


def test_three_iterables():
    b = np.linspace(0, 1, 5)
    same(jit(three, fallback=False)(A * 0.5, b), three(A * 0.5, b))


def test_zero_step_raises_valueerror():
    with pytest.raises(ValueError, match="must not be zero"):
        stepped(A, 0, 5, 0)
    with pytest.raises(ValueError, match="must not be zero"):
        jit(stepped, fallback=False)(A, 0, 5, 0)


@pytest.mark.parametrize("n, why", [(2.0, "CPython's range takes integers"),
                                    (np.uint64(3), "uint64")])
def test_other_bounds_fall_back(n, why):
    with pytest.raises(UnsupportedError, match=why):
        jit(weighted, fallback=False)(A, n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            want = weighted(A, n)
        except TypeError:
            with pytest.raises(TypeError):
                jit(weighted)(A, n)
        else:
            same(jit(weighted)(A, n), want)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)
