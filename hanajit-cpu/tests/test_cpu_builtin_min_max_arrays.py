"""The builtins ``min(a)`` and ``max(a)`` of one 1-D array, as CPython iterates:
the first item, replaced by a later one only where ``item < current`` (``>``):
a NaN first stays, a later NaN never wins, of equal items (0.0 and -0.0) the
first stays; the result is the array's NumPy scalar; an empty array raises
ValueError.  2-D arrays (CPython compares rows) and complex ones fall back."""
import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError


def lo(a):
    return min(a)


def hi(a):
    return max(a)


def spread(a):
    return max(a) - min(a[::-1])


def in_loop(a):
    t = 0.0
    for k in range(1, a.shape[0] + 1):
        t += max(a[:k])
    return t


JL, JH, JS, JT = (jit(f, fallback=False) for f in (lo, hi, spread, in_loop))


def same(r, e):
    assert type(r) is type(e), (r, e)
    assert np.asarray(r).tobytes() == np.asarray(e).tobytes(), (r, e)


F = np.array([2.5, -1.0, np.nan, 7.0, -0.0, 0.0, 7.0, -np.inf])
CASES = [F, F[::-1], F[1:], F[::2], np.array([np.nan, 1.0, -1.0]),
         np.array([0.0, -0.0]), np.array([-0.0, 0.0]), np.array([4.0]),
         F.astype(np.float32), np.array([3, -1, 4, 1, -5, 9], np.int64),
         np.array([3, -1, 4], np.int32), np.array([200, 10, 255, 0], np.uint8),
         np.array([2**64 - 1, 5], np.uint64), np.array([True, False, True]),
         np.arange(12.0).reshape(3, 4)[:, 1]]


@pytest.mark.parametrize("a", CASES, ids=range(len(CASES)))
def test_like_the_interpreter(a):
    same(JL(a), lo(a))
    same(JH(a), hi(a))
    if a.dtype != np.bool_:                 # (NumPy's bool subtract: TypeError)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)     # (uint8 wraps)
            same(JS(a), spread(a))
    if a.dtype.kind == "f":
        same(JT(a), in_loop(a))


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.uint8, np.bool_])
def test_empty_raises_valueerror(dt):
    a = np.array([], dt)
    for f, j in ((lo, JL), (hi, JH)):
        with pytest.raises(ValueError):
            f(a)
        with pytest.raises(ValueError, match=r"arg is an empty sequence"):
            j(a)


@pytest.mark.parametrize("a, why", [
    (np.ones((2, 3)), r"max\(\) of a 2-D array"),
    (np.array([1 + 2j, 3j]), r"max\(\) of a complex array")])
def test_falls_back_in_plain_words(a, why):
    with pytest.raises(UnsupportedError, match=why):
        jit(hi, fallback=False)(a)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            want = hi(a)
        except ValueError:
            with pytest.raises(ValueError):
                jit(hi)(a)
        else:
            same(jit(hi)(a), want)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)
