"""Generator functions consumed inside compiled code (``frontend/generator_inlining.py``)
against the interpreter: ``for`` loops over a generator call (``break``,
``continue``, ``else``, a ``return`` in the generator, nested generators,
``enumerate``), ``sum``/``any``/``all``/``min``/``max``/``list`` of one and
comprehensions over one; side effects of both bodies in CPython's order,
exceptions raised in the generator, default and keyword arguments, globals of
the generator's own; and what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.testing.compare import assert_same_value as same, check_call, check_fallback

from hanajit.testing.sourcefile import load_sibling

cases = load_sibling(__file__, "generator_cases.py", "cpu_generator_cases")
# (not "hanajit_...": generator functions of hanajit's own modules are not inlined)

SCALE = 3
OFFSET = 99
multiples_of_3 = cases.make_multiples(3)


def check(fn, compiled, *args):
    check_call(fn, compiled, *args)


# ------------------------------------------------------------------ generators
def pairs(n):
    for i in range(n):
        for j in range(i):
            yield i, j


def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return


def scaled(a, k=2, *, shift=0.0):
    for x in a:
        yield x * k + shift


def upto(n, stop):
    for i in range(n):
        if i == stop:
            return
        yield i
    yield -1                # only when the loop ran out


def squares_of_pairs(n):
    for i, j in pairs(n):   # a generator looping over another
        yield i * j * SCALE


def three():
    yield 1
    yield 2.5
    yield 4


def logged(n, log):
    log.append(-1)
    for i in range(n):
        log.append(100 + i)
        yield i
        log.append(200 + i)
    log.append(-2)


def dividing(a, d):
    for x in a:
        yield x // d


def failing(n):
    for i in range(n):
        if i == 2:
            raise ValueError("bad item")
        yield i


def empty():
    return
    yield 0


def rows(a):
    for i in range(a.shape[0]):
        yield a[i]


# ---------------------------------------------------------------- for loops
def total_pairs(n):
    t = 0
    for i, j in pairs(n):
        t += i * j
    return t


def with_break(n, limit):
    t = 0
    for i, j in pairs(n):
        if i * j > limit:
            break
        t += i + j
    else:
        t = -t
    return t


def with_continue(n):
    t = 0
    count = 0
    for i, j in pairs(n):
        count += 1
        if (i + j) % 3 == 0:
            continue
        t += i * 10 + j
    return t, count


def break_and_continue_else(n, stop):
    seen = 0
    for v in countdown(n):
        if v % 2 == 0:
            continue
        if v == stop:
            break
        seen = seen * 10 + v
    else:
        seen = -seen
    return seen


def returns_early(n, stop):
    t = 0
    for v in upto(n, stop):
        t = t * 3 + v
    else:
        t += 1000
    return t


def return_from_body(n):
    for i, j in pairs(n):
        if i + j == 5:
            return i * 100 + j
    return -1


def nested(n):
    t = 0
    for v in squares_of_pairs(n):
        for w in countdown(2):
            t += v * w
    return t


def same_generator_twice(n):
    t = 0
    for a in countdown(n):
        for b in countdown(a):
            if b == 2:
                break
            t += a * b
    return t


def enumerated(n):
    t = 0
    for k, (i, j) in enumerate(pairs(n), 5):
        t += k * (i - j)
    return t


def keywords_and_defaults(a):
    t = 0.0
    for x in scaled(a):
        t += x
    for x in scaled(a, shift=0.5, k=3):
        t += x
    return t


def mixed_types():
    t = 0
    for v in three():
        t = t + v
    return t


def loop_target_names_clash(n):
    i = 100                 # the generator's own i and j are not these
    j = 7
    for v in countdown(n):
        i += v
    return i, j


def order(n, stop):
    log = []
    for v in logged(n, log):
        log.append(v)
        if v == stop:
            break
    return log


def writes(a, out):
    k = 0
    for row in rows(a):
        out[k] = row.sum()
        k += 1
    return k


def divide_all(a, d):
    t = 0
    for v in dividing(a, d):
        t += v
    return t


def raises_inside(n):
    t = 0
    for v in failing(n):
        t += v
    return t


def over_empty():
    t = 5
    for v in empty():
        t += v
    else:
        t = -t
    return t


# ---------------------------------------------------------------- consumers
def sum_of(n):
    return sum(countdown(n)), sum(countdown(n), 0.5)


def float_sum(a):
    return sum(scaled(a, 0.1))


def any_all(n, stop):
    return any(v == stop for v in countdown(n)), all(countdown(n)), any(upto(n, stop))


def extremes(a):
    return max(scaled(a)), min(scaled(a, -1))


def extreme_of_empty(n):
    return max(countdown(n))


def with_default(n):
    m = min(countdown(n), default=-1)
    return m, sorted(countdown(n))


def as_list(n):
    xs = list(countdown(n))
    return len(xs), xs[0], sum(xs)


def comprehension(n):
    return sum([i * j for i, j in pairs(n)]), sum(i - j for i, j in pairs(n) if i > 2)


def into_array(n):
    return np.fromiter(countdown(n), np.float64)


def jitted_generator_called(n):
    t = 0
    for v in jitted_countdown(n):
        t += v
    return t


jitted_countdown = jit(countdown)


def other_modules_globals(n):
    SCALE = 1000            # a local of the caller: the generators' SCALE is their own
    t = 0.0
    for v in cases.scaled_range(n):
        t = t + v
    u = 0
    for w in squares_of_pairs(n):
        u += w
    return t, u, SCALE, OFFSET


def closure(n):
    return sum(multiples_of_3(n)), max(multiples_of_3(n + 1))


def bump(out, k):
    out[0] = out[0] * 10 + k
    return k


def argument_order(out, n):
    t = 0.0
    for x in scaled(np.arange(bump(out, n)), shift=bump(out, 2), k=bump(out, 3)):
        out[0] = out[0] * 10 + 9
        t += x
    return t


def stops_early(out, n):
    return any(bumped(out, n)), all(bumped(out, n))


def bumped(out, n):
    for i in range(n):
        bump(out, i)
        yield i % 3 != 2


def test_scopes_and_argument_order():
    compiled = jit(other_modules_globals, fallback=False)
    for n in (0, 4):
        check(other_modules_globals, compiled, n)
    check(closure, jit(closure, fallback=False), 5)
    for fn, n in ((argument_order, 3), (stops_early, 5), (stops_early, 1)):
        a, b = np.zeros(1), np.zeros(1)
        same(jit(fn, fallback=False)(a, n), fn(b, n))
        assert a.tobytes() == b.tobytes(), (a, b)


# --------------------------------------------------------------------- tests
def test_for_loops():
    for fn, argsets in [
        (total_pairs, [(0,), (1,), (6,)]),
        (with_break, [(6, 6), (6, 100), (0, 1)]),
        (with_continue, [(7,), (0,)]),
        (break_and_continue_else, [(7, 3), (7, 100), (0, 0)]),
        (returns_early, [(5, 3), (5, 10), (0, 0)]),
        (return_from_body, [(6,), (2,)]),
        (nested, [(4,)]),
        (same_generator_twice, [(5,)]),
        (enumerated, [(5,)]),
        (mixed_types, [()]),
        (loop_target_names_clash, [(4,)]),
        (over_empty, [()]),
        (jitted_generator_called, [(4,)]),
    ]:
        compiled = jit(fn, fallback=False)
        for args in argsets:
            check(fn, compiled, *args)


def test_arguments_and_dtypes():
    compiled = jit(keywords_and_defaults, fallback=False)
    for a in (np.arange(5.0), np.arange(6, dtype=np.int32)[::-2],
              np.array([np.nan, -0.0, np.inf]), np.arange(4, dtype=np.uint8),
              np.zeros(0, np.float32), np.array([1 + 2j, -3j])):
        check(keywords_and_defaults, compiled, a)


def test_side_effects_in_order():
    compiled = jit(order, fallback=False)
    for args in [(4, 2), (4, 10), (0, 0)]:
        check(order, compiled, *args)
    cw = jit(writes, fallback=False)
    for a in (np.arange(12.0).reshape(3, 4), np.asfortranarray(np.arange(12.0).reshape(4, 3)),
              np.zeros((0, 2))):
        out1, out2 = np.zeros(a.shape[0]), np.zeros(a.shape[0])
        assert cw(a, out1) == writes(a, out2)
        assert out1.tobytes() == out2.tobytes()


def test_exceptions_raised_in_the_generator():
    compiled = jit(raises_inside, fallback=False)
    check(raises_inside, compiled, 2)
    check(raises_inside, compiled, 5)          # ValueError: bad item
    cd = jit(divide_all, fallback=False)
    check(divide_all, cd, np.arange(4), 2)
    check(divide_all, cd, np.arange(4), 0)     # (NumPy: 0 and a warning)
    check(divide_all, cd, (1, 2, 3), 0)         # Python ints: ZeroDivisionError


def test_consumers():
    for fn, argsets in [
        (sum_of, [(0,), (5,)]),
        (float_sum, [(np.arange(7.0),), (np.array([0.1] * 10),)]),
        (any_all, [(5, 2), (5, 9), (0, 0)]),
        (extremes, [(np.array([3.0, np.nan, 7.0]),), (np.arange(5, dtype=np.int32),)]),
        (extreme_of_empty, [(0,), (3,)]),
        (with_default, [(0,), (3,)]),
        (as_list, [(4,)]),
        (comprehension, [(6,)]),
        (into_array, [(0,), (4,)]),
    ]:
        compiled = jit(fn, fallback=False)
        for args in argsets:
            check(fn, compiled, *args)


# ------------------------------------------------------------------ fallback
def held(n):
    g = countdown(n)
    return next(g)


def sends():
    x = yield 1
    yield x


def uses_send():
    t = 0
    for v in sends():
        t += v or 0
    return t


def guarded(n):
    try:
        yield n
    finally:
        pass


def uses_guarded(n):
    t = 0
    for v in guarded(n):
        t += v
    return t


def delegating(n):
    yield from countdown(n)


def uses_delegating(n):
    t = 0
    for v in delegating(n):
        t += v
    return t


def delegating_value(n):
    r = yield from countdown(n)
    yield r


def uses_delegating_value(n):
    t = 0
    for v in delegating_value(n):
        t += v or 0
    return t


def chained(n):
    yield from range(n, 0, -2)
    for v in range(2):
        yield from countdown(n + v)
    yield from (7, 8)


def uses_chained(n):
    t = 0
    for v in chained(n):
        if v == 1:
            continue
        t = t * 3 + v
    return t, sum(chained(n + 1))


def naturals():
    i = 0
    while True:
        yield i
        i += 1


def first_square_over(limit):
    for v in naturals():
        if v * v > limit:
            return v
    return -1


def local_generator(n, a):
    step = 1

    def window(lo, hi):
        for i in range(lo, hi, step):     # step read when the body runs (a closure)
            yield a[i] * n

    t = 0.0
    for v in window(0, len(a)):
        t = t * 0.5 + v
        step = 2
    return t, sum(window(hi=len(a), lo=1)), max(window(0, 2))


def local_generator_held(n):
    def g(m):
        yield m
    it = g(n)
    return sum(it)


def local_generator_default(n):
    def g(m=2):
        yield m
    return sum(g())


def zipped(out, a, n):
    t = np.float64(0.0)     # (a Python float kept on one path: one type in compiled code)
    for v, x, i in zip(bumped(out, n), a, range(10, 20)):
        out[0] = out[0] * 10 + 9
        if v:
            t = t * 2 + x + i
    else:
        t = -t
    return t


def tangled(n, stop):
    for i in range(n):
        if i == stop:
            return
        for j in range(i, n):
            if j == i + 2:
                continue
            yield i * 10 + j
        else:
            yield -i
    while n > 0:
        n -= 1
        yield 1000 + n


def uses_tangled(n, stop, skip, leave):
    out = np.zeros(64, np.int64)
    k = 0
    for v in tangled(n, stop):
        if v % skip == 0:
            continue
        out[k] = v
        k += 1
        if v == leave:
            break
    else:
        out[k] = -99
        k += 1
    return out[:k].copy()


def test_tangled_control_flow():
    compiled = jit(uses_tangled, fallback=False)
    for args in [(4, 9, 7, -1), (4, 2, 3, 12), (5, 9, 4, 1002), (5, 3, 100, -2), (0, 0, 2, 0)]:
        got, want = compiled(*args), uses_tangled(*args)
        assert got.tobytes() == want.tobytes(), (args, got, want)


def test_zip():
    compiled = jit(zipped, fallback=False)
    for a, n in ((np.arange(5.0), 3), (np.arange(3.0), 5), (np.arange(4.0)[::-1], 0),
                 (np.zeros(0), 2), (np.arange(20.0), 12)):
        o1, o2 = np.zeros(1), np.zeros(1)
        same(compiled(o1, a, n), zipped(o2, a, n))
        assert o1.tobytes() == o2.tobytes(), (o1, o2)


def test_local_generators():
    compiled = jit(local_generator, fallback=False)
    for a in (np.arange(6.0), np.array([1.5, -0.0, np.nan, 2.0])[::-1],
              np.arange(7, dtype=np.int32)):
        check(local_generator, compiled, 3, a)
    # held in a name, then summed: compiles now (test_cpu_held_generators.py)
    check(local_generator_held, jit(local_generator_held, fallback=False), 3)
    check_fallback(local_generator_default, (3,), "nested function")


def test_yield_from_and_endless_generators():
    check(uses_delegating, jit(uses_delegating, fallback=False), 4)
    check(uses_chained, jit(uses_chained, fallback=False), 5)
    check(first_square_over, jit(first_square_over, fallback=False), 50)


def walk(n):
    if n > 0:
        for v in walk(n - 1):
            yield v
    yield n


def uses_walk(n):
    t = 0
    for v in walk(n):
        t += v
    return t


def passed_on(n):
    return sum(countdown(n), start=countdown(1))


def test_what_falls_back():
    # a generator held in a name and driven by next compiles now
    # (test_cpu_held_generators.py); one passed on still falls back
    check(held, jit(held, fallback=False), 3)
    check_fallback(passed_on, (3,), "makes a generator object")
    check_fallback(uses_send, (), "send")
    check_fallback(uses_guarded, (2,), "try or with")
    check_fallback(uses_delegating_value, (3,), "yield from used as a value")
    check_fallback(uses_walk, (3,), "recursive generator")


def test_jit_of_a_generator_function_runs_in_the_interpreter():
    with pytest.raises(UnsupportedError, match="generator function"):
        jit(countdown, fallback=False)(3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = jit(pairs)(4)
        assert list(got) == list(pairs(4))
    assert sum(issubclass(x.category, HanaJitFallbackWarning) for x in w) == 1
    same(list(jitted_countdown(3)), [3, 2, 1])
