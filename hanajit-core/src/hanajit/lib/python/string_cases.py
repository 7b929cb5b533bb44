"""``title``, ``capitalize``, ``swapcase``, ``casefold``, ``isupper``,
``islower`` and ``istitle`` of a str built at run time, in Python source
compiled by hanajit: CPython's ``do_title``, ``do_capitalize``, ``do_swapcase``,
``do_casefold`` and ``unicode_isupper``/``islower``/``istitle``, reading its case
data (``string_case_tables.py``, ``string_tables.py``): full mappings ('ﬁ'
titles to 'Fi', 'ß' folds to 'ss'), a capital sigma lowered to its final form
where ``lower`` would.  ``frontend/str_methods.py`` calls them through
``string_method_calls.py``, which imports this module only when one is
compiled."""
import numpy as np

from .string_case_tables import ANY_CASE, LOWER, MORE_CODES, TITLE, UPPER, WIDEST, \
    case_flag, more_mapping
from .string_tables import CODES
from .string_unicode import FINAL_SIGMA, SIGMA, SMALL_SIGMA, case_of, final_sigma

# what converted() does (the ``how`` of its calls: frontend/str_methods.py)
TITLED, CAPITALIZED, SWAPPED, FOLDED = 0, 1, 2, 3


def _more(c, fold):
    """``(start, end)`` of the title (``fold`` 0) or case fold (1) of ``c`` in
    ``MORE_CODES``, or ``(-1, c)``: the one character ``c`` (ASCII here)."""
    if c < 128:
        if fold:
            return -1, c + 32 if 65 <= c <= 90 else c
        return -1, c - 32 if 97 <= c <= 122 else c
    lo, hi = more_mapping(c, fold)
    if lo < 0:
        return -1, c
    return lo, hi


def _choice(a, i, how):
    """What character ``i`` of ``a`` becomes: ``(0, 0, c)`` the one character
    ``c``, ``(1, lo, hi)`` ``CODES[lo:hi]``, ``(2, lo, hi)`` ``MORE_CODES[lo:hi]``."""
    c = a[i]
    lowered = False
    if how == FOLDED:
        lo, hi = _more(c, 1)
        return (0 if lo < 0 else 2), lo, hi
    if how == SWAPPED:
        f = case_flag(c)
        if f & UPPER:
            lowered = True
        elif f & LOWER:
            lo, hi = case_of(c, 0)
            return (0 if lo < 0 else 1), lo, hi
        else:
            return 0, 0, c
    elif how == CAPITALIZED:
        lowered = i > 0
    else:
        lowered = i > 0 and case_flag(a[i - 1]) & ANY_CASE != 0
    if not lowered:
        lo, hi = _more(c, 0)
        return (0 if lo < 0 else 2), lo, hi
    if c == SIGMA:
        return 0, 0, FINAL_SIGMA if final_sigma(a, i) else SMALL_SIGMA
    lo, hi = case_of(c, 1)
    return (0 if lo < 0 else 1), lo, hi


def _ascii_converted(a, how):
    """``converted`` of an ASCII str: one pass, no look-up."""
    out = np.empty(len(a), np.int32)
    previous = False                # (the character before is a letter: cased)
    for i in range(len(a)):
        c = a[i]
        upper, lower = 65 <= c <= 90, 97 <= c <= 122
        if how == FOLDED or how == SWAPPED and upper:
            out[i] = c + 32 if upper else c
        elif how == SWAPPED:
            out[i] = c - 32 if lower else c
        elif previous if how == TITLED else i > 0:
            out[i] = c + 32 if upper else c
        else:
            out[i] = c - 32 if lower else c
        previous = upper or lower
    return out


def converted(a, how):
    """``a.title()`` (``how`` TITLED), ``capitalize()``, ``swapcase()`` or
    ``casefold()``: written into room for the widest mapping of every character
    (``WIDEST``), the str the part written."""
    ascii_only = True
    for i in range(len(a)):
        if a[i] >= 128:
            ascii_only = False
            break
    if ascii_only:
        return _ascii_converted(a, how)
    out = np.empty(WIDEST * len(a), np.int32)
    k = 0
    for i in range(len(a)):
        which, lo, hi = _choice(a, i, how)
        if which == 0:
            out[k] = hi
            k += 1
        elif which == 1:
            for j in range(lo, hi):
                out[k] = CODES[j]
                k += 1
        else:
            for j in range(lo, hi):
                out[k] = MORE_CODES[j]
                k += 1
    return out[:k]


def _cased_only(a, wanted, unwanted):
    """``isupper`` (``wanted`` UPPER) / ``islower``: no character of the
    ``unwanted`` kinds, one at least of the ``wanted``."""
    cased = False
    for i in range(len(a)):
        f = case_flag(a[i])
        if f & unwanted:
            return False
        if f & wanted:
            cased = True
    return cased


def is_upper(a):
    return _cased_only(a, UPPER, LOWER | TITLE)


def is_lower(a):
    return _cased_only(a, LOWER, UPPER | TITLE)


def is_title(a):
    """``a.istitle()``: every uppercase or titlecase character after an uncased
    one, every lowercase one after a cased one, and one cased at least."""
    cased, previous = False, False
    for i in range(len(a)):
        f = case_flag(a[i])
        if f & (UPPER | TITLE):
            if previous:
                return False
            previous = cased = True
        elif f & LOWER:
            if not previous:
                return False
            previous = cased = True
        else:
            previous = False
    return cased
