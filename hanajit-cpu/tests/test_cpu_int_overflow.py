"""Python ints beyond int64 (lib/python/int_overflow.py): a compiled function gives
CPython's exact big int by re-running a pure call in the interpreter, raises a
clear UnsupportedError for one that writes into its arguments, and NumPy int64
scalars and array elements keep wrapping as NumPy does (no check at all)."""
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.jitted import jitted
from hypothesis import given, settings
from hypothesis import strategies as st

MIN, MAX = -2**63, 2**63 - 1
EDGE = st.one_of(st.integers(MIN, MIN + 2**20), st.integers(MAX - 2**20, MAX),
                 st.integers(-2**32, 2**32), st.integers(MIN, MAX),
                 st.sampled_from([0, 1, -1, 2, -2, 2**31, 2**32, 3037000499, 3037000500,
                                  -3037000500, MIN, MAX, MIN + 1, MAX - 1]))


def _same(got, want):
    assert type(got) is type(want) and got == want, (got, want)


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def divmod_(a, b):
    return divmod(a, b)


def neg(a):
    return -a


def abs_(a):
    return abs(a)


def lshift(a, b):
    return a << b


def power(a, b):
    return a ** b


def accumulate(a, b):
    s = a
    s += b * b
    return s


BINARY = [add, sub, mul, accumulate]
COMPILED = {f: jit(f) for f in BINARY + [floordiv, mod, divmod_, neg, abs_, lshift, power]}


@pytest.mark.parametrize("f", BINARY, ids=lambda f: f.__name__)
@settings(max_examples=150, deadline=None)
@given(a=EDGE, b=EDGE)
def test_arithmetic_at_the_int64_edges(f, a, b):
    _same(COMPILED[f](a, b), f(a, b))


@pytest.mark.parametrize("f", [floordiv, mod, divmod_], ids=lambda f: f.__name__)
@settings(max_examples=100, deadline=None)
@given(a=EDGE, b=EDGE.filter(lambda b: b != 0))
def test_division_at_the_int64_edges(f, a, b):
    _same(COMPILED[f](a, b), f(a, b))


@pytest.mark.parametrize("a,b", [(MIN, -1), (MIN, 1), (MIN, MIN), (MAX, -1), (-1, MIN)])
def test_min_divided_by_minus_one(a, b):
    for f in (floordiv, mod, divmod_):
        _same(COMPILED[f](a, b), f(a, b))


@settings(max_examples=100, deadline=None)
@given(a=EDGE)
def test_negation_and_abs(a):
    _same(COMPILED[neg](a), -a)
    _same(COMPILED[abs_](a), abs(a))


def test_negation_and_abs_of_min():
    _same(COMPILED[neg](MIN), 2**63)
    _same(COMPILED[abs_](MIN), 2**63)


@settings(max_examples=150, deadline=None)
@given(a=EDGE, b=st.integers(0, 130))
def test_left_shifts(a, b):
    _same(COMPILED[lshift](a, b), a << b)


def test_every_shift_count():
    for a in (0, 1, -1, 3, -3, MAX, MIN, 2**40):
        for b in range(131):
            _same(COMPILED[lshift](a, b), a << b)
    with pytest.raises(ValueError, match="negative shift count"):
        COMPILED[lshift](1, -1)


@settings(max_examples=150, deadline=None)
@given(a=st.integers(-40, 40), b=st.integers(0, 70))
def test_powers(a, b):
    _same(COMPILED[power](a, b), a ** b)


@pytest.mark.parametrize("a,b", [(2, 62), (2, 63), (-2, 63), (-2, 64), (3, 39), (3, 40),
                                 (MAX, 1), (MIN, 1), (MIN, 2), (-1, 2**62), (0, 10**18),
                                 (3037000499, 2), (3037000500, 2)])
def test_power_edges(a, b):
    _same(COMPILED[power](a, b), a ** b)


# --- loops ---------------------------------------------------------------------
def factorial(n):
    p = 1
    for i in range(1, n + 1):
        p *= i
    return p


def shifted_sum(n):
    return sum(1 << i for i in range(n))


def squares(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def string_hash(codes):
    h = 7
    for c in codes:
        h = h * 31 + c
    return h


def counter(x, limit):
    c = 0                      # counts positives: a step under an if
    k = 0
    for i in range(len(x)):
        if x[i] > 0:
            c += 1
    t = 1.0                    # a while loop whose trip count t decides
    while t < limit:
        t = t * 1.5
        k += 3
    return c, k


def closed_form_counter(n):
    c = 2**62
    for i in range(n):         # LLVM may sum this loop in closed form: tested
        c += 1
    return c


@pytest.mark.parametrize("n", [0, 1, 20, 21, 25, 40])
def test_factorial(n):
    _same(jit(factorial)(n), factorial(n))


@pytest.mark.parametrize("n", [0, 62, 63, 64, 70])
def test_sum_of_shifts(n):
    _same(jit(shifted_sum)(n), shifted_sum(n))


def test_sum_of_squares():
    f = jit(squares)
    for n in (0, 10, 3_000_000, 3_100_000):   # (about n**3 / 3: leaves int64 at the last)
        _same(f(n), squares(n))


def test_hash_without_masking():
    f = jit(string_hash)
    short = tuple(range(97, 105))
    _same(f(short), string_hash(short))
    long_ = tuple(range(97, 97 + 26)) * 2       # 31**52 is far beyond int64
    _same(f(long_), string_hash(long_))


def test_counters_run_compiled():
    f = jit(counter)
    x = np.array([1.0, -2.0, 3.0, 0.0, 5.0])
    assert f(x, 1000.0) == counter(x, 1000.0)
    ir = f.inspect_ir()
    assert "overflow" not in ir, ir            # c += 1 and k += 3: not tested
    g = jit(closed_form_counter)
    _same(g(10), 2**62 + 10)
    assert "sadd_overflow(c, 1)" in g.inspect_ir()


# --- deoptimisation: pure functions re-run, impure ones refuse --------------------
def grows(a, n):
    return len(a) * n


def writes(a, n):
    a[0] = 1.0
    return len(a) * n


def test_pure_function_gives_the_exact_big_int():
    f = jit(grows)
    a = np.zeros(3)
    _same(f(a, 5), 15)
    _same(f(a, MAX), 3 * MAX)


def test_impure_function_refuses_clearly():
    f = jit(writes)
    a = np.zeros(3)
    _same(f(a, 5), 15)
    with pytest.raises(UnsupportedError, match="cannot represent Python's result here"
                       r" \(Python int beyond int64 \(x \* y\)\) and the function writes"):
        f(a, MAX)


# --- NumPy integers keep wrapping --------------------------------------------------
def np_scalar_ops(a, b):
    x, y = np.int64(a), np.int64(b)
    return x + y, x - y, x * y, -x, abs(x), x << np.int64(3)


def element_ops(v, i):
    x, y = v[i], v[i + 1]          # (i + 1 of the Python int i: checked)
    return x * x + y, -x, x - y, abs(x), x << np.int64(60)


def element_sum(v):
    s = v[0]
    for i in range(1, len(v)):
        s += v[i] * v[i]
    return s


@settings(max_examples=60, deadline=None)
@given(a=EDGE, b=EDGE)
def test_numpy_scalars_wrap_as_numpy(a, b):
    f = jitted(np_scalar_ops)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got, want = f(a, b), np_scalar_ops(a, b)
    assert [int(g) for g in got] == [int(w) for w in want]     # (NumPy's wrapped values)
    assert "overflow" not in f.inspect_ir()


def test_numpy_elements_wrap_with_no_check():
    v = np.array([MAX, MIN, 3, 2**62], dtype=np.int64)
    f, g = jitted(element_ops), jitted(element_sum)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for i in range(3):
            assert [int(x) for x in f(v, i)] == [int(x) for x in element_ops(v, i)]
        _same(g(v), element_sum(v))
    assert "overflow" not in g.inspect_ir()
    assert f.inspect_ir().count("overflow(") == 1


# --- no check where none is needed ------------------------------------------------
def stencil(u):
    n, m = u.shape
    v = u.copy()
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            v[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]
    return v


def diffs(x):
    s = 0.0
    for i in range(len(x) - 1):
        s += x[i + 1] - x[i]
    return s


@pytest.mark.parametrize("f,args", [(stencil, (np.ones((6, 5)),)), (diffs, (np.arange(5.0),))])
def test_index_arithmetic_is_unchecked(f, args):
    j = jit(f)
    np.testing.assert_array_equal(j(*args), f(*args))
    assert "overflow" not in j.inspect_ir()



# --- rewrite=True: closed forms of Python-int series stay exact --------------------
def series_sq(a, b, c):
    s = 7
    for i in range(a, b, c):
        s = s + i * i
    return s


def series_affine(a, b, c, u, v):
    s = -3
    for i in range(a, b, c):
        s += u * i + v
    return s


@pytest.mark.parametrize("args", [(0, 10, 1), (0, 3_000_000, 1), (0, 3_100_000, 1),
                                  (-(10**6), 10**6, 3), (MAX - 10, MAX, 1),
                                  (MIN, MIN + 21, 2), (0, 10**6, 10**3)])
def test_rewritten_series_are_exact(args):
    f = jit(rewrite=True)(series_sq)
    _same(f(*args), series_sq(*args))
    assert not any(ln.lstrip().startswith("for ") for ln in f.inspect_ir().splitlines())
    g = jit(rewrite=True)(series_affine)
    for u, v in ((3, -11), (MAX, MIN), (2**40, 5)):
        if abs(args[1] - args[0]) // abs(args[2]) < 10**5:
            _same(g(*args, u, v), series_affine(*args, u, v))


# --- range() of NumPy integer scalars yields Python ints --------------------------
def range_squares(a, b):
    s = 0
    for i in range(a, b):
        s += i * i
    return s


def range_last(a, b, c):
    i = -1
    for i in range(a, b, c):
        pass
    return i


def _holds(t, v):
    return v in (0, 1) if t is bool else t is int or np.iinfo(t).min <= v <= np.iinfo(t).max


RANGE_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
               np.uint64, bool, int]


@pytest.mark.parametrize("ta", RANGE_TYPES)
@pytest.mark.parametrize("tb", [np.uint64, np.int64, np.uint8, int])
def test_range_of_numpy_scalars_counts_in_python_ints(ta, tb):
    """Whatever its bounds' types (uint64 with int64 too, which NumPy would promote to
    float64), range() gives Python ints: no wrap-around, no float, an int result."""
    f = jit(range_squares)
    for a, b in ((0, 10), (1, 200), (0, 3_000_000), (5, 3)):
        if not (_holds(ta, a) and _holds(tb, b)):
            continue
        args = (ta(a), tb(b))
        _same(f(*args), range_squares(*args))


@pytest.mark.parametrize("args", [
    (np.uint64(2**63 + 5), np.uint64(2**63 + 9), np.uint64(2)),   # beyond int64: re-run
    (0, np.uint64(2**64 - 1), np.uint64(2**63)),                  # a step beyond int64
    (np.uint64(7), -3, -2), (np.int8(-128), np.uint8(255), np.uint64(100))])
def test_range_bounds_beyond_int64_give_the_interpreters_ints(args):
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # a re-run is not a fallback
        _same(jit(range_last)(*args), range_last(*args))
