"""A list local passed to a user function (inlined: frontend/list_passing.py), and a
list's ``pop``/``append`` inside an expression (taken out before the statement:
frontend/hoisted_calls.py), against the interpreter: values, item types, errors."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "list_outcomes.py", "hanajit_list_outcomes")
same, outcome, check = _h.same, _h.outcome, _h.check
# (the interpreter's own runs call the jitted callees with a list: they fall back there)
pytestmark = pytest.mark.filterwarnings("ignore:.*values of type list")


# -- callees that read the list ---------------------------------------------------

def mean_of(xs):
    return sum(xs) / len(xs)


def first_big(xs, limit=2.0):
    for i, v in enumerate(xs):
        if v > limit:
            return_value = i
            break
    else:
        return_value = -1
    return return_value


@jit
def jitted_total(xs, scale):
    t = 0
    for v in xs:
        t += v * scale
    s = sorted(xs)
    return t, s[0], xs[-1], xs[0] in xs


def reads(a):
    out = []
    s = np.float64(0.0)             # (a Python 0.0 would be a result of either kind)
    for v in a:
        out.append(v)
        s += mean_of(out)           # (taken out of the expression, then inlined)
    k = first_big(out)
    k2 = first_big(out, limit=-1.0)
    return s, k, k2, jitted_total(out, 2), out, float(mean_of(out)) * 2


def test_callees_that_read_the_list():
    check(reads, (np.array([1.5, -2.0, 3.0, 0.5]),), (np.array([3, 1, 2]),),
          (np.array([7]),), (np.array([], np.float64),))


# -- callees that change it --------------------------------------------------------

def push_bounded(xs, v, k=3):
    xs.append(v)
    if len(xs) > k:
        xs.pop(0)


def twice(xs, v):
    push_bounded(xs, v)
    push_bounded(xs, v + 1, k=4)


@jit
def jitted_sorted_insert(xs, v):
    xs.insert(0, v)
    xs.sort(reverse=True)


def drop(xs, v):
    xs.remove(v)
    return len(xs)


def changes(a, gone):
    out = []
    other = [0]
    for v in a:
        twice(out, v)
        jitted_sorted_insert(other, int(v))
    n = drop(other, gone)
    pair = [1, 2]
    push_bounded(pair, 3, 10)
    return out, other, n, pair


def test_callees_that_change_the_list():
    check(changes, (np.array([1.5, -2.0, 3.0, 0.5, 4.0]), 0), (np.array([3, 1, 2]), 2),
          (np.array([3, 1, 2]), 7), (np.array([], np.int64), 0))


def same_list_twice(xs, ys):
    xs.append(len(ys))
    ys.append(len(xs))


def shared(n):
    out = [n]
    same_list_twice(out, out)
    return out


def popper(xs):
    return xs.pop() * 2


def pops_from_callee(n):
    out = list(range(n))
    total = 0
    while out:
        total += popper(out)
    total += popper(out)                # IndexError: pop from empty list
    return total


def test_same_list_twice_and_errors_in_the_callee():
    check(shared, (1,), (-4,))
    check(pops_from_callee, (0,), (3,))


# -- what falls back -----------------------------------------------------------------

def aliases(xs):
    b = xs
    b.append(1)


def rebinds(xs):
    xs = [1]
    return len(xs)


def early(xs):
    if not xs:
        return 0
    return xs[0]


def recurse(xs, n):
    if n > 0:
        xs.append(n)
        recurse(xs, n - 1)


def hands_back(xs):
    xs.append(2)
    return xs


def maybe_unbound(xs, flag):
    if flag:
        y = 1
    xs.append(y)                        # (UnboundLocalError when not flag)


def fb_unbound(n):
    out = []
    for i in range(n):
        maybe_unbound(out, i == 0)      # (an inlined body would see the last y)
    return out


def fb_alias(n):
    out = [n]
    aliases(out)
    return out


def fb_rebind(n):
    out = [n]
    return rebinds(out), out


def fb_early(n):
    out = [n]
    return early(out)


def fb_recurse(n):
    out = []
    recurse(out, n)
    return out


def fb_hands_back(n):
    out = []
    y = hands_back(out)
    return y


FALLBACKS = [(fb_rebind, "assigns its list parameter 'xs'"),
             (fb_early, "returns other than by its last statement"),
             (fb_recurse, "nested more than 3 deep"),
             (fb_unbound, "may read its local 'y' before assigning it")]


def test_aliases_in_the_callee_compile():
    # b = xs in the callee, y = h(out): names bound to the caller's list
    # (frontend/growable_lists.py keeps them one list: test_cpu_list_rebinding)
    for func in (fb_alias, fb_hands_back):
        assert jit(func, fallback=False)(5) == func(5)


@pytest.mark.parametrize("func,reason", FALLBACKS, ids=[f.__name__ for f, _ in FALLBACKS])
def test_what_falls_back(func, reason):
    with pytest.raises(UnsupportedError, match=reason):
        jit(func, fallback=False)(5)
    with pytest.warns(HanaJitFallbackWarning):
        got = outcome(jit(func), 5)
    want = outcome(func, 5)
    assert got[0] is want[0] and same(got[1], want[1])


# -- pop and append inside expressions --------------------------------------------

def in_expressions(a):
    out = list(a)
    m = 0
    m += out.pop() * 2
    x = out.pop() + out.pop()
    y = out.append(a[1])
    z = -out.pop(0)
    w = (out.pop(), len(out))
    if out.pop() > 1:
        m += 100
    return m, x, y, z, w, out


def not_taken_out(n):
    out = [1, 2, 3]
    return n * 2 + out.pop()


def test_pop_and_append_inside_expressions():
    check(in_expressions, (np.arange(8),), (np.linspace(0, 3, 8),),
          (np.arange(4),), (np.arange(3),))
    # an operation evaluated before the pop keeps it inside: it still falls back
    with pytest.raises(UnsupportedError, match="inside an expression"):
        jit(not_taken_out, fallback=False)(1)


# -- sequences of operations against CPython -------------------------------------

def keep(xs, v):
    if v in xs:
        xs.remove(v)
    else:
        xs.append(v)


def operations(ops, vals):
    out = []
    log = []
    means = []
    flags = []
    for i in range(len(ops)):
        op, v = ops[i], vals[i]
        if op == 0:
            out.append(v)
        elif op == 1 and len(out) > 1:
            log.append(out.pop() + out.pop(0))
        elif op == 1 and out:
            log.append(-out.pop() * 3)
        elif op == 2:
            out.insert(v, v * 2)
        elif op == 3:
            keep(out, v)
        elif op == 4:
            push_bounded(out, v, 5)
        elif op == 5 and out:
            means.append(float(mean_of(out)))
        elif op == 6:
            out.reverse()
        elif op == 7:
            out = out + [v, v]
        elif op == 8:
            py = [int(x) for x in out]      # (Python ints: no NumPy bool to re-run for)
            flags.append(1 if py < [int(v), 0] else 3)
        elif op == 9:
            if out == [v, v] or out != [2]:
                flags.append(7)
    return out, log, means, flags


_OPS = jit(operations, fallback=False)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(-3, 3)), max_size=25))
def test_sequences_like_cpython(steps):
    ops = np.array([s[0] for s in steps], np.int64)
    vals = np.array([s[1] for s in steps], np.int64)
    got, want = outcome(_OPS, ops, vals), outcome(operations, ops, vals)
    assert got[0] is want[0] and same(got[1], want[1]), (steps, got, want)
