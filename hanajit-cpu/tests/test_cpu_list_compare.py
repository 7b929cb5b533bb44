"""Lists compared: ``out == [1, 2]``, ``out != other``, ``out < other`` ... of
growable lists (frontend/growable_lists.py ``compare``; a display compared is a
list of its own, frontend/hoisted_calls.py), against the interpreter: CPython's
lexicographic rules, its result types (a NumPy bool where NumPy items decide an
ordering: re-run in the interpreter), NaN items (identity first: re-run)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check


def python_floats(x, y):
    a = [float(v) for v in x]
    b = []
    for v in y:
        b.append(float(v))
    return a == b, a != b, a < b, a <= b, a > b, a >= b, a == a, a < a


def numpy_items(x, y):
    a = list(x)
    b = list(y)
    return a == b, a != b, a < b, a <= b, a > b, a >= b


def ints_and_floats(x, y):
    a = [int(v) for v in x]
    b = [float(v) for v in y]
    return a == b, a < b, b >= a


def displays(x):
    out = [int(v) for v in x]
    return out == [1, 2], [1, 2] != out, out < [1, 3], out >= [], [] < out, \
        out > [0, -1, 5]


_PF = jit(python_floats, fallback=False)
_NI = jit(numpy_items, fallback=False)
_IF = jit(ints_and_floats, fallback=False)


def _same_outcome(jf, f, *args):
    got, want = outcome(jf, *args), outcome(f, *args)
    assert got[0] is want[0] and same(got[1], want[1]), (args, got, want)


CASES = [([], []), ([1.0], []), ([1.0, 2.0], [1.0, 2.0]), ([1.0, 2.0], [1.0, 3.0]),
         ([1.0, 2.0], [1.0]), ([-0.0], [0.0]), ([np.nan], [np.nan]), ([1.0, np.nan], [2.0]),
         ([np.inf, 1.0], [np.inf, 0.5]), ([2.0**60, 3.0], [2.0**60 + 2**10])]


@pytest.mark.parametrize("x,y", CASES)
def test_floats_like_cpython(x, y):
    x, y = np.array(x, np.float64), np.array(y, np.float64)
    _same_outcome(_PF, python_floats, x, y)
    _same_outcome(_NI, numpy_items, x, y)
    _same_outcome(_NI, numpy_items, x.astype(np.float32), y.astype(np.float32))
    _same_outcome(_IF, ints_and_floats, np.nan_to_num(x, posinf=7, neginf=-7).astype(np.int64), y)


def test_displays_and_ints():
    check(displays, (np.array([1, 2]),), (np.array([1, 2, 3]),), (np.array([], np.int64),),
          (np.array([0, -1, 5]),), (np.array([2**62, 0]),))
    _same_outcome(_NI, numpy_items, np.array([1, 2], np.int32), np.array([1, 3], np.int32))
    _same_outcome(_NI, numpy_items, np.array([True, False]), np.array([True]))
    _same_outcome(_IF, ints_and_floats, np.array([2**53 + 1]), np.array([2.0**53]))


def complex_order(x):
    a = list(x)
    b = [1j]
    return a == b, a < b


def with_an_array(x):
    a = list(x)
    return a == x


def test_what_falls_back():
    with pytest.raises(UnsupportedError, match="ordering lists of complex"):
        jit(complex_order, fallback=False)(np.array([1j]))
    with pytest.raises(UnsupportedError, match="not known to be a list"):
        jit(with_an_array, fallback=False)(np.array([1.0]))


_floats = st.lists(st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.0, np.nan, np.inf]), max_size=4)


@settings(max_examples=80, deadline=None)
@given(_floats, _floats)
def test_random_lists_like_cpython(x, y):
    x, y = np.array(x, np.float64), np.array(y, np.float64)
    _same_outcome(_PF, python_floats, x, y)
    _same_outcome(_NI, numpy_items, x, y)
