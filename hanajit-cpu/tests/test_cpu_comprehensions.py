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
from hanajit import HanaJitFallbackWarning, jit, prange
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
    (index_error, (A, 1)), (index_error, (A, 3)),
    (short_circuit, (A, 4)), (list_no_short_circuit, (A, 4)), (shadowing, (5,)),
    (inner_shadowing, (6,)),
]


def as_python(v):
    """The value the compiled function returns for the interpreter's ``v``:
    NumPy scalars come back as the Python numbers of the same value."""
    if isinstance(v, tuple):
        return tuple(as_python(x) for x in v)
    return v.item() if isinstance(v, np.generic) else v


def assert_same(got, exp, empty_sums=False, python_items=False):
    """Same value (floats bit for bit) and type; with ``empty_sums``, CPython's
    int 0 of a sum of no float items may be the items' zero (one type per
    expression, ``test_empty_sum_of_array_items_is_a_float``); with
    ``python_items`` (the items of a returned list) NumPy scalars are compared
    as the Python numbers of the same value."""
    if python_items:
        got, exp = as_python(got), as_python(exp)
    if empty_sums and type(exp) is int and exp == 0 and isinstance(got, (float, np.floating)):
        exp = type(got)(0.0)
    assert type(got) is type(exp), (got, exp)
    if isinstance(got, tuple):
        assert len(got) == len(exp)
        for g, e in zip(got, exp):
            assert_same(g, e, empty_sums, python_items)
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


def compare(fn, args, same):
    """``fn`` compiled against the interpreter: the same exception and words, or
    results that ``same`` accepts."""
    exp, exp_err = run(fn, *args)
    got, got_err = run(jitted(fn, fallback=False), *args)
    if exp_err is not None:
        assert type(got_err) is type(exp_err) and str(got_err) == str(exp_err)
    else:
        assert got_err is None, got_err
        same(got, exp)


@pytest.mark.parametrize("fn,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_like_cpython(fn, args):
    compare(fn, args, lambda got, exp: assert_same(got, exp, python_items=True))


def test_empty_sum_of_array_items_is_a_float():
    # CPython's sum of no items is the int 0: the returned total is boxed from its
    # state (infer/result_flags.py), the int 0 (it was the float 0.0)
    got = jitted(sum_squares, fallback=False)(np.zeros(0))
    assert got == sum_squares(np.zeros(0)) and type(got) is int


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
        assert_same(got, exp, empty_sums=True, python_items=True)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-10 ** 6, 10 ** 6), min_size=1, max_size=12),
       st.integers(0, 50))
def test_int_reductions_fuzz(xs, n):
    a = np.array(xs, dtype=np.int64)
    exp = int_reductions(a, n)
    got = jitted(int_reductions, fallback=False)(a, n)
    assert_same(got, exp, python_items=True)


# ---- list comprehensions handed to NumPy (frontend/comprehension_arrays.py) ----

def arr_range(n):
    return np.array([i * i for i in range(n)])


def arr_filtered(a):
    return np.array([x * 2.0 for x in a if x > 1.0])


def arr_bools(a):
    return np.asarray([x > 1.0 for x in a])


def arr_enumerate(a):
    return np.array([i * x for i, x in enumerate(a)])


def arr_zip_sum(a, b):
    return np.sum([x * y for x, y in zip(a, b)])


def arr_two(n):
    return np.array([i for i in range(n) if i % 2]), np.mean([i * 1.5 for i in range(n)])


def arr_flat_nested(n):
    return np.array([i * 10 + j for i in range(n) for j in range(i)])


def arr_2d(n, m):
    return np.array([[i * j + 0.5 for j in range(m)] for i in range(n)])


def arr_ragged(n):
    return np.array([[j for j in range(i)] for i in range(1, n)])


def arr_index_error(a, k):
    return np.array([a[i + k] for i in range(4)])


def arr_float32(a):
    return np.array([np.float32(x) * np.float32(2) for x in a])


def arr_complex(n):
    return np.array([complex(i, -i) for i in range(n)])


def arr_big(n):
    # more items than the first buffer holds (16): the buffer grows
    return np.array([i * 0.25 for i in range(n) if i % 3 != 1])


ARRAY_CASES = [
    (arr_range, (5,)), (arr_range, (1,)), (arr_filtered, (A,)), (arr_bools, (A,)),
    (arr_enumerate, (A,)), (arr_zip_sum, (A, B)), (arr_two, (7,)),
    (arr_flat_nested, (5,)), (arr_2d, (3, 4)), (arr_2d, (1, 1)), (arr_ragged, (4,)),
    (arr_index_error, (A, 0)), (arr_index_error, (A, 2)), (arr_float32, (A,)),
    (arr_complex, (3,)), (arr_big, (100,)), (arr_big, (17,)),
]


def assert_same_array(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            assert_same_array(g, e)
        return
    if not isinstance(exp, np.ndarray):
        return assert_same(got, exp)
    assert type(got) is np.ndarray and got.dtype == exp.dtype and got.shape == exp.shape
    assert got.tobytes() == exp.tobytes()


@pytest.mark.parametrize("fn,args", ARRAY_CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_arrays_like_numpy(fn, args):
    compare(fn, args, assert_same_array)


@pytest.mark.parametrize("fn,args", [(arr_range, (0,)), (arr_filtered, (-A,)),
                                     (arr_2d, (0, 3)), (arr_2d, (2, 0))])
def test_no_items_run_in_the_interpreter(fn, args):
    # NumPy's array of no items is float64 whatever they would be: the call
    # deoptimises, and the interpreter's result comes back
    assert_same_array(jitted(fn)(*args), fn(*args))


def empty_writes(out, n):
    out[0] = 1.0
    return np.array([i * i for i in range(n)])


def test_no_items_in_a_function_that_writes_its_arguments():
    f = jit(empty_writes)
    assert_same_array(f(np.zeros(2), 3), empty_writes(np.zeros(2), 3))
    with pytest.raises(UnsupportedError, match="empty list is float64"):
        f(np.zeros(2), 0)


def arr_of_arrays(a):
    return np.array([a * k for k in range(3)])


def arr_dtype(a):
    return np.array([x for x in a], dtype=np.float32)


def arr_three_levels(n):
    return np.array([[[i] for j in range(n)] for i in range(n)])


@pytest.mark.parametrize("fn,args,why", [
    (arr_of_arrays, (A,), "list comprehension whose items are not numbers"),
    (arr_dtype, (A,), "with a dtype or other arguments"),
    (arr_three_levels, (2,), "nested more than two levels"),
])
def test_arrays_fall_back_naming_the_construct(fn, args, why):
    with pytest.raises(UnsupportedError, match=why):
        jit(fn, fallback=False)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        assert_same_array(jit(fn)(*args), fn(*args))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(floats, min_size=1, max_size=40), floats)
def test_filtered_arrays_fuzz(xs, t):
    a = np.array(xs)
    exp = arr_fuzz(a, t)
    if exp[0].size == 0:
        return          # (test_no_items_run_in_the_interpreter)
    got = jitted(arr_fuzz, fallback=False)(a, t)
    assert_same_array(got, exp)


def arr_fuzz(a, t):
    return (np.array([x for x in a if x > t]),
            np.array([[x * k - t for k in range(3)] for x in a]))


def arr_rows_of_displays(a):
    return np.array([[x, 2.0 * x, -x] for x in a if x != 2.0]), np.array([(i, i * i) for i in range(4)])


def test_rows_of_list_and_tuple_displays():
    assert_same_array(jitted(arr_rows_of_displays, fallback=False)(A), arr_rows_of_displays(A))


def writes_and_builds(out, a):
    for i in range(len(out)):
        out[i] = a[i] + 1.0
    return np.array([x for x in a if x > 100.0])


def test_a_new_buffer_is_not_a_write_to_the_arguments():
    # the comprehension's buffer and np.zeros locals are made by the function:
    # only ``out`` is written, so this function still cannot deoptimise, while
    # one writing only into its own arrays can (``arr_filtered`` above)
    with pytest.raises(UnsupportedError, match="writes to its arguments"):
        jit(writes_and_builds)(np.zeros(2), A)


def row_sums_prange(m):
    out = np.zeros(m.shape[0])
    total = 0.0
    for i in prange(m.shape[0]):
        out[i] = sum(m[i, j] * j for j in range(m.shape[1]) if m[i, j] > 2.0)
        total += max(m[i, j] for j in range(m.shape[1]))
    return out, total


def test_in_a_parallel_loop():
    # a comprehension's variables are its own: no value carried between iterations
    m = np.arange(40.0).reshape(8, 5) % 7.0
    got = jitted(row_sums_prange, fallback=False)(m)
    exp = row_sums_prange(m)
    assert_same_array(got[0], exp[0])
    assert got[1] == exp[1]


# ---- returned list comprehensions: a real list, as ``.tolist()`` gives it ----

def list_filtered(a):
    return [x * 2.0 for x in a if x > 1.0]


def list_bools(n):
    return [i % 3 == 0 for i in range(n)]


def list_complex(n):
    return [complex(i, -1.0) for i in range(n)]


def list_nested(n, m):
    return [[i * j for j in range(m)] for i in range(n)]


def list_ragged(n):
    return [[j for j in range(i)] for i in range(n)]


def list_rows(a):
    return [(x, x * x) for x in a]


def list_index_error(a, k):
    return [a[i + k] for i in range(3)]


def list_of_items(a):
    return [x * 2 for x in a]


def list_of_comparisons(a):
    return [x > 0 for x in a]


def list_of_python_floats(a):
    return [float(x) for x in a]


def list_of_rows(m):
    return [[m[i, j] for j in range(m.shape[1])] for i in range(m.shape[0])]


def list_of_pairs(a):
    return [[x, 2 * x] for x in a]


def list_named_or_other(a, n):
    xs = [x - 1 for x in a]
    if n > 0:
        return [n * x for x in a]
    return xs


def list_and_count(a):
    return [x * 2 for x in a if x > 0], len(a)


def count_and_sorted(a, n):
    return n + 1, sorted(a), [i for i in range(n)]


def named_list_and_total(a):
    xs = [x + 1 for x in a]
    return xs, sum(xs)


def tuple_lists_on_two_paths(a, n):
    if n > 2:
        return [x for x in a], a[0]
    return [n * x for x in a], a[-1]


LIST_CASES = [
    (list_and_count, (A,)), (list_and_count, (-A,)), (count_and_sorted, (A, 3)),
    (count_and_sorted, (A[:0], 0)), (named_list_and_total, (A,)),
    (named_list_and_total, (A * 3,)), (list_and_count, (A.astype(np.float32),)),
    (tuple_lists_on_two_paths, (A, 3)),
    (tuple_lists_on_two_paths, (A, 1)), (tuple_lists_on_two_paths, (A[:0], 3)),
    (list_of_items, (A,)), (list_of_items, (A.astype(np.float32),)),
    (list_of_items, (np.arange(5, dtype=np.uint8) * 60,)), (list_of_items, (A[:0],)),
    (list_of_items, (A > 1,)), (list_of_comparisons, (A - 2,)),
    (list_of_python_floats, (A,)), (list_of_rows, (np.linspace(-1, 1, 6).reshape(2, 3),)),
    (list_of_rows, (np.arange(6, dtype=np.int16).reshape(3, 2),)),
    (list_of_pairs, (A,)), (list_named_or_other, (A, 0)), (list_named_or_other, (A, 3)),
    (list_returned, (5,)), (list_returned, (0,)), (list_filtered, (A,)),
    (list_filtered, (-A,)), (list_bools, (7,)), (list_complex, (3,)),
    (list_nested, (3, 4)), (list_nested, (0, 4)), (list_nested, (3, 0)),
    (list_ragged, (4,)), (list_index_error, (A, 0)),
    (list_index_error, (A, 3)), (list_returned, (100,)),
]


def assert_same_list(got, exp):
    """A list of the same length whose items are the same, of the same types:
    NumPy scalars where the interpreter's items are (``Function.numpy_list``);
    a tuple holding such lists item by item."""
    if isinstance(exp, tuple):
        assert type(got) is tuple and len(got) == len(exp), (got, exp)
        for g, e in zip(got, exp):
            (assert_same_list if isinstance(e, list) else assert_same)(g, e)
        return
    assert type(got) is list and len(got) == len(exp), (got, exp)
    for g, e in zip(got, exp):
        if isinstance(e, list):
            assert_same_list(g, e)
        else:
            assert_same(g, e)


@pytest.mark.parametrize("fn,args", LIST_CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_returned_lists_like_cpython(fn, args):
    compare(fn, args, assert_same_list)


def calls_a_list_function(n):
    return len(list_returned(n))


LIST_RETURNED = jit(list_returned)


def calls_a_jitted_list_function(n):
    return LIST_RETURNED(n)[0]


def list_or_none(n):
    if n > 0:
        return [i for i in range(n)]
    return None


def tuple_list_or_not(n):
    if n > 0:
        return [i for i in range(n)], n
    return np.zeros(2), n


@pytest.mark.parametrize("fn,why", [
    (calls_a_jitted_list_function, "returns a list comprehension, which compiled code"),
    (tuple_list_or_not, "returns something else on another path"),
    (list_or_none, "returns something else on another path"),
    (list_rows, "list comprehension of tuples returned"),
])
def test_returned_lists_fall_back_naming_why(fn, why):
    arg = A if fn is list_rows else 3
    with pytest.raises(UnsupportedError, match=why):
        jit(fn, fallback=False)(arg)


def test_exporters_refuse_a_returned_list():
    f = jit(list_returned)
    f(3)
    with pytest.raises(UnsupportedError, match="only a Python caller"):
        f.ir_module()


@pytest.mark.parametrize("mode", ["0", "1"])
def test_returned_lists_in_both_dispatch_modes(mode, monkeypatch):
    monkeypatch.setenv("HANAJIT_NATIVE_DISPATCH", mode)
    f = jit(list_filtered, fallback=False)
    for _ in range(3):
        assert_same_list(f(A), list_filtered(A))


def test_returned_list_from_the_disk_cache(tmp_path):
    import json
    import os
    import subprocess
    import sys
    (tmp_path / "mod.py").write_text(
        "import hanajit\n\n@hanajit.jit(cache=True)\n"
        "def squares(n):\n    return [i * i for i in range(n)]\n")
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=str(tmp_path))
    code = ("import json, mod, hanajit.cache as c; r = mod.squares(4); "
            "print(json.dumps([type(r).__name__, r, c.stats['hits']]))")
    runs = [json.loads(subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                                      capture_output=True, text=True, timeout=240,
                                      check=True).stdout.splitlines()[-1])
            for _ in range(2)]
    assert runs[0] == ["list", [0, 1, 4, 9], 0]
    assert runs[1] == ["list", [0, 1, 4, 9], 1]         # loaded, still a list


def list_fuzz(a, t):
    return [x - t for x in a if x > t]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(floats, max_size=40), floats)
def test_returned_lists_fuzz(xs, t):
    a = np.array(xs, dtype=np.float64)
    assert_same_list(jitted(list_fuzz, fallback=False)(a, t), list_fuzz(a, t))


def weights_in_a_generator(a):
    w = [0.25, 0.5, 0.25]           # a read-only list display, read inside
    return sum(w[k] * a[k] for k in range(3)), np.array([w[k] * 2 for k in range(3)])


def test_read_only_list_displays_inside_comprehensions():
    got = jitted(weights_in_a_generator, fallback=False)(A)
    exp = weights_in_a_generator(A)
    assert_same(got[0], exp[0])
    assert_same_array(got[1], exp[1])


def enumerate_start_keyword(a):
    s = 0
    for i, x in enumerate(a, start=10):
        s += i * x
    return s


def enumerate_start_listed(a):
    return [i - x for i, x in enumerate(a, start=-2)]


@pytest.mark.parametrize("a", [np.arange(5), np.array([], np.int64), (1, 2, 3)])
def test_enumerate_start_as_a_keyword(a):
    assert jit(enumerate_start_keyword, fallback=False)(a) == enumerate_start_keyword(a)
    if isinstance(a, np.ndarray):
        got = jit(enumerate_start_listed, fallback=False)(a)
        assert list(got) == enumerate_start_listed(a)


def unique_axis(a):
    return np.unique(a, axis=0)


def linspace_of(n):
    return np.linspace(0.0, 1.0, n)


@pytest.mark.parametrize("f, arg, reason", [
    (unique_axis, np.arange(3), r"np.unique\(\) with axis="),
    (linspace_of, 2.5, "num of type float64"),
])
def test_fallback_reasons_name_what_was_given(f, arg, reason):
    with pytest.raises(UnsupportedError, match=reason):
        jit(f, fallback=False)(arg)


def test_a_total_an_int_or_a_float_by_the_run_falls_back():
    # (in_statements: s is the int 0 for an empty a, else np.float64; s + 1.0 makes
    # a Python float on other paths: one compiled type cannot say which)
    from hanajit.testing.compare import check_fallback
    check_fallback(in_statements, (A, 3), "cannot say which Python number")
