"""Exception messages of compiled raises: string literals (braces included) and
f-strings formatting integers and floats, checked against CPython's text."""
from __future__ import annotations

import math
import struct
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.testing.cases_operators import floordiv, mod, truediv
from hanajit.testing.jitted import jitted


def outcome(f, *args):
    try:
        return ("ok", f(*args))
    except Exception as exc:
        return (type(exc).__name__, str(exc))


def messages(k, a):
    if k > 100:
        raise ValueError("use {} and {{x}} literally")
    if k > 50:
        raise IndexError(f"index {k} is out of bounds for size {len(a)}")
    if k < -100:
        raise ValueError(f"{k}{k * 2}{{k}}")
    if k == 0:
        raise AssertionError(f"k must not be {k} (a has {a.shape[0]} rows, first {a[0]})")
    if k == -1:
        raise KeyError(f"{k!r}")
    return k


@pytest.mark.parametrize("k", [101, 51, -101, 0, -1, 3])
@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.uint32])
def test_messages_are_cpythons(k, dtype):
    a = np.arange(5, 10).astype(dtype)
    f = jit(messages, fallback=False)
    assert outcome(f, k, a) == outcome(messages, k, a)


def unsigned_fields(k):
    u = np.uint64(k) * np.uint64(3)
    if k > 2**62:
        raise OverflowError(f"{u} and {np.uint32(k)} and {np.int8(-k)}, {{u}}")
    return k


@pytest.mark.parametrize("k", [3, 2**62 + 1, 2**63 - 1])
def test_uint64_fields_print_unsigned(k):
    assert outcome(jitted(unsigned_fields, fallback=False), k) == outcome(unsigned_fields, k)


def asserts(k):
    assert k != 0, f"k must not be {k}, {{}}"
    return k


def test_assert_message():
    # (pytest rewrites asserts in test modules: CPython's text is written out here)
    with pytest.raises(AssertionError) as info:
        jitted(asserts, fallback=False)(0)
    assert str(info.value) == "k must not be 0, {}"


def float_fields(x, a):
    y = x * 3.0
    if y > 1.0 or y != y:
        raise ValueError(f"y = {y}, {a[0]} from {x!s}, {{f}}")
    return y


@settings(max_examples=200, deadline=None)
@given(st.floats(width=64), st.floats(width=32), st.sampled_from([np.float32, np.float64]))
def test_float_fields_print_as_the_interpreter_does(x, p, dtype):
    """A float prints ``repr(float)`` -- an ``np.float32`` field too, as an
    f-string formats it; NaN, infinities, -0.0, subnormals, both notations."""
    a = np.array([p], dtype)
    assert outcome(jitted(float_fields, fallback=False), x, a) == outcome(float_fields, x, a)


@pytest.mark.parametrize("x", [0.5, 1e16 / 3, 3.4e15, 1e-5 + 1, 2.0**60, 1e300, math.inf,
                               -math.inf, math.nan, 5e-324 * 3e323,
                               struct.unpack("<d", struct.pack("<Q", 0x7FF4000000000001))[0]])
def test_float_fields_in_both_notations(x):
    a = np.array([0.1], np.float32)
    assert outcome(jitted(float_fields, fallback=False), x, a) == outcome(float_fields, x, a)


def float_repr_field(x):
    if x > 1.0:
        raise ValueError(f"x = {x!r}")
    return x


def float32_str_field(a):
    if a[0] > 1.0:
        raise ValueError(f"x = {a[0]!s}")
    return a[0]


def complex_field(z):
    if z.real > 1.0:
        raise ValueError(f"z = {z}")
    return z


def spec_field(k):
    if k > 1:
        raise ValueError(f"k = {k:5d}")
    return k


def four_fields(k):
    if k > 1:
        raise ValueError(f"{k} {k} {k} {k}")
    return k


def assert_tuple_field(a):
    assert a.shape[0] > 0, f"empty: {a.shape}"
    return a.sum()


def test_an_assert_message_problem_names_the_assert_line():
    with pytest.raises(UnsupportedError, match="f-string message") as got:
        jitted(assert_tuple_field, fallback=False)(np.ones(3))
    assert got.value.line == assert_tuple_field.__code__.co_firstlineno + 1


@pytest.mark.parametrize("f, arg, construct", [
    (float_repr_field, np.float64(2.0), r"float64 field with !r"),
    (float32_str_field, np.array([2.0], np.float32), r"float32 field with !s"),
    (complex_field, 2j + 3, "a field of type complex128"),
    (spec_field, 2, "format specifications"),
    (four_fields, 2, "more than three fields"),
])
def test_unsupported_messages_fall_back_naming_the_construct(f, arg, construct):
    with pytest.raises(UnsupportedError, match=construct):
        jitted(f, fallback=False)(arg)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert outcome(jit(f), arg) == outcome(f, arg)
    assert any(issubclass(x.category, HanaJitFallbackWarning) for x in w)


def div_mod(a, b):
    return divmod(a, b)


@pytest.mark.parametrize("f", [truediv, floordiv, mod, div_mod])
@pytest.mark.parametrize("a, b", [(5, 0), (5, 0.0), (5.0, 0), (5.0, 0.0), (-0.0, 0), (0, False)])
def test_division_by_zero_reads_as_this_pythons(f, a, b):
    """ZeroDivisionError's text is the running CPython's: "float division by
    zero" once a float takes part, "float divmod()", and the texts that changed
    ("integer modulo by zero" from 3.11, "float modulo by zero" from 3.13)."""
    assert outcome(jit(f, fallback=False), a, b) == outcome(f, a, b)


def value_raise(a, k, x):
    a[0] += 1                   # (written: the call cannot re-run in the interpreter)
    if k == 1:
        raise KeyError(x * 2.0)
    if k == 2:
        raise ValueError(k + 47)
    if k == 3:
        raise IndexError(-2**63 + k - 3)
    if k == 4:
        raise KeyError(49)
    if k == 5:
        raise KeyError(x)
    return k


def exception_triple(f, *args):
    try:
        f(*args)
    except Exception as exc:
        return type(exc), exc.args, [type(v) for v in exc.args], str(exc)
    return None


@pytest.mark.parametrize("k, x", [(1, 1.25), (1, -0.0), (1, math.inf), (2, 0.5), (3, 0.5),
                                  (4, 0.5), (5, 7.5), (6, 0.5)])
def test_a_number_argument_is_the_exceptions_argument(k, x):
    """raise KeyError(k) with a Python int or float carries the number itself
    (e.args == (49,), str(e) '49'), not its text."""
    a, b = np.zeros(1), np.zeros(1)
    assert exception_triple(jitted(value_raise, fallback=False), a, k, x) == \
        exception_triple(value_raise, b, k, x)


def key_of(k):
    raise KeyError(k)


def percent_d(k):
    raise ValueError("%d" % k)


@pytest.mark.parametrize("arg, construct", [(np.int64(3), "NumPy scalar"), (True, "bool"),
                                            (np.float32(2), "float32")])
def test_a_numpy_scalar_argument_falls_back(arg, construct):
    with pytest.raises(UnsupportedError, match=f"exception argument.*{construct}"):
        jitted(key_of, fallback=False)(arg)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert exception_triple(jit(key_of), arg) == exception_triple(key_of, arg)


def test_a_percent_d_text_is_not_taken_for_a_number():
    with pytest.raises(UnsupportedError, match="message must be"):
        jitted(percent_d, fallback=False)(3)
