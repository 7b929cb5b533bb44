"""``math.factorial``, ``math.comb`` and ``math.perm`` compiled, against CPython:
values and types (a Python int, of NumPy integers and bools too), CPython's
ValueErrors, results at the edge of int64 (exact) and just beyond it (re-run in
the interpreter, which gives the big int), and the fallback for floats."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.compare import outcome, strict_jit
from hanajit.errors import UnsupportedError


def fact(n):
    return math.factorial(n)


def comb(n, k):
    return math.comb(n, k)


def perm(n, k):
    return math.perm(n, k)


def perms(n):
    return math.perm(n), math.perm(n, None)


jitted = strict_jit


FACT, COMB, PERM, PERMS = jitted(fact), jitted(comb), jitted(perm), jitted(perms)


def test_factorial_within_and_beyond_int64_and_negative():
    for n in [0, 1, 2, 5, 19, 20, 21, 22, 30, -1, -(2**63)]:
        assert outcome(FACT, n) == outcome(fact, n)
        assert outcome(PERMS, n) == outcome(perms, n)


def test_numpy_integers_and_bools_are_taken_by_value():
    for n in [np.int8(5), np.uint16(20), np.int64(21), True, np.int32(-3)]:
        assert outcome(FACT, n) == outcome(fact, n)
    for n, k in [(np.int8(60), np.uint8(30)), (True, False), (np.int16(10), True)]:
        assert outcome(COMB, n, k) == outcome(comb, n, k)
        assert outcome(PERM, n, k) == outcome(perm, n, k)


# central binomials around 2**63 (comb(66, 33) fits, comb(67, 33) does not),
# products around 2**63 (3037000499 * 3037000500 < 2**63 < 3037000500 * 3037000501),
# k beyond n, and CPython's errors (n is checked first)
EDGES = [(60, 30), (62, 31), (66, 33), (67, 33), (68, 34), (67, 30), (100, 10), (100, 11),
         (2**62, 1), (2**62, 2), (2**63 - 1, 1), (2**63 - 1, 0), (3037000500, 2),
         (3037000501, 2), (20, 20), (21, 20), (21, 21), (25, 14), (25, 15), (5, 7), (0, 0),
         (0, 1), (7, 0), (-1, 2), (3, -1), (-1, -1)]


def test_comb_and_perm_at_the_edges_of_int64_and_errors():
    for n, k in EDGES:
        assert outcome(COMB, n, k) == outcome(comb, n, k), (n, k)
        assert outcome(PERM, n, k) == outcome(perm, n, k), (n, k)


def test_comb_takes_the_smaller_side():
    """``comb(n, n - 1)`` is ``n``: one step, however large ``k`` (the
    interpreter's ``perm`` of such a ``k`` would not finish either)."""
    for n, k in [(2**63 - 1, 2**63 - 2), (2**63 - 1, 2**63 - 1), (10**18, 10**18 - 3)]:
        assert outcome(COMB, n, k) == outcome(comb, n, k), (n, k)


@settings(max_examples=200, deadline=None)
@given(st.integers(-3, 200), st.integers(-3, 200))
def test_comb_and_perm_of_small_arguments(n, k):
    assert outcome(COMB, n, k) == outcome(comb, n, k)
    assert outcome(PERM, n, k) == outcome(perm, n, k)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**63 - 1), st.integers(0, 70))
def test_comb_and_perm_of_large_n(n, k):
    assert outcome(COMB, n, k) == outcome(comb, n, k)
    assert outcome(PERM, n, k) == outcome(perm, n, k)


@pytest.mark.parametrize("f,args", [(fact, (5.0,)), (comb, (5.0, 2)), (perm, (5, 2.0))])
def test_a_float_argument_falls_back(f, args):
    """CPython raises TypeError for a float: the function runs in the interpreter."""
    with pytest.raises(UnsupportedError, match="integers only"):
        jit(f, fallback=False)(*args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert outcome(jit(f), *args) == outcome(f, *args)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)
