"""Integer constant expressions are Python ints (``ir/constants.py``): folded
exactly as CPython folds them, never wrapped to int64.  Where the value does
not fit int64, compiled code computes what CPython computes when that is exact
(a comparison settled by an integer's range or by exact float neighbours, a
float operand taking ``float(n)``, ``float(2**63)``), and otherwise the
function runs in the interpreter with a warning that says the int does not fit
in int64, as for the literal ``9223372036854775808``."""
from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hypothesis import given, settings
from hypothesis import strategies as st

I64 = st.integers(-(2**63), 2**63 - 1)
NEAR = [2.0**63, math.nextafter(2.0**63, 0), math.nextafter(2.0**63, math.inf),
        -(2.0**63), math.nextafter(-(2.0**63), 0), 2.0**64, 1.8446744073709552e19,
        1.2157665459056929e19, math.inf, -math.inf, math.nan, 0.0, -0.0]
FLOATS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(NEAR),
                   st.floats(-2e19, 2e19))


@functools.lru_cache(maxsize=None)
def _compiled(f):
    """``jit(f)`` that must not fall back (one per function: compiled once)."""
    g = jit(f)

    def run(*args):
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return g(*args)
    return run


def _same(got, want):
    assert type(got) is type(want), (got, want)
    if isinstance(want, float):
        assert repr(got) == repr(want)
    else:
        assert got == want


def abs_below(x):
    return abs(x) < 2**63


def shifted_bound(n):
    return n < 1 << 63


def float_plus(x):
    return x + 2**64


def float_of_power():
    return float(2**63)


def comparisons(x):
    return (x < 2**63, x <= 2**63 + 1, 2**63 > x, 2**64 <= x, x > -(2**63) - 1,
            x >= 10**19, x == 2**64, x != 3**40, -(2**70) < x, 2**1000 > x,
            x < -(10**400))


def chained(x):
    return 0 <= x < 2**64, -(2**63) - 1 < x <= 5, 1 < 2 < x < 2**70


@settings(max_examples=200, deadline=None)
@given(st.one_of(I64, FLOATS))
def test_chained_comparisons(x):
    assert _compiled(chained)(x) == chained(x)


def middle(x):
    return x < 2**64 < x + 1


def folded(n):
    # every constant here fits int64 once folded exactly
    return ((2**63 - 1) - n % 1000, -(2**63) <= n, n & (2**63 - 1), (1 << 64) >> 2,
            10**19 // 10, -9223372036854775808, 2 ** -1, 2**62 * 2 - 2**63, 7 // 2)


# --- computed as CPython does ----------------------------------------------------
@settings(max_examples=200, deadline=None)
@given(I64)              # abs(-2**63) is 2**63: a deoptimisation (docs/semantics.md)
def test_abs_below_int(n):
    _same(_compiled(abs_below)(n), abs_below(n))


@settings(max_examples=200, deadline=None)
@given(FLOATS)
def test_abs_below_float(x):
    _same(_compiled(abs_below)(x), abs_below(x))


@settings(max_examples=200, deadline=None)
@given(I64)
def test_shifted_bound(n):
    _same(_compiled(shifted_bound)(n), shifted_bound(n))


@settings(max_examples=200, deadline=None)
@given(FLOATS)
def test_float_plus_big_int(x):
    _same(_compiled(float_plus)(x), float_plus(x))


def float_accumulates(x):
    acc = 1.5
    acc += 2**64
    acc -= x * 2**63
    return acc


@settings(max_examples=100, deadline=None)
@given(FLOATS)
def test_augmented_float_with_big_ints(x):
    _same(_compiled(float_accumulates)(x), float_accumulates(x))


def test_float_of_a_power():
    _same(_compiled(float_of_power)(), float_of_power())


@settings(max_examples=300, deadline=None)
@given(st.one_of(I64, FLOATS, st.booleans()))
def test_comparisons_with_big_ints(x):
    assert _compiled(comparisons)(x) == comparisons(x)


@pytest.mark.parametrize("x", [np.int8(-3), np.int32(7), np.uint8(200), np.int64(-5),
                               np.float64(9.3e18), np.float64(-(2.0**63)), np.uint64(3)])
def test_comparisons_with_numpy_scalars(x):
    def f(x):
        return x < 2**64, x > -(2**63) - 1, x == 10**30
    assert _compiled(f)(x) == tuple(bool(v) for v in f(x))


def test_float32_scalars_take_exact_floats_only():
    def exact(x):
        return x < 2**64, 2**63 == x, x + 2**64
    for x in (np.float32(2.5), np.float32(2.0**63), np.float32(np.inf)):
        got, want = _compiled(exact)(x), exact(x)
        assert got[:2] == tuple(bool(v) for v in want[:2]) and got[2] == want[2]

    def rounded(x):            # NumPy rounds the int twice: refused
        return x > -(2**63) - 1
    with pytest.warns(HanaJitFallbackWarning, match="does not fit in int64"):
        assert jit(rounded)(np.float32(1.0)) == rounded(np.float32(1.0))


@settings(max_examples=100, deadline=None)
@given(I64)
def test_folded_constants_fit(n):
    got, want = _compiled(folded)(n), folded(n)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        _same(g, w)


def test_division_by_zero_constant_is_raised_at_run_time():
    def f(n):
        return n + 7 // 0
    with pytest.raises(ZeroDivisionError):
        _compiled(f)(1)


# --- refused: the interpreter runs them ------------------------------------------
def int_plus(x):
    return x + 2**64


def hash_step(n):
    return (n * 1000003) % 2**64


def big_floordiv(n):
    return 10**19 // n


def power_plus(n):
    return 3**40 + n


def literal(n):
    return n + 9223372036854775808


def folded_product(n):
    return n + 2**62 * 2


def huge(n):
    return n + 2 ** 10**6 - 2 ** 10**6


def unsigned_upper_half(x):
    return x < 2**63


def in_tuple(n):
    return n in (2**64, 1)


REFUSED = [(int_plus, 5), (int_plus, -(2**63)), (hash_step, 12345), (hash_step, -7),
           (hash_step, 2**62), (big_floordiv, 7), (big_floordiv, -3), (power_plus, 1),
           (literal, 3), (folded_product, 1), (huge, 1),
           (unsigned_upper_half, np.uint64(2**63 + 5)), (in_tuple, 1), (middle, 1)]


@pytest.mark.parametrize(("f", "arg"), REFUSED, ids=lambda v: getattr(v, "__name__", repr(v)))
def test_refused_with_a_reason(f, arg):
    with pytest.warns(HanaJitFallbackWarning, match="does not fit in int64"):
        got = jit(f)(arg)
    assert got == f(arg) and type(got) is type(f(arg))


_REFUSED_JIT = {f: jit(f) for f in (int_plus, hash_step, power_plus)}


@settings(max_examples=100, deadline=None)
@given(I64)
def test_refused_functions_give_cpythons_value(n):
    for f in (int_plus, hash_step, power_plus):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HanaJitFallbackWarning)
            assert _REFUSED_JIT[f](n) == f(n)
