"""``**`` on Python complex numbers against CPython, bit for bit and exception
for exception (``helpers.complex_pow``: CPython's ``complex_pow``), in every
context the result can reach: returned, stored, augmented, in a tuple, written
to an array, accumulated in a loop -- and with int, float, complex and bool
exponents on either side (``2 ** z``)."""
from __future__ import annotations

import math
import struct
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hypothesis import given, settings
from hypothesis import strategies as st

INF, NAN = math.inf, math.nan
SPECIAL_PARTS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.0, 1e-200, 1e200, 1e308, INF, -INF, NAN]
BASES = [complex(x, y) for x in SPECIAL_PARTS for y in SPECIAL_PARTS]
EXPONENTS = [0, 1, 2, 3, -1, -2, 7, -7, 99, 100, -100, 101, -101, 1000, True, False,
             0.0, -0.0, 0.5, -0.5, 2.0, 1.5, 2000.5, -1e-300, 1e300, INF, -INF, NAN,
             0j, 1j, -1j, 2 + 0j, 1.5 + 2j, -0.5 - 0.25j, complex(1e308, 1e308),
             complex(0, INF), complex(INF, 0), complex(NAN, 0), complex(0, -0.0)]


def _bits(x):
    if isinstance(x, complex):
        return struct.pack("<dd", x.real, x.imag)
    if isinstance(x, tuple):
        return tuple(_bits(i) for i in x)
    if isinstance(x, np.ndarray):
        return x.tobytes()
    return repr(x)


def _outcome(f, *args):
    try:
        r = f(*args)
    except Exception as e:      # noqa: BLE001 - the exception is the outcome
        return type(e).__name__, str(e)
    return type(r).__name__, _bits(r)


def stored(z, k):
    w = z ** k
    return w


def returned(z, k):
    return z ** k


def augmented(z, k):
    w = 1j
    w += z ** k
    return w


def power_inplace(z, k):
    w = z
    w **= k
    return w


def in_tuple(z, k):
    return (z ** k, z)


def array_element(z, k):
    a = np.zeros(2, np.complex128)
    a[1] = z ** k
    return a


def accumulator(z, k):
    acc = 0j
    for i in range(3):
        acc += z ** k * i
    return acc


def reversed_power(z, k):
    w = k ** z
    return w


CONTEXTS = [stored, returned, augmented, power_inplace, in_tuple, array_element,
            accumulator, reversed_power]


_JITTED = {f: jit(f) for f in CONTEXTS}


def _check(f, z, k):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = _outcome(_JITTED[f], z, k)
    assert got == _outcome(f, z, k), (f.__name__, z, k)


@pytest.mark.parametrize("k", EXPONENTS, ids=repr)
def test_special_values_match_cpython(k):
    g = _JITTED[stored]
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        for z in BASES:
            assert _outcome(g, z, k) == _outcome(stored, z, k), (z, k)


@pytest.mark.parametrize("f", CONTEXTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("k", [2, -1, 0, 3, 0.5, -2.5, 1.5 + 2j, 0j], ids=repr)
def test_every_context(f, k):
    for z in (1 + 2j, -0.5 + 0.25j, 0j, complex(-0.0, 0.0), 3 - 4j, 1e200 + 1e200j):
        _check(f, z, k)


def test_zero_to_a_negative_power_raises_as_cpython():
    for k in (-1, -2.0, -0.5, 1j, complex(-1, 0)):
        with pytest.raises(ZeroDivisionError, match="0.0 to a negative or complex power"):
            jit(stored)(0j, k)


def test_overflow_raises_as_cpython():
    with pytest.raises(OverflowError, match="complex exponentiation"):
        jit(stored)(2 + 0j, 2000.5)
    with pytest.raises(OverflowError, match="complex exponentiation"):
        jit(stored)(1e200 + 0j, 3)


def test_literal_exponents():
    def lit(z):
        a = z ** 2
        b = z ** -1
        c = z ** 0.5
        d = z ** (2 - 1j)
        e = 2 ** z
        f = 0.5 ** z
        return a, b, c, d, e, f
    for z in (1 + 2j, -3.5 + 0.1j, 1e-3 - 7j):
        assert _outcome(jit(lit), z) == _outcome(lit, z)


_part = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                  st.floats(-10, 10), st.sampled_from(SPECIAL_PARTS))
_exponent = st.one_of(st.integers(-120, 120), st.floats(-50, 50),
                      st.floats(allow_nan=True, allow_infinity=True),
                      st.builds(complex, st.floats(-5, 5), st.floats(-5, 5)),
                      st.builds(complex, _part, _part))
_compiled = _JITTED[stored]
_compiled_acc = _JITTED[accumulator]


@settings(max_examples=400, deadline=None)
@given(st.builds(complex, _part, _part), _exponent)
def test_random_powers_match_cpython(z, k):
    assert _outcome(_compiled, z, k) == _outcome(stored, z, k)
    assert _outcome(_compiled_acc, z, k) == _outcome(accumulator, z, k)
