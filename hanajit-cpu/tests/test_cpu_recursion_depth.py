"""Deep recursion raises RecursionError, as CPython does, instead of crashing.

Recursive functions (a cycle of the call graph: self or mutual recursion) check
their stack frame against a floor set at the first call (passes/stack_check.py).
Each case runs in a child process, so a crash fails the test instead of the run.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PROGRAM = textwrap.dedent('''
    import sys, threading
    import numpy as np
    from hanajit import jit

    @jit(fallback=False)
    def d(n):
        if n == 0:
            return 0
        return (d(n - 1) * 3 + n) % 1000003

    @jit(fallback=False)
    def is_even(n):
        if n == 0:
            return True
        return is_odd(n - 1)

    @jit(fallback=False)
    def is_odd(n):
        if n == 0:
            return False
        return is_even(n - 1)

    @jit(fallback=False)
    def fill(a, i):
        # (work after the call: a tail call is a loop in the machine code,
        # which never runs out of stack -- tail_fill)
        if i < a.shape[0]:
            fill(a, i + 1)
            a[i] = i * 2.0

    @jit(fallback=False)
    def tail_fill(a, i):
        if i < a.shape[0]:
            a[i] = i * 2.0
            tail_fill(a, i + 1)

    @jit(fallback=False)
    def fib(n):
        if n < 2:
            return n
        return fib(n - 1) + fib(n - 2)

    def py_d(n):
        return 0 if n == 0 else (py_d(n - 1) * 3 + n) % 1000003

    def raises(f, *args):
        try:
            f(*args)
        except RecursionError as exc:
            return str(exc)
        return "no error"

    case = sys.argv[1]
    if case == "self":
        assert d(500) == py_d(500)
        print(raises(d, 10**6))
        assert d(500) == py_d(500)            # usable afterwards
    elif case == "mutual":
        assert is_even(300) and not is_odd(300)
        print(raises(is_even, 10**7))
    elif case == "void":
        a = np.zeros(200)
        fill(a, 0)
        assert (a == np.arange(200) * 2.0).all()
        big = np.zeros(10**6)
        tail_fill(big, 0)                     # a loop in the machine code
        assert (big == np.arange(10**6) * 2.0).all()
        print(raises(fill, np.zeros(10**7), 0))
    elif case == "thread":
        out = []
        t = threading.Thread(target=lambda: out.append(raises(d, 10**6)))
        t.start(); t.join()
        print(out[0])
    elif case == "fib":
        assert fib(25) == 75025
        print("maximum recursion depth exceeded")
''')


@pytest.mark.parametrize("case", ["self", "mutual", "void", "thread", "fib"])
def test_deep_recursion_raises_recursion_error(case, tmp_path):
    script = tmp_path / "deep.py"
    script.write_text(PROGRAM)
    proc = subprocess.run([sys.executable, str(script), case], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip() == "maximum recursion depth exceeded", proc.stdout


def test_only_functions_in_a_cycle_are_split():
    from hanajit.ir import nodes as N
    from hanajit.ir import types as T
    from hanajit.passes.stack_check import cycles

    def fn(name, *calls):
        body = [N.ExprStmt(value=N.Call(c, [], T.NONE)) for c in calls]
        return N.Function(name, [], (), {}, body, T.NONE)

    m = N.Module("main", {"main": fn("main", "a", "leaf"), "a": fn("a", "b"),
                          "b": fn("b", "a", "leaf"), "leaf": fn("leaf"),
                          "selfish": fn("selfish", "selfish")})
    assert sorted(map(sorted, cycles(m))) == [["a", "b"], ["selfish"]]


def test_shallow_helpers_are_not_split():
    """A cycle of library helpers marked ``hj_shallow`` (recursion their arguments
    bound: the pairwise sum's tree, introsort's smaller side) keeps no check; a
    cycle with one unmarked function is checked whole."""
    from hanajit.ir import nodes as N
    from hanajit.ir import types as T
    from hanajit.passes.stack_check import stack_check

    def fn(name, *calls, shallow=False):
        body = [N.ExprStmt(value=N.Call(c, [], T.NONE)) for c in calls]
        f = N.Function(name, [], (), {}, body, T.NONE)
        f.shallow = shallow
        return f

    m = N.Module("main", {"main": fn("main", "tree", "a"),
                          "tree": fn("tree", "tree", shallow=True),
                          "a": fn("a", "b", shallow=True), "b": fn("b", "a")})
    stack_check(m)
    assert sorted(m.functions) == ["a", "a__stack", "b", "b__stack", "main", "tree"]


def no_base_case(n):
    return no_base_case(n + 1) + 1


def only_raises(n):
    if n < 0:
        raise ValueError("negative")
    return only_raises(n - 1)


@pytest.mark.parametrize("f", [no_base_case, only_raises])
def test_a_function_that_never_returns_a_value_falls_back(f):
    """Every return calls the function again: inference finds no type for the
    result, and the interpreter raises what CPython raises (RecursionError, or
    the ValueError when the depth allows) -- never an internal error."""
    import warnings

    from hanajit import jit
    from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
    with pytest.raises(UnsupportedError, match="unsupported recursion"):
        jit(f, fallback=False)(3)
    want = pytest.raises(RecursionError if f is no_base_case else ValueError)
    with want, warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        jit(f)(3)
