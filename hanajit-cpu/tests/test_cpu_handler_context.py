"""An error raised implicitly inside an ``except`` or ``finally`` clause
(``a[j]``, ``x // 0``) has the exception being handled as ``__context__`` in
CPython: a call that has done nothing visible before re-runs in the
interpreter for it (``passes/rerun_safety.handler_context``); a ``try`` inside
the clause still catches it in compiled code."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from hanajit import jit


def describe(f, *args):
    try:
        return ("ok", repr(f(*args)))
    except Exception as e:          # noqa: BLE001 - compare every detail
        ctx = e.__context__
        return (type(e), str(e), e.args, None if ctx is None else (type(ctx), str(ctx)),
                e.__suppress_context__)


def index_again(a, i, j):
    try:
        return a[i]
    except IndexError:
        return a[j]


def caught_inside(a, i, j):
    try:
        return a[i]
    except IndexError:
        try:
            return a[j]
        except IndexError:
            return -1.0


def divide_in_finally(x, y):
    r = 0
    try:
        r = x // y
    finally:
        z = 10 // y if y != 1 else 10 // (y - 1)
    return r + z


def in_a_loop(a, i):
    s = 0.0
    for t in range(3):
        try:
            s += a[i + t]
        except IndexError:
            s += a[i - 10]
    return s


A = np.arange(4.0)
INDEX = st.integers(-8, 8)


@settings(max_examples=60, deadline=None)
@given(INDEX, INDEX)
def test_index_errors_in_a_handler(i, j):
    for f in (index_again, caught_inside):
        assert describe(jit(f, fallback=False), A, i, j) == describe(f, A, i, j)


@pytest.mark.parametrize("x, y", [(3, 0), (3, 1), (3, -1), (7, 2)])
def test_an_error_in_a_finally_clause(x, y):
    assert describe(jit(divide_in_finally, fallback=False), x, y) == \
        describe(divide_in_finally, x, y)


@pytest.mark.parametrize("i", [0, 1, 2, 9, 12])
def test_in_a_loop(i):
    a = np.arange(14.0)[:4 + i % 3]
    assert describe(jit(in_a_loop, fallback=False), a, i) == describe(in_a_loop, a, i)


def after_a_write(a, i, j, out):
    out[0] = 1.0
    try:
        return a[i]
    except IndexError:
        return a[j]


def test_after_a_write_the_error_has_no_context():
    """The documented difference (docs/limitations.md): a call that wrote into its
    argument cannot re-run, so the error reaches the caller without its context;
    its type, text and arguments are CPython's."""
    out = np.zeros(1)
    got = describe(jit(after_a_write, fallback=False), A, 5, 7, out)
    want = describe(after_a_write, A, 5, 7, np.zeros(1))
    assert got[:3] == want[:3] and got[3] is None and want[3] is not None
