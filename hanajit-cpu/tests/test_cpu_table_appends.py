"""Appends into the rows of a list of lists (``frontend/table_rewrite.push``):
each row list has room after its items and moves to the end of the table's
items when full, so rows grown one by one cost O(1) each (an insert in place
moved every later row: quadratic).  Against CPython: appends to rows in any
order, rows that are one list (``t[i] = t[j]``), rows replaced by new lists,
writes, reads and the returned table."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.jitted import strict


def driven(rows, kinds, n):
    t = [[k] for k in range(n)]
    for q in range(len(rows)):
        i = rows[q] % n
        k = kinds[q]
        if k == 0:
            t[i].append(q)
        elif k == 1:
            t[i] = t[(i + 1) % n]               # one list, two rows
        elif k == 2:
            if len(t[i]) > 0:
                t[i][len(t[i]) - 1] += 10
        else:
            t[i] = [q, -q]                      # a new list
    total = 0
    for r in t:
        for v in r:
            total += v
    return total, t


def grown_row_by_row(n, rounds):
    t = [[0] for _ in range(n)]
    for k in range(rounds):
        for i in range(n):
            t[i].append(i * k)
    s = 0
    for i in range(n):
        s += t[i][-1] + len(t[i])
    return s


def through_a_row_name(n):
    t = [[] for _ in range(3)]
    row = t[1]
    for i in range(n):
        row.append(i)
        t[0].append(-i)
    t[2].append(len(row))
    return t


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.integers(0, 3)), max_size=120),
       st.integers(1, 9))
def test_appends_match_cpython(ops, n):
    rows = np.array([r for r, _ in ops], np.int64)
    kinds = np.array([k for _, k in ops], np.int64)
    assert strict(driven)(rows, kinds, n) == driven(rows, kinds, n)


def test_many_rows_grown_one_by_one():
    f = strict(grown_row_by_row)
    for n, rounds in ((1, 5), (7, 3), (20000, 3)):
        assert f(n, rounds) == grown_row_by_row(n, rounds)


def test_appends_through_a_row_name():
    f = strict(through_a_row_name)
    for n in (0, 1, 5, 300):
        assert f(n) == through_a_row_name(n)
