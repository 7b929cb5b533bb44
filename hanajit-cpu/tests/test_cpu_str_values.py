"""Strs built at run time (``frontend/str_locals.py``): code point arrays made
by ``+``, ``+=``, ``* k``, ``str``/``chr``, indexing, slicing, f-strings and
``join``, read by ``len``, ``ord``, ``int``, comparisons, ``in`` and loops, and
returned as a Python str -- compared with CPython: values, types, exceptions and
their messages (ASCII, beyond ASCII and beyond the BMP, empty strs, negative
indices); the uses that still fall back, with their reasons.  Each kernel is
jitted once (a str argument is a compile-time constant: the unicode cases build
their strs from code points given in an array)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback, strict_jit

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
_jitted = {}


def compiled(f):
    if f not in _jitted:
        _jitted[f] = strict_jit(f)
    return _jitted[f]


def same(f, *args):
    """``f(*args)`` compiled gives CPython's value (a str of the same
    characters) or its exception and message."""
    try:
        want = f(*args)
    except Exception as e:      # noqa: BLE001 - the compiled one must match
        with pytest.raises(type(e)) as info:
            compiled(f)(*args)
        assert str(info.value) == str(e)
        return
    got = compiled(f)(*args)
    pairs = zip(got, want) if type(want) is tuple else [(got, want)]
    assert type(got) is type(want) and got == want, (got, want)
    assert all(type(g) is type(w) for g, w in pairs)


# ------------------------------------------------------------------ kernels
def to_base(n, b):
    if n == 0:
        return "0"
    s = ""
    while n > 0:
        s = DIGITS[n % b] + s
        n //= b
    return s


def roman(n):
    vals = [1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1]
    syms = ["M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"]
    out = ""
    for i in range(len(vals)):
        while n >= vals[i]:
            out += syms[i]
            n -= vals[i]
    return out


def digit_sum_str(n):
    return sum(int(c) for c in str(n))


def caesar_count(s, k):
    out = ""
    for c in s:
        if "a" <= c <= "z":
            out += chr((ord(c) - 97 + k) % 26 + 97)
        else:
            out += c
    return out


def str_join_numbers(a):
    return ",".join(str(x) for x in a)


def string_format_result(n, x):
    return f"n={n} total={x:05d}"


def of_codes(a):
    """The str of the code points in ``a``."""
    s = ""
    for c in a:
        s += chr(c)
    return s


def measured(a, i):
    s = ""
    for c in a:
        s += chr(c)
    return f"{len(s)}|{ord(s[i])}|{s[i]}|{s[-1] if s else ''}|{s[1:-1]}|{s[::-2]}"


def sliced(a, i, j, k):
    s = ""
    for c in a:
        s += chr(c)
    return s[i:j:k]


def ord_of(a):
    s = ""
    for c in a:
        s += chr(c)
    return ord(s)


def chr_of(i):
    return chr(i)


def int_round_trip(n):
    s = str(n)
    return f"{int(s)}:{len(s)}:{s}"


def int_of_text(a):
    s = ""
    for c in a:
        s += chr(c)
    return int(s)


def bools(b, n):
    return str(b) + "/" + str(n > 0) + f"{b}|{b:>5}|{n}"


def formats(n, w):
    return (f"[{n:05d}][{n:+}][{n: }][{n:<6}][{n:^7}][{n:*>8}][{n:=+9}][{n:x}]"
            f"[{n:#x}][{n:#010X}][{n:o}][{n:#b}][{n!s:>6}][{w:>8}][{w:<4}|][{w:^9}]")


def compared(a, b):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    return (s == t, s != t, s < t, s <= t, s > t, s >= t, s in t, t in s,
            s == "ab", "" in s, s not in t)


def repeated(k):
    s = "ab" * k
    s += "-"
    s *= 2
    return s + k * "x"


def vowels(s):
    n = 0
    for c in s:
        if c in "aeiouAEIOU":
            n += 1
    return n


def joined(a):
    parts = ["x", "y"]
    s = "".join(f"{v}" for v in a if v > 1)
    t = "".join([chr(v + 64) for v in a])
    return "-".join(("x", str(a[0]), "y")) + "|" + s + "|" + ",".join(parts) + t


def enumerated(s):
    out = ""
    for i, c in enumerate(s):
        if i % 2 == 0:
            out += c
    return out


def truth(k):
    s = "x" * k
    if s:
        return "some"
    return "none" if not s else "?"


def chosen(n):
    s = "even" if n % 2 == 0 else str(n)
    return s + ("!" if n > 3 else "")


def counted(a):
    return sum(1 for c in str(a[0]) if c == "1")


# ------------------------------------------------------------------ the probe
@pytest.mark.parametrize("f, args", [
    (to_base, (255, 16)), (to_base, (0, 2)), (to_base, (10 ** 18, 36)),
    (roman, (1994,)), (roman, (0,)), (roman, (3888,)),
    (digit_sum_str, (12345,)), (digit_sum_str, (-907,)),
    (caesar_count, ("hello, world", 3)), (caesar_count, ("", 3)),
    (str_join_numbers, (np.arange(5),)), (str_join_numbers, (np.arange(0),)),
    (str_join_numbers, (np.array([-3, 7], np.int32),)),
    (string_format_result, (3, 42)), (string_format_result, (-3, -42)),
])
def test_the_probe_kernels(f, args):
    same(f, *args)


CODES = [[], [97], [104, 105], [233, 0x4E2D, 0x1F600, 120], [0x10FFFF, 0], [0xD800, 65]]


@pytest.mark.parametrize("a", CODES)
def test_unicode_built_from_code_points(a):
    a = np.array(a, np.int64)
    same(of_codes, a)
    for i in (0, -1, 2, -9, 9):
        same(measured, a, i)
    same(ord_of, a)
    for i, j, k in ((0, 2, 1), (-3, None, 1), (None, None, -1), (1, -1, 2), (5, 1, -2),
                    (0, 2, 0)):
        same(sliced, a, i, j, k)


@pytest.mark.parametrize("i", [0, 65, 0x4E2D, 0x1F600, 0x10FFFF, 0x110000, -1, True])
def test_chr(i):
    same(chr_of, i)


@settings(max_examples=60, deadline=None)
@given(st.integers(-2 ** 63, 2 ** 63 - 1))
def test_str_and_int_round_trip(n):
    same(int_round_trip, n)


@pytest.mark.parametrize("text", ["12", " -7 ", "+0", "1_000", "007", "", "  ", "1__0",
                                  "_1", "1_", "x1", "12a", "\u0661\u0662",
                                  "123456789012345678", "1234567890123456789012",
                                  "9223372036854775807", "-9223372036854775808",
                                  "9223372036854775808", "-9223372036854775809",
                                  "000000000000000000000012"])
def test_int_of_a_str(text):
    same(int_of_text, np.array([ord(c) for c in text], np.int64))


def test_bools_and_ints():
    for b, n in ((True, 5), (False, -5), (np.True_, 0)):
        same(bools, b, n)


@pytest.mark.parametrize("n", [0, 7, -7, 255, -255, 2 ** 62])
def test_format_specs(n):
    same(formats, n, "ab")
    same(formats, np.int32(n % 1000), "")


def test_comparisons_and_in():
    for a, b in (([], []), ([97, 98], [97, 98]), ([97], [97, 98]), ([98], [97, 98]),
                 ([0x1F600], [0xFFFF]), ([97, 98, 99], [98])):
        same(compared, np.array(a, np.int64), np.array(b, np.int64))


def test_repetition_truth_choice():
    for k in (0, 1, 3, -2):
        same(repeated, k)
        same(truth, k)
    for n in (2, 3, 5):
        same(chosen, n)
    same(vowels, "Hello, World")
    same(enumerated, "abcdefg")


def test_join_and_counts():
    same(joined, np.array([1, 2, 3]))
    same(counted, np.array([1101]))


# ------------------------------------------------------------- still falling back
def method(n):
    return str(n).expandtabs()  # (upper, find, split ...: test_cpu_str_methods)


def passed(n):
    return len(list(str(n)))


def repr_field(n):
    s = str(n)
    return f"{s!r}"


def listed(n):
    parts = ["x", str(n)]
    return parts[1:]            # (indexed, measured, looped over, joined: compiled)


def joined_inside(a):
    return "<" + ",".join(str(v) for v in a)


def two_kinds(a):
    out = ""
    for c in a:
        out += chr(c)
    for c in "xy":
        out += c
    return out


def some_none(n):
    if n > 0:
        return str(n)


@pytest.mark.parametrize("f, args, reason", [
    (method, (3,), r"str.expandtabs\(\) of a str built at run time"),
    (passed, (3,), "passed to list"),
    (repr_field, (3,), "repr is not compiled"),
    (some_none, (3,), "None"),
    (two_kinds, (np.arange(3),), "'out' is assigned a str built at run time here"),
    (joined_inside, (np.arange(3),), "inside a larger expression"),
    (listed, (3,), "str built at run time"),
])
def test_what_still_falls_back(f, args, reason):
    check_fallback(f, args, reason)


# ------------------------------------------------------------------ += grows in place
def grown(a):
    out = ""
    for c in a:
        out += chr(c)
        if len(out) % 3 == 0 and out:
            out += "|"
    t = out
    out += out
    for ch in "xy":
        out += ch
    return t + "#" + out


def long_text(n):
    out = ""
    for i in range(n):
        out += chr(97 + i % 26)
    return out


def test_plus_equals_grows_in_place():
    same(grown, np.array([97, 0x1F600, 98, 99, 100], np.int64))
    same(grown, np.array([], np.int64))
    same(long_text, 200_000)        # (a copy per += would take minutes)


def number_texts(n):
    s = str(n)
    return (f"{format(n, '08b')}|{bin(n)}|{hex(n)}|{oct(n)}|{format(n)}|{len(str(n))}|"
            f"{s == s[::-1]}|{str(n)[::-1]}|{format(s, '>6')}")


@pytest.mark.parametrize("n", [0, 5, -5, 121, 255, True])
def test_format_bin_hex_oct(n):
    same(number_texts, n)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 0x10FFFF), max_size=6), st.lists(st.integers(0, 0x10FFFF),
                                                                max_size=3),
       st.integers(-8, 8))
def test_unicode_any_code_points(a, b, i):
    a, b = np.array(a, np.int64), np.array(b, np.int64)
    same(measured, a, i)
    same(compared, a, b)
    same(sliced, a, i, -i, (i % 3) - 1)


def unbound_grown(n):
    if n > 0:
        out = ""
    out += "x"
    return out


def unbound_plain(n):
    if n > 0:
        s = str(n)
    return s


def picked_name(i):
    names = ["x", "yy"]
    return len(names[i])


def test_unbound_locals_and_names_of_constants():
    for n in (1, -1):
        same(unbound_grown, n)
        same(unbound_plain, n)
    for i in (0, 1, -1, 2):
        same(picked_name, i)


def with_length(n, a):
    s = str(n)
    if n < 0:
        return s, len(s), a[0], "neg"
    return s + "!", len(s), a[0], s[:1]


def test_tuples_holding_strs():
    for n in (5, -12):
        same(with_length, n, np.array([1.5], np.float32))


# ------------------------------------------------------------ passed to callees
def count_a(s):
    n = 0
    for c in s:
        if c == "a":
            n += 1
    return n + len(s)


def to_callees(k):
    s = "ab" * k
    return count_a(s) + count_a("aaa") + count_a(str(k)) + count_a(s=chr(97 + k))


def assigns_param(s):
    s = s + "!"
    return len(s)


def to_assigning_callee(k):
    return assigns_param(str(k))


def test_passed_to_callees():
    for k in (0, 3):
        same(to_callees, k)
    check_fallback(to_assigning_callee, (5,), "is assigned in the function")
