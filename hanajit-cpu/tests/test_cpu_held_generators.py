"""Generator objects and iterators held in a name (``frontend/held_generators.py``)
against the interpreter: ``next(it)``, ``next(it, default)``, ``StopIteration``
on an exhausted one (PEP 479's RuntimeError inside a generator), a ``for`` loop
going on where ``next`` left it, two alive at once, ``iter(seq)``, ``zip(a,
g(n))``, ``tuple(g())``, generators whose ``yield``s sit in loops, branches and
nested generators; and what falls back."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import check_call, check_fallback


_JITTED = {}


def check(fn, *args):
    if fn not in _JITTED:           # (one jitted function per kernel, not per example)
        _JITTED[fn] = jit(fn, fallback=False)
    check_call(fn, _JITTED[fn], *args)


# ------------------------------------------------------------------ generators
def countdown(n):
    while n > 0:
        yield n
        n -= 1


def tangled(n, a):
    for i in range(n):
        if i == 2:
            continue
        if i > 5:
            break
        for x in a:
            if x < 0:
                return
            yield i * x
    else:
        yield -100
    yield 99


def whiles(n, a):              # while/else, break, continue, return among the yields
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        j = 0
        while j < len(a):
            if a[j] == i:
                yield -i
                break
            elif a[j] > i:
                yield a[j] * 100 + i
            else:
                j += 1
                continue
            j += 2
            if j > 4:
                yield 7777
        else:
            yield 5000 + i
            if i == 5:
                return
    else:
        yield 9999


def delegating(n):
    yield 7
    yield from countdown(n)
    for v in countdown(2):
        yield v * 100


def holder(n):                  # a generator holding another one
    it = countdown(n)
    first = next(it)
    for x in it:
        yield x + first
    yield next(it)              # exhausted: RuntimeError (PEP 479)


def holder_default(n):
    it = countdown(n)
    yield next(it, -1)
    yield next(it, -1)


def raising(n):
    yield n
    raise ValueError("boom")


def straight(k, log):
    log[0] += 1
    yield k
    log[0] += 10
    yield k * 2
    log[0] += 100


def running_sums(a):           # yields arrays its frame made
    buf = np.zeros(a.shape[1])
    for i in range(a.shape[0]):
        buf = buf + a[i]
        yield buf


def three():
    yield 1
    yield 4
    yield 9


def zipped_pairs(n):           # loops over enumerate and zip of generators, yields inside
    for i, x in enumerate(countdown(n)):
        for y in zip(range(i), countdown(x)):
            yield y[0] + y[1] * 10


# ------------------------------------------------------------------ users
def composed(n):
    a = sum(v for v in holder_default(n))
    b = [v for v in zipped_pairs(n + 1)]
    it = zipped_pairs(n)
    c = list(it)
    return a, b, c


def composed_in_a_loop(n):
    out = 0
    for k in range(n):
        it = zipped_pairs(k)
        for v in it:
            out = out * 3 + v
    return out


def next_then_for(n):
    it = countdown(n)
    a = next(it)
    b = next(it, -1)
    t = 0
    for x in it:
        t = t * 10 + x
    return a, b, t, next(it, -2)


def next_past_the_end(n):
    it = countdown(n)
    t = 0
    for _ in range(4):
        t = t * 10 + next(it)
    return t


def two_alive(n):
    a = countdown(n)
    b = countdown(n + 1)
    t = 0
    for x in a:
        t = t * 10 + x + next(b)
    return t, next(b, -7)


def stop_caught(n):
    it = countdown(n)
    t = 0
    while True:
        try:
            x = next(it)
        except StopIteration:
            break
        t = t * 10 + x
    return t


def made_in_a_loop(n):
    t = 0
    for k in range(n):
        it = countdown(k + 2)
        t += next(it) * 10 + next(it)
    return t


def drain(n, a):
    out = np.zeros(40)
    it = tangled(n, a)
    k = 0
    v = next(it, -999)
    while v != -999:
        out[k] = v
        k += 1
        v = next(it, -999)
    return out[:k].copy()


def for_else(n, stop):
    it = countdown(n)
    t = 0
    for x in it:
        if x == stop:
            break
        t += x
    else:
        t = -1
    return t, next(it, 0)


def enumerated(n):
    it = delegating(n)
    next(it)
    t = 0
    for i, v in enumerate(it, 1):
        t += i * v
    return t


def first_then_rest(a):
    it = iter(a)
    first = next(it)
    t = 0.0
    for x in it:
        t += x - first
    return first, t


def iterators_of_sequences(n, z):
    r = iter(range(3, n, 2))
    lst = [z, 2.5]
    il = iter(lst)
    s = next(r) + next(r)
    u = next(il)
    lst.append(4.0)             # a list iterator reads len at each step
    for x in il:
        u += x
    lst.append(8.0)             # ... and stays exhausted
    return s, u, next(r, -1), next(il, 0.5)


def the_rest(a, n):
    it = iter(a)
    first = next(it)
    rest = list(it)
    g = countdown(n)
    top = next(g)
    back = iter(a[::-1])
    ordered = sorted(back)
    most = max(countdown(n), default=-1)
    return first, rest, top + sum(g), most, ordered


def stepping(a, b, s):
    for i in range(a, b, s):
        yield i * 10


def ranges(a, b, s):
    it = iter(range(a, b, s))
    g = stepping(b, a, -s)
    t = next(it, -1) + next(g, -2)
    for x, y in zip(it, g):
        t = t * 7 + x - y
    return t


def tuples_and_rows(n, a):
    it = iter((n, n + 1, n + 2))
    s = next(it)
    rows = iter(a)
    r0 = next(rows)
    acc = r0 * 0
    for r in rows:
        acc = acc + r
    for x in it:
        s = s * 10 + x
    return s, acc


def looping_over(gen):
    def looped(n):
        t = 0
        for v in gen(n):
            t = t * 10 + v
        return t
    return looped


held_in_a_generator = looping_over(holder)
held_default_in_a_generator = looping_over(holder_default)


def held_holder(n):
    h = holder(n)
    t = next(h)
    for v in h:
        t = t * 10 + v
    return t


def finished_after_an_error(n):
    it = raising(n)
    a = next(it)
    try:
        next(it)
    except ValueError:
        a += 10
    return a + next(it, -5)


def zip_after(a, n):
    t = 0.0
    for x, y in zip(a, countdown(n)):
        t = t * 2 + x * y
    else:
        t += 1000
    return t


def zip_with_itself(n):        # pairs of items, asked in turn
    it = iter(countdown(n))
    t = next(it)
    for x in zip(it, it):
        t = t * 100 + x[0] * 10 + x[1]
    return t


def zip_two(n):
    t = 0
    for x, y in zip(countdown(n), countdown(n + 2)):
        t = t * 100 + x * 10 + y
    return t


def as_a_tuple(k, log):
    a, b = tuple(straight(k, log))
    return a + b, tuple(three()), log[0]


def next_in_expressions(n):
    it = countdown(n)
    t = next(it) + 2 * next(it)
    if next(it) > 0:
        t += 100
    return t


def arrays_from_a_generator(a):
    it = running_sums(a)
    first = next(it)
    t = first * 1.0
    for r in it:
        t += r
    first[0] = -1.0
    return t, first


def first_items(a, n):
    return next(iter(a)) + next(countdown(n), 0.5)


def next_inside_its_loop(n):
    it = countdown(n)
    t = 0
    for x in it:
        t = t * 10 + x
        if x % 2:
            t += next(it, 0) * 1000
    return t


def closure_read_at_each_step(n):
    k = 1

    def g(m):
        for i in range(m):
            yield i * k
    it = g(n)
    a = next(it)
    k = 10
    b = next(it)
    k += next(it)
    return a, b, k


def local_held(n):
    def g(m):
        for i in range(m):
            yield i * i
    it = g(n)
    a = next(it)
    b = 0
    for x in it:
        b += x
    return a, b


def test_next_and_for():
    for n in (0, 1, 2, 5):
        check(next_then_for, n)
        check(next_past_the_end, n)
        check(two_alive, n)
        check(for_else, n, 2)
        check(stop_caught, n)
    check(made_in_a_loop, 4)
    check(next_in_expressions, 3)
    check(next_in_expressions, 2)
    check(local_held, 5)
    check(next_inside_its_loop, 7)
    check(next_inside_its_loop, 4)
    check(closure_read_at_each_step, 5)


def test_generators_with_tangled_bodies():
    for n in (4, 9, 0):
        for a in (np.array([1, 2]), np.array([1, -2]), np.zeros(0, np.int64)):
            want, got = drain(n, a), jit(drain, fallback=False)(n, a)
            assert got.tobytes() == want.tobytes(), (n, a, got, want)
    check(enumerated, 3)
    check(enumerated, 0)
    for n in (0, 1, 4):
        check(composed, n)
    check(composed_in_a_loop, 5)


def drain_whiles(n, a):
    out = np.zeros(200, np.int64)
    it = whiles(n, a)
    k = 0
    v = next(it, -123456)
    while v != -123456:
        out[k] = v
        k += 1
        v = next(it, -123456)
    return out[:k].copy()


compiled_drain = jit(drain, fallback=False)      # (compiled at its first call)
compiled_drain_whiles = jit(drain_whiles, fallback=False)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 12), st.lists(st.integers(-3, 5), max_size=6))
def test_tangled_bodies_generated(n, items):
    a = np.array(items, dtype=np.int64)
    want, got = drain(n, a), compiled_drain(n, a)
    assert got.tobytes() == want.tobytes()
    b = np.array(items[::-1], dtype=np.int64) + 2
    want, got = drain_whiles(n, b), compiled_drain_whiles(n, b)
    assert got.tobytes() == want.tobytes()


def test_iter_of_sequences():
    for a in (np.arange(5.0), np.array([2.5]), np.arange(6, dtype=np.int32)[::-1]):
        check(first_then_rest, a)
    check(first_then_rest, np.zeros(0))            # StopIteration
    for a, n in ((np.arange(3.0) + 1, 2), (np.arange(3.0) + 1, 0), (np.zeros(0), 1)):
        check(first_items, a, n)
    a = np.arange(12.0).reshape(4, 3)
    want, got = arrays_from_a_generator(a), jit(arrays_from_a_generator, fallback=False)(a)
    assert repr(got) == repr(want)
    check(iterators_of_sequences, 10, 1.5)
    check(iterators_of_sequences, 6, 1.5)
    check(tuples_and_rows, 1, np.arange(6.0).reshape(3, 2))
    for args in ((0, 9, 2), (9, 0, -3), (3, 3, 1), (0, 5, 0)):     # 0: ValueError
        check(ranges, *args)
    for a, n in ((np.arange(4.0)[::-1], 4), (np.arange(1.0), 1), (np.zeros(0), 0)):
        check(the_rest, a, n)


def test_exhausted_generators_and_errors():
    for n in (0, 1, 3):
        check(held_in_a_generator, n)              # PEP 479: RuntimeError
        check(held_holder, n)
        check(held_default_in_a_generator, n)
    check(finished_after_an_error, 2)


def test_zip_and_tuple():
    for a, n in ((np.arange(3.0), 5), (np.arange(6.0), 2), (np.zeros(0), 3)):
        check(zip_after, a, n)
    check(zip_two, 3)
    for n in (1, 3, 6):
        check(zip_with_itself, n)
    log1, log2 = np.zeros(1), np.zeros(1)
    want, got = as_a_tuple(3, log1), jit(as_a_tuple, fallback=False)(3, log2)
    assert repr(got) == repr(want) and log1[0] == log2[0] == 111


# ------------------------------------------------------------------ fallback
def stored(n):
    it = countdown(n)
    next(it)
    box = [it]
    return len(box)


def truth_of_it(n):
    it = countdown(n)
    return 1 if it else 0


def in_a_while_condition(n):
    it = countdown(n)
    t = 0
    while next(it, 0) > 1:
        t += 1
    return t


def conditional_next(n):
    it = countdown(n)
    return n > 2 and next(it)


def after_an_index(a):
    it = iter(a)
    return a[0] + next(it)


def tuple_of_a_loop(n):
    return tuple(countdown(n))


def reversed_generator(n):
    t = 0
    for v in reversed(countdown(n)):
        t += v
    return t


def iter_of_a_dict(n):
    d = {1: 2, 3: 4}
    it = iter(d)
    return next(it)


def self_holding(n):
    it = self_holding_gen(n)
    return next(it)


def self_holding_gen(n):
    if n > 0:
        it = self_holding_gen(n - 1)
        yield next(it)
    yield n


def maybe_unbound(n):
    if n > 0:
        x = n
    yield x


def made_again(m):
    t = 0
    for k in range(m, -1, -1):
        it = maybe_unbound(k)
        t += next(it)
    return t


def looped_again(m):
    t = 0
    for k in range(m, -1, -1):
        for v in maybe_unbound(k):
            t += v
    return t


def made_once(m):
    it = maybe_unbound(m)
    return next(it)


def remade_in_its_loop(n):
    it = countdown(n)
    t = 0
    for x in it:
        t = t * 10 + x
        if x == 2:
            it = countdown(5)
    return t, next(it)


def test_what_falls_back():
    check(made_once, 2)
    check(made_once, 0)                             # UnboundLocalError
    check_fallback(made_again, (2,), "may read 'x' before assigning it")
    check_fallback(looped_again, (2,), "may read 'x' before assigning it")
    check_fallback(remade_in_its_loop, (3,), "goes on over the one it started with")
    check_fallback(stored, (3,), "held in 'it', used other than by next")
    check_fallback(truth_of_it, (3,), "held in 'it', used other than by next")
    check_fallback(in_a_while_condition, (3,), "cannot be asked first")
    check_fallback(conditional_next, (3,), "decides whether it runs")
    check_fallback(after_an_index, (np.arange(3.0),), "after something it could see")
    check_fallback(tuple_of_a_loop, (3,), "not known when compiling")
    check_fallback(reversed_generator, (3,), "generator")
    check_fallback(iter_of_a_dict, (3,), "over 'd'")
    check_fallback(self_holding, (2,), "recursive generator")
