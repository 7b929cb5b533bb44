"""``int(s)`` of a str built at run time (``frontend/str_locals.py``), in Python
source compiled by hanajit: what CPython's ``PyLong_FromUnicodeObject`` takes --
each character below 127 as it is, a whitespace character beyond ASCII as a
space, a decimal digit beyond ASCII (``'٣'``) as its ASCII digit, anything else
ending the text -- then ``PyLong_FromString`` in base 10: ASCII whitespace
(``' \\t\\n\\v\\f\\r'``) around, a sign, digits with single underscores between
them.  Anything else raises CPython's ``ValueError("invalid literal for int()
with base 10: " + repr(s)[:200])``: the message carries the str
(``errors.Field``).  A value beyond int64 -- a Python int compiled code cannot
hold -- and more than 640 digits (where CPython's ``sys.get_int_max_str_digits``
limit may apply) re-run the call in the interpreter (``Deopt``), as Python int
arithmetic beyond int64 does (``int_overflow.py``)."""
from .helpers import Deopt
from .strings import str_tag
from .unicode_tables import decimals, spaces

# CPython's smallest limit of digits in a str it converts (sys.set_int_max_str_digits)
DIGITS_THRESHOLD = 640
# the first of each run of ten decimal digits beyond ASCII; whitespace beyond ASCII
ZEROS = tuple(c for c, v in zip(*decimals()) if v == 0)
SPACES = spaces()


def _ascii_of(c):
    """The character CPython parses for ``c``: below 127 itself, a space for a
    whitespace character, the ASCII digit of a decimal digit, else 63 ('?')."""
    if c < 127:
        return c
    for k in range(len(SPACES)):
        if SPACES[k] == c:
            return 32
    for k in range(len(ZEROS)):
        if ZEROS[k] <= c < ZEROS[k] + 10:
            return 48 + c - ZEROS[k]
    return 63


def _blank(c):
    return c == 32 or 9 <= c <= 13


def to_int(a):
    """``int(s)``; the value is gathered negated (every int64 has a negation but
    the least)."""
    n = len(a)
    i, j = 0, n
    while i < j and _blank(_ascii_of(a[i])):
        i += 1
    while j > i and _blank(_ascii_of(a[j - 1])):
        j -= 1
    negative = False
    if i < j and (a[i] == 43 or a[i] == 45):
        negative = a[i] == 45
        i += 1
    value, digits, after_digit, wide = 0, 0, False, False
    bad = i >= j
    while i < j and not bad:
        c = _ascii_of(a[i])
        if 48 <= c <= 57:
            d = c - 48
            if value < -922337203685477580 or value == -922337203685477580 and d > 8:
                wide = True
            else:
                value = value * 10 - d
            digits += 1
            after_digit = True
        elif c == 95 and after_digit and i + 1 < j and 48 <= _ascii_of(a[i + 1]) <= 57:
            after_digit = False
        else:
            bad = True
        i += 1
    if digits > DIGITS_THRESHOLD:
        raise Deopt("int() of a str of many digits")
    if bad:
        raise ValueError(f"invalid literal for int() with base 10: {str_tag(a)!r:.200}")
    if wide or not negative and value == -9223372036854775807 - 1:
        raise Deopt("int() of a str beyond int64")
    return value if negative else -value
