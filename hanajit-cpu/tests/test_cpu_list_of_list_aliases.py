"""Rows of a list of lists that are one list in CPython (frontend/table_rewrite.py):
``[[0] * m] * n``, ``dp[i] = dp[j]``, ``rows.append(cur)`` then changes through
``cur``, row names swapped -- compared with the interpreter, values and types
(list_outcomes.same) and which returned rows are one object."""
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.jitted import jitted
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")


def objects(x):
    """Which lists in ``x`` (a result) are one object: each list's first index."""
    seen, out = {}, []

    def walk(v):
        if isinstance(v, list):
            out.append(seen.setdefault(id(v), len(seen)))
            for w in v:
                walk(w)
        elif isinstance(v, tuple):
            for w in v:
                walk(w)
    walk(x)
    return out


def check(f, *calls):
    jf = jitted(f, fallback=False)
    for args in calls:
        got, want = _h.outcome(jf, *args), _h.outcome(f, *args)
        assert got[0] is want[0] and _h.same(got[1], want[1]), (f.__name__, args, got, want)
        assert objects(got[1]) == objects(want[1]), (f.__name__, args)


# ------------------------------------------------------------------ kernels
def shared_rows(n, m):
    dp = [[0] * m] * n
    if n and m:
        dp[0][0] = 5
        dp[n - 1].append(7)
    total = 0
    for row in dp:
        total += sum(row)
        row.append(len(row))
    return total, dp


def shared_display(n):
    t = n * [[1, 2], [3]]
    if n:
        t[-1].append(4)
        t[0][1] += 10
    return t, len(t)


def row_kept(n):
    rows = []
    cur = [0] * n
    for i in range(n):
        cur[i] = i
        rows.append(cur)
    if n:
        cur.append(-1)
        cur = [7]
        rows.append(cur)
        cur[0] += 1
    return len(rows), rows


def copied_rows(n):
    t = [[i] * 3 for i in range(n)]
    t[0] = t[1]
    t[0][0] = 9
    t[2] = t[0]
    t[2].append(4)
    t.append(t[-1])
    t[-1][1] = -5
    return t


def two_rows(a, b):
    table = []
    prev = [0] * (len(b) + 1)
    cur = [0] * (len(b) + 1)
    table.append(prev)
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                cur[j] = prev[j - 1] + 1
            else:
                cur[j] = max(prev[j], cur[j - 1])
        table.append(cur)
        prev, cur = cur, [0] * (len(b) + 1)
    return prev[len(b)], table


def program(codes, values):
    """Rows written, appended, copied into other rows and replaced."""
    t = [[0] * 2 for _ in range(3)]
    r = t[0]
    for k in range(len(codes)):
        c = codes[k]
        v = int(values[k])
        n = len(t)
        i = v % n
        if c == 0:
            if len(t[i]):
                t[i][v % len(t[i])] = v
        elif c == 1:
            t[i].append(v)
        elif c == 2:
            t[i] = t[(v // 3) % n]
        elif c == 3:
            t.append([v] * (v % 3))
        elif c == 4:
            t[i] = [v, v + 1]
        elif c == 5:
            r = t[i]
        elif c == 6:
            r.append(v)
        elif c == 7:
            if len(r):
                r[0] = v
        elif c == 8:
            t.append(r)
    return t, r[0] if len(r) else -1


# ------------------------------------------------------------------ tests
def test_shared_rows():
    check(shared_rows, (3, 2), (0, 2), (2, 0), (1, 1), (-1, 3), (4, 5))
    check(shared_display, (0,), (1,), (3,), (-2,))


def test_rows_kept_and_copied():
    check(row_kept, (0,), (1,), (4,))
    check(copied_rows, (3,), (5,), (2,))
    check(two_rows, (np.array([1, 2, 3, 2, 1]), np.array([2, 3, 1, 1])),
          (np.array([], np.int64), np.array([4, 5])), (np.array([7]), np.array([7])))


def test_programs():
    rng = np.random.default_rng(5)
    for n in (1, 10, 60, 300):
        check(program, (rng.integers(0, 9, n), rng.integers(-20, 40, n)))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 8), st.integers(-30, 60)), min_size=1,
                max_size=60))
def test_hypothesis_programs(seq):
    check(program, (np.array([c for c, _ in seq], np.int64),
                    np.array([v for _, v in seq], np.int64)))
