"""``a if c else b`` of a NumPy scalar and a Python number, assigned or returned
whole, is split into an ``if`` (``infer/either_choices.py``): each arm's kind comes
back as the interpreter gives it.  Such a choice inside a larger expression that
decides a local's kind is held in a local first where it is the first thing the
statement evaluates (``return 2 * (a[0] if c else 0)``); elsewhere it falls back
(it was boxed as a NumPy scalar on every run)."""
import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.compare import check_fallback


def relu_sum(a):
    s = 0.0
    for i in range(a.shape[0]):
        d = a[i]
        s += d if d > 0 else 0.0
    return s


def clamped_double(a, i):
    v = a[i] if i < a.shape[0] else 0.0
    return v * 2


def item_or_minus_one(a, i):
    return a[i] if i < a.shape[0] else -1


def got_with_default(a, k):
    d = {0: a[0], 2: a[2]}
    return d.get(k, 0)


def nested_choice(a, i):
    return a[i] if i == 0 else (a[1] if i == 1 else 7)


def int_total(a):
    s = 0
    for v in a:
        s += v if v > 2 else 1
    return s


def in_bounds_and_positive(a, i):
    return 0 <= i < a.shape[0] and a[i] > 0


def chained_bounds(a, i):
    ok = 0 < i < a[0]
    return ok


def first_or(a, i):
    return i > 3 or a[0] > 1.0


def truth_and(a):
    st = []
    for v in a:
        st.append(v)
    return bool(st) and st[0] > 0


def running_best(a):
    best = -1.0
    for v in a:
        best = v if v > best else best
    return best


def largest_row_sum(a):
    s = 0
    for r in range(a.shape[0]):
        s = max(a[r].sum(), s)
    return s


def smallest_row_min(a):
    lo = float("inf")
    for r in range(a.shape[0]):
        lo = min(lo, a[r].min())
    return lo


def _kinds(x):
    if isinstance(x, tuple):
        return tuple(_kinds(i) for i in x)
    return type(x), repr(x)


@pytest.mark.parametrize("f, cases", [
    (relu_sum, [(np.array([-1.0, 2.0]),), (np.array([-1.0, -2.0]),), (np.zeros(0),),
                (np.array([-0.0]),)]),
    (clamped_double, [(np.arange(3.0), 5), (np.arange(3.0), 1)]),
    (item_or_minus_one, [(np.arange(3.0), 5), (np.arange(3.0), 2),
                         (np.arange(3, dtype=np.uint8), 9), (np.arange(3, dtype=np.int64), 0)]),
    (got_with_default, [(np.array([1.5, 2.0, 3.0]), k) for k in (0, 1, 2)]),
    (nested_choice, [(np.arange(3.0), i) for i in (0, 1, 2)]),
    (int_total, [(np.array([1, 2], np.int64),), (np.array([1, 3], np.int64),),
                 (np.zeros(0, np.int64),)]),
    (in_bounds_and_positive, [(np.array([2.0, -1.0]), i) for i in (-1, 0, 1, 2)]),
    (chained_bounds, [(np.array([2.0]), i) for i in (-1, 1, 5)]),
    (first_or, [(np.array([2.5]), i) for i in (1, 5)]),
    (truth_and, [(np.zeros(0),), (np.array([1.0]),), (np.array([-1.0]),)]),
    (running_best, [(np.arange(3.0),), (np.zeros(0),), (np.array([-2.0, np.nan]),),
                    (np.array([-1.0, -0.0]),), (np.array([np.nan, 5.0]),)]),
    (largest_row_sum, [(np.arange(6.0).reshape(2, 3),), (-np.ones((2, 2)),),
                       (np.zeros((0, 2)),), (np.array([[-0.0]]),), (np.array([[np.nan]]),),
                       (np.array([[2**60, 1]]),)]),
    (smallest_row_min, [(np.arange(6.0).reshape(2, 3),), (np.full((1, 1), np.inf),),
                        (np.zeros((0, 2)),)]),
])
def test_whole_choices_come_back_as_the_arm_that_ran(f, cases):
    g = jit(f, fallback=False)
    for args in cases:
        assert _kinds(g(*args)) == _kinds(f(*args)), (f.__name__, args)


def doubled_choice_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        d = a[i]
        s += 2.0 * (d if d > 0 else 0.0)
    return s


def abs_choice_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        d = a[i]
        s = s + abs(d if d > 0 else 0.0)
    return s


def min_total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s = s + min(a[i], 0.0)
    return s


def compared_choice(a, c):
    return (a[0] if c else 0.5) > 0


def compared_in_tuple(a, c):
    return ((a[0] if c else 0.5) > 0, 1)


def divmod_of_choice(a, c):
    return divmod(a[0] if c else 7, 2)


@pytest.mark.parametrize("f, args", [
    # (a NumPy bool / NumPy floats on every run; the interpreter's are Python's
    # where the Python number was chosen)
    (compared_choice, (np.array([2.0]), False)),
    (compared_in_tuple, (np.array([2.0]), False)),
    (divmod_of_choice, (np.array([2.0]), False)),
    (relu_sum, (np.array([-1.0, 2.0], np.float32),)),     # (0.0 + float32: float32)
    (clamped_double, (np.arange(3, dtype=np.int32), 1)),   # (a float or an int32)
    (doubled_choice_total, (np.array([-1.0, -2.0]),)),
    (abs_choice_total, (np.array([-1.0, -2.0]),)),
    (min_total, (np.array([1.0, 2.0]),)),
])
def test_a_choice_inside_an_expression_that_decides_a_kind_falls_back(f, args):
    # (each gave np.float64(0.0) where the interpreter returns the Python 0.0)
    check_fallback(f, args, "variable type change")


def doubled_pick(a, c):
    return 2 * (a[0] if c else 0)


def shifted_pick(a, c):
    x = (a[0] if c else 3) * 2 + 1
    return x


def negated_pick(a, c):
    return -(a[0] if c > 0 else c)


def abs_pick(a, c):
    return abs(a[0] if c else -0.5) + 1


def float_of_pick(a, c):
    return float(a[0] if c else 1) / 3


@pytest.mark.parametrize("f", [doubled_pick, shifted_pick, negated_pick, abs_pick,
                               float_of_pick])
@pytest.mark.parametrize("a", [np.array([1.5]), np.array([-7]), np.array([2 ** 62])])
def test_a_choice_first_in_a_larger_value_is_held_in_a_local(f, a):
    if f is abs_pick and a.dtype.kind == "i":
        return                      # (an int64 or a float: two types, falls back)
    g = jit(f, fallback=False)
    for c in (0, 1, -1):
        assert _kinds(g(a, c)) == _kinds(f(a, c)), (f.__name__, a, c)
