"""Conformance cases: statements and functions (if/while/for, break/continue/else,
unpacking, augmented assignment, tuples, arguments, calls, recursion, raise and
assert, frozen globals) and the documented divergences."""
from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ..api import jit
from ..errors import HanaJitFallbackWarning, UnsupportedError
from .base import PROPERTY, ConformanceBase
from .reference import INT64_MAX, INT64_MIN

SCALE = 3
OFFSETS = (1, 2.5, -4)
HALF = 0.5


def classify(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    elif x < 10:
        return 1
    else:
        return 2


def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def range_sum(start, stop, step):
    s = 0
    k = 0
    for i in range(start, stop, step):
        s += i
        k += 1
        if k > 50:
            break
    return s, k


def range_last(start, stop, step):
    last = -12345
    for i in range(start, stop, step):
        last = i
    return last


def range_len(start, stop, step):
    n = 0
    for _ in range(start, stop, step):
        n += 1
        if n > 5:
            break
    return n


def range1(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def loop_else(n, stop_at):
    found = -1
    for i in range(n):
        if i == stop_at:
            found = i
            break
    else:
        found = 100
    return found


def while_else(n):
    i = 0
    while i < n:
        i += 1
        if i == 5:
            break
    else:
        i = -i
    return i


def continue_loop(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s += i
    j = 0
    while j < n:
        j += 1
        if j % 2:
            continue
        s -= j
    return s


def nested_break(n):
    count = 0
    for i in range(n):
        for j in range(n):
            if j > i:
                break
            count += 1
    return count


def swap(a, b):
    a, b = b, a
    return a, b


def unpack(a, b, c):
    x, (y, z) = a, (b, c)
    y, z = z, y
    return x, y, z


def aug(a, b):
    a += b
    a -= 1
    a *= b
    a //= 3
    a %= 1000
    a **= 2
    a <<= 1
    a >>= 2
    a |= 5
    a &= 255
    a ^= b
    return a


def aug_float(a, b):
    a += b
    a *= 1.5
    a /= 2
    a -= b
    a //= 0.75
    a %= 7
    a **= 2
    return a


def returns_tuple(a, b):
    return a + b, a - b, (a * b, a == b)


def no_return(a):
    a += 1


def bare_return(a):
    if a > 0:
        return
    a += 1


def defaults(a, b=2, c=3.5):
    return a * b + c


def kwonly(a, *, scale=2, shift=0):
    return a * scale + shift


@jit
def helper_sq(x):
    return x * x


@jit
def helper_kw(a, b=10, *, c=100):
    return a + b + c


def calls_helper(a):
    return helper_sq(a) + helper_sq(a + 1)


def calls_with_keywords(a):
    return helper_kw(a), helper_kw(a, 1), helper_kw(a, c=2), helper_kw(b=3, a=a, c=4)


@jit
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@jit
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@jit
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


def parity(n):
    return is_even(n), is_odd(n)


@jit
def checked_sqrt(x):
    if x < 0:
        raise ValueError("negative input")
    return math.sqrt(x)


def calls_raising(x):
    return checked_sqrt(x) + 1.0


def raises_custom(x):
    if x > 10:
        raise OverflowError("too big")
    if x < -10:
        raise KeyError("too small")
    return x


def asserts(x):
    assert x != 0, "x must not be zero"
    assert x > -100
    return 10 // x


def uses_globals(x):
    return x * SCALE + OFFSETS[1] + HALF


def in_global_tuple(x):
    return x in OFFSETS


def for_over_tuple(a, b, c):
    s = 0
    for v in (a, b, c):
        s = s * 10 + v
    return s


def for_enumerate(a, b):
    s = 0
    for i, v in enumerate((a, b, a)):
        s += i * v
    return s


def tuple_index(a, b, i):
    t = (a, b, a + b)
    return t[i], t[-1], len(t)


def int_or_float(a):
    x = 0
    if a > 0:
        x = 1.5
    return x


def wraps(a, b):
    return a + b, a * b, a - b


def big_step_loop(n):
    total = 0
    for i in range(INT64_MIN, INT64_MAX, 2 ** 62):
        total += 1
    for i in range(INT64_MAX, INT64_MIN, -(2 ** 62)):
        total += 1
    for i in range(INT64_MAX - 2, INT64_MAX):
        total += 1
    return total + n


RANGE_EDGES = (0, 1, -1, 5, -5, 100, INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1)
STEPS = (1, 2, -1, -3, 7, 2 ** 62, -(2 ** 62), INT64_MAX, INT64_MIN)


class StatementCases(ConformanceBase):
    """Control flow, functions and calls."""

    def test_if_elif_else(self):
        self.check_grid(classify, (-5, 0, 3, 10, 11, -0.0, 9.5, math.nan, math.inf))

    def test_while(self):
        self.check_grid(collatz, (1, 2, 3, 7, 27, 97, 871))

    def test_for_range_edges(self):
        self.check_grid(range_sum, RANGE_EDGES[:6], RANGE_EDGES[:6], STEPS[:5], wrap=True)
        self.check_grid(range_len, RANGE_EDGES, RANGE_EDGES, STEPS)
        self.check_grid(range_last, (0, 7, -7, INT64_MIN), (0, 7, -7, INT64_MAX),
                        (2 ** 62, INT64_MIN, INT64_MAX, -(2 ** 62)))
        self.check_grid(range_last, (0, 7, -7), (0, 7, -7), (1, -1, 2, -3))
        self.check_grid(range1, (0, -3, 1, 10, 1000))
        assert self.check(big_step_loop, 0)[1] == 4 + 4 + 2

    @PROPERTY
    @given(start=st.integers(-50, 50), stop=st.integers(-50, 50),
           step=st.integers(-7, 7).filter(bool))
    def test_for_range_property(self, start, stop, step):
        self.check(range_sum, start, stop, step)
        self.check(range_last, start, stop, step)

    def test_range_zero_step_raises(self):
        with pytest.raises(ValueError, match="must not be zero"):
            self.jit(range_sum)(0, 10, 0)
        with pytest.raises(ValueError):
            self.jit(range_len)(5, 5, 0)

    def test_break_continue_else(self):
        self.check_grid(loop_else, (0, 3, 10), (-1, 2, 5))
        self.check_grid(while_else, (0, 3, 5, 10))
        self.check_grid(continue_loop, (0, 1, 7, 20))
        self.check_grid(nested_break, (0, 1, 4, 9))

    def test_unpacking_and_swaps(self):
        self.check_grid(swap, (1, -2, INT64_MAX), (7, 0))
        self.check_grid(swap, (1.5, math.nan), (-0.0, 3.25))
        self.check_grid(unpack, (1, 2), (3.5, 4.5), (5.5, -0.0))

    def test_augmented_assignment(self):
        self.check_grid(aug, (0, 7, -7, 1000), (1, 3, -2))
        self.check_grid(aug_float, (0.0, 7.5, -7.25), (1.0, 3.0, -2.5))

    def test_returning_tuples_and_none(self):
        self.check_grid(returns_tuple, (1, -2, 2.5), (3, 0.5))
        self.check_grid(no_return, (1, 2.5))
        self.check_grid(bare_return, (1, -1))

    def test_default_and_keyword_arguments(self):
        self.check(defaults, 2)
        self.check(defaults, 2, 5)
        self.check(defaults, 2, kwargs={"c": 1})
        self.check(defaults, kwargs={"a": 1.5, "c": -1})
        self.check(kwonly, 3)
        self.check(kwonly, 3, kwargs={"scale": 5, "shift": -1})
        self.check(kwonly, 3.5, kwargs={"shift": 2})

    def test_calls_of_jitted_functions(self):
        self.check_grid(calls_helper, (0, 3, -4, 2.5))
        self.check_grid(calls_with_keywords, (0, 5, 1.5))

    def test_recursion(self):
        self.check_grid(fib, (0, 1, 2, 10, 20))
        self.check_grid(self.jit(parity).py_func, (0, 1, 10, 7))

    def test_raise_in_callee_reaches_caller(self):
        self.check_grid(calls_raising, (4.0, 0.0, -1.0, 9), messages=True)

    def test_raise_and_assert(self):
        self.check_grid(raises_custom, (0, 11, -11, 10), messages=True)
        self.check_grid(asserts, (0, 5, -7, -200), messages=True)

    def test_frozen_globals(self):
        self.check_grid(uses_globals, (1, 2.5, -3))
        self.check_grid(in_global_tuple, (1, 2.5, -4, 3, -4.0))

    def test_globals_are_frozen_at_compile_time(self):
        global SCALE
        jf = jit(uses_globals, target=self.target, fallback=False)
        assert jf(1) == 1 * 3 + 2.5 + 0.5
        SCALE = 100
        try:
            assert jf(1) == 1 * 3 + 2.5 + 0.5          # compiled with SCALE == 3
        finally:
            SCALE = 3

    def test_for_over_tuples(self):
        self.check_grid(for_over_tuple, (1, 2), (3, -4), (5, 0))
        self.check_grid(for_enumerate, (1, 2), (3, -4))
        self.check_grid(tuple_index, (1, 2), (3, -4), (0, 1, 2, -1, -3, 3, -4))

    # ------------------------------------------------------ documented divergences
    def test_int_and_float_paths_make_a_float(self):
        # documented (as Numba): x holds an int on one path and a float on another
        assert self.jit(int_or_float)(1) == 1.5
        got = self.jit(int_or_float)(-1)
        assert got == 0 and type(got) is float
        self.check_grid(int_or_float, (1, -1, 0), int_as_float=True)

    def test_int64_arithmetic_wraps(self):
        assert self.jit(wraps)(INT64_MAX, 1) == (INT64_MIN, INT64_MAX, INT64_MAX - 1)
        self.check_grid(wraps, (INT64_MAX, INT64_MIN, 2 ** 40), (2 ** 40, -1, 3),
                        wrap=True)

    def test_ints_beyond_int64_run_in_the_interpreter(self):
        jf = jit(wraps, target=self.target)
        with pytest.warns(HanaJitFallbackWarning, match="argument"):
            assert jf(2 ** 70, 1) == (2 ** 70 + 1, 2 ** 70, 2 ** 70 - 1)
        with pytest.raises(UnsupportedError):
            self.jit(wraps)(2 ** 64, 1)
