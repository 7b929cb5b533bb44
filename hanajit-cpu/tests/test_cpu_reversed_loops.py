"""``for x in reversed(...)`` loops (``frontend/reversed_iter.py``): of
``range`` with any start, stop and step (a zero step's ValueError included), of
arrays, views and tuples, and inside ``enumerate``/``zip`` -- against CPython."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.jitted import jitted, jitted_for


def ranged(a, b, c):
    t = 0
    for i in reversed(range(a, b, c)):
        t = t * 7 + i
    return t


def counted(n):
    t = 0
    for i in reversed(range(n)):
        t = t * 3 + i
    return t


def backwards(x):
    out = np.empty(len(x))
    k = 0
    for v in reversed(x):
        out[k] = v
        k += 1
    return out


def numbered(x):
    t = 0
    for i, v in enumerate(reversed(x)):
        t = t * 3 + i * int(v)
    return t


def outcome(f, *args):
    try:
        return "ok", f(*args)
    except ValueError as e:
        return "raise", str(e)


@settings(max_examples=120, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-6, 6))
def test_reversed_ranges(a, b, c):
    assert outcome(jitted(ranged, fallback=False), a, b, c) == outcome(ranged, a, b, c)


@pytest.mark.parametrize("n", [-2, 0, 1, 7])
def test_reversed_range_of_a_count(n):
    assert jitted(counted, fallback=False)(n) == counted(n)


@pytest.mark.parametrize("x", [np.arange(5.0), np.array([]), np.arange(9.0)[::3],
                               np.arange(4.0)[::-1]])
def test_reversed_arrays(x):
    assert np.array_equal(jitted_for(backwards, (x,), fallback=False)(x), backwards(x))
    assert jitted_for(numbered, (x,), fallback=False)(x) == numbered(x)


def test_reversed_tuples():
    assert jit(numbered, fallback=False)((1, 2, 3)) == numbered((1, 2, 3))
