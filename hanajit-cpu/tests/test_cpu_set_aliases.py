"""Set locals bound to one another (``t = s``: frontend/set_aliases.py), passed to
user functions (inlined: frontend/list_passing.py) and printed (host_print with
hanajit/host_sets.py), compared with the interpreter: tables read back from the
returned sets, their identity, and printed text."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import host_sets
from hanajit.testing.compare import check_fallback
from hanajit.testing.jitted import jitted
from hanajit.testing.sourcefile import load_sibling

pytestmark = pytest.mark.skipif(not host_sets.writable(),
                                reason="sets are written only on CPython 3.10 to 3.13")
results = load_sibling(__file__, "test_cpu_set_results.py", "hanajit_set_results")


def outcome(f, *args):
    try:
        got = f(*args)
    except Exception as e:          # (compared with the interpreter's)
        return (type(e).__name__, str(e))
    sets = [x for x in got if isinstance(x, set)] if isinstance(got, tuple) else []
    same = [a is b for a in sets for b in sets]
    return results.shape(got), same


def same(f, *args):
    assert outcome(jitted(f, fallback=False), *args) == outcome(f, *args)


# ------------------------------------------------------------------ kernels
def program(codes, values):
    """Two names, bound to one another and to new sets as ``codes`` say."""
    a = set()
    b = set()
    a.add(values[0])
    b.add(values[0])
    seen = []
    for i in range(len(codes)):
        c = codes[i]
        v = values[i]
        if c == 0:
            a.add(v)
        elif c == 1:
            b.add(v)
        elif c == 2:
            a.discard(v)
        elif c == 3:
            if b:
                seen.append(int(b.pop()))
        elif c == 4:
            b = a
        elif c == 5:
            a = set()
            a.add(v)
        elif c == 6:
            t = a
            a = b
            b = t
        elif c == 7:
            a |= b
        elif c == 8:
            b.clear()
        elif c == 9:
            a -= b
        elif c == 10:
            a &= b
        elif c == 11:
            a ^= b
        elif c == 12:
            b = a & b
        elif c == 13:
            b = a | b
        elif c == 14:
            a.update(b)
        seen.append(len(a) * 1000 + len(b))
    return a, b, seen


def seen_through_both(x):
    s = set()
    t = s
    for v in x:
        t.add(v)
    n = len(s)
    s.discard(x[0])
    u = s.copy()
    return s, t, u, n, len(t), x[0] in t


def grows_while_iterated(x):
    s = set(x)
    t = s
    n = 0
    for v in s:
        n += 1
        if n == 2:
            t.add(v + 1000)
    return n


def on_some_paths(x, c):
    s = set(x)
    t = set()
    t.add(x[0])
    if c:
        t = s
    t.add(x[-1] + 100)
    s.add(x[-1] + 200)
    return s, t


def bfs(n, x):
    seen = set()
    frontier = set()
    frontier.add(0)
    nxt = set()
    while frontier:
        for v in frontier:
            seen.add(v)
            for w in (v * 2 % n, (v * 3 + 1) % n, int(x[v % len(x)]) % n):
                if w not in seen:
                    nxt.add(w)
        frontier, nxt = nxt, set()
    return seen, frontier, nxt


def swapped(x):
    a = set(x)
    b = set()
    b.add(x[0])
    a, b = b, a
    a.add(x[1])
    c, a = a, a
    return a, b, c


def add_multiples(s, x, k):
    for v in x:
        if v % k == 0:
            s.add(v)
    return len(s)


def tagged(s, v):
    t = s
    t.add(v)
    return t


def passes(x):
    s = set()
    n = add_multiples(s, x, 3)
    u = tagged(s, x[-1] * 7)
    m = add_multiples(u, x, 5)
    return s, u, n, m


def rebinds(s):
    s = set()
    return s


def passes_rebinding(x):
    s = set(x)
    rebinds(s)
    return len(s)


def printed(x):
    s = set()
    for v in x:
        s.add(int(v))
    s.discard(3)
    print(s, len(s), sep="|")
    print(f"seen {s}!")
    t = set(x)
    print(t, "and", s)
    print({v * 0.5 for v in x})
    return len(s)


def printed_badly(x):
    s = set(x)
    print(f"{s:>10}")


# ------------------------------------------------------------------ tests
def test_aliases():
    for x in (np.arange(30), np.arange(-5, 200, 3), np.array([0.5, -1.0, 2.0, 8.0, 16.5])):
        same(seen_through_both, x)
        same(grows_while_iterated, x)
        same(on_some_paths, x, True)
        same(on_some_paths, x, False)


def test_swaps():
    for n in (1, 7, 50, 300):
        same(bfs, n, np.arange(7) * 5)
    same(swapped, np.arange(10))
    same(swapped, np.arange(0.0, 40.0, 3.5))


def test_inlined_callees():
    same(passes, np.arange(40))
    same(passes, np.arange(-20, 300, 7))
    check_fallback(passes_rebinding, (np.arange(5),), "assigns its set parameter")


def test_printed(capsys):
    for x in (np.arange(12), np.arange(-3, 40, 5)):
        printed(x)
        want = capsys.readouterr().out
        jitted(printed, fallback=False)(x)
        assert capsys.readouterr().out == want
    check_fallback(printed_badly, (np.arange(3),), "format")


def test_program_sequences():
    rng = np.random.default_rng(3)
    for n in (3, 30, 200):
        codes = rng.choice(15, n)
        same(program, codes, rng.integers(-20, 60, n))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 14), st.integers(-40, 80) | st.sampled_from(
    [-1, -2, 2**61 - 1, 2**62])), min_size=1, max_size=80))
def test_hypothesis_programs(seq):
    codes = np.array([c for c, _ in seq], np.int64)
    same(program, codes, np.array([v for _, v in seq], np.int64))
