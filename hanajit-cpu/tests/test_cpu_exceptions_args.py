"""Exceptions of compiled code compared with CPython's beyond type and text: the
arguments (``e.args``: none for ``raise ValueError`` and ``assert x``, errno and
text for a float ``**`` overflow), ``__cause__``/``__context__``, and the argument
arrays afterwards."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.testing.sourcefile import load_module


class MyError(ValueError):
    pass


def describe(f, *args):
    """What calling ``f`` gives: the result or the exception, its args, the types
    of its cause and context, and whether the context is suppressed."""
    try:
        return ("ok", repr(f(*args)))
    except Exception as e:          # noqa: BLE001 - compare every detail
        kind = lambda x: None if x is None else type(x)      # noqa: E731
        return (type(e), str(e), e.args, kind(e.__cause__), kind(e.__context__),
                e.__suppress_context__)


def bare_class(x):
    if x > 0:
        raise ValueError
    return x


def empty_call(x):
    if x > 0:
        raise MyError()
    return x


# (a module of its own: pytest rewrites the asserts of test files)
plain_assert = load_module("def plain_assert(x):\n    assert x < 0\n    return x\n",
                           "plain_assert").plain_assert


def stop(x):
    if x > 0:
        raise StopIteration
    return x


def float_pow(x, y):
    return x ** y


@pytest.mark.parametrize("f", [bare_class, empty_call, plain_assert, stop])
def test_a_raise_without_arguments_has_none(f):
    jf = jit(f, fallback=False)
    got = describe(jf, 3)
    assert got == describe(f, 3)
    assert got[2] == ()
    assert describe(jf, -1) == describe(f, -1)


@pytest.mark.parametrize("y", [2, 2.0, 3.5])
def test_float_pow_overflow_has_errno_and_text(y):
    jf = jit(float_pow, fallback=False)
    got = describe(jf, 1e308, y)
    assert got == describe(float_pow, 1e308, y)
    assert got[2] == (34, "Numerical result out of range")


def empty_text(x):
    if x > 0:
        raise ValueError("")
    return x


empty_assert_text = load_module('def empty_assert_text(x):\n    assert x < 0, ""\n'
                                "    return x\n", "empty_assert").empty_assert_text


@pytest.mark.parametrize("f", [empty_text, empty_assert_text])
def test_an_empty_message_falls_back(f):
    """CPython's exception has the argument '' (``e.args == ('',)``); a compiled
    raise of an empty text would have none."""
    with pytest.raises(UnsupportedError, match="empty message"):
        jit(f, fallback=False)(3)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert describe(jit(f), 3) == describe(f, 3)
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)


def check(x):
    if x > 2:
        raise ValueError(f"x too big: {x}")
    return x * 2


def raise_in_except(x):
    try:
        return check(x)
    except ValueError:
        raise RuntimeError("during")


def raise_in_finally(x):
    try:
        check(x)
    finally:
        raise KeyError("fin")


def caught_again(x):
    try:
        try:
            check(x)
        except ValueError:
            raise MyError("inner")
    except MyError:
        return -1
    return 0


def raise_in_except_writes(a, x):
    try:
        a[0] = 5.0
        check(x)
    except ValueError:
        raise KeyError(x)
    return a


@pytest.mark.parametrize("f", [raise_in_except, raise_in_finally, caught_again])
@pytest.mark.parametrize("x", [5, 1])
def test_a_raise_in_a_handler_has_the_handled_exception_as_context(f, x):
    """CPython sets ``__context__`` of an exception raised in an except or finally
    clause to the one being handled: the call re-runs in the interpreter."""
    assert describe(jit(f, fallback=False), x) == describe(f, x)


def test_a_raise_in_a_handler_of_a_function_writing_arrays_falls_back():
    with pytest.raises(UnsupportedError, match="raise in an except or finally clause"):
        jit(raise_in_except_writes, fallback=False)(np.zeros(2), 5)
    a, b = np.zeros(2), np.zeros(2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        got = describe(jit(raise_in_except_writes), a, 5)
    assert got == describe(raise_in_except_writes, b, 5)
    assert a.tolist() == b.tolist() == [5.0, 0.0]
