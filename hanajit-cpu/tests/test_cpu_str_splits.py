"""``rsplit`` (with and without a separator and a count), ``splitlines`` (with
and without the ends), ``partition``/``rpartition`` (indexed, unpacked into
three strs), ``sep.join(parts)`` of a split and lists of run-time strs
(``parts = [s, str(n)]``: indexed, measured, looped over, joined) of strs built
at run time, compared with CPython on hypothesis strs -- values, types,
exceptions and messages (an empty separator) -- and what still falls back."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.compare import check_fallback
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "str_outcomes.py", "hanajit_str_outcomes")
compiled, codes, same = _h.compiled, _h.codes, _h.same


TEXT = st.text(alphabet=st.sampled_from(list("ab=,  \t\u3000\xa0ß\n\r\x0b\x1c\x85\u2028é")),
               max_size=10)
SEP = st.text(alphabet=st.sampled_from(list("a=,ß \n")), max_size=2)


def rsplit_up(a, b, k):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    parts = s.rsplit(t, k)
    words = s.rsplit(None, k)
    total = 0
    for i, w in enumerate(s.rsplit(), 1):
        total += i * len(w)
    return (len(parts), "/".join(parts), parts[0] + "|" + parts[-1], len(words),
            "/".join(words), total, len(s.rsplit(t)), s.rsplit(t, k)[-1],
            s.rsplit(maxsplit=k)[0] if words else "", "-".join(s.rsplit()),
            "+".join(s.split(t, k)), ",".join(s.split()))


def lines_of(a):
    s = ""
    for c in a:
        s += chr(c)
    lines = s.splitlines()
    kept = s.splitlines(True)
    n = 0
    for line in s.splitlines(keepends=True):
        n += len(line)
    return (len(lines), "|".join(lines), "|".join(kept), n, s.splitlines()[-1] if lines
            else "", len(s.splitlines(True)))


def parted(a, b):
    s = ""
    for c in a:
        s += chr(c)
    t = ""
    for c in b:
        t += chr(c)
    head, eq, tail = s.partition(t)
    x, y, z = s.rpartition(t)
    return (head, eq, tail, x, y, z, s.partition(t)[2], s.rpartition(t)[-3],
            len(s.partition(t)), "<".join(s.partition(t)))


def listed(a, n):
    s = ""
    for c in a:
        s += chr(c)
    parts = [s, str(n), "=", s.upper()]
    pair = (s,)
    total = 0
    for i, p in enumerate(parts):
        total += i * len(p)
    q = parts[1]
    return ("/".join(parts), len(parts), parts[n % 4], parts[-1], total, "".join(pair),
            ",".join(q.split("1")) if parts else "")


@settings(max_examples=100, deadline=None)
@given(TEXT, st.integers(-20, 20))
def test_lists_of_strs(text, n):
    same(listed, codes(text), n)


@settings(max_examples=200, deadline=None)
@given(TEXT, SEP, st.integers(-2, 3))
def test_rsplit(text, sep, k):
    same(rsplit_up, codes(text), codes(sep), k)


@settings(max_examples=150, deadline=None)
@given(TEXT)
def test_splitlines(text):
    same(lines_of, codes(text))


@pytest.mark.parametrize("text", ["a\r\nb", "\r\r\n\n", "x\x1c\x1d\x1e\x85\u2028\u2029y",
                                  "a\x0b\x0cb\r", "", "\n"])
def test_splitlines_of_every_break(text):
    same(lines_of, codes(text))


@settings(max_examples=150, deadline=None)
@given(TEXT, SEP)
def test_partitions(text, sep):
    same(parted, codes(text), codes(sep))


def test_every_line_break_is_cpythons():
    from hanajit.lib.python.string_methods import line_break
    assert [c for c in range(0x110000) if line_break(c)] == \
        [c for c in range(0x110000) if len(("a" + chr(c) + "b").splitlines()) == 2]


# ------------------------------------------------------------- still falling back
def partition_kept(n):
    p = str(n).partition("1")
    return p


def unpacked_split(n):
    a, b = str(n).split("1", 1)
    return a + b


def list_returned(n):
    parts = ["x", str(n)]
    return parts


def list_grown(n):
    parts = ["x", str(n)]
    parts.append("y")
    return len(parts)


def joined_call(a):
    return ",".join(str(a[0] * 2).split("0"))


@pytest.mark.parametrize("f, args, reason", [
    (partition_kept, (121,), "looped over or tested for truth, or joined"),
    (unpacked_split, (121,), "str.split"),
    (joined_call, (np.arange(3),), "a split of an expression other than a name"),
    (list_returned, (12,), "str built at run time"),
    (list_grown, (12,), "str built at run time"),
])
def test_what_still_falls_back(f, args, reason):
    check_fallback(f, args, reason)
