"""Lists that grow, continued (test_cpu_growable_lists.py): indices, slices,
comprehensions, pops inside expressions, truth in tests, keyed extremes and sorts,
index with bounds, and items from locals of two kinds, against the interpreter."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check


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
    check(popped_twice, (1,), (2.5,))      # (frontend/hoisted_calls.py: both taken out)


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
