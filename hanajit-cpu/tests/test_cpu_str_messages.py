"""Strs built at run time where CPython words an error or prints: ``int(s)`` of
any str (CPython's ``ValueError`` with the str's ``repr`` in its message, non-ASCII
digits and whitespace, underscores), a run-time str in a raise's or an assert's
message (``raise ValueError(f"bad {s!r}")``, ``raise KeyError(s)``) and in
``print`` -- each compared with CPython, in functions that write into an array
first (a call that cannot re-run in the interpreter), through compiled
``try``/``except``/``finally`` too, with no reference left behind."""
from __future__ import annotations

import gc
import resource

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback
from hanajit.testing.sourcefile import load_module, load_sibling

_h = load_sibling(__file__, "str_outcomes.py", "hanajit_str_outcomes")
compiled, codes = _h.compiled, _h.codes


def same(f, *args):
    """``f(*args)`` compiled gives CPython's value, its exception (class and
    text, arguments too) and leaves the arrays as CPython does."""
    def run(g):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        try:
            r = g(*copies)
            out = ("value", type(r), r)
        except Exception as e:      # noqa: BLE001 - compared by class and arguments
            out = ("raised", type(e), e.args)
        return out, [a for a in copies if isinstance(a, np.ndarray)]
    (want, arrays), (got, got_arrays) = run(f), run(compiled(f))
    assert got == want
    for g, w in zip(got_arrays, arrays):
        np.testing.assert_array_equal(g, w)


# ------------------------------------------------------------------ int(s)
def parsed(a, out):
    out[0] += 1                 # (written first: the call cannot re-run)
    s = ""
    for c in a:
        s += chr(c)
    return int(s)


TEXTS = ["12", " -7 ", "+0", "1_000", "007", "", "  ", "1__0", "_1", "1_", "x1", "12a",
         "\u0661\u0662", "\u0663", "+\u0661", "1_\u0662", "\U0001D7D9\uff19", "\xa01\u3000",
         "\x851\x85", "\x1c1", "1\x1f", "1\x7f", "1\x00", "- 1", "+-1", "1 2", "\u0661a",
         "\u2028-5\u2029", "é", "'x\"", "a'b", "\ud800", "9223372036854775807",
         "-9223372036854775808", "000000000000000000000012", "1" * 300 + "x",
         "\u00e9" * 250 + "1"]


@pytest.mark.parametrize("text", TEXTS)
def test_int_of_a_str(text):
    same(parsed, codes(text), np.zeros(1))


ALPHABET = st.sampled_from(list("0123456789_+- \t\n\x0b\x0c\r\x1c\x85\xa0\u3000aZé'\"\x00")
                           + ["\u0660", "\u0669", "\u06f5", "\u0966", "\uff10", "\uff19",
                              "\U0001D7CE", "\U0001D7FF", "\u00b2", "\u2168"])


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=12).map("".join))
def test_int_of_generated_strs(text):
    try:
        if abs(int(text)) >= 2 ** 63 - 1:
            return                      # (beyond int64: below)
    except ValueError:
        pass
    same(parsed, codes(text), np.zeros(1))


def pure_parsed(a):
    s = ""
    for c in a:
        s += chr(c)
    return int(s)


@pytest.mark.parametrize("text", ["9223372036854775808", "-9223372036854775809",
                                  "1" * 30, "0" * 700 + "5", "0" * 5000 + "1"])
def test_beyond_int64(text):
    """A Python int compiled code cannot hold (or more digits than CPython's
    ``int_max_str_digits`` may allow) re-runs a pure call in the interpreter; a
    call that wrote into an array raises UnsupportedError, as Python int
    arithmetic beyond int64 does (docs/semantics.md)."""
    from hanajit.errors import UnsupportedError
    same(pure_parsed, codes(text))
    with pytest.raises(UnsupportedError, match="cannot be re-run"):
        compiled(parsed)(codes(text), np.zeros(1))


# ------------------------------------------------------- try, finally, re-raise
def handled(a, out):
    total = 0
    for k in range(len(a)):
        out[0] += 1
        s = str(a[k]) + ("x" if a[k] % 2 else "")
        try:
            total += int(s)
        except ValueError:
            total -= 100
    return total


def finally_(a, out):
    s = ""
    for c in a:
        s += chr(c)
    v = 0
    try:
        v = int(s)
    finally:
        out[0] = 5
    return v


def nested(a, b, out):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    out[0] = 1
    v = 0
    try:
        v = int(s)
    finally:
        try:
            out[0] = int(t)     # (another error caught here: the first one kept)
        except ValueError:
            out[0] = -1
    return v


def reraised(a, out):
    s = ""
    for c in a:
        s += chr(c)
    out[0] = 2
    try:
        return int(s)
    except ValueError:
        out[0] = 3
        raise


@pytest.mark.parametrize("text", ["12", "1a", "'x\"", "é" * 300])
def test_int_errors_through_try(text):
    same(handled, np.arange(9), np.zeros(1))
    same(finally_, codes(text), np.zeros(1))
    same(reraised, codes(text), np.zeros(1))
    for other in ("zz", "7"):
        same(nested, codes(text), codes(other), np.zeros(1))


def many_caught(n, out):
    total = 0
    for k in range(n):
        out[0] += 1
        s = "x" * 100 + str(k)
        try:
            total += int(s)
        except ValueError:
            total -= 1
    return total


def raising(k, out):
    out[0] = 1
    return int("y" * 100 + str(k))


def test_no_str_left_behind():
    """The str an error carries is released where compiled code handles the error,
    and where Python takes it: 10**5 left behind would be tens of megabytes."""
    f, g = compiled(many_caught), compiled(raising)
    out = np.zeros(1)
    f(10, out)
    with pytest.raises(ValueError):
        g(0, out)
    gc.collect()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert f(100_000, out) == -100_000
    for k in range(100_000):
        try:
            g(k, out)
        except ValueError as e:
            assert str(e).endswith(f"{k}'")
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0 < 20_000


# ------------------------------------------------------------------ messages
def messages(a, out):
    out[0] = 1
    s = ""
    for c in a:
        s += chr(c)
    if len(s) > 4:
        raise ValueError(f"too long: {s!r} ({len(s)}) {s!r:.5}")
    if s == "k":
        raise KeyError(s)
    if s == "":
        raise ValueError(s)
    return s


# (an assert outside this file: pytest rewrites the asserts of test modules)
ASSERTED = load_module('''
def asserted(a, out):
    out[0] = 1
    s = ""
    for c in a:
        s += chr(c)
    assert s != "ab", f"no {s}"
    return s
''', "str_assert").asserted


@pytest.mark.parametrize("text", ["hé\U0001F600", "", "k", "ab", "abc", "a'b\"c\n",
                                  "\ud800xyz\x00"])
def test_run_time_strs_in_messages(text):
    same(messages, codes(text), np.zeros(1))
    same(ASSERTED, codes(text), np.zeros(1))


def spec_message(n):
    s = str(n)
    raise ValueError(f"{s:>5}")


def test_what_messages_still_refuse():
    check_fallback(spec_message, (3,), "f-string conversions and format specifications")


# ------------------------------------------------------------------ print
def printed(a, out):
    out[0] = 1
    s = ""
    for c in a:
        s += chr(c)
    print(s)
    print("x", s, len(s), sep="|")
    print(f"<{s}> {s!r} {s:>8} {s!a} {s[:2]:_^7}", end="$\n")
    return len(s)


@pytest.mark.parametrize("text", ["hé\U0001F600", "", "a'b\"c\n", "\ud800"])
def test_print_of_run_time_strs(text, capsys):
    """The text CPython prints; a lone surrogate, which sys.stdout cannot encode,
    raises CPython's UnicodeEncodeError (the exception print raised, itself)."""
    outs = []
    for f in (printed, compiled(printed)):
        try:
            result = f(codes(text), np.zeros(1))
        except UnicodeEncodeError as e:
            result = (type(e), e.args)
        outs.append((result, capsys.readouterr().out))
    assert outs[0] == outs[1]


def printed_sep(n):
    s = str(n)
    print(n, sep=s)


def test_print_sep_must_be_a_constant():
    check_fallback(printed_sep, (3,), "as print's sep=")


def test_str_field_slots():
    from hanajit.errors import kernel_message, str_field_slots
    t = "a {} b {r.3} c {s} {{x}}"
    assert str_field_slots(t) == [1, 2]
    assert kernel_message(t, [7, "xyz", "é"]) == "a 7 b 'xy c é {x}"
