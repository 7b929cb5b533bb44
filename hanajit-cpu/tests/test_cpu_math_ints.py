"""``math.gcd``, ``math.lcm``, ``math.isqrt``, ``math.isclose`` compiled, against
CPython: values, types (Python int and bool), errors, and results beyond int64
(re-run in the interpreter: ``gcd(-2**63, 0)`` is ``2**63``)."""
from __future__ import annotations

import functools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import outcome, strict_jit

M = -(2**63)
int64s = st.integers(M, 2**63 - 1) | st.sampled_from([0, 1, -1, M, 2**63 - 1, 2**62, 12])


def pair(a, b):
    return math.gcd(a, b), math.lcm(a, b)


def many(a, b, c):
    return math.gcd(a, b, c), math.lcm(a, b, c), math.gcd(a), math.lcm(a), math.gcd(), \
        math.lcm()


def root(n):
    return math.isqrt(n)


def close(a, b):
    return (math.isclose(a, b), math.isclose(a, b, rel_tol=0.25),
            math.isclose(a, b, abs_tol=1e-3), math.isclose(a, b, rel_tol=0.0, abs_tol=0.0))


# one compiled function per kernel: the hypothesis examples (Python ints or
# floats: one specialisation) each compiled it again
jitted = functools.cache(strict_jit)


@settings(max_examples=150, deadline=None)
@given(int64s, int64s, st.integers(-50, 50))
def test_gcd_and_lcm(a, b, c):
    assert outcome(jitted(pair), a, b) == outcome(pair, a, b)
    assert outcome(jitted(many), a, b, c) == outcome(many, a, b, c)


def test_numpy_integers_and_bools_are_taken_by_value():
    for args in [(np.int64(12), np.int8(-18)), (True, 6), (np.uint16(7), 0)]:
        assert outcome(jitted(pair), *args) == outcome(pair, *args)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**63 - 1) | st.sampled_from(
    [0, 1, 2, 3, 4, 15, 16, 2**63 - 1, (2**31 - 1) ** 2, 3037000499**2 - 1, 3037000499**2]))
def test_isqrt(n):
    assert outcome(jitted(root), n) == outcome(root, n)


def test_isqrt_of_a_negative_raises():
    assert outcome(jitted(root), -1) == outcome(root, -1)


floats = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, -0.0, 1.0, 1.0 + 1e-9, 1.0 + 2e-9, 1e-300, 5])


@settings(max_examples=150, deadline=None)
@given(floats, floats)
def test_isclose(a, b):
    assert outcome(jitted(close), a, b) == outcome(close, a, b)


def negative_tolerance(a):
    return math.isclose(a, 1.0, abs_tol=-1.0)


def test_isclose_tolerances_must_be_non_negative():
    assert outcome(jitted(negative_tolerance), 1.0) == outcome(negative_tolerance, 1.0)
