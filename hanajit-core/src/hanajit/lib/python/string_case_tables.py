"""Look-ups of a character in CPython's case data beyond ``upper``/``lower``
(``unicode_tables.case_flags`` and the ``title``/``casefold`` mappings), in
Python source compiled by hanajit, as ``string_tables.py`` (constant tuples,
searched by bisection; ASCII answered without one).  Importing this module
makes the tables (about half a second, once per process): only
``string_cases.py`` imports it, itself imported where ``title``, ``capitalize``,
``swapcase``, ``casefold``, ``isupper``, ``islower`` or ``istitle`` of a str
built at run time is compiled."""
from . import unicode_tables as U

CASE_BOUNDS, CASE_FLAGS = U.case_flags()
MORE_KEYS, MORE_STARTS, MORE_CODES = U.case_maps(("title", "casefold"))
UPPER, LOWER, TITLE, ANY_CASE = U.UPPER, U.LOWER, U.TITLE, U.ANY_CASE
# the most characters one character becomes (upper, lower, title, casefold: 3)
WIDEST = max(b - a for starts in (MORE_STARTS, U.case_maps()[1])
             for a, b in zip(starts, starts[1:]))


def case_flag(c):
    """The flags (``unicode_tables.case_flags``) of the code point ``c``."""
    if c < 128:
        if 65 <= c <= 90:
            return UPPER | ANY_CASE
        if 97 <= c <= 122:
            return LOWER | ANY_CASE
        return 0
    lo, hi = 1, len(CASE_BOUNDS)
    while lo < hi:
        m = (lo + hi) >> 1
        if CASE_BOUNDS[m] <= c:
            lo = m + 1
        else:
            hi = m
    return CASE_FLAGS[lo - 1]


def more_mapping(c, fold):
    """Where ``chr(c).title()`` (``fold`` 0) or ``.casefold()`` (1) is in
    ``MORE_CODES``: ``(start, end)``, or ``(-1, -1)`` where it is ``chr(c)``."""
    key = 2 * c + fold
    lo, hi = 0, len(MORE_KEYS)
    while lo < hi:
        m = (lo + hi) >> 1
        if MORE_KEYS[m] < key:
            lo = m + 1
        else:
            hi = m
    if lo < len(MORE_KEYS) and MORE_KEYS[lo] == key:
        return MORE_STARTS[lo], MORE_STARTS[lo + 1]
    return -1, -1
