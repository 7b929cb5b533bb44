"""Reading a local that was never assigned raises UnboundLocalError as CPython
does (passes/unbound_locals.py), instead of reading an undefined value."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning


def only_if(n):
    if n > 0:
        y = n * 2
    return y


def last_of_loop(n):
    for i in range(n):
        last = i * i
    return last


def previous_iteration(n):
    t = 0
    for i in range(n):
        if i % 3 == 2:
            t += prev  # noqa: F821 -- read before its assignment on purpose
        prev = i + 7  # noqa: F841 -- read in the next iteration
    return t


def while_break(n):
    k = 0
    while True:
        k += 1
        if k > n:
            found = k
            break
    return found


def while_cond(n):
    k = 0
    while k < n:
        k += 1
        v = k * 10
    return v


def all_branches(n):
    if n > 5:
        r = 1
    elif n > 0:
        r = 2
    else:
        r = 3
    return r


def for_else(n):
    for i in range(n):
        if i == 3:
            hit = i
            break
    else:
        hit = -1
    return hit


def array_element(a, n):
    if n > 0:
        x = a[0]
    return x + 1.0


def unused_on_some_path(n):
    if n > 0:
        z = n
        return z
    return -1


def len_of_tuple(n):
    if n > 0:
        w = (1, 2)
    return len(w)          # the length is the type's: the read must still check w


def len_of_list_display(n):
    if n > 0:
        w = [1.5, 2.5, 3.5]
    return len(w)


def ndim_of_array(n):
    if n > 0:
        a = np.zeros(3)
    return a.ndim          # (the type's value: no other read of a)


def is_none_test(n):
    if n > 0:
        x = 1.5
    return x is None


def eps_of_dtype(n):
    if n > 0:
        a = np.zeros(3, np.float32)
    return np.finfo(a.dtype).eps


CASES = [(only_if, [(3,), (0,), (-2,)]), (last_of_loop, [(4,), (0,)]),
         (previous_iteration, [(10,), (2,), (0,)]), (while_break, [(3,), (0,)]),
         (while_cond, [(4,), (0,)]), (all_branches, [(9,), (1,), (-1,)]),
         (for_else, [(6,), (2,)]), (unused_on_some_path, [(2,), (0,)]),
         (len_of_tuple, [(1,), (0,)]), (len_of_list_display, [(1,), (0,)]),
         (ndim_of_array, [(1,), (0,)]), (is_none_test, [(1,), (0,)]),
         (eps_of_dtype, [(1,), (0,)])]


def outcome(f, args):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return ("value", f(*args))
    except UnboundLocalError as exc:
        return ("UnboundLocalError", str(exc))


@pytest.mark.parametrize("f, argsets", CASES, ids=[f.__name__ for f, _ in CASES])
def test_same_as_cpython(f, argsets):
    g = jit(f)
    for args in argsets:
        assert outcome(g, args) == outcome(f, args), args


def test_arrays_and_messages():
    g = jit(array_element)
    a = np.array([2.5])
    assert g(a, 1) == 3.5
    with pytest.raises(UnboundLocalError, match="local variable 'x'"):
        g(a, 0)


def test_definitely_assigned_code_is_not_instrumented():
    # (for-else is instrumented: the analysis does not correlate the loop's break
    # flag with the else branch; the check it adds never fires there)
    for f in (all_branches, while_break, unused_on_some_path):
        g = jit(f)
        g(1)
        fn = g.ir_module().functions[g.ir_module().entry]
        assert not [n for n in fn.locals if n.startswith("$bound_")], f.__name__
    g = jit(only_if)
    g(1)
    fn = g.ir_module().functions[g.ir_module().entry]
    assert "$bound_y" in fn.locals
