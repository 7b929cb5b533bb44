"""Lists joined and repeated: ``[0] * n``, ``out * 2``, ``2 * out``, ``a + b`` (also
chains ``a + [x] + b``), ``out *= k`` and such values returned
(frontend/growable_lists.py ``_new_joined``; frontend/hoisted_calls.py), against
the interpreter: values, item types, the errors Python raises."""
import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check


def counts(a, n):
    c = [0] * n
    for v in a:
        c[v % n] += 1
    return c


def test_zeros_times_n():
    check(counts, (np.array([1, 5, 2, 2]), 3), (np.array([], np.int64), 2),
          (np.array([], np.int64), 0), (np.array([3]), -1))


def joins(a, k):
    out = list(a)
    b = out * k
    c = k * out
    d = out + [out[0]] + b
    e = [] * 4
    f = [a[0], a[-1]] * 2
    g = f + out
    out = out + out
    return b, c, d, e, f, g, out


def returned(a, k):
    out = [float(v) for v in a]
    more = [1.5]
    more *= k
    return out * 2, out + more, more, out + [] + out


def test_joins_and_repeats():
    check(joins, (np.array([1.5, -2.0]), 2), (np.array([1.5, -0.0, np.nan]), 0),
          (np.array([3, 1], np.int32), -3), (np.array([True, False]), 3))
    check(returned, (np.array([1.5, -2.0]), 2), (np.array([], np.float64), 3),
          (np.array([1, 2]), -1))


def by_float(a):
    out = list(a)
    return out * 1.5


def plus_array(a):
    out = list(a)
    c = out + a
    return c


def test_what_falls_back():
    with pytest.raises(UnsupportedError, match="must be integers"):
        jit(by_float, fallback=False)(np.array([1.0]))
    with pytest.raises(UnsupportedError, match="'c' is not a list held here"):
        jit(plus_array, fallback=False)(np.array([1.0]))
