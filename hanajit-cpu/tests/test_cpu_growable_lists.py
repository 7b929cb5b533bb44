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
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check


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
    other = out if n else [n]      # (other = out compiles: test_cpu_list_rebinding)
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
    out.append(out[0])          # (one row twice: CPython's list holds it twice)
    return len(out)


def of_tuples(n):
    out = []
    out.append((n, 1))
    return out          # (only appended and measured, it compiles: test_cpu_tuple_lists)


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


def test_one_row_twice():
    # (a list of lists: one row object twice, compiled since: frontend/table_rewrite.py)
    assert same(jit(nested, fallback=False)(1), nested(1))


@pytest.mark.parametrize("f,args,reason", [
    (aliased, (1,), "ifexp position"), (passed_on, (1,), r"passed to tuple\(\)"),
    (in_a_tuple, (1,), "stored in a tuple"),
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
