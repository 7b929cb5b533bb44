"""``math.prod`` and ``math.fsum`` compiled, against CPython: of arrays, ranges,
tuple and list displays, generator expressions and read-only list comprehensions.

``math.prod`` multiplies from ``start`` with the ``*`` of the items (NumPy scalar
items give NumPy's type and wrap; Python ints beyond int64 re-run in the
interpreter); an empty iterable gives ``start`` itself.  ``math.fsum`` is CPython's
exact algorithm: every value bit for bit (CPython's own ``testFsum`` cases, and
random floats of wildly different magnitudes that cancel), its special values and
its errors."""
from __future__ import annotations

import math
import random
import struct
import warnings
from math import fsum as fsum_of, prod as prod_of

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError


def outcome(f, *args):
    """The result (type and bits, per item of a tuple) or the error (class, text)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's overflow warning
            r = f(*args)
    except Exception as e:          # noqa: BLE001 - compared by class and text
        return type(e), str(e)
    return [_bits(x) for x in r] if isinstance(r, tuple) else _bits(r)


def _bits(x):
    if isinstance(x, (float, np.floating)):
        if x != x:      # which NaN's sign and payload survive is unspecified (docs/semantics.md)
            return type(x), "nan"
        return type(x), struct.pack("<d", float(x))
    return type(x), x


def jitted(f):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return jit(f, fallback=False)


# ------------------------------------------------------------------ math.prod
def prod(a):
    return math.prod(a)


def prod_from(a, s):
    return math.prod(a, start=s)


def prod_halves(n):
    return math.prod(x * 0.5 for x in range(1, n))


def prod_range(n):
    return math.prod(range(1, n)), math.prod(range(n), start=2.0)


def prod_display(x, y):
    return math.prod((x, y, 3)), math.prod([y, x], start=x)


def prod_list(n):
    xs = [1.5 * i for i in range(1, n)]
    ys = [i + 1 for i in range(n)]
    return math.prod(xs), math.prod(ys, start=2), math.prod(x * 2 for x in xs if x > 2)


PROD, PROD_FROM, HALVES, RANGE, DISPLAY, LIST = (
    jitted(f) for f in (prod, prod_from, prod_halves, prod_range, prod_display, prod_list))

ARRAYS = [np.array([100, 2], dtype=np.int8), np.array([3, -7, 11], dtype=np.int64),
          np.array([2**40, 2**30]), np.array([1.5, 2.5, 1e300, 1e10]),
          np.array([0.1, 3.0, 7.0], dtype=np.float32), np.array([True, False]),
          np.array([250, 3], dtype=np.uint8), np.array([], dtype=np.float64),
          np.array([], dtype=np.int8), np.array([2.0, np.nan, np.inf])]


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}[{a.size}]")
def test_prod_of_arrays_is_numpys_scalar_product(a):
    """Items are NumPy scalars: the product has NumPy's type, int8 wraps, an empty
    array gives the Python int 1."""
    assert outcome(PROD, a) == outcome(prod, a)
    for s in (1, 3, -2.5, np.float32(2.0), np.int16(300), 1000, True):
        assert outcome(PROD_FROM, a, s) == outcome(prod_from, a, s), s


def test_prod_of_python_numbers():
    """Python ints exactly (21! is beyond int64: re-run in the interpreter), Python
    floats in order from ``start``; no items give ``start`` itself, whatever the
    items' type would have been."""
    for n in (0, 1, 2, 6, 20, 21, 22, 200):
        assert outcome(HALVES, n) == outcome(prod_halves, n)
        assert outcome(RANGE, n) == outcome(prod_range, n)
        assert outcome(LIST, n) == outcome(prod_list, n)


def test_prod_of_tuple_and_list_displays_of_mixed_types():
    for x, y in [(2, 2.5), (np.float32(2.5), 3), (2**62, 2), (np.int8(100), 2), (True, 1.5)]:
        assert outcome(DISPLAY, x, y) == outcome(prod_display, x, y), (x, y)


def test_prod_of_uint64_from_a_python_int_falls_back_in_plain_words():
    """The product would be a Python int, then a uint64: no one type holds both
    (as for ``sum``); a uint64 start compiles."""
    a = np.arange(1, 30, dtype=np.uint64)
    with pytest.raises(UnsupportedError, match=r"the running result of prod\(\) on this "
                       "line is a Python int") as info:
        jit(prod, fallback=False)(a)
    assert "$" not in str(info.value)
    assert outcome(PROD_FROM, a, np.uint64(1)) == outcome(prod_from, a, np.uint64(1))


def prod_imported(a, n):
    return prod_of(x for x in a), prod_of(range(1, n), start=-1), fsum_of(a), \
        prod_of(a[i] * 2 for i in range(n))


def prod_floats(xs):
    return math.prod(x for x in xs), math.prod((x for x in xs), start=-3)


PRODS_OF, IMPORTED = jitted(prod_floats), jitted(prod_imported)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(width=32) | st.integers(-2**40, 2**40).map(float), max_size=12))
@example([np.nan, -np.nan])       # (two NaNs: either may survive; CI found it)
def test_prod_of_python_floats_rounds_in_order(xs):
    a = np.array(xs, dtype=np.float64)
    assert outcome(PRODS_OF, a) == outcome(prod_floats, a)
    assert outcome(PROD, a.astype(np.float32)) == outcome(prod, a.astype(np.float32))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-2**20, 2**20), min_size=1, max_size=8))
def test_prod_of_python_ints_is_exact(xs):
    """int64 items give an int64 product that wraps (``a[i] * 2`` too: a NumPy
    int); ``range`` items are Python ints: the exact int, re-run in the
    interpreter beyond int64; names imported from ``math`` are the same."""
    a = np.array(xs, dtype=np.int64)
    for n in (0, len(xs), 25):
        assert outcome(IMPORTED, a, min(n, len(xs))) == outcome(prod_imported, a, min(n, len(xs)))


def prod_positional(a):
    return math.prod(a, 2)


def test_prod_with_a_positional_start_falls_back():
    """``math.prod(a, 2)`` raises TypeError (``start`` is keyword-only)."""
    a = np.arange(3.0)
    with pytest.raises(UnsupportedError):
        jit(prod_positional, fallback=False)(a)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert outcome(jit(prod_positional), a) == outcome(prod_positional, a)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)


# ------------------------------------------------------------------ math.fsum
def fsum(a):
    return math.fsum(a)


def fsum_squares(a):
    return math.fsum(x * x for x in a), math.fsum(x for x in a if x < 0)


def fsum_display(x, y, z):
    return math.fsum((x, y, z)), math.fsum([z, 1, True, y])


def fsum_range(n):
    return math.fsum(range(n)), math.fsum(range(-n, n, 3))


def fsum_list(a):
    xs = [x * 3.0 for x in a]
    return math.fsum(xs)


FSUM, SQUARES, FDISPLAY, FRANGE, FLIST = (
    jitted(f) for f in (fsum, fsum_squares, fsum_display, fsum_range, fsum_list))

# CPython's Lib/test/test_math.py testFsum
FSUM_CASES = [
    [], [0.0], [-0.0], [-0.0, -0.0],
    [1e100, 1.0, -1e100, 1e-100, 1e50, -1.0, -1e50],
    [2.0**53, -0.5, -2.0**-54], [2.0**53, 1.0, 2.0**-100], [2.0**53 + 10.0, 1.0, 2.0**-100],
    [2.0**53 - 4.0, 0.5, 2.0**-54], [1. / n for n in range(1, 1001)],
    [(-1.)**n / n for n in range(1, 1001)], [1e16, 1., 1e-16],
    [1e16 - 2., 1. - 2.**-53, -(1e16 - 2.), -(1. - 2.**-53)],
    # these grow the partials past CPython's first array (and ours)
    [2.**n - 2.**(n + 50) + 2.**(n + 52) for n in range(-1074, 972, 2)] + [-2.**1022],
    [0.1] * 10, [1e308, 1e308, -1e308], [1.7e308, 1e292, -1.7e308],
    # specials: inf, nan, -inf + inf, intermediate overflow
    [math.inf, 1.0], [-math.inf, -math.inf, 1e308], [math.inf, -math.inf],
    [math.nan, 1.0], [math.inf, math.nan], [1e308, 1e308], [1e308, 1e308, math.inf],
    [math.inf, 1e308, 1e308], [-1e308, -1e308], [5e-324, -5e-324, 5e-324],
]


@pytest.mark.parametrize("k", range(len(FSUM_CASES)))
def test_fsum_of_cpythons_cases(k):
    xs = FSUM_CASES[k]
    a = np.array(xs, dtype=np.float64)
    assert outcome(FSUM, a) == outcome(fsum, xs)
    assert outcome(FSUM, a[::-1]) == outcome(fsum, xs[::-1])
    assert outcome(FLIST, a) == outcome(fsum_list, a)


magnitudes = st.floats(allow_nan=False, allow_infinity=False, width=64).filter(
    lambda x: abs(x) < 1e300)


@settings(max_examples=150, deadline=None)
@given(st.lists(magnitudes, max_size=40), st.lists(st.integers(-1100, 1000), max_size=30),
       st.randoms(use_true_random=False))
def test_fsum_of_random_floats_that_cancel(xs, exps, rnd):
    """Floats of every magnitude, powers of two from subnormals to 2**1000, and
    the negations of some of them, shuffled: heavy cancellation, every bit kept."""
    items = xs + [math.ldexp(rnd.choice((1.0, -1.0, 1.5, 0.75)), e) for e in exps]
    items += [-x for x in items if rnd.random() < 0.7]
    rnd.shuffle(items)
    a = np.array(items, dtype=np.float64)
    assert outcome(FSUM, a) == outcome(fsum, items)
    assert outcome(SQUARES, a) == outcome(fsum_squares, a)


def test_fsum_converts_items_with_float():
    """Ints (beyond 2**53: rounded as ``float()`` rounds them), bools, float32
    items, uint64 beyond int64; the result is a Python float."""
    rng = random.Random(7)
    ints = [rng.randrange(-2**63, 2**63) for _ in range(50)] + [2**53 + 1, -(2**63)]
    for a in (np.array(ints), np.array([x % 1000 for x in ints], dtype=np.int16),
              np.array([True, False, True]), np.array([0.1, 1e30, -1e30], dtype=np.float32),
              np.arange(40, dtype=np.uint64) << 58):
        assert outcome(FSUM, a) == outcome(fsum, a), a.dtype
        assert outcome(SQUARES, a) == outcome(fsum_squares, a), a.dtype
    for n in (0, 1, 1000, 3037000499):
        assert outcome(FRANGE, min(n, 10**5)) == outcome(fsum_range, min(n, 10**5))
    for x, y, z in [(1, 1e16, 1e-16), (2**62 + 1, np.float32(0.1), -(2**62)),
                    (np.int8(5), True, 1e308), (math.inf, 1, -math.inf)]:
        assert outcome(FDISPLAY, x, y, z) == outcome(fsum_display, x, y, z)


def fsum_complex(a):
    return math.fsum(a)


def test_fsum_of_complex_items_falls_back():
    a = np.array([1 + 2j])
    with pytest.raises(UnsupportedError, match="real numbers only"):
        jit(fsum_complex, fallback=False)(a)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert outcome(jit(fsum_complex), a) == outcome(fsum_complex, a)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)
