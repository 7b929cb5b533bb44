"""Look-ups of a character in CPython's Unicode tables (``unicode_tables.py``),
in Python source compiled by hanajit: each table a constant tuple (read-only
data in the compiled code, ``ir.nodes.TableLoad``), ASCII answered without one.
Importing this module makes the tables (about half a second, once per process):
``strings.py`` imports it only where a str built at run time needs them
(``int(s)`` looks up two small tables of its own: ``string_int.py``)."""
from . import unicode_tables as U

BOUNDS, FLAGS = U.character_flags()
KEYS, STARTS, CODES = U.case_maps()
ALPHA, DIGIT, ALNUM, SPACE, DECIMAL = U.ALPHA, U.DIGIT, U.ALNUM, U.SPACE, U.DECIMAL
IGNORABLE, CASED = U.IGNORABLE, U.CASED


def flags(c):
    """The flags (``unicode_tables.character_flags``) of the code point ``c``."""
    lo, hi = 1, len(BOUNDS)
    while lo < hi:
        m = (lo + hi) >> 1
        if BOUNDS[m] <= c:
            lo = m + 1
        else:
            hi = m
    return FLAGS[lo - 1]


def mapping(c, lower):
    """Where ``chr(c).upper()`` (``lower`` 0) or ``.lower()`` (1) is in ``CODES``:
    ``(start, end)``, or ``(-1, -1)`` where it is ``chr(c)`` itself."""
    key = 2 * c + lower
    lo, hi = 0, len(KEYS)
    while lo < hi:
        m = (lo + hi) >> 1
        if KEYS[m] < key:
            lo = m + 1
        else:
            hi = m
    if lo < len(KEYS) and KEYS[lo] == key:
        return STARTS[lo], STARTS[lo + 1]
    return -1, -1
