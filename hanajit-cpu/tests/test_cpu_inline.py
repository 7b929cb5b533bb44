"""Inlining of small @jit helpers (passes/inline.py): the fusion engine sees
through them, callees are the objects called (never names), arguments are
evaluated once and in order, recursion is still a call."""
import numpy as np
import pytest

from hanajit import jit
from hanajit.typing_rules import typeof
from hanajit.ir import nodes as N
from hanajit.pipeline import compile_ir


@jit
def sq(x):
    return x * x


@jit
def fused(a):
    return np.sum(sq(a) + 1.0)


@jit
def nested(a, b):
    return sq(a + b) - sq(sq(a))


def _module(jf, *args):
    module, _ = compile_ir(jf.py_func, tuple(typeof(a) for a in args),
                           dict(jf.options))
    return module


def _allocates(fn):
    return any(isinstance(s, N.Assign) and isinstance(s.value, N.AllocArray)
               for s in N.walk_stmts(fn.body))


def test_fusion_sees_through_helpers():
    a = np.linspace(-3, 3, 101)
    assert fused(a) == jit(fused.py_func, inline="never")(a)    # same loop, same order
    assert fused(a) == np.sum(a * a + 1.0)       # NumPy's pairwise order, fused
    module = _module(fused, a)
    # sq inlined and dropped (what remains besides the entry is the library's
    # pairwise-sum bookkeeping)
    assert not [name for name in module.functions if "sq" in name]
    assert not _allocates(module.functions[module.entry])   # one loop, no temporary
    b = np.arange(101.0)
    np.testing.assert_array_equal(nested(a, b), (a + b) ** 2 - (a * a) * (a * a))


def test_scalars_and_never_option():
    assert sq(7) == 49 and sq(-1.5) == 2.25
    f = jit(fused.py_func, inline="never")
    a = np.arange(10.0)
    assert f(a) == fused(a)
    assert len([name for name in _module(f, a).functions if "sq" in name]) == 1


def _make(k):
    @jit
    def sq(x):                      # same name, different object and body
        return x * k
    return sq


sq_a, sq_b = _make(2), _make(3)


@jit
def use_a(x):
    return sq_a(x)


@jit
def use_b(x):
    return sq_b(x)


def test_callee_resolved_by_object_not_name():
    assert (use_a(5), use_b(5)) == (10, 15)


@jit
def bump(a):
    a[0] += 1
    return a[0]


@jit
def twice(x):
    return x + x


@jit
def ignore(x):
    return 7


@jit
def order(a):
    return twice(bump(a)) * 100 + ignore(bump(a))


def test_arguments_evaluated_once_in_order():
    a = np.zeros(1, dtype=np.int64)
    assert order(a) == 207
    assert a[0] == 2
    b = np.zeros(1, dtype=np.int64)
    assert order.py_func(b) == 207 and b[0] == 2


@jit
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


@jit
def div(a, b):
    return a // b


@jit
def caller(a, b):
    return div(a, b) + 1


def test_recursion_and_errors_through_inlined_helpers():
    assert fact(15) == 1307674368000
    assert caller(7, -2) == -3
    with pytest.raises(ZeroDivisionError):
        caller(1, 0)
