"""List displays that are only read compile as tuples (``frontend.readonly_lists``):
weights, offsets, index lists and ``for k in [...]``.  Every case is compared
with CPython; a list that is mutated, returned or passed elsewhere still runs
in the interpreter, with the warning naming the display."""
import warnings

import numpy as np
import pytest
from hanajit import HanaJitFallbackWarning, jit


def weights(a):
    w = [0.25, 0.5, 0.25]
    out = np.zeros(len(a))
    for i in range(1, len(a) - 1):
        out[i] = w[0] * a[i - 1] + w[1] * a[i] + w[2] * a[i + 1]
    return out


def loop_display(n):
    s = 0
    for k in [1, 2, 3, -4]:
        s = s * 3 + k * n
    return s


def dynamic_index(i):
    w = [10, 20, 30]
    return w[i]


def iterate_name(n):
    steps = [1.5, -2.0, 0.25]
    s = 0.0
    for i, x in enumerate(steps):
        s += i * x + n
    for x, y in zip(steps, [3.0, 4.0, 5.0]):
        s -= x * y
    return s + len(steps) + min(steps) + max(steps)


def membership(x):
    primes = [2, 3, 5, 7, 11]
    return (x in primes) + 2 * (x not in [1, 4]) + 4 * (x in [2.0, 9.5])


def index_name(a):
    idx = [0, 2, -1]
    return a[idx]


def index_name_store(a):
    idx = [1, 3]
    a[idx] = -1.0
    a[idx] += 0.5
    return a


def mask_name(a):
    keep = [True, False, True, False, True]
    return a[keep]


def index_rows_cols(m):
    rows = [0, 2]
    cols = [1, 0]
    return m[rows, cols] + m[rows, 1]


def to_array(x):
    coeffs = [1.0, x, x * x]
    return np.array(coeffs) * 2.0 + np.array(coeffs).sum() + max(coeffs)


def nested(i, j):
    table = [[1, 2, 3], [4, 5, 6]]
    return table[i][j] + len(table)


def nested_array(x):
    table = [[1.0, 2.0], [3.0, x]]
    return np.array(table) @ np.array([1.0, -1.0])


def rebound(n):
    w = [1, 2]
    s = w[0]
    if n > 0:
        w = [3, 4]
    return s + w[1]


def arrays_in_list(a, b):
    pair = [a, b]
    total = 0.0
    for x in pair:
        total += x.sum()
    return total + pair[1][0]


def polynomial(x):
    c = [3.0, -2.0, 0.5, 1.25]
    y = 0.0
    for k in range(len(c) - 1, -1, -1):
        y = y * x + c[k]
    return y


CASES = [
    (weights, lambda: (np.linspace(-1.0, 2.0, 9),)),
    (loop_display, lambda: (7,)),
    (loop_display, lambda: (-3,)),
    (dynamic_index, lambda: (1,)),
    (dynamic_index, lambda: (-3,)),
    (dynamic_index, lambda: (3,)),
    (dynamic_index, lambda: (-4,)),
    (iterate_name, lambda: (2.5,)),
    (membership, lambda: (2,)),
    (membership, lambda: (4,)),
    (membership, lambda: (9,)),
    (index_name, lambda: (np.arange(5.0),)),
    (index_name, lambda: (np.arange(2.0),)),
    (index_name, lambda: (np.arange(12.0).reshape(4, 3),)),
    (index_name_store, lambda: (np.arange(6.0),)),
    (index_name_store, lambda: (np.arange(6.0)[::-1],)),
    (mask_name, lambda: (np.arange(5.0),)),
    (mask_name, lambda: (np.arange(4.0),)),
    (index_rows_cols, lambda: (np.arange(12).reshape(3, 4),)),
    (to_array, lambda: (1.5,)),
    (nested, lambda: (1, 2)),
    (nested, lambda: (-1, -3)),
    (nested, lambda: (0, 3)),
    (nested, lambda: (2, 0)),
    (nested_array, lambda: (0.5,)),
    (rebound, lambda: (1,)),
    (rebound, lambda: (0,)),
    (arrays_in_list, lambda: (np.arange(3.0), np.ones(2))),
    (polynomial, lambda: (0.3,)),
    (polynomial, lambda: (-2.0,)),
]


def _run(f, args):
    try:
        return "value", f(*args)
    except Exception as e:      # the exception class and message are the result
        return "raised", (type(e), str(e))


@pytest.mark.parametrize("func,make", CASES,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)])
def test_matches_cpython_without_fallback(func, make):
    expected = _run(func, make())
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = _run(jit(func), make())
    assert got[0] == expected[0], (got, expected)
    if got[0] == "raised":
        assert got[1] == expected[1]
    else:
        np.testing.assert_array_equal(got[1], expected[1])
        want = expected[1]
        if isinstance(want, np.ndarray):
            assert got[1].dtype == want.dtype
        else:       # NumPy scalars where the interpreter gives them
            assert type(got[1]) is type(want)


# -- lists that are not only read: the interpreter runs them -------------------------

def returned(x):
    w = [x, 2.0]
    return w


def aliased(x):
    w = [x, 2.0]
    v = w if x else None        # (v = w compiles: test_cpu_list_rebinding)
    return v[0]


def sliced(x):
    w = [x, 2.0, 3.0]
    return w[1:][0]


def nested_row(i):
    table = [[1, 2], [3, 4]]
    row = table[i]
    return row[0]


def min_of_nested(x):
    table = [[x, 2], [3, 4]]
    return min(table)[0]


def passed_to_builtin(x):
    w = [x, 1.0]
    return sorted(w)[0]


# (``appended``, ``item_store``, ``augmented`` and ``returned`` of one kind of items
# compile as growable lists: test_cpu_growable_lists.py; ``returned`` of an int and
# a float holds two kinds of items, which still falls back; ``nested_row`` is a
# list of lists: test_cpu_list_of_lists.py)
FALLBACKS = [(returned, (1,)), (aliased, (2.0,)),
             (sliced, (1.0,)),
             (min_of_nested, (5,)), (passed_to_builtin, (3.0,))]


@pytest.mark.parametrize("func,args", FALLBACKS, ids=[f.__name__ for f, _ in FALLBACKS])
def test_other_lists_fall_back_with_the_same_result(func, args):
    with pytest.warns(HanaJitFallbackWarning, match=func.__name__):
        got = jit(func)(*args)
    expected = func(*args)
    assert got == expected and type(got) is type(expected)


def test_shadowed_len_is_not_trusted():
    # a module-level ``len`` that returns its argument would hand out the list
    from hanajit.testing.sourcefile import load_module
    mod = load_module("def len(v):\n    return v\n\n\n"
                      "def leak(x):\n    w = [x, 1]\n    return len(w)\n", "shadowed_len")
    # (the user's len is inlined there: frontend/list_passing.py; it returns the list)
    got = jit(mod.leak, fallback=False)(3)
    assert got == [3, 1] and type(got) is list and type(got[0]) is int
