"""Generator expressions and list comprehensions reduced by ``sum``, ``any``,
``all``, ``min`` and ``max`` compile to loops (``frontend/comprehensions.py``).

Every case is compared with CPython running the same function: the value bit for
bit, the type (a NumPy scalar result comes back as the Python number of the same
value, ``docs/semantics.md``), and the exception with its message.  Positions
where running the loop before its statement could differ fall back, naming the
line and the construct."""
import math
import struct
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError
from hanajit.testing.jitted import jitted


def sum_squares(a):
    return sum(x * x for x in a)


def sum_range(n):
    return sum(i * i for i in range(n))


def sum_range_float(n):
    return sum(i * 0.1 for i in range(n))


def sum_zip(a, b):
    return sum(x * y for x, y in zip(a, b))


def sum_enumerate(a):
    return sum(i * x for i, x in enumerate(a))


def sum_enumerate_start(a):
    return sum(i - x for i, x in enumerate(a, 3))


def sum_nested_filtered(n):
    return sum(i * j for i in range(n) for j in range(i) if (i + j) % 3 if j != 2)


def sum_start(a):
    return sum((x for x in a), 0.5)


def sum_list(a):
    return sum([x - 1.0 for x in a if x > 0.0])


def sum_tuple(n):
    return sum(x * n for x in (1, 2, 3))


def sum_of_sums(m):
    return sum(sum(x for x in row) for row in m)


def sum_bools(a):
    return sum(x > 0.5 for x in a)


def any_all(a):
    return any(x > 2.0 for x in a), all(x > -1.0 for x in a), any(x > 1e9 for x in a)


def any_nested(n):
    return any(i * j == 12 for i in range(n) for j in range(n))


def all_list(a):
    return all([x >= 0.0 for x in a])


def min_max(a):
    return max(x * 2.0 for x in a if x > 1.0), min(x for x in a)


def min_max_default(a):
    return max((x for x in a if x > 100.0), default=-1.0), min((x for x in a), default=7.0)


def max_empty(a):
    return max(x for x in a if x > 100.0)


def min_empty(n):
    return min(i for i in range(n))


def min_max_ints(a):
    return min(x % 7 for x in a), max(-x for x in a)


def in_statements(a, n):
    s = sum(x for x in a)
    if any(x > s for x in a):
        s = s + 1.0
    for i in range(sum(1 for _ in a)):
        s = s + max(a[i] * k for k in range(n))
    total = 0.0
    total += sum(x for x in a)
    return s, total


def index_error(a, k):
    return sum(a[i + k] for i in range(3))


def short_circuit(a, k):
    # a[i + k] is out of range only after the first true item: never reached
    return any(a[i + k] > -1.0 for i in range(len(a)))


def list_no_short_circuit(a, k):
    # every item of a list comprehension is built before any() reads it
    return any([a[i + k] > -1.0 for i in range(len(a))])


def shadowing(n):
    x = 100
    t = sum(x * 2 for x in range(n))
    return t, x


def inner_shadowing(n):
    return sum(sum(i for i in range(i)) for i in range(n))


A = np.array([0.5, 3.0, -0.25, 2.0, 1.5])
B = np.array([1.0, -2.0, 4.0, 0.125, 8.0])
CASES = [
    (sum_squares, (A,)), (sum_squares, (np.arange(6),)), (sum_range, (10,)),
    (sum_range, (0,)), (sum_range_float, (11,)), (sum_zip, (A, B)),
    (sum_zip, (A, B[:3])), (sum_enumerate, (A,)), (sum_enumerate_start, (A,)),
    (sum_nested_filtered, (9,)), (sum_start, (A,)), (sum_list, (A,)),
    (sum_tuple, (4,)), (sum_of_sums, (np.arange(12.0).reshape(3, 4),)),
    (sum_bools, (A,)), (any_all, (A,)), (any_all, (A[:0],)), (any_nested, (5,)),
    (any_nested, (3,)), (all_list, (A,)), (all_list, (np.abs(A),)), (min_max, (A,)),
    (min_max_default, (A,)), (min_max_default, (A[:0],)), (max_empty, (A,)),
    (min_empty, (0,)), (min_empty, (4,)), (min_max_ints, (np.array([5, -3, 12, 9]),)),
    (in_statements, (A, 3)), (index_error, (A, 1)), (index_error, (A, 3)),
    (short_circuit, (A, 4)), (list_no_short_circuit, (A, 4)), (shadowing, (5,)),
    (inner_shadowing, (6,)),
]


def as_python(v):
    """The value the compiled function returns for the interpreter's ``v``:
    NumPy scalars come back as the Python numbers of the same value."""
    if isinstance(v, tuple):
        return tuple(as_python(x) for x in v)
    return v.item() if isinstance(v, np.generic) else v


def assert_same(got, exp, empty_sums=False):
    """Same value (floats bit for bit) and type; with ``empty_sums``, CPython's
    int 0 of a sum of no float items may be the float 0.0 (one type per
    expression, ``test_empty_sum_of_array_items_is_a_float``)."""
    exp = as_python(exp)
    if empty_sums and type(exp) is int and exp == 0 and type(got) is float:
        exp = 0.0
    assert type(got) is type(exp), (got, exp)
    if isinstance(got, tuple):
        assert len(got) == len(exp)
        for g, e in zip(got, exp):
            assert_same(g, e, empty_sums)
    elif isinstance(got, float) and math.isnan(exp):
        assert math.isnan(got)          # (NaN payloads are not compared)
    elif isinstance(got, float):
        assert struct.pack("<d", got) == struct.pack("<d", exp), (got, exp)
    else:
        assert got == exp


def run(fn, *args):
    try:
        return fn(*args), None
    except Exception as e:              # noqa: BLE001 - compared below
        return None, e


@pytest.mark.parametrize("fn,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_like_cpython(fn, args):
    exp, exp_err = run(fn, *args)
    got, got_err = run(jitted(fn, fallback=False), *args)
    if exp_err is not None:
        assert type(got_err) is type(exp_err) and str(got_err) == str(exp_err)
    else:
        assert got_err is None, got_err
        assert_same(got, exp)


def test_empty_sum_of_array_items_is_a_float():
    # CPython's sum of no items is the int 0; a compiled expression has one type,
    # so it is the items' zero: the same value (docs/semantics.md)
    got = jitted(sum_squares, fallback=False)(np.zeros(0))
    assert got == sum_squares(np.zeros(0)) and type(got) is float


def test_float32_items_add_in_float32():
    a = np.array([0.1, 0.2, 0.3, 1e-8], dtype=np.float32)
    exp = sum_squares(a)
    got = jitted(sum_squares, fallback=False)(a)
    assert type(exp) is np.float32 and got == exp.item()


def after_call(a):
    return math.sqrt(a[0]) + sum(x for x in a)


def in_while(a):
    n = 0
    while sum(x for x in a) > n:
        n += 1
    return n


def behind_or(a, c):
    return c or sum(x for x in a)


def in_branch(a, c):
    return sum(x for x in a) if c else 0.0


def list_returned(n):
    return [i * i for i in range(n)]


@pytest.mark.parametrize("fn,args,why", [
    (after_call, (A,), "evaluated after other work in the same statement"),
    (in_while, (A,), "in a while-loop test"),
    (behind_or, (A, False), "evaluated only on some paths"),
    (in_branch, (A, True), "evaluated only on some paths"),
    (list_returned, (3,), "list comprehension"),
])
def test_falls_back_naming_the_construct(fn, args, why):
    with pytest.raises(UnsupportedError, match=why):
        jit(fn, fallback=False)(*args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert jit(fn)(*args) == fn(*args)
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)


def reductions(a, b, t):
    return (sum(x * y for x, y in zip(a, b)), sum(x for x in a if x > t),
            max((x - y for x, y in zip(a, b)), default=t), min((abs(x) for x in b), default=t),
            any(x == y for x, y in zip(a, b)), all(x < t for x in a),
            sum(i * x for i, x in enumerate(b) if i % 2))


def int_reductions(a, n):
    return (sum(x * n for x in a), max((x for x in a if x % 3), default=0),
            sum(i * 3 - n for i in range(n)), any(x == n for x in a))


floats = st.floats(allow_nan=True, allow_infinity=True, width=64)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(floats, floats), min_size=1, max_size=12), floats)
def test_float_reductions_fuzz(pairs, t):
    a = np.array([p[0] for p in pairs], dtype=np.float64)
    b = np.array([p[1] for p in pairs], dtype=np.float64)
    exp, exp_err = run(reductions, a, b, t)
    got, got_err = run(jitted(reductions, fallback=False), a, b, t)
    assert type(got_err) is type(exp_err)
    if exp_err is None:
        assert_same(got, exp, empty_sums=True)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-10 ** 6, 10 ** 6), min_size=1, max_size=12),
       st.integers(0, 50))
def test_int_reductions_fuzz(xs, n):
    a = np.array(xs, dtype=np.int64)
    exp = int_reductions(a, n)
    got = jitted(int_reductions, fallback=False)(a, n)
    assert_same(got, exp)
