"""A local that is a Python number first and a NumPy scalar later computes what
the interpreter computes under NumPy 2's promotion (NEP 50): ``acc = 0.0;
acc += v * v`` over float32 sums in float32, ``s = 0; s += v`` over uint8 wraps in
uint8.  Reads whose result would depend on the local's state fall back, naming
the local (infer/weak_locals.py)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit, prange
from hanajit.testing.jitted import jitted


def sum_squares(x):
    acc = 0.0
    for v in x:
        acc += v * v
    return acc


def wrapping_sum(u):
    s = 0
    for v in u:
        s += v
    return s


def running_max(x):
    m = -1e30
    for v in x:
        if v > m:
            m = v
    return m


def indexed(x):
    acc = 0.1
    for i in range(x.shape[0]):
        acc = acc + x[i]
    return acc, x.shape[0]


def into_array(x, out):
    acc = 0.5
    for i in range(x.shape[0]):
        acc = acc * x[i]
        out[i] = acc
    return acc


def int8_products(a):
    p = 1
    for v in a:
        p = p * v
    return p


def scaled_after(x):
    acc = 0.0
    for v in x:
        acc += v
    return acc * 2.0


def copied(x):
    acc = 0.0
    for v in x:
        acc += v
    y = acc
    return y


def sqrt_after(x):
    acc = 0.0
    for v in x:
        acc += v
    return np.sqrt(acc)


def _same(got, want):
    if isinstance(want, tuple):
        return len(got) == len(want) and all(map(_same, got, want))
    if isinstance(want, np.ndarray):
        return np.array_equal(got, want)
    # the same type too: a Python number where the interpreter has one, else
    # the NumPy scalar (infer/result_flags.py)
    return type(got) is type(want) and (got == want or (got != got and want != want))


def _check(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # uint8 overflow
        want = f(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        got = jitted(f, fallback=False)(*args)
    assert _same(got, want), (got, want)


floats32 = st.lists(st.floats(-1e4, 1e4, width=32), max_size=60).map(
    lambda v: np.array(v, np.float32))


@settings(max_examples=60, deadline=None)
@given(floats32)
def test_float32_sums_and_maxima_as_the_interpreter(x):
    _check(sum_squares, x)
    _check(running_max, x)
    _check(indexed, x)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=80).map(lambda v: np.array(v, np.uint8)))
def test_uint8_sum_wraps_as_the_interpreter(u):
    _check(wrapping_sum, u)


def test_values_stored_into_an_array_of_the_scalar_type():
    x = np.random.default_rng(3).normal(1, 0.1, 50).astype(np.float32)
    out_want, out_got = np.zeros(50, np.float32), np.zeros(50, np.float32)
    want = into_array(x, out_want)
    got = jitted(into_array, fallback=False)(x, out_got)
    assert got == want and np.array_equal(out_got, out_want)


def test_int8_products_wrap():
    _check(int8_products, np.array([7, -5, 3, 9, -2], np.int8))


def test_no_iteration_keeps_the_python_number():
    assert jitted(sum_squares, fallback=False)(np.zeros(0, np.float32)) == 0.0
    assert jitted(indexed, fallback=False)(np.zeros(0, np.float32)) == (0.1, 0)


@pytest.mark.parametrize("f", [scaled_after, copied, sqrt_after])
def test_state_dependent_reads_fall_back_naming_the_local(f):
    x = np.arange(5, dtype=np.float32) / 3
    with pytest.warns(UserWarning, match="'acc' changes type: a Python float, then a NumPy "
                                         "float32 scalar"):
        got = jit(f)(x)
    want = f(x)
    assert got == want and type(got) is type(want)


def prange_sum(x):
    acc = 0
    for i in prange(len(x)):
        acc += x[i] * 2
    return acc


def prange_sum_int64(x):
    acc = np.int64(0)
    for i in prange(len(x)):
        acc += x[i] * 2
    return acc


def prange_sum_f32(x):
    acc = 0.0
    for i in prange(len(x)):
        acc += x[i]
    return acc


@pytest.mark.parametrize("f, data", [
    (prange_sum, np.resize(np.array([-128, 127, 5, -3], np.int8), 30_001)),
    (prange_sum_int64, np.resize(np.array([-128, 127, 5, -3], np.int8), 30_001)),
    (prange_sum_f32, np.random.default_rng(0).normal(size=30_001).astype(np.float32)),
])
def test_parallel_reductions_as_the_interpreter(f, data):
    """A Python-number start with narrower NumPy updates runs the loop serially
    (a warning says why); a NumPy-scalar start stays parallel."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(over="ignore"):
            want = f(data)
        got = jit(f, parallel=True)(data)
    assert got == want
    hanajit_warnings = [w for w in caught if "hanajit" in str(w.message)]
    assert bool(hanajit_warnings) == (f is not prange_sum_int64), hanajit_warnings


def either_path(a, i):
    if i < 0:
        return 0.0              # a Python float
    return a[i]                 # an np.float64


def count_and_sum(x):
    acc = 0.0
    n = 0
    for v in x:
        acc += v
        n += 1
    return acc, n


def param_acc(acc, x):
    for v in x:
        acc += v * v
    return acc


def test_results_boxed_as_the_interpreter_boxes_them_on_each_call():
    # the same compiled code returns a Python number on some calls and a NumPy
    # scalar on others, as the interpreter does
    for x in (np.arange(5, dtype=np.float32) / 3, np.zeros(0, np.float32)):
        _check(sum_squares, x)
        _check(count_and_sum, x)
        _check(param_acc, 0.5, x)
    for u in (np.arange(200, dtype=np.uint8), np.zeros(0, np.uint8)):
        _check(wrapping_sum, u)
    for i in (-1, 0, 2):
        _check(either_path, np.arange(3.0), i)


def test_result_flags_through_the_disk_cache(tmp_path, monkeypatch):
    from hanajit import jit
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path))
    x32 = np.arange(5, dtype=np.float32) / 3
    for loaded in (False, True):        # compiled and stored, then loaded
        f = jit(sum_squares, cache=True)
        assert type(f(x32)) is np.float32 and f(x32) == sum_squares(x32)
        assert type(f(x32[:0])) is float
        spec = next(iter(f._compiled.values()))
        assert getattr(spec, "from_cache", False) is loaded


def reciprocal_of_sum(a):
    v = 0
    for x in a:
        v += x
    return 1.0 / v


def mean_by_hand(a):
    s = 0.0
    for x in a:
        s += x
    return s / len(a)


def int_quotients(a):
    s = 0
    for x in a:
        s += x
    return 10 // s, 7 % s


def _raised(f, a):
    try:
        with np.errstate(all="ignore"):
            return ("ok", f(a))
    except ZeroDivisionError as e:
        return ("raise", str(e))


@pytest.mark.parametrize("f", [reciprocal_of_sum, mean_by_hand, int_quotients])
@pytest.mark.parametrize("a", [np.array([], np.int64), np.array([], np.float64),
                               np.array([3, -3]), np.array([0.0]), np.array([2, 5]),
                               np.array([1.5, 2.0])])
def test_a_local_still_a_python_number_divides_as_python(f, a):
    """``v = 0; for x in a: v += x`` is the Python int 0 when the loop did not
    run: dividing by it (or it by a zero ``len(a)``) raises ZeroDivisionError,
    as in the interpreter -- while after the loop, an ``np.int64(0)`` divides
    as NumPy does (inf, 0)."""
    import warnings as w
    with w.catch_warnings():
        w.simplefilter("ignore", RuntimeWarning)
        got, want = _raised(jit(f, fallback=False), a), _raised(f, a)
    assert got[0] == want[0] and (got[1] == want[1] if got[0] == "raise" else
                                   np.array_equal(got[1], want[1], equal_nan=True))


# -- locals that are a Python number on some runs and a NumPy scalar of the same type
# on others (infer/uncertain_kinds.py): where the two rules differ on the operands
# the call re-runs in the interpreter; these all gave NumPy's answer on both runs.

def scaled_after_branch(a, c):
    v = 3
    if c:
        v = a[0]
    return v * 2**62 * 4


def loop_targets_then_range(a, c):
    v = a[0]
    s = 1
    for v in range(3, 6):
        s = s * v * 2**40
    return s + int(c)


def negative_power(a, c):
    v = 2
    if c:
        v = a[0]
    return v ** -1


def float_root(a, c):
    v = -8.0
    if c:
        v = a[0]
    return v ** 0.5


def shifted(a, c):
    v = 1
    if c:
        v = a[0]
    return v << 63


def negated(a, c):
    v = -2**63
    if c:
        v = a[0]
    return -v


def absolute(a, c):
    v = -2**63
    if c:
        v = a[0]
    return abs(v)


def copied_then_divided(a, c):
    for x in a:
        pass
    for x in range(0, 1):
        y = x
    return 7 // y + int(c)


def bool_sum(a, c):
    f = True
    if c:
        f = a[0] > 0
    return f + f


def _run(f, *args):
    try:
        with np.errstate(all="ignore"):
            return "ok", f(*args)
    except Exception as e:          # (the class and message)
        return type(e), str(e)


@pytest.mark.parametrize("f, a", [
    (scaled_after_branch, np.array([3], np.int64)),
    (negative_power, np.array([3], np.int64)),
    (float_root, np.array([-8.0])),
    (shifted, np.array([3], np.int64)),
    (negated, np.array([-2**63], np.int64)),
    (absolute, np.array([-2**63], np.int64)),
])
def test_a_local_of_either_kind_gives_the_interpreters_value(f, a):
    jf = jit(f, fallback=False)
    for c in (False, True):
        got, want = _run(jf, a, c), _run(f, a, c)
        assert got[0] == want[0], (f.__name__, c, got, want)
        g, w = np.asarray(got[1]), np.asarray(want[1])
        assert g.dtype == w.dtype or got[1] == want[1], (f.__name__, c, got, want)
        assert g.tobytes() == w.tobytes() or got[1] == want[1], (f.__name__, c, got, want)


def test_arithmetic_on_a_bool_of_either_kind_falls_back():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f = jit(bool_sum)
        assert f(np.array([1]), False) == 2 and f(np.array([1]), True) is np.True_
    assert any("True + True is 2" in str(x.message) for x in w)


def _helper_scaled(x):
    return x * 2**62 * 4


def passed_on(a, c):
    v = 3
    if c:
        v = a[0]
    return _helper_scaled(v)


def compared_with_a_float(a, c):
    v = 2**53 + 1
    if c:
        v = a[0]
    return v == 2.0**53


def in_a_tuple(a, c):
    v = 3
    if c:
        v = a[0]
    w = (v, 1)
    return w[0] * 2**62 * 4


def with_uint8(a, c):
    v = 300
    if c:
        v = a[0]
    return np.zeros(2, np.uint8) + v, np.add(v, np.uint8(4))


@pytest.mark.parametrize("f", [passed_on, compared_with_a_float, in_a_tuple, with_uint8])
def test_a_local_of_either_kind_where_the_kind_decides(f):
    # each gave NumPy's answer (int64 wrap, float comparison, int64 promotion) for
    # the Python number; now in_a_tuple re-runs on overflow, the others fall back
    a = np.array([3], np.int64)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        jf = jit(f)
        for c in (False, True):
            got, want = _run(jf, a, c), _run(f, a, c)
            assert got[0] == want[0] and repr(got[1]) == repr(want[1]), (f.__name__, c)


# -- results whose kind (Python number or NumPy scalar) depends on the run: boxed
# per call where one flag says which (infer/result_flags.py), else a fallback

def doubled_after_branch(a, c):
    v = 3
    if c:
        v = a[0]
    return v * 2, -v + 1, abs(v) // 2, 1.0 / v


def plain_sum(a):
    s = 0
    for x in a:
        s += x
    return s, s * 2


def either_return(a):
    for v in a:
        if v < 0:
            return np.log(v)
    return 0.0


def smaller_of(a):
    return min(a[0], 0), max(0.0, a[1])


def either_chosen(a):
    return np.log(a).sum() if a.size else 0.0


def running_bounds(x):
    lo = float("inf")
    hi = float("-inf")
    for v in x:
        lo = min(lo, v)
        hi = max(v, hi)
    return lo, hi


def summed(a):
    out = []
    for x in a:
        out.append(x)
    t = sum(out)
    return t, sum(x * 2 for x in a)


@pytest.mark.parametrize("f, args", [
    (doubled_after_branch, (np.array([3]), False)),
    (doubled_after_branch, (np.array([3]), True)),
    (doubled_after_branch, (np.array([3.5]), False)),
    (doubled_after_branch, (np.array([3.5]), True)),
    (plain_sum, (np.array([], np.float64),)), (plain_sum, (np.array([1.5]),)),
    (plain_sum, (np.array([], np.int64),)), (plain_sum, (np.array([2, 3]),)),
    (summed, (np.array([], np.float64),)), (summed, (np.array([0.5, 2.0]),)),
    (either_return, (np.array([1.0], np.float32),)),
    (either_return, (np.array([-1.0], np.float32),)),
    (running_bounds, (np.array([3.0, -2.0, 7.5]),)), (running_bounds, (np.zeros(0),)),
    (running_bounds, (np.array([np.inf]),)), (running_bounds, (np.array([np.nan, 1.0]),)),
    (running_bounds, (np.array([-0.0, 0.0]),)),
    # (a whole returned 'a if c else b' splits into two returns: either_choices)
    (either_chosen, (np.array([1.0], np.float32),)), (either_chosen, (np.zeros(0),)),
])
def test_results_of_either_kind_are_boxed_as_the_interpreter_boxes_them(f, args):
    # (an int 0 held in a float64 local came back as the float 0.0; v * 2 of the
    # Python int 3 as np.int64(6))
    got, want = jit(f, fallback=False)(*args), f(*args)
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    assert [type(x) for x in got] == [type(x) for x in want], (got, want)
    assert repr(got) == repr(want)


@pytest.mark.parametrize("f, args", [
    (smaller_of, (np.array([1.5, -3.25]),)),
    (loop_targets_then_range, (np.array([3], np.int64), False)),
    (copied_then_divided, (np.array([3], np.int64), False)),
])
def test_a_result_of_either_kind_that_no_flag_tells_falls_back(f, args):
    # (each came back as a NumPy scalar where the interpreter returns a Python
    # number on some runs: d.get(k, 0) of a missing key is the int 0)
    from hanajit.testing.compare import check_fallback
    check_fallback(f, args, "variable type change")


def augmented_after_weak_start(a):
    s = 0
    for v in a:
        s += v
        s -= 1
    return s


def test_a_weak_start_then_two_numpy_types_falls_back():
    # (s is float32 in the interpreter; compiled as their common float64, it
    # came back as np.float64)
    from hanajit.testing.compare import check_fallback
    check_fallback(augmented_after_weak_start, (np.array([1.5, 2.0], np.float32),),
                   "NumPy scalars of types float32, float64")
