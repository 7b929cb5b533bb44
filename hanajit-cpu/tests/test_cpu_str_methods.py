"""The ``str`` methods of strs built at run time, compared with CPython on
hypothesis-generated strs, ASCII and beyond (full case mappings: 'ß' upper is
'SS', 'İ' lower two characters, the final sigma; Unicode whitespace, digits and
letters): ``upper``, ``lower``, ``strip``/``lstrip``/``rstrip`` (with and without
characters), ``startswith``/``endswith`` (a tuple too), ``find``, ``rfind``,
``index``, ``rindex``, ``count``, ``replace``, ``isdigit``, ``isalpha``,
``isspace``, ``isalnum``, ``zfill``, ``center``/``ljust``/``rjust`` and ``split``
(indexed, measured, looped over) -- values, types, exceptions and messages; the
methods of str arguments; what still falls back, with its reason."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "str_outcomes.py", "hanajit_str_outcomes")
compiled, codes, same = _h.compiled, _h.codes, _h.same


SPECIAL = list("ßΣσςİıﬁŉǅǈⅨⅸ²³٣٤\u3000\xa0\x85\u2028\u0345\u0301ʰ'.:-_ \t\nAaZz09") + [
    "\U0001D7D9", "\U00010400", "\U00010428", "\u1e9e", "\u0130", "\u03a3", "\ud800"]
TEXT = st.text(alphabet=st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=8)
SHORT = st.text(alphabet=st.sampled_from(list("aΣß -,")), max_size=2)


# ------------------------------------------------------------------ kernels
def cased(a):
    s = ""
    for c in a:
        s += chr(c)
    return (s.upper(), s.lower(), s.isalpha(), s.isdigit(), s.isalnum(), s.isspace(),
            s.strip(), s.lstrip(), s.rstrip(), s.upper().lower())


def searched(a, b, i, j):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    return (s.find(t), s.find(t, i), s.rfind(t, i, j), s.rfind(t), s.count(t),
            s.count(t, i, j), s.startswith(t), s.startswith(t, i), s.endswith(t, i, j),
            s.startswith((t, "a"), i), s.endswith(()), t in s)


def replaced(a, b, k):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    return (s.replace(t, "<>"), s.replace(t, "", k), s.replace("a", t, k),
            s.strip(t), s.lstrip(t), s.rstrip(t), s.strip(None))


def indexed(a, b, i):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    return s.index(t, i) + s.rindex(t) * 100


def padded(a, w):
    s = ""
    for c in a:
        s += chr(c)
    return s.zfill(w), s.center(w), s.center(w, "ß"), s.ljust(w, "*"), s.rjust(w)


def filled(a, b, w):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    return s.center(w, t)


def split_up(a, b, k):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    parts = s.split(t, k)
    words = s.split()
    total = 0
    for i, w in enumerate(words, 1):
        total += i * len(w)
    for w in s.split(None, k):
        total += 7 * len(w)
    lens = sum(len(p) for p in parts)
    first = parts[0] + "|" + parts[-1] + "|" + (words[0] if words else "-")
    joined = "/".join(p for p in parts)
    return (len(parts), len(words), total, lens, first, joined, len(s.split(t)),
            s.split(maxsplit=1)[-1] if words else "", not words)


# ------------------------------------------------------------------ tests
@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_case_and_classes(text):
    same(cased, codes(text))


@settings(max_examples=150, deadline=None)
@given(TEXT, SHORT, st.integers(-10, 10), st.integers(-10, 10))
def test_searches(text, sub, i, j):
    same(searched, codes(text), codes(sub), i, j)
    same(indexed, codes(text), codes(sub), i)


@settings(max_examples=150, deadline=None)
@given(TEXT, SHORT, st.integers(-2, 3))
def test_replace_and_strip_of_characters(text, sub, k):
    same(replaced, codes(text), codes(sub), k)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("+-0ab ß")), max_size=5), st.integers(-1, 9),
       SHORT)
def test_padding(text, width, fill):
    same(padded, codes(text), width)
    same(filled, codes(text), codes(fill), width)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("a,b  \t\u3000\xa0ß,,")), max_size=10),
       st.sampled_from(["", ",", ",,", " ", "ab", "\u3000"]), st.integers(-1, 3))
def test_split(text, sep, k):
    same(split_up, codes(text), codes(sep), k)


@pytest.mark.parametrize("text", ["ΑΣ", "ΑΣ Σ", "Σ", "aΣ'", "aΣ'b", "ʰΣ", "AΣ\u0345",
                                  "ΣΣΣ", "İstanbul", "ﬁne ŉ ǅ", "straße", "\U00010400x"])
def test_case_mappings(text):
    same(cased, codes(text))


def grown_views(a):
    s = ""
    for c in a:
        s += chr(c)
    out = s.strip()             # (a view of s: never written)
    out += "!"
    w = s.split(",")[0]
    w += "?"
    for p in s.split(","):
        p += "."
        w += p
    return s, out, w, s.strip(",")


def test_pieces_and_stripped_strs_are_never_written():
    for text in (" a,b ", ",", "", "abc"):
        same(grown_views, codes(text))


def numpy_split(a):
    parts = np.split(a, 2)          # (not a str's split: a tuple of views)
    total = 0.0
    for p in parts:
        total += p.sum()
    return parts[0].sum() + len(parts) + total


def test_a_split_of_something_else_is_not_a_strs():
    assert compiled(numpy_split)(np.arange(6.0)) == numpy_split(np.arange(6.0))


def padded_far(n):
    s = str(n)
    if n < 0:
        return "x".zfill(10 ** 12)  # (never run: not made while compiling)
    return s.zfill(3)


def test_a_huge_padding_of_constants_is_not_made_while_compiling():
    same(padded_far, 7)


# ------------------------------------------------------- on str arguments
def of_argument(s, n):
    t = str(n)
    return s.replace(t, "#"), s.find(t), s.startswith(t), s.split(t)[0], s.upper()


def test_methods_of_str_arguments():
    for s, n in (("a1b1c", 1), ("ß22", 2), ("", 3)):
        same(of_argument, s, n)


def constant_methods():
    return "a,b".split(",")[1] + "x".upper() + str("abc".find("c"))


def test_methods_of_constants_fold():
    same(constant_methods)


# ------------------------------------------------------- still falling back
def expanded(n):
    return str(n).expandtabs()


def split_returned(n):
    return str(n).split("1")


def split_stored(n):
    parts = str(n).split("1")
    return parts[1:]


def keyword_method(n):
    return str(n).find(sub="1")


@pytest.mark.parametrize("f, reason", [
    (expanded, r"str.expandtabs\(\) of a str built at run time is not compiled"),
    (split_returned, "indexed, measured, looped over or tested"),
    (split_stored, "indexed, measured, looped over or tested"),
    (keyword_method, "keyword arguments"),
])
def test_what_still_falls_back(f, reason):
    check_fallback(f, (121,), reason)
