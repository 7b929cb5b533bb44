"""Lists of lists of numbers -- DP tables, grids, ragged rows -- held as four
growable lists (frontend/list_tables.py), against the interpreter: values, item
types (Python numbers or NumPy scalars, floats bit for bit), CPython's aliasing of
row names, IndexErrors, returned tables.  Each kernel is jitted once."""
import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check


def lcs(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            dp[i][j] = max(dp[i - 1][j], dp[i][j - 1]) + (1 if a[i - 1] == b[j - 1] else 0)
    return dp[n][m]


def edit_distance(a, b):
    n, m = len(a), len(b)
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        dp[i][0] = i
    for j in range(m + 1):
        dp[0][j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            dp[i][j] = min(dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost)
    return dp[-1][-1], len(dp), len(dp[0])


def knapsack(weights, values, cap):
    n = len(weights)
    dp = [[0.0 for _ in range(cap + 1)] for _ in range(n + 1)]
    for i in range(1, n + 1):
        w, v = weights[i - 1], float(values[i - 1])
        for c in range(cap + 1):
            dp[i][c] = dp[i - 1][c]
            if w <= c and dp[i - 1][c - w] + v > dp[i][c]:
                dp[i][c] = dp[i - 1][c - w] + v
    return dp


def lcs_int64():
    a = np.array([1, 2, 3, 2, 4, 1, 2], dtype=np.int64)
    b = np.array([2, 4, 3, 1, 2, 1], dtype=np.int64)
    return a, b


def test_dp_tables():
    a, b = lcs_int64()
    check(lcs, (a, b), (a[:0], b), (b, a))
    check(edit_distance, (a, b), (a[:0], b[:0]), (b, a))
    w = np.array([1, 3, 4, 5], dtype=np.int64)
    v = np.array([1.5, 4.0, 5.25, 7.0])
    check(knapsack, (w, v, 7), (w, v, 0), (w[:0], v[:0], 3))


def grid_walk(n):
    grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    grid[1][1] += n
    grid[-1][-3] = -n
    total = 0
    for row in grid:
        for v in row:
            total += v
    sums = [sum(grid[i]) for i in range(len(grid))]
    best = max(max(r) for r in grid)
    flat = sum(v for r in grid for v in r if v > 2)
    return total, best, flat, sums[1], min(grid[0]), grid[1][1] + grid[2][0]


def grid_returned(n):
    grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    grid[1][1] += n
    grid[-1][-3] = -n
    return grid


def paths(n, m):
    """Grid paths with obstacles, row names written through."""
    dp = [[0] * m for _ in range(n)]
    for j in range(m):
        dp[0][j] = 1
    for i in range(1, n):
        row, up = dp[i], dp[i - 1]
        for j in range(m):
            row[j] = up[j] + (row[j - 1] if j else 0)
            if (i * j) % 5 == 3:
                row[j] = 0
    return dp


def ragged(n):
    rows = []
    for i in range(n):
        rows.append([])
        for j in range(i):
            rows[-1].append(i * 10 + j)
    if n > 2:
        rows[1].append(-1)          # a middle row grows: later rows move
        rows[0].append(-2)
    for k, r in enumerate(rows, 1):
        r.append(k)
    total = sum(len(rows[i]) for i in range(len(rows)))
    rows.append([len(r) for r in rows])
    rows.append([total, rows[-1][0] if n else -5])
    return rows


def appended_rows(a):
    out = []
    for i in range(len(a)):
        row = []
        for j in range(i + 1):
            row.append(a[j] * 2)
        out.append(row)
    if len(a):
        out.append([a[0], a[-1]])
    else:
        out.append([])
    return out


def filtered_rows(n):
    dp = [[j for j in range(i)] for i in range(n) if i % 2]
    i = 100                     # (the comprehension's own i is apart)
    hits = 0
    for row in dp:
        for j in range(len(row)):
            row[j] += i
        if len(row) > 4:
            break
        hits += 1
    else:
        hits = -1
    return dp, hits, i


def in_a_tuple(n):
    g = [[0.0] * 3 for _ in range(n)]
    for k, r in enumerate(g, 1):
        for j in range(3):
            r[j] = k * 0.1 + j
    s = 0.0
    for r in g:
        s += sum(r)
    return s, any(any(v > 2 for v in r) for r in g), g


def life(n, steps):
    g = [[(i * 7 + j * 3) % 5 == 0 for j in range(n)] for i in range(n)]
    cnt = [[0] * n for _ in range(n)]
    for _ in range(steps):
        for i in range(n):
            for j in range(n):
                c = 0
                for di in (-1, 0, 1):
                    for dj in (-1, 0, 1):
                        if (di or dj) and 0 <= i + di < n and 0 <= j + dj < n and \
                                g[i + di][j + dj]:
                            c += 1
                cnt[i][j] = c
        for i in range(n):          # a row assigned a new row
            g[i] = [cnt[i][j] == 3 or (g[i][j] and cnt[i][j] == 2) for j in range(n)]
    return g


def rows_replaced(n, k):
    t = [[1, 2], [3], []]
    t[k] = [n] * n
    t[0].append(9)                  # (rows out of order among the items)
    t[-1].append(8)
    t[1].append(7)
    row = [5]
    row.append(n)
    t[2] = row
    return t


def test_grids_and_rows():
    check(life, (6, 3), (0, 1))
    check(rows_replaced, (3, 1), (2, 0), (0, 2), (2, 5), (2, -3))
    check(filtered_rows, (0,), (7,), (12,))
    check(in_a_tuple, (0,), (3,))
    check(grid_walk, (0,), (5,), (-3,))
    check(grid_returned, (2,))
    check(paths, (3, 4), (1, 1), (5, 7))
    check(ragged, (0,), (1,), (4,))
    check(appended_rows, (np.array([1.5, -0.0, 2.25]),), (np.array([3, 4], dtype=np.int32),),
          (np.array([], dtype=np.int32),))


def returned_table(a, n):
    t = [[a[i] * j for j in range(n)] for i in range(len(a)) if a[i] > 0]
    return t


def python_floats(n):
    t = [[0.5 * i + j for j in range(i)] for i in range(n)]
    if n:
        t[0].append(-0.0)
    return t


def empties(n):
    t = [[] for _ in range(n)]
    u = []
    if t:
        t[0].append(n)
    if not u:
        t.append([n, n])
    return t


def test_returned_tables_item_types():
    a = np.array([1.5, -2.0, 3.0, 0.1])
    got = jit(returned_table, fallback=False)(a, 3)
    assert same(got, returned_table(a, 3)) and type(got[0][0]) is np.float64
    f = check(returned_table, (a[:0], 4), (np.array([1, 2], dtype=np.int16), 2))
    assert type(f(np.array([1, 2], dtype=np.int16), 2)[1][1]) is np.int16
    g = check(python_floats, (0,), (1,), (4,))
    assert type(g(3)[2][0]) is float
    check(empties, (0,), (3,))


def bad_index(n, i, j, what):
    dp = [[0] * n for _ in range(n)]
    if what == 0:
        return dp[i][j]
    if what == 1:
        dp[i][j] = 5
        return sum(dp[i])
    if what == 2:
        dp[i][j] += 1
        return dp[i][j]
    dp[i].append(j)
    return len(dp[i]) + dp[i][-1]


def test_index_errors():
    check(bad_index, (3, 0, 0, 0), (3, -1, -3, 0), (3, 3, 0, 0), (3, 0, 3, 0),
          (3, -4, 0, 0), (3, 1, 2, 1), (3, 1, -4, 1), (3, 5, 0, 1), (3, 2, -1, 2),
          (3, 2, 9, 2), (3, -1, 7, 3), (3, 3, 7, 3), (0, 0, 0, 0))


# -- what falls back, saying why, with CPython's results

def shared_rows(n, m):
    dp = [[0] * m] * n
    dp[0][0] = 5
    return dp[n - 1][0], dp


def row_used_after(n):
    rows = []
    cur = [0] * n
    for i in range(n):
        cur[i] = i
        rows.append(cur)
    return len(rows), rows[0][-1]


def mixed_kinds(n):
    dp = [[0] * n for _ in range(n)]
    dp[0][0] = 0.5
    return dp


def row_returned_with_table(n):
    dp = [[1] * n for _ in range(n)]
    r = dp[0]
    return r


def replaced_while_looped(n):
    t = [[1, 2, 3], [4]]
    s = 0
    for v in t[0]:
        t[0] = [v * 10]
        s += v
    return s, t


def array_row(n):
    rows = []
    row = [1.0, 2.0]
    row = np.zeros(n) + row         # (an array: CPython's table would hold it)
    rows.append(row)
    return len(rows)


def test_once_falling_back():
    # (rows that are one list: compiled since, and compared with the interpreter,
    # which rows are one object too, in test_cpu_list_of_list_aliases.py)
    check(replaced_while_looped, (3,))
    check(shared_rows, (3, 2), (0, 1))
    check(row_used_after, (3,), (0,))


@pytest.mark.parametrize("fn,reason", [
    (array_row, "put into another list"),
    (mixed_kinds, "different kinds"),
    (row_returned_with_table, "the row 'r' is used other than"),
], ids=lambda x: getattr(x, "__name__", "r"))
def test_what_falls_back(fn, reason):
    args = (3, 2)[:fn.__code__.co_argcount]
    with pytest.raises(UnsupportedError, match=reason):
        jit(fn, fallback=False)(*args)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        got = outcome(jit(fn), *args)
    want = outcome(fn, *args)
    assert got[0] is want[0] and same(got[1], want[1])
