"""The builtin ``sum``: of a comprehension or of any iterable a ``for`` loop takes
(an array, a tuple, ``range``, a read-only list), and CPython's own additions.

From 3.12, CPython's ``sum`` adds Python floats with Neumaier's compensated
summation (``sum([0.1] * 10) == 1.0``); NumPy scalars and ints take the plain
``+``.  Compiled code follows the interpreter that runs it: on 3.12+ these tests
compare with it directly (``.ci/python-versions`` runs this file there); on
every version the compensated loop is also checked, switched on, against
``_cpython_312_sum``, a transcription of ``Python/bltinmodule.c`` that agreed
with CPython 3.12.1 and 3.13.0 on 20,000 random lists of floats, ints, bools,
signed zeros, infinities and NaN.
"""
import math
import struct
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.errors import UnsupportedError
from hanajit.frontend import comprehensions


def _cpython_312_sum(items, start=0):
    """CPython 3.12's ``sum``: ints exactly until the first float, then Python
    floats with Neumaier's correction, ints and bools with the plain ``+``."""
    total, f, c = start, None, 0.0
    for v in items:
        if f is None:
            if type(total) is float:
                f = total
            else:
                total = total + v
                if type(total) is float:
                    f = total
                continue
        if type(v) is float:
            t = f + v
            c += (f - t) + v if abs(f) >= abs(v) else (v - t) + f
            f = t
        else:
            f += v
    if f is None:
        return total
    if c and math.isfinite(c):
        f += c
    return f


def python_floats(a):
    return sum(float(x) for x in a)


def python_floats_from(a, start):
    return sum((float(x) for x in a), start)


def scaled_range(n):
    return sum(0.1 * i for i in range(n))


def array_items(a):
    return sum(a)


def array_items_from(a, start):
    return sum(a, start)


def tuple_items(x, y, z):
    return sum((x, y, z))


def listed(x):
    w = [0.1, 1e100, x, -1e100]
    return sum(w)


def display_items(x, a):
    return sum([0.1, 1e100, x, -1e100]) + sum([a[0], a[1], a[2]]) + max([x, a[1]])


def range_items(n):
    return sum(range(n))


def filtered(a, t):
    return sum(float(x) for x in a if x > t)


def same(got, exp):
    if type(exp) is int and type(got) is float:
        # no items: CPython's int start (0); compiled, the start as the items'
        # type, the same value (docs/semantics.md)
        assert got == exp and not math.copysign(1.0, got) < 0
        return
    assert type(got) is type(exp) or (isinstance(exp, np.generic)
                                       and type(got) is type(exp.item())), (got, exp)
    if isinstance(got, float) and math.isnan(float(exp)):
        # which NaN survives where two meet is not specified (docs/semantics.md):
        # CPython's own ``+`` keeps the second operand's, 3.12's sum the first's
        assert math.isnan(got), (got, exp)
    elif isinstance(got, float):
        assert struct.pack("<d", got) == struct.pack("<d", float(exp)), (got, exp)
    else:
        assert got == exp


def compiled(fn, compensated, monkeypatch):
    """``fn`` compiled fresh with CPython 3.12's additions on or off."""
    monkeypatch.setattr(comprehensions, "COMPENSATED_SUM", compensated)
    return jit(fn, fallback=False)


A = np.array([0.1, 1e100, 0.1, -1e100, 0.2, 0.3])

CASES = [
    (python_floats, (A,)), (python_floats, (np.full(10, 0.1),)),
    (python_floats_from, (A, 0.5)), (python_floats_from, (A, 2)),
    # an int start: CPython adds the first float with the plain + (int path)
    (python_floats_from, (np.full(3, 3.6356812252473976e16), 3)),
    (python_floats_from, (np.full(3, 3.6356812252473976e16), 3.0)),
    (scaled_range, (10,)), (scaled_range, (0,)), (scaled_range, (1000,)),
    (array_items, (A,)), (array_items, (np.arange(5, dtype=np.int8),)),
    (array_items, (np.array([0.1, 0.2, 0.3], np.float32),)),
    (array_items_from, (A, 1.5)), (array_items_from, (np.arange(4.0), 10)),
    (tuple_items, (1e100, 0.1, -1e100)), (tuple_items, (0.1, 0.2, 0.3)),
    (listed, (0.1,)), (display_items, (0.1, A)), (range_items, (10,)), (range_items, (0,)),
    (filtered, (A, 0.15)), (filtered, (np.full(7, 0.1), 0.0)),
]


@pytest.mark.parametrize("fn,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_like_the_interpreter(fn, args, monkeypatch):
    got = compiled(fn, comprehensions.COMPENSATED_SUM, monkeypatch)(*args)
    same(got, fn(*args))


@pytest.mark.parametrize("fn,args", CASES, ids=lambda c: getattr(c, "__name__", ""))
def test_compensated_like_cpython_312(fn, args, monkeypatch):
    """Switched on (as on 3.12+), every case gives what CPython 3.12 gives: only
    Python-float items are compensated (NumPy scalars, ints and ``range`` are
    not), so the model is applied to the items the interpreter sees."""
    got = compiled(fn, True, monkeypatch)(*args)
    if fn in (python_floats, filtered):
        items = [float(x) for x in args[0] if fn is python_floats or x > args[1]]
        exp = _cpython_312_sum(items)
    elif fn is python_floats_from:
        exp = _cpython_312_sum([float(x) for x in args[0]], args[1])
    elif fn is scaled_range:
        exp = _cpython_312_sum([0.1 * i for i in range(args[0])])
    elif fn is tuple_items:
        exp = _cpython_312_sum(list(args))
    elif fn is listed:
        exp = _cpython_312_sum([0.1, 1e100, args[0], -1e100])
    else:
        exp = fn(*args)         # NumPy scalars, ints: the plain + on every version
    same(got, exp)


def test_the_running_compensation():
    """The reason for all this: CPython 3.12 sums ``0.1`` ten times to ``1.0``
    and keeps ``0.2`` between ``1e100`` and ``-1e100``."""
    assert _cpython_312_sum([0.1] * 10) == 1.0
    assert _cpython_312_sum([0.1, 1e100, 0.1, -1e100]) == 0.2
    if sys.version_info >= (3, 12):
        assert sum([0.1] * 10) == 1.0


floats = st.floats(allow_nan=True, allow_infinity=True, width=64)


_FUZZ = {}


def fuzzed(compensated: bool, start):
    """``python_floats_from`` compiled once per (additions, start type): with the
    switch set while it compiles (at its first call)."""
    key = (compensated, type(start))
    if key not in _FUZZ:
        saved = comprehensions.COMPENSATED_SUM
        comprehensions.COMPENSATED_SUM = compensated
        try:
            f = jit(python_floats_from, fallback=False)
            f(np.zeros(1), start)
        finally:
            comprehensions.COMPENSATED_SUM = saved
        _FUZZ[key] = f
    return _FUZZ[key]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(floats, st.floats(-1e3, 1e3), st.sampled_from(
    [0.0, -0.0, 1e100, -1e100, 1e308, -1e308, 0.1, 2.0 ** 53, 1.0])), max_size=20),
       st.sampled_from([0, 0.0, -0.0, 0.5, 3]))
@example([math.nan, struct.unpack("<d", struct.pack("<Q", 0x7FFC39AD95211D3E))[0]], 0)
def test_fuzz(xs, start):
    a = np.array(xs, dtype=np.float64)
    same(fuzzed(comprehensions.COMPENSATED_SUM, start)(a, start),
         python_floats_from(a, start))
    same(fuzzed(True, start)(a, start), _cpython_312_sum([float(x) for x in a], start))


def rows(a):
    return sum(a)


def test_a_sum_of_rows_falls_back_in_plain_words():
    """``sum`` of a 2-D array adds rows (arrays) to the int 0: the running total
    would change type, which compiled code cannot hold."""
    a = np.ones((2, 3))
    with pytest.raises(UnsupportedError, match=r"the running result of sum\(\) on this "
                       r"line holds both int64 and f64\[:, C\]") as info:
        jit(rows, fallback=False)(a)
    assert "$" not in str(info.value)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert np.array_equal(jit(rows)(a), rows(a))
    assert any(issubclass(w.category, HanaJitFallbackWarning) for w in caught)


def changed_list(x):
    w = [1.0, x]
    w.append(2.0)
    return sum(w)


def test_a_list_that_is_changed_falls_back_in_plain_words():
    # (a list of floats only compiles: test_cpu_growable_lists.py; an int among
    # them is a second kind of item)
    with pytest.raises(UnsupportedError, match="items are of different kinds") as info:
        jit(changed_list, fallback=False)(1)
    assert "'List'" not in str(info.value)


def sum_int8_items(a):
    out = []
    for v in a:
        out.append(np.int8(v))
    return sum(out), out


def sum_uint64_items(a):
    out = []
    for v in a:
        out.append(np.uint64(v))
    return sum(out), out


@pytest.mark.parametrize("f, s", [(sum_int8_items, "int8"), (sum_uint64_items, "uint64")])
def test_a_sum_whose_kind_changes_falls_back_naming_the_list(f, s):
    """sum(out) of NumPy items starts from the Python int 0: the reason names the
    call and says how to keep it compiled, in plain words."""
    a = np.array([1, 2, 3])
    with pytest.raises(UnsupportedError, match=r"sum\(\) on this line") as info:
        jit(f, fallback=False)(a)
    text = str(info.value)
    assert "$" not in text and "sum(out) starts from" in text and \
        f"sum(out, np.{s}(0))" in text
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        got, want = jit(f)(a), f(a)
    assert type(got[0]) is type(want[0]) and got[0] == want[0]


def summed_list(a):
    out = []
    for v in a:
        out.append(v)
    return sum(out)


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.int64])
def test_list_sums_under_the_compensated_rule_keep_the_items_type(monkeypatch, dtype):
    """CPython 3.12's sum (compensated for Python floats only) of a list of NumPy
    items: the loop's question is unanswered while the list's items are untyped,
    and neither branch may widen the total then (it came back as float64)."""
    from hanajit.frontend import comprehensions
    monkeypatch.setattr(comprehensions, "COMPENSATED_SUM", True)
    a = np.array([1, 2, 3], dtype)
    got, want = jit(summed_list, fallback=False)(a), summed_list(a)
    assert type(got) is type(want) and got == want
