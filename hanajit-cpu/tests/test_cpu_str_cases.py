"""``title``, ``capitalize``, ``swapcase``, ``casefold``, ``isupper``,
``islower`` and ``istitle`` of strs built at run time, compared with CPython on
hypothesis strs, ASCII and beyond (titlecase letters 'ǅ', 'ﬁ' titled 'Fi', 'ß'
folded 'ss', the final sigma, cased modifier letters 'ʰ', circled letters);
the tables they read checked against CPython for every code point."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "str_outcomes.py", "hanajit_str_outcomes")
compiled, codes, same = _h.compiled, _h.codes, _h.same


SPECIAL = list("ßΣσςİıﬁŉǅǈǄǆⅨⅸⒶⓐ²٣\u0345\u0301ʰ'.:-_ \t\nAaZz09") + [
    "\U00010400", "\U00010428", "\u1e9e", "\u1f88", "\u1f80", "\ud800"]
TEXT = st.text(alphabet=st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=8)


def cases(a):
    s = ""
    for c in a:
        s += chr(c)
    return (s.title(), s.capitalize(), s.swapcase(), s.casefold(), s.isupper(),
            s.islower(), s.istitle(), s.title().istitle(), s.swapcase().swapcase())


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_case_methods(text):
    same(cases, codes(text))


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=12))
def test_case_methods_of_ascii(text):
    same(cases, codes(text))


@pytest.mark.parametrize("text", ["", "a", "A", "ǅ", "ǅa", "aǅ", "ΑΣ", "ΑΣ Σ", "aΣ'b",
                                  "ʰΣ", "ﬁsh and ﬂ", "hello wORLD 3rd", "ß", "İ", "Ⓐⓑ",
                                  "ᾈᾀ", "Σ", "a\u0345Σ", "they're bill's"])
def test_case_methods_at_the_edges(text):
    same(cases, codes(text))


def test_tables_hold_for_every_character():
    from hanajit.lib.python import unicode_tables as U
    bounds, flags = U.case_flags()
    keys, starts, folded = U.case_maps(("title", "casefold"))
    maps = {keys[k]: "".join(map(chr, folded[starts[k]:starts[k + 1]]))
            for k in range(len(keys))}
    expanded = np.repeat(np.array(flags), np.diff(np.array(bounds + (0x110000,))))
    for c in range(0x110000):
        if 0xD800 <= c < 0xE000:
            continue
        ch, f = chr(c), int(expanded[c])
        assert bool(f & U.UPPER) == ch.isupper(), hex(c)
        assert bool(f & U.LOWER) == ch.islower(), hex(c)
        assert bool(f & (U.TITLE | U.UPPER)) == ch.istitle(), hex(c)
        assert bool(f & U.ANY_CASE) == ((ch + "a").title()[-1] == "a"), hex(c)
        assert maps.get(2 * c, ch) == ch.title(), hex(c)
        assert maps.get(2 * c + 1, ch) == ch.casefold(), hex(c)
