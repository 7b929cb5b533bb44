"""CPython's Unicode character data, as tables of code points for compiled code.

A str built at run time (``frontend/str_locals.py``) is an array of code points;
its methods that depend on what a character is -- ``int(s)`` (decimal digits and
whitespace beyond ASCII), ``upper``/``lower`` (full case mappings: ``'ß'.upper()``
is ``'SS'``, a final capital sigma lowers to ``'ς'``), ``isalpha``/``isdigit``/
``isalnum``/``isspace``, ``strip()`` and ``split()`` -- look characters up in the
tables made here.  They are read from the running interpreter itself (its own
``str`` methods and ``re`` classes, which use CPython's character database), so
compiled code answers as the CPython running it does, whatever its Unicode
version.  Each table is made on first use (a few hundredths of a second; a
whole-range scan runs on one str of every code point through CPython's C
methods) and kept for the process; compiled code holds it as constant data
(``ir.nodes.TableLoad``).

Tables are tuples of ints, sorted, searched by bisection in compiled code
(``string_tables.py``): the properties of characters as intervals of the code
space each with one set of flags (:func:`character_flags`), the case mappings
as their keys and, for each, where its characters start in one flat tuple of
code points (:func:`case_maps`).
"""
from __future__ import annotations

import functools
import re

import numpy as np

LIMIT = 0x110000


@functools.cache
def _every_character() -> str:
    """One str holding every code point in order; the surrogates (which no
    property below holds for) as NUL, which none holds for either."""
    codes = np.arange(LIMIT, dtype="<u4")
    codes[0xD800:0xE000] = 0
    return codes.tobytes().decode("utf-32-le")


def _matches(pattern: str) -> list:
    """The code points the ``re`` class ``pattern`` matches (NUL and the
    surrogates left out)."""
    return [m.start() for m in re.finditer(pattern, _every_character())
            if m.start() and not 0xD800 <= m.start() < 0xE000]


def _ranges(codes) -> tuple:
    """``(starts, ends)`` of the runs of consecutive code points in ``codes``."""
    starts, ends = [], []
    for c in sorted(codes):
        if ends and c == ends[-1] + 1:
            ends[-1] = c
        else:
            starts.append(c)
            ends.append(c)
    return tuple(starts), tuple(ends)


@functools.cache
def decimals() -> tuple:
    """``(codes, values)``: every decimal digit beyond ASCII and its value
    (``int('٣')`` is 3; what ``str.isdecimal`` takes, ``re``'s ``\\d``)."""
    codes = [c for c in _matches(r"\d") if c >= 128]
    return tuple(codes), tuple(int(chr(c)) for c in codes)


@functools.cache
def spaces() -> tuple:
    """Every whitespace character beyond ASCII (``str.isspace``)."""
    return tuple(c for c in _matches(r"\s") if c >= 128)


@functools.cache
def word_characters() -> list:
    """``str.isalnum`` (``re``'s ``\\w`` less ``_``): every character the letter
    and digit classes below can hold."""
    return [c for c in _matches(r"\w") if c != 95]


@functools.cache
def character_class(name: str) -> tuple:
    """The ranges of the characters ``str.<name>()`` holds for: "isalnum",
    "isalpha", "isdigit" (each within ``isalnum``), "isspace"."""
    if name == "isspace":
        return _ranges([9, 10, 11, 12, 13, 28, 29, 30, 31, 32, *spaces()])
    if name == "isalnum":
        return _ranges(word_characters())
    test = getattr(str, name)
    return _ranges([c for c in word_characters() if test(chr(c))])


def _changed(method) -> dict:
    """``{c: method(chr(c))}`` for every code point the str method changes."""
    every = _every_character()
    out = {}
    step = 1024
    for lo in range(0, LIMIT, step):
        chunk = every[lo:lo + step]
        done = method(chunk)
        if done == chunk:
            continue
        if len(done) == len(chunk):         # (no character grew: in step)
            a = np.frombuffer(chunk.encode("utf-32-le"), "<u4")
            b = np.frombuffer(done.encode("utf-32-le"), "<u4")
            where = np.nonzero(a != b)[0]
        else:
            where = range(len(chunk))
        for k in where:
            one = method(chunk[k])
            if one != chunk[k]:
                out[lo + int(k)] = one
    return out


def _alone(method) -> dict:
    """``{c: method(chr(c))}`` for every code point the str method changes, each
    character alone (``str.title`` reads the one before): one call per chunk,
    the characters apart by U+0001, which no case method changes or counts as
    cased."""
    every = _every_character().replace("\x01", "\0")
    out = {}
    step = 1024
    for lo in range(0, LIMIT, step):
        chunk = every[lo:lo + step]
        for k, done in enumerate(method("\x01".join(chunk)).split("\x01")):
            if done != chunk[k]:
                out[lo + k] = done
    return out


@functools.cache
def case_map(name: str) -> tuple:
    """``(keys, starts, codes)``: CPython's full case mapping ``str.<name>``
    ("upper", "lower", "title", "casefold") of each character it changes, alone
    -- ``codes[starts[k]:starts[k + 1]]`` for ``keys[k]`` ('ß' upper is 'SS',
    'İ' lower two characters).  (The capital sigma's final form:
    :func:`sigma_context`.)"""
    changed = _alone(str.title) if name == "title" else _changed(getattr(str, name))
    keys = tuple(sorted(changed))
    starts, codes = [0], []
    for c in keys:
        codes.extend(ord(x) for x in changed[c])
        starts.append(len(codes))
    return keys, tuple(starts), tuple(codes)


def _final_sigma(before: str, chars) -> np.ndarray:
    """For each code point ``c`` of ``chars``: does ``before + c + "Σ"`` lower to
    a final 'ς'?  (One ``lower`` of all of them, each row ended by a separator no
    rule skips or counts as cased.)"""
    rows = np.empty((len(chars), 4), "<u4")
    rows[:, 0] = ord(before)
    rows[:, 1] = chars
    rows[:, 2] = 0x3A3
    rows[:, 3] = 1
    low = np.frombuffer(rows.tobytes().decode("utf-32-le").lower().encode(
        "utf-32-le"), "<u4")
    return low[np.nonzero(low == 1)[0] - 1] == 0x3C2    # (the sigma before each)


@functools.cache
def sigma_context() -> tuple:
    """``(ignorable, cased)``, as ranges: the case-ignorable characters, and the
    cased ones among the others -- what ``str.lower`` looks for around a capital
    sigma (U+03A3), which lowers to the final 'ς' after a cased character (case-
    ignorable ones skipped) when no cased one follows.  Read from ``lower``
    itself: ``"A" + c + "Σ"`` ends in 'ς' where ``c`` is ignorable or cased,
    ``"-" + c + "Σ"`` where it is cased and not ignorable."""
    every = np.arange(LIMIT, dtype="<u4")
    every[0xD800:0xE000] = 0
    every[1] = 0                                # (the separator)
    either = every[_final_sigma("A", every)]
    either = either[either != 0]
    cased = _final_sigma("-", either)
    return _ranges(int(c) for c in either[~cased]), _ranges(int(c) for c in either[cased])


# the flags of character_flags
ALPHA, DIGIT, ALNUM, SPACE, DECIMAL, IGNORABLE, CASED = 1, 2, 4, 8, 16, 32, 64


def _flagged(sets) -> tuple:
    """``(bounds, flags)`` of ``sets`` -- ``(flag, (starts, ends))`` each -- the
    code space cut where any of their ranges starts or ends."""
    points = {0}
    for _flag, (starts, ends) in sets:
        points.update(starts)
        points.update(e + 1 for e in ends)
    bounds = sorted(p for p in points if p < LIMIT)
    flags = [0] * len(bounds)
    for flag, (starts, ends) in sets:
        k = 0
        for a, b in zip(starts, ends):
            while bounds[k] < a:
                k += 1
            while k < len(bounds) and bounds[k] <= b:
                flags[k] |= flag
                k += 1
    return tuple(bounds), tuple(flags)


@functools.cache
def character_flags() -> tuple:
    """``(bounds, flags)``: the code space cut into intervals, ``bounds[k]`` the
    first code point of the k-th (``bounds[0]`` is 0), ``flags[k]`` what holds for
    every character of it: ``str.isalpha`` (:data:`ALPHA`), ``isdigit``,
    ``isalnum``, ``isspace``, ``isdecimal`` (each run of decimal digits an
    interval of its own, starting at its zero: a digit's value is its distance
    from the start), case-ignorable, and cased but not case-ignorable
    (:func:`sigma_context`)."""
    ignorable, cased = sigma_context()
    codes, values = decimals()
    zeros = [48] + [c for c, v in zip(codes, values) if v == 0]    # (ASCII's too)
    return _flagged([(ALPHA, character_class("isalpha")),
                     (DIGIT, character_class("isdigit")),
                     (ALNUM, character_class("isalnum")),
                     (SPACE, character_class("isspace")),
                     (IGNORABLE, ignorable), (CASED, cased),
                     (DECIMAL, (tuple(zeros), tuple(z + 9 for z in zeros)))])


# the flags of case_flags: CPython's _PyUnicode_IsUppercase, IsLowercase,
# IsTitlecase and IsCased
UPPER, LOWER, TITLE, ANY_CASE = 1, 2, 4, 8


def _holding(test) -> list:
    every = _every_character()
    return [c for c, held in enumerate(map(test, every)) if held and c]


@functools.cache
def case_flags() -> tuple:
    """``(bounds, flags)`` as :func:`character_flags`, of :data:`UPPER` (what
    ``c.isupper()`` reads of one character), :data:`LOWER` (``c.islower()``),
    :data:`TITLE` (titlecase: ``c.istitle()`` less the uppercase, unless
    ``("A" + c).isupper()`` shows it titlecase too) and :data:`ANY_CASE` (cased:
    ``(c + "a").title()`` keeps the 'a' small after it)."""
    upper = _holding(str.isupper)
    title = [c for c in _holding(str.istitle) if not chr(c).isupper() or not chr(
        c).islower() and not ("A" + chr(c)).isupper()]
    every = _every_character().replace("\x01", "\0")
    cased = []
    step = 4096
    for lo in range(0, LIMIT, step):
        rows = ("a\x01".join(every[lo:lo + step]) + "a").title().split("\x01")
        cased.extend(lo + k for k, row in enumerate(rows) if row[-1] == "a" and lo + k)
    return _flagged([(UPPER, _ranges(upper)), (LOWER, _ranges(_holding(str.islower))),
                     (TITLE, _ranges(title)), (ANY_CASE, _ranges(cased))])


@functools.cache
def case_maps(names=("upper", "lower")) -> tuple:
    """``(keys, starts, codes)``: :func:`case_map` of two ``names`` in one table,
    the key of ``c``'s first ``2 * c``, of its second ``2 * c + 1`` ("upper" and
    "lower"; "title" and "casefold")."""
    maps = {}
    for low, name in enumerate(names):
        keys, starts, codes = case_map(name)
        for k, c in enumerate(keys):
            maps[2 * c + low] = codes[starts[k]:starts[k + 1]]
    keys = tuple(sorted(maps))
    starts, codes = [0], []
    for key in keys:
        codes.extend(maps[key])
        starts.append(len(codes))
    return keys, tuple(starts), tuple(codes)
