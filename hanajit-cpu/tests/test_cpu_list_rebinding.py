"""List locals bound to other lists: ``prev = cur``, ``prev, cur = cur, prev``
(two-row dynamic programming), with CPython's aliasing -- after ``b = a`` both
names are one list until one is rebound (frontend/growable_lists.py: the names
share the buffer, and a change that moves it or its count reaches every name
holding the same list) -- against the interpreter: values, item types, errors."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check


def levenshtein(a, b):
    n, m = len(a), len(b)
    prev = list(range(m + 1))
    for i in range(1, n + 1):
        cur = [i] + [0] * m
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        prev = cur
    return prev[m]


def lcs(a, b):
    n, m = len(a), len(b)
    prev = [0] * (m + 1)
    cur = [0] * (m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if a[i - 1] == b[j - 1]:
                cur[j] = prev[j - 1] + 1
            else:
                cur[j] = max(prev[j], cur[j - 1])
        prev, cur = cur, prev
    return prev[m], prev


def _pairs(dt):
    rng = np.random.default_rng(5)
    out = [(np.array([1, 2, 3, 4], dt), np.array([1, 3, 4, 5, 6], dt)),
           (np.array([], dt), np.array([1, 2], dt)), (np.array([3], dt), np.array([], dt)),
           (np.array([], dt), np.array([], dt))]
    out += [(rng.integers(0, 4, 9).astype(dt), rng.integers(0, 4, 7).astype(dt))]
    return out


_LEV, _LCS = jit(levenshtein, fallback=False), jit(lcs, fallback=False)


@pytest.mark.parametrize("dt", [np.int64, np.float64])
def test_two_row_dp(dt):
    for f, jf in ((levenshtein, _LEV), (lcs, _LCS)):
        for args in _pairs(dt):
            assert same(jf(*args), f(*args)), (f.__name__, args)
    kitten = np.frombuffer(b"kitten", np.uint8), np.frombuffer(b"sitting", np.uint8)
    if dt is np.int64:
        assert same(_LEV(*kitten), 3) and same(_LCS(*kitten), lcs(*kitten))


def aliasing(n):
    a = [1, 2]
    b = a
    b.append(3)                 # seen through a
    a[0] = 7                    # seen through b
    c = b
    c.pop(0)
    b = [5]                     # b rebound: a and c still one list
    b.append(n)
    c.extend([8, 9])
    c.insert(0, -1)
    del a[1]
    a.remove(8)
    a.reverse()
    c.sort()
    a *= 2
    c += [n]
    return len(a), a[0], a[-1], c[1], len(b), sum(a), b[0], b[-1], c


def aliased_maybe(flag, n):
    a = [0] * n
    b = [1]
    if flag:
        b = a                   # one list on one path only
    b.append(5)
    b[0] = 3
    return a, len(b), b[0]


def item_recurrence(n):
    a = [1.5] * n
    b = a
    for j in range(1, n):       # b[j - 1] is the a[j - 1] just written
        a[j] = b[j - 1] * 2.0
    return b


def loop_sees_appends(n):
    a = [0]
    b = a
    t = 0
    for x in a:                 # b.append grows the list being looped over
        t += x
        if len(b) < n:
            b.append(x + 1)
    return t, a


def swap_then_change(n):
    a, b = [1, 2], [3]
    a, b = b, a
    a.append(n)
    b[0] = -n
    x, a, b = n, b, a
    x, a = n + 1, [x, len(a)]          # the display's items read the old x and a
    return x, a, b[0], len(b)


def empty_alias():
    a = []
    b = a
    b.append(1.5)
    b.pop()
    return a, len(b)


def popped_in_expression(n):
    a = list(range(n))
    b = a
    x = a.pop() + len(b)        # the pop first: len(b) sees it
    return x, b


def rebound_in_a_loop(n):
    a = [3, 1, 2]
    b = a
    b.sort(key=lambda v: -v)            # a new buffer, seen through a
    c = a
    a = [x for x in a if x > 1]         # a new list: b and c keep the old one
    b.append(n)
    for i in range(n):
        c, b = b, [i]
        c.append(i)
    return a, sum(c), len(c), len(b), b[0]


def test_aliasing_like_cpython():
    check(rebound_in_a_loop, (3,), (0,), (1,))
    check(aliasing, (4,), (-2,))
    check(aliased_maybe, (True, 3), (False, 3), (True, 0))
    check(item_recurrence, (6,), (1,), (0,))
    check(loop_sees_appends, (5,), (1,), (0,))
    check(swap_then_change, (7,))
    check(empty_alias, ())
    check(popped_in_expression, (4,), (0,))


def index_errors(n, k):
    a = [0] * n
    b = a
    b.append(1)
    c = b
    c.pop(0)
    y = a[k]
    x = c.pop(k)
    return y, x


def pop_empty(n):
    a = []
    b = a
    for i in range(n):
        b.append(i)
    x = a.pop()
    y = b.pop()
    return x, y


def test_errors_like_cpython():
    check(index_errors, (2, 1), (2, 2), (2, -3), (0, 0), (0, -1))
    check(pop_empty, (2,), (1,), (0,))


def both_returned(n):
    a = [n]
    b = a
    return a, b                 # CPython: one list twice


def mixed_kinds(n):
    a = [1]
    b = [2.5]
    if n:
        a = b
    return a


def bound_to_array(n):
    a = [n]
    b = a
    b = np.zeros(2)
    return a, b


def returns_inner(n):
    a = [n]
    rows = [a]
    return rows


@pytest.mark.parametrize("fn,reason", [
    (both_returned, "may be the same list"),
    (mixed_kinds, "different kinds"),
    (bound_to_array, "one list with 'b'"),
], ids=lambda x: getattr(x, "__name__", "r"))
def test_what_falls_back(fn, reason):
    with pytest.raises(UnsupportedError, match=reason):
        jit(fn, fallback=False)(1)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        got = outcome(jit(fn), 1)
    want = outcome(fn, 1)
    assert got[0] is want[0] and same(got[1], want[1])


# -- lists of lists (test_cpu_list_of_lists): a table compiles; these run in the
# interpreter, saying so, with CPython's result ([[0] * m] * n: every row is one list,
# and a write shows in all of them; a row appended and changed after)

def shared_rows(n, m):
    dp = [[0] * m] * n
    dp[0][0] = 5
    return dp[n - 1][0], dp


def rows_appended(n):
    rows = []
    cur = [0] * n
    for i in range(n):
        cur[i] = i
        rows.append(cur)
    return len(rows), rows[0][-1]


@pytest.mark.parametrize("fn", [shared_rows, rows_appended],
                         ids=lambda f: getattr(f, "__name__", "r"))
def test_lists_of_lists_sharing_rows(fn):
    # (fell back once; rows that are one list compile: frontend/table_rewrite.py,
    # test_cpu_list_of_list_aliases.py)
    args = (3, 2)[:fn.__code__.co_argcount]
    assert same(jit(fn, fallback=False)(*args), fn(*args))
