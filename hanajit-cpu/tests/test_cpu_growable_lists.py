"""Lists that grow (``out = []`` ... ``out.append(x)``), compiled as a buffer with
spare room and a count (frontend/growable_lists.py): every operation compared
with the interpreter -- values, the types of the items, exceptions."""
import gc
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit, prange
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError


def same(got, want) -> bool:
    """Equal values of the same types, floats bit for bit, lists item by item."""
    if type(got) is not type(want):
        return False
    if isinstance(want, (list, tuple)):
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, np.ndarray):
        return got.dtype == want.dtype and got.shape == want.shape and \
            got.tobytes() == want.tobytes()
    if isinstance(want, (float, complex, np.floating, np.complexfloating)):
        return np.asarray(got).tobytes() == np.asarray(want).tobytes()
    return got == want


def outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as e:              # (the exception's type and message)
        return type(e), str(e)


def check(f, *calls):
    jf = jit(f, fallback=False)
    for args in calls:
        got, want = outcome(jf, *args), outcome(f, *args)
        assert got[0] is want[0] and same(got[1], want[1]), (f.__name__, args, got, want)
    return jf


# -- the kernels of the brief ---------------------------------------------------------

def positives(a):
    out = []
    for v in a:
        if v > 0:
            out.append(v * 2)
    return np.array(out)


def positives_list(a):
    out = []
    for v in a:
        if v > 0:
            out.append(v * 2)
    return out, len(out)


def primes(n):
    ps = []
    for k in range(2, n):
        ok = True
        for p in ps:
            if p * p > k:
                break
            if k % p == 0:
                ok = False
                break
        if ok:
            ps.append(k)
    return ps


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.bool_])
def test_positives(dtype):
    a = np.array([1, -2, 3, 0, 5, -1, 7]).astype(dtype)
    check(positives, (a,), (a[::-1],), (a[::2],), (a[:0],), (a & 0 if dtype is np.bool_
                                                               else -np.abs(a),))
    check(positives_list, (a,), (a[:0],))


def test_positives_special_floats():
    a = np.array([np.nan, np.inf, -0.0, 0.0, 2.5, -np.inf, 1e308])
    check(positives, (a,))
    check(positives_list, (a,))


def test_primes():
    check(primes, (0,), (2,), (3,), (100,), (1000,))


# -- making, adding, taking away ------------------------------------------------------

def made(x, y):
    a = []
    b = list()
    c = [x, y]
    a.append(x)
    b.append(y)
    return a, b, c


def made_empty():
    a = []
    return a, len(a), np.array(a)


def kinds(a):
    ints, floats, bools, cplx, items, flags = [], [], [], [], [], []
    for k in range(len(a)):
        ints.append(k * 3)
        floats.append(k / 2)
        bools.append(k % 2 == 0)
        cplx.append(complex(k, -k))
        items.append(a[k])
        flags.append(a[k] != 0)
    return ints, floats, bools, cplx, items, flags


def test_made_and_item_types():
    check(made, (1, 2), (1.5, -0.0), (True, False), (np.float32(1), np.float32(2)))
    check(made_empty, ())
    for dtype in (np.int32, np.complex64):
        a = np.array([1, 0, 2, 3]).astype(dtype)
        check(kinds, (a,), (a[:0],), (a[::-1],))


def changes(n, x):
    out = [3, 1]
    out.extend(range(n))
    out += [7, 8]
    out.insert(1, 99)
    out.insert(-100, 5)
    out.insert(100, 6)
    out.insert(-1, 4)
    p = out.pop()
    q = out.pop(0)
    r = out.pop(-2)
    out[0] = out[-1] + 1
    out[1] += 10
    out[-1] = x
    return out, p, q, r


def extended(a, t):
    out = [1.5]
    out.extend([2.5, -0.0])
    out.extend((4.0, t))
    other = [9.0]
    other.append(8.0)
    out.extend(other)
    out.extend(out)
    out += out
    return out


def extended_array(a):
    out = []
    out.extend(a)
    out.extend(a[::-1])
    out += [a[0]]
    return out


def cleared(n):
    out = [1, 2]
    out.clear()
    for i in range(n):
        out.append(i)
    return out, len(out)


def list_copy(xs):
    return tuple(xs)


def sorted_kinds(a):
    out = []
    for v in a:
        out.append(float(v))
    out.reverse()
    rev = [float(v) for v in out]           # (a list comprehension of its items)
    out.sort(reverse=True)
    return rev, out


def test_changes():
    check(changes, (0, 5), (4, -1), (10, 0))
    check(extended, (np.array([1.0, 2.0]), 3.0), (np.array([]), -1.0),
          (np.arange(6.0)[::-2], 0.5))
    check(cleared, (0,), (5,))
    for dtype in (np.float64, np.uint8, np.complex64):
        a = np.array([3, 1, 2]).astype(dtype)
        check(extended_array, (a,), (a[:0],), (a[::2],))
    for dtype in (np.float64, np.uint8, np.bool_):
        a = np.array([3, 1, 2, 1, 0]).astype(dtype)
        check(sorted_kinds, (a,), (a[:0],))
    a = np.array([0.0, -0.0, 2.0, -1.0, 0.0])       # equal items keep their order
    check(sorted_kinds, (a,))
    check(sorted_kinds, (np.array([1.0, np.nan, 0.5]),))   # (a NaN: the interpreter)


def pops(k):
    out = [1, 2, 3]
    if k == 0:
        out.clear()
        return out.pop()
    if k == 1:
        return out.pop(3)
    if k == 2:
        return out.pop(-4)
    if k == 3:
        out[3] = 1
    if k == 4:
        out[-4] = 1
    if k == 5:
        return out[3]
    if k == 6:
        return out[-4]
    if k == 7:
        return out.index(9)
    if k == 8:
        out[5] += 1
    return out.pop(-3)


def test_errors():
    check(pops, *[(k,) for k in range(10)])


# -- reading ---------------------------------------------------------------------------

def reads(a, x):
    out = []
    for v in a:
        out.append(v)
    n = len(out)
    has = x in out
    hasnt = x not in out
    c = out.count(x)
    return n, has, hasnt, c, not out


def items_read(a, x):
    out = []
    for v in a:
        out.append(v)
    n = len(out)
    i = out.index(x) if x in out else -1
    return out[0], out[-1], out[n // 2], out[-n], i


def reductions(a):
    out = []
    for v in a:
        out.append(v)
    return sum(out), min(out), max(out), any(out), all(out), sorted(out), \
        sorted(out, reverse=True), math.fsum(out)


def python_reductions(n):
    out = []
    for i in range(n):
        out.append(i * 0.1)
    return sum(out), min(out), max(out), sum(out, 10.0)


def looped(n):
    out = [1]
    for v in out:                   # sees the items appended while looping
        if v < n:
            out.append(v * 2)
            out.append(v * 3)
    t = 0
    for i, v in enumerate(out):
        t += i * v
    u = 0
    for i, v in enumerate(out, 5):
        u += i
    return out, t, u, sum(v * v for v in out), [v + 1 for v in out]


def popped_while_looping(n):
    out = list()
    for i in range(n):
        out.append(i)
    seen = []
    for v in out:
        seen.append(v)
        out.pop()
    else:
        seen.append(-1)
    return seen, out


def as_arrays(a):
    out = []
    for v in a:
        out.append(v)
    return np.array(out), np.asarray(out), np.array(out).sum()


def as_arrays_python(n):
    ints, floats, bools = [], [], []
    for i in range(n):
        ints.append(i)
        floats.append(i * 0.5)
        bools.append(i > 1)
    return np.array(ints), np.array(floats), np.asarray(bools)


def test_reads():
    for dtype in (np.float32, np.int64):
        a = np.array([3, 1, 2, 1, 0]).astype(dtype)
        check(reads, (a, a[1]), (a, a[0]), (a[:0], a[0]))
        check(items_read, (a, a[1]), (a, a[0]), (a[:0], a[0]))
        check(as_arrays, (a,), (a[:0],))
    for dtype in (np.float64, np.bool_):     # (sum() of float32 items: a
        a = np.array([3, 1, 2, 1, 0]).astype(dtype)     # running total that changes type)
        check(reductions, (a,), (a[::-1],))
    check(reads, (np.array([1.0, np.nan]), 1.0), (np.array([1.0, np.nan]), np.nan))
    check(items_read, (np.array([1.0, np.nan]), 1.0), (np.array([1.0, np.nan]), 5.0))
    check(reductions, (np.array([-0.0, 0.0, 2.0]),))
    check(reductions, (np.array([]),))           # ValueError of min() of nothing
    check(python_reductions, (0,), (1,), (10,))
    check(looped, (1,), (50,))
    check(popped_while_looping, (0,), (5,), (6,))
    check(as_arrays_python, (0,), (4,))


def nan_identity():
    v = float("nan")
    out = [v, 1.0]
    return v in out, out.count(v), out.index(v)


def test_nan_lookups_by_identity():
    check(nan_identity, ())


def returned_tuple(n):
    out = []
    for i in range(n):
        out.append(i * 1.5)
    return len(out), out, sorted(out, reverse=True)


def returned_popped(n):
    out = [n, n + 1]
    return out.pop()


def test_returns():
    check(returned_tuple, (0,), (3,))
    check(returned_popped, (4,))


# -- what falls back -------------------------------------------------------------------

def aliased(n):
    out = []
    other = out
    other.append(n)
    return out


def passed_on(n):
    out = [n]
    return list_copy(out)


def in_a_tuple(n):
    out = [n]
    t = (out, 1)
    return len(t)


def nested(n):
    out = []
    out.append([n])
    return len(out)


def of_tuples(n):
    out = []
    out.append((n, 1))
    return len(out)


def mixed(n):
    out = [1]
    out.append(2.5)
    return out


def mixed_numpy(a):
    out = [1.5]
    out.append(a[0])
    return out


def sliced(n):
    out = [n, 2]
    out.append(3)
    part = out[1:]
    return part[0]


def in_prange(n):
    out = []
    for i in prange(n):
        out.append(i)
    return len(out)


def added_array(a):
    out = [1.0]
    out += a                        # NumPy's a + [1.0], not an extend
    return out


def mixed_lookup(a):
    out = [1.5]
    out.append(2.5)
    return a in out             # (an int variable: a constant float64 holds compiles)


@pytest.mark.parametrize("f,args,reason", [
    (aliased, (1,), "aliased"), (passed_on, (1,), "passed to list_copy"),
    (in_a_tuple, (1,), "stored in a tuple"), (nested, (1,), "list display"),
    (of_tuples, (1,), "a compiled list holds numbers"), (mixed, (1,), "different kinds"),
    (mixed_numpy, (np.array([2.5]),), "different kinds"), (sliced, (1,), "a slice of it"),
    (in_prange, (3,), "prange"),
    (added_array, (np.array([2.0]),), "not a list here"),
    (mixed_lookup, (np.array([1.0]),), "Python compares")],
    ids=lambda x: getattr(x, "__name__", None))
def test_fallbacks_in_plain_words(f, args, reason):
    with pytest.raises(UnsupportedError, match=reason):
        jit(f, fallback=False)(*args)
    with pytest.warns(HanaJitFallbackWarning):
        got = jit(f)(*args)
    assert same(got, f(*args))


# -- random sequences of operations against a Python list -------------------------------

def interpret(codes, args):
    out = []
    res = []
    for k in range(len(codes)):
        c = codes[k]
        a = int(args[k])
        if c == 0:
            out.append(a)
        elif c == 1:
            res.append(out.pop())
        elif c == 2:
            out.insert(a, a * 3)
        elif c == 3:
            if a in out:
                res.append(out.index(a))
        elif c == 4:
            out[a] = a
        elif c == 5:
            res.append(len(out))
        elif c == 6:
            res.append(out.pop(a))
        elif c == 7:
            res.append(out[a])
        elif c == 8:
            res.append(out.count(a))
    return out, res


def interpret_floats(codes, args):
    out = []
    total = 0.0
    for k in range(len(codes)):
        c = codes[k]
        a = float(args[k]) * 0.5
        if c == 0 or c == 5:
            out.append(a)
        elif c == 1:
            total += out.pop()
        elif c == 2:
            out.insert(int(args[k]), a)
        elif c == 3:
            total += len(out)
        elif c == 4:
            out[int(args[k])] = a
        elif c == 6:
            out.reverse()
        elif c == 7:
            total += out[int(args[k])]
        elif c == 8:
            out.sort()
    return out, total


_INTERPRET = jit(interpret, fallback=False)
_INTERPRET_FLOATS = jit(interpret_floats, fallback=False)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(-6, 6)), max_size=40))
def test_random_operations_like_a_python_list(ops):
    codes = np.array([c for c, _ in ops], dtype=np.int64)
    args = np.array([a for _, a in ops], dtype=np.int64)
    for f, jf in ((interpret, _INTERPRET), (interpret_floats, _INTERPRET_FLOATS)):
        got, want = outcome(jf, codes, args), outcome(f, codes, args)
        assert got[0] is want[0] and same(got[1], want[1]), (ops, got, want)


# -- memory ----------------------------------------------------------------------------

def _rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def churn(n):
    out = []
    for i in range(n):
        out.append(i * 0.5)
    out.insert(0, 1.0)
    out.pop()
    out.sort()
    return len(out), np.array(out).sum()


def test_no_leak():
    jf = jit(churn, fallback=False)
    ret = jit(positives_list, fallback=False)
    a = np.arange(-50.0, 50.0)
    for _ in range(1000):
        jf(100)
        ret(a)
    gc.collect()
    before = _rss_mb()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(100_000):
            jf(100)
            ret(a)
    gc.collect()
    assert _rss_mb() - before < 20


def stored_then_empty(a, k):
    out = []
    for v in a:
        out.append(v)
    if out:
        out[0] = a[-1]
    while len(out) > k:
        out.pop()
    return np.array(out)


def test_empty_array_of_int_items_reruns_in_the_interpreter():
    # NumPy's array of an empty list is float64: the call re-runs in the
    # interpreter (writing into the list's buffer is no write to an argument)
    check(stored_then_empty, (np.arange(3), 1), (np.arange(3), 0), (np.arange(0), 0))


def rebound_in_loop(n):
    out = [1, 2]
    for v in out:
        out = []
        out.append(v)
    return out


def test_a_list_rebound_while_looped_over_falls_back():
    with pytest.raises(UnsupportedError, match="assigned again inside a loop over it"):
        jit(rebound_in_loop, fallback=False)(1)
    with pytest.warns(HanaJitFallbackWarning):
        assert jit(rebound_in_loop)(1) == rebound_in_loop(1)


def numpy_reads(a):
    out = []
    for v in a:
        out.append(v * 2)
    return np.mean(out), np.sum(out), np.cumsum(out), np.maximum(out, 3.0), np.sort(out)


def test_numpy_functions_read_it_as_an_array():
    check(numpy_reads, (np.array([3.0, -1.0, 2.5]),), (np.arange(5),))


def array_with_dtype(n):
    out = [n]
    out.append(n + 1)
    return np.array(out, dtype=np.float32)


def test_array_with_a_dtype_falls_back():
    with pytest.raises(UnsupportedError, match="with a dtype"):
        jit(array_with_dtype, fallback=False)(1)


def slices(a, i, j):
    out = []
    for v in a:
        out.append(v)
    s = np.float64(0.0)
    for v in out[i:j]:
        out.append(v)           # (the slice is a copy: the loop does not see these)
        s += v
    return out[i:j], out[::-2], sum(out[1:]), len(out[i:]), np.array(out[i:j]), \
        np.mean(out[:j]), s


def python_slices(n, i, j):
    out = []
    for k in range(n):
        out.append(k * 2)
    return out[i:j], out[j:i:-1], min(out[i:j]), [v for v in out[::3]]


def test_slices():
    a = np.array([1.0, -2.0, 3.5, 0.0, 7.0])
    check(slices, (a, 1, 3), (a, -3, 100), (a, 3, 1))
    check(python_slices, (10, 2, 7), (10, -4, -1), (3, 2, 2))


def removed(k, x):
    out = [3, 1, 4, 1, 5]
    out.remove(x)
    del out[k]
    del out[-1]
    return out


def test_remove_and_del():
    check(removed, (0, 1), (2, 4), (-1, 5), (3, 1), (4, 1), (0, 9))


def from_comprehensions(a, t):
    out = [v * 2 for v in a if v > 0]
    out.append(t)
    out = [v for v in out if v != t]        # reads the list it replaces
    out.extend([v + 1 for v in a])
    squares = list(range(5))
    squares.append(25)
    copy = list(out)
    copy.append(t)
    return out, squares, copy, [float(v) for v in list(out)]


def test_comprehensions_and_list_calls():
    a = np.array([1.0, -2.0, 3.0])
    check(from_comprehensions, (a, np.float64(6.0)), (a[:0], np.float64(0.0)))


def bool_indices(a):
    out = [10, 20, 30]
    out.append(40)
    out[True] = 5
    r = out[a[0]], out[True], out[-True]
    p = out.pop(False)
    return r, p, out


def numpy_bool_index(a):
    out = [10, 20, 30]
    out.append(40)
    return out[a[0] > 0]


def maybe_unbound(c):
    if c:
        out = []
    out.append(1)
    return out


def test_indices_and_unbound_lists():
    check(bool_indices, (np.array([2]),), (np.array([-1]),))
    check(maybe_unbound, (True,), (False,))        # UnboundLocalError naming 'out'
    with pytest.raises(UnsupportedError, match="NumPy bool"):
        jit(numpy_bool_index, fallback=False)(np.array([1]))


def readonly_bool_index(k):
    w = [10, 20, 30]
    return w[True] + w[k]


def test_readonly_list_bool_index():
    check(readonly_bool_index, (0,), (-1,))


def pops_in_expressions(n):
    out = list(range(n))
    s = 0
    while out:
        s += out.pop() * len(out)
    stack = [1.5, 2.5, 3.5]
    x = float(stack.pop()) + len(stack)
    y = -stack.pop(0)
    return s, x, y, stack


def popped_twice(n):
    out = [n, n]
    return out.pop() + out.pop()


def test_pops_inside_expressions():
    check(pops_in_expressions, (0,), (5,))
    with pytest.raises(UnsupportedError, match="inside an expression"):
        jit(popped_twice, fallback=False)(1)


def seen_items(a):
    out = []
    for v in a:
        out.append(int(v))
    seen = []
    for v in out:               # (v was an np.int64 above, a Python int here)
        seen.append(v)
    return seen


def test_items_of_a_local_of_either_kind_fall_back():
    # the items came back as np.int64 (the static kind of ``v``) where CPython's are ints
    a = np.array([3, -1, 4])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = jit(seen_items)(a)
    assert same(got, seen_items(a))
    assert any("whose items have one kind" in str(x.message) for x in w
               if issubclass(x.category, HanaJitFallbackWarning))


def monotonic_stack(a):
    st = []
    res = []
    for v in a:
        while st and st[-1] < v:        # (the list's truth inside and/or)
            res.append(st.pop())
        st.append(v)
    return res, st


def truth_in_boolops(a):
    out = []
    if not out or a[0] > 0:
        out.append(1)
    if len(a) > 100 or out and not (out and a[0] < 0):
        out.append(2)
    x = 5 if out and a[1] else 6
    return out, x, bool(out)


def keyed_extremes(a):
    out = []
    for v in a:
        if v > -100:
            out.append(int(v))
    return min(out, key=lambda v: v * v), max(out, key=abs), \
        min(out, key=lambda v: -v, default=-1)


def keyed_max_of_empty(a):
    out = []
    for v in a:
        if v > 100:
            out.append(float(v))
    return max(out, key=lambda v: -v)


def test_truth_in_and_or_bool_and_keyed_min_max():
    # each fell back: "used in boolop position", "passed to bool()", "passed to min()"
    check(monotonic_stack, (np.array([3, 1, 4, 1, 5, 9, 2, 6]),), (np.zeros(0, np.int64),))
    check(truth_in_boolops, (np.array([3, 1]),), (np.array([-3, 0]),))
    check(keyed_extremes, (np.array([3, -1, 4, 1, -5, 9]),))
    check(keyed_max_of_empty, (np.array([3, 1]),), (np.array([300, 1]),))


def sorted_into_a_name(a):
    out = []
    for v in a:
        if v == v:
            out.append(float(v))
    s = sorted(out)
    k = sorted(out, key=lambda v: -abs(v), reverse=True)
    return s[len(s) // 2] if s else -1.0, s, k


def test_sorted_of_it_assigned_to_a_name():
    # fell back: "sorted() of it is used other than returned or looped over"
    check(sorted_into_a_name, (np.array([3.0, np.nan, -1.0, 2.0, -0.0, 0.0]),),
          (np.zeros(0),), (np.array([1.0, np.nan]),))


def running_sums(a):
    s = 0.0
    res = []
    for v in a:
        s += v
        res.append(s)           # (always the NumPy scalar here: just after s += v)
    return res


def bool_then_int(a):
    x = 0
    log = [0]
    x = len(a) > 5
    log.append(x)               # a bool: CPython's list holds False itself (was 0)
    x = len(a)
    log.append(x)
    return log


def test_items_from_locals_of_two_types_or_kinds():
    check(running_sums, (np.array([1.5, 2.0]),), (np.zeros(0),))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert same(jit(bool_then_int)(np.array([1, 2])), bool_then_int(np.array([1, 2])))
    assert any("holds numbers of different types" in str(x.message) for x in w)


def int_constants_in_floats(a):
    out = []
    for v in a:
        out.append(float(v))
    found = (3 in out, 0 in out, out.count(3), out.index(3))
    out.remove(3)
    return found, out


def test_int_constants_looked_up_in_a_list_of_floats():
    # fell back ("looking up a int64 in a list of float64 items"): a constant a
    # float holds exactly compares as in Python
    check(int_constants_in_floats, (np.array([1.0, 3.0, -0.0, 3.0]),),
          (np.array([2.0, 5.0]),))


# -- sort(key=), index(x, start, stop) ------------------------------------------------

def sort_by_key(a, extra):
    out = []
    for v in a:
        out.append(v)
    out.sort(key=abs)                       # stable: equal keys keep their order
    first = [v for v in out]
    out.append(extra)                       # (the sorted buffer still grows)
    out.sort(key=lambda v: -abs(v), reverse=True)
    return first, out


def sort_ints_by_key(n):
    out = []
    for i in range(n):
        out.append((i * 7) % 5 - 2)
    out.sort(key=lambda v: v * v, reverse=True)
    return out


def test_sort_with_a_key():
    a = np.array([3.0, -1.0, 1.0, -0.0, 0.0, 2.0, -3.0, np.inf, -np.inf])
    f64 = np.float64
    check(sort_by_key, (a, f64(-2.0)), (a[:0], f64(5.0)), (a[::-2], f64(1.0)))
    for dtype in (np.int32, np.float32):
        b = np.array([3, 1, 2, 1, 0, 3]).astype(dtype)
        check(sort_by_key, (b, b[0]), (b[:0], b[1]))
    check(sort_ints_by_key, (0,), (1,), (12,))


def index_between(a, x, i, j, w):
    out = []
    for v in a:
        out.append(v)
    w[0] += 1                   # (written: a miss cannot re-run in the interpreter)
    return out.index(x, i), out.index(x, i, j)


@pytest.mark.parametrize("x, i, j", [(1, 0, 9), (1, 2, 5), (1, -3, -1), (1, -99, 99),
                                     (1, 4, 2), (1, 6, 9), (2, 1, 3), (7, 0, 9),
                                     (1, True, 3), (1, 3, 4)])
def test_index_with_start_and_stop(x, i, j):
    """CPython's clamping of start and stop; a miss raises its ValueError ("7 is
    not in list") from compiled code (the call wrote into ``w``: no re-run)."""
    a = [3, 1, 2, 1, 0, 1]
    if "f" not in _INDEX:
        _INDEX["f"] = jit(index_between_ints, fallback=False)
    got = outcome(_INDEX["f"], np.array(a), x, i, j, np.zeros(1))
    assert got == outcome(index_between_ints, a, x, i, j, np.zeros(1))


_INDEX = {}


def index_between_ints(a, x, i, j, w):
    out = []
    for v in a:
        out.append(int(v))                  # Python ints: a miss words its own text
    w[0] += 1
    return out.index(x, i), out.index(x, i, j)


def test_index_of_floats_between():
    a = np.array([3.0, 1.0, 2.0, 1.0, -0.0])
    check(index_between, (a, 1.0, 2, 5, np.zeros(1)), (a, 0.0, -1, 5, np.zeros(1)),
          (a, 1.0, 1, 2, np.zeros(1)))


def index_float_start(a):
    out = []
    for v in a:
        out.append(v)
    return out.index(1.0, 1.5)


def test_index_with_a_float_start_falls_back():
    a = np.array([1.0, 1.0])
    with pytest.raises(UnsupportedError, match="start or stop of type float64"):
        jit(index_float_start, fallback=False)(a)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert outcome(jit(index_float_start), a) == outcome(index_float_start, a)
