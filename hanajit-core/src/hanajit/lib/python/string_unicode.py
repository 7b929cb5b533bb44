"""The ``str`` methods of a str built at run time that depend on what its
characters are -- ``upper``, ``lower``, ``isalpha``/``isdigit``/``isalnum``/
``isspace`` and ``split()`` of whitespace -- in Python source
compiled by hanajit, looking characters up in CPython's own Unicode tables
(``string_tables.py``; ASCII without a look-up).  ``frontend/str_methods.py``
calls them through ``string_method_calls.py``, which imports this module (and
makes the tables) only when one is compiled.  (``strip()`` needs no table: the
whitespace characters are few, ``registry.str_whitespace``.)"""
import numpy as np

from .string_methods import first_bounds, piece
from .string_tables import ALNUM, ALPHA, CASED, CODES, DIGIT, IGNORABLE, SPACE, flags, \
    mapping

SIGMA, FINAL_SIGMA, SMALL_SIGMA = 0x3A3, 0x3C2, 0x3C3


def case_of(c, lower):
    """``(start, end)`` of the mapping of ``c`` in ``CODES``, or ``(-1, c)``: ``c``
    maps to the one character ``c`` (ASCII answered here)."""
    if c < 128:
        if lower and 65 <= c <= 90:
            return -1, c + 32
        if not lower and 97 <= c <= 122:
            return -1, c - 32
        return -1, c
    lo, hi = mapping(c, lower)
    if lo < 0:
        return -1, c
    return lo, hi


def final_sigma(a, i):
    """Is the capital sigma at ``i`` final (CPython's ``handle_capital_sigma``):
    after a cased character, case-ignorable ones skipped, with no cased one
    after it?"""
    j = i - 1
    while j >= 0 and flags(a[j]) & IGNORABLE:
        j -= 1
    if j < 0 or not flags(a[j]) & CASED:
        return False
    j = i + 1
    while j < len(a) and flags(a[j]) & IGNORABLE:
        j += 1
    return j == len(a) or not flags(a[j]) & CASED


def _ascii_case(a, lower):
    """``changed_case`` of an ASCII str: one pass, one shift."""
    first, last, shift = (65, 90, 32) if lower else (97, 122, -32)
    out = np.empty(len(a), np.int32)
    for i in range(len(a)):
        c = a[i]
        out[i] = c + shift if first <= c <= last else c
    return out


def changed_case(a, lower):
    """``a.upper()`` (``lower`` 0) or ``a.lower()`` (1): the full mappings ('ß'
    upper is 'SS'), counted first, then written."""
    ascii_only = True
    for i in range(len(a)):
        if a[i] >= 128:
            ascii_only = False
            break
    if ascii_only:
        return _ascii_case(a, lower)
    size = 0
    for i in range(len(a)):
        lo, hi = case_of(a[i], lower)
        size += 1 if lo < 0 else hi - lo
    out = np.empty(size, np.int32)
    k = 0
    for i in range(len(a)):
        c = a[i]
        if lower and c == SIGMA:
            out[k] = FINAL_SIGMA if final_sigma(a, i) else SMALL_SIGMA
            k += 1
            continue
        lo, hi = case_of(c, lower)
        if lo < 0:
            out[k] = hi
            k += 1
        else:
            for j in range(lo, hi):
                out[k] = CODES[j]
                k += 1
    return out


def _holds(c, flag):
    if c < 128:
        if flag == SPACE:
            return c == 32 or 9 <= c <= 13 or 28 <= c <= 31
        if flag == DIGIT:
            return 48 <= c <= 57
        letter = 65 <= c <= 90 or 97 <= c <= 122
        return letter if flag == ALPHA else letter or 48 <= c <= 57
    return flags(c) & flag != 0


def every(a, flag):
    """``a.isalpha()`` (``flag`` ALPHA), ``isdigit``, ``isalnum``, ``isspace``:
    ``a`` is not empty and every character holds ``flag``."""
    if len(a) == 0:
        return False
    for i in range(len(a)):
        if not _holds(a[i], flag):
            return False
    return True


def is_alpha(a):
    return every(a, ALPHA)


def is_digit(a):
    return every(a, DIGIT)


def is_alnum(a):
    return every(a, ALNUM)


def is_space(a):
    return every(a, SPACE)


def split_space(a, limit):
    """The bounds of the pieces of ``a.split(None, limit)`` (CPython's
    ``split_whitespace``): runs of characters other than whitespace, at most
    ``limit`` of them (below 0: any) before the rest, which is one piece from
    its first character other than whitespace to the end."""
    n = len(a)
    bounds = np.empty(n + 4, np.int64)
    k, i = 0, 0
    left = limit if limit >= 0 else n + 1
    while left > 0:
        left -= 1
        while i < n and _holds(a[i], SPACE):
            i += 1
        if i == n:
            break
        j = i
        i += 1
        while i < n and not _holds(a[i], SPACE):
            i += 1
        bounds[2 * k] = j
        bounds[2 * k + 1] = i
        k += 1
    if i < n:
        while i < n and _holds(a[i], SPACE):
            i += 1
        if i != n:
            bounds[2 * k] = i
            bounds[2 * k + 1] = n
            k += 1
    return first_bounds(bounds, k)


def split_space_count(a, limit):
    """``len(a.split(None, limit))``."""
    return len(split_space(a, limit)) // 2


def split_space_piece(a, limit, i):
    """``a.split(None, limit)[i]``."""
    return piece(a, split_space(a, limit), i)


def rsplit_space(a, limit):
    """The bounds of the pieces of ``a.rsplit(None, limit)`` (CPython's
    ``rsplit_whitespace``: ``split_space`` from the right), in order."""
    n = len(a)
    bounds = np.empty(n + 4, np.int64)
    k, i = 0, n - 1
    left = limit if limit >= 0 else n + 1
    while left > 0:
        left -= 1
        while i >= 0 and _holds(a[i], SPACE):
            i -= 1
        if i < 0:
            break
        j = i
        i -= 1
        while i >= 0 and not _holds(a[i], SPACE):
            i -= 1
        bounds[2 * k] = i + 1
        bounds[2 * k + 1] = j + 1
        k += 1
    if i >= 0:
        while i >= 0 and _holds(a[i], SPACE):
            i -= 1
        if i >= 0:
            bounds[2 * k] = 0
            bounds[2 * k + 1] = i + 1
            k += 1
    out = np.empty(2 * k, np.int64)
    for m in range(k):
        out[2 * m] = bounds[2 * (k - 1 - m)]
        out[2 * m + 1] = bounds[2 * (k - 1 - m) + 1]
    return out


def rsplit_space_count(a, limit):
    """``len(a.rsplit(None, limit))``."""
    return len(rsplit_space(a, limit)) // 2


def rsplit_space_piece(a, limit, i):
    """``a.rsplit(None, limit)[i]``."""
    return piece(a, rsplit_space(a, limit), i)
