"""Loops over ``range`` run exactly CPython's iterations, at the edges of int64
too.  The iteration count is min/max arithmetic with no ``select``
(``lib/python/operators.range_count``): with ``lo < hi ? count : 0`` LLVM folded
the test into an inner loop's exit branch, and LLVM 22's IndVarSimplify then
rewrote that exit test to its first iteration's value, so the loop ran past its
end (``two_stores`` below raised where CPython returns)."""
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from hanajit import jit

EDGE = st.sampled_from([-2 ** 63, -2 ** 63 + 1, -2 ** 62, -10, -3, -1, 0, 1, 2, 3, 10,
                        2 ** 62, 2 ** 63 - 2, 2 ** 63 - 1])
BOUND = st.one_of(EDGE, st.integers(-2 ** 63, 2 ** 63 - 1), st.integers(-20, 20))
STEP = st.one_of(st.sampled_from([1, 2, 3, -1, -2, -3, 7, 2 ** 62, -2 ** 62, 2 ** 63 - 1,
                                  -2 ** 63]), st.integers(-5, 5).filter(bool))


def first_items(a, b):
    """The first few items and how many were seen (up to 5)."""
    n = 0
    s = 0
    last = 0
    for i in range(a, b):
        n += 1
        s ^= i
        last = i
        if n == 5:
            break
    return n, s, last


def first_items_step(a, b, c):
    n = 0
    s = 0
    last = 0
    for i in range(a, b, c):
        n += 1
        s ^= i
        last = i
        if n == 5:
            break
    return n, s, last


def from_zero(b):
    n = 0
    for i in range(b):
        n += 1
        if n == 5:
            break
    return n


def from_one_by_three(b):
    n = 0
    for i in range(1, b, 3):
        n += i
        if i > 10:
            break
    return n


def down_by_two(a):
    n = 0
    for i in range(a, -1, -2):
        n += i
        if n > 100:
            break
    return n


def range_length(a, b, c):
    return len(range(a, b, c))


FIRST, FIRST_STEP = jit(first_items, fallback=False), jit(first_items_step, fallback=False)
FROM_ZERO, FROM_ONE = jit(from_zero, fallback=False), jit(from_one_by_three, fallback=False)
DOWN, LENGTH = jit(down_by_two, fallback=False), jit(range_length, fallback=False)


@settings(max_examples=150, deadline=None)
@given(BOUND, BOUND)
@example(-2 ** 63, 2 ** 63 - 1)
@example(2 ** 63 - 1, -2 ** 63)
@example(-1, 2 ** 63 - 1)
def test_unit_step_as_interpreter(a, b):
    assert FIRST(a, b) == first_items(a, b)


@settings(max_examples=150, deadline=None)
@given(BOUND, BOUND, STEP)
@example(-2 ** 63, 2 ** 63 - 1, 2)
@example(2 ** 63 - 1, -2 ** 63, -2)
@example(-2 ** 63, 2 ** 63 - 1, 2 ** 63 - 1)
@example(0, 2 ** 63 - 1, -2 ** 63)
def test_any_step_as_interpreter(a, b, c):
    assert FIRST_STEP(a, b, c) == first_items_step(a, b, c)


@settings(max_examples=100, deadline=None)
@given(BOUND)
def test_constant_starts_and_steps_as_interpreter(b):
    assert FROM_ZERO(b) == from_zero(b)
    assert FROM_ONE(b) == from_one_by_three(b)
    assert DOWN(b) == down_by_two(b)


@settings(max_examples=100, deadline=None)
@given(BOUND, BOUND, STEP)
def test_range_length_as_interpreter(a, b, c):
    try:
        want = range_length(a, b, c)
    except OverflowError as e:
        with pytest.raises(OverflowError, match=str(e)):
            LENGTH(a, b, c)
        return
    assert LENGTH(a, b, c) == want


def narrow_bounds(x):
    n = 0
    for i in range(x[0], x[1]):
        n += 1
    return n


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8, np.uint64])
def test_numpy_integer_bounds(dtype):
    f = jit(narrow_bounds, fallback=False)
    for lo, hi in [(0, 5), (3, 1), (1, 100), (0, 0)]:
        x = np.array([lo, hi], dtype=dtype)
        assert f(x) == narrow_bounds(x)


def checked(n, c):
    if c >= n:
        raise ValueError(f"bad {n} {c}")
    return c


def two_stores(cap):
    a = [0.0] * 9
    s = []
    n = []
    for k in range(3):
        s.append(3 * k)
        n.append(3)
    for i in range(1, 3):
        for c in range(cap + 1):
            a[s[i] + checked(n[i], c)] = 3.0
            a[s[i] + checked(n[i], c)] = 2.0
    return a


def table_two_stores(cap):
    t = [[0.0] * 3 for _ in range(3)]
    n = []
    for k in range(3):
        n.append(3)
    for i in range(1, 3):
        for c in range(cap + 1):
            t[i][checked(n[i], c)] = 3.0
            t[i][checked(n[i], c)] = 2.0
    return t


@pytest.mark.parametrize("cap", [0, 1, 2, 3])
@pytest.mark.parametrize("fn", [two_stores, table_two_stores])
def test_an_inner_loop_ends_where_its_range_ends(fn, cap):
    # (table_two_stores: its nest's Python-int overflow checks are versioned away,
    # as in any function)
    f = jit(fn, fallback=False)
    try:
        want = fn(cap)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            f(cap)
        return
    assert f(cap) == want
