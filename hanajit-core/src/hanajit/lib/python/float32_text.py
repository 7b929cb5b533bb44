"""``str(x)`` of an ``np.float32`` in Python source compiled by hanajit
(``strings.py`` types the call): NumPy's text -- Dragon4's shortest digits that
read back as the same float32 (the nearest such where two have as few), in
positional notation for ``1e-4 <= |x| < 1e6`` (``'0.1'``, ``'100.0'``) and
scientific otherwise (``'1e+06'``, ``'1.00000006e+06'``, ``'9.999999e-05'``),
``'nan'``, ``'inf'``, ``'-0.0'``; ``str`` of an ``np.complex64``: those of its
parts without ``.0``, as a complex's text (``'(1e+06+0.1j)'``).

The digits: the fewest ``p`` (1 to 9, found by bisection) at which the value of
``x`` rounded to ``p`` significant digits (from its 18 digits that CPython's
``PyOS_double_to_string`` prints, ``float_text.float_digits``; printed at ``p``
digits where those end on the midpoint), or its neighbour of ``p`` digits on
the other side of ``x``, lies in ``x``'s rounding interval; the first of those
two that does is the text.  The interval's ends
-- the midpoints with the float32 neighbours (half as far below a power of
two), included where ``x``'s last mantissa bit is 0, as round-half-even reads
them back -- are doubles: a candidate of at most 9 digits is compared with them
in doubles where that decides (``quick``), else with their 18 digits, and where
it equals those, with their exact digits (at most 113 significant, printed with
120) -- so every comparison is exact."""
import math

import numpy as np

from .float_text import complex_text, float_digits

E_CODE = 101                    # 'e'
TOP = 10 ** 17                  # the first of 18 digits
SUBNORMAL_ULP = 1.401298464324817e-45   # 2 ** -149


def parsed(text):
    """``(digits, more, exponent)`` of a positive ``'d.ddde±XX'`` text: its
    first 18 significant digits as an int (zeros after fewer), whether a later
    digit is non-zero, the power of ten of the first."""
    digits, n, more, i = 0, 0, False, 0
    while text[i] != E_CODE:
        c = int(text[i])
        if c != 46:
            if n < 18:
                digits = digits * 10 + (c - 48)
                n += 1
            elif c != 48:
                more = True
        i += 1
    while n < 18:
        digits *= 10
        n += 1
    exponent = 0
    for k in range(i + 2, len(text)):
        exponent = exponent * 10 + (int(text[k]) - 48)
    if text[i + 1] == 45:
        exponent = -exponent
    return digits, more, exponent


def order(a, ae, b, bmore, be):
    """-1, 0 or 1: the ``p``-digit ``a`` (18 digits, exponent ``ae``) below,
    at or above ``b`` (``bmore``: digits beyond its 18 that are not all 0)."""
    if ae != be:
        return -1 if ae < be else 1
    if a != b:
        return -1 if a < b else 1
    return -1 if bmore else 0


def side(c, ce, v, r, re, known):
    """``order`` of the candidate ``c`` and the double ``v``, of which ``r``,
    ``re`` are the 18 digits rounded if ``known`` (else printed here): a
    candidate of at most 9 digits other than ``r`` is on the same side of ``v``
    as of ``r``; at ``r``, ``v``'s exact digits (at most 113 significant)
    decide."""
    if not known:
        r, more, re = parsed(float_digits(v, E_CODE, 17, 0))
    if ce != re or c != r:
        return order(c, ce, r, False, re)
    d, more, e = parsed(float_digits(v, E_CODE, 120, 0))
    return order(c, ce, d, more, e)


def rounded(x, xr, xe, p):
    """``x`` rounded to ``p`` significant digits (an 18-digit int and its
    exponent) from its 18 digits ``xr``, ``xe``; CPython's own rounding where
    they end on the midpoint (``x`` on it or near it)."""
    unit = 10 ** (18 - p)
    rest = xr % unit
    if rest * 2 == unit:
        c, more, ce = parsed(float_digits(x, E_CODE, p - 1, 0))
        return c, ce
    c = xr - rest + (unit if rest * 2 > unit else 0)
    if c >= 10 * TOP:
        return TOP, xe + 1
    return c, xe


def quick(c, ce, p, v):
    """-1 or 1: the ``p``-digit candidate below or above the double ``v``,
    decided in doubles -- its ``p`` digits times or over an exact power of ten
    (at most 1e22), rounded once, so a strict order is the candidate's own --
    or 2: undecided (another power of ten, or the double equal to ``v``)."""
    k = ce - (p - 1)
    if k < -22 or k > 22:
        return 2
    whole = float(c // 10 ** (18 - p))
    scale = 1.0
    for i in range(k if k > 0 else -k):
        scale *= 10.0
    d = whole * scale if k >= 0 else whole / scale
    if d < v:
        return -1
    if d > v:
        return 1
    return 2


def shortest(x):
    """``(digits, count, exponent)`` of the positive finite float32 ``x``
    (a float64): its shortest digits (18-digit int, how many) and exponent.
    Some ``p``-digit candidate reads back at every ``p`` from the shortest's up
    (the shortest one, with zeros after it), so ``p`` is found by bisection."""
    m, e = np.frexp(x)
    ulp = SUBNORMAL_ULP if e <= -125 else float(np.ldexp(1.0, e - 24))
    below = ulp * 0.5 if (m == 0.5 and e > -125) else ulp
    even = (x / ulp) % 2.0 == 0.0
    lo, hi = x - below * 0.5, x + ulp * 0.5
    xr, xm, xe = parsed(float_digits(x, E_CODE, 17, 0))
    lor, loe, hir, hie = 0, 0, 0, 0
    far = xe < -13 or xe > 22           # (``quick`` decides nothing: the ends printed once)
    if far:
        lor, lom, loe = parsed(float_digits(lo, E_CODE, 17, 0))
        hir, him, hie = parsed(float_digits(hi, E_CODE, 17, 0))
    ends = (lo, hi, lor, loe, hir, hie, far)
    best, best_p, best_e = xr, 9, xe
    first, last = 1, 9          # (9 digits always read back)
    while first <= last:
        p = (first + last) // 2
        c, ce, found = candidate(x, ends, even, xr, xe, p)
        if found:
            best, best_p, best_e = c, p, ce
            last = p - 1
        else:
            first = p + 1
    if best_p == 9:
        best, best_e, found = candidate(x, ends, even, xr, xe, 9)
    return best, best_p, best_e


def candidate(x, ends, even, xr, xe, p):
    """``(digits, exponent, found)``: the ``p``-digit number nearest ``x`` that
    lies in its rounding interval (``ends``: ``lo``, ``hi``, their 18 digits if
    ``known``; included if ``even``), if there is one."""
    lo, hi, lor, loe, hir, hie, known = ends
    c, ce = rounded(x, xr, xe, p)
    unit = 10 ** (18 - p)
    for attempt in range(2):
        a, b = quick(c, ce, p, lo), quick(c, ce, p, hi)
        if a == 2:
            a = side(c, ce, lo, lor, loe, known)
        if b == 2:
            b = side(c, ce, hi, hir, hie, known)
        if (a > 0 or a == 0 and even) and (b < 0 or b == 0 and even):
            return c, ce, True
        t = quick(c, ce, p, x)
        if t == 2:
            t = side(c, ce, x, xr, xe, True)
        if t < 0:                                   # the neighbour above x
            c += unit
            if c >= 10 * TOP:
                c, ce = TOP, ce + 1
        elif c == TOP:                              # below x, one digit fewer up front
            c, ce = 10 * TOP - unit, ce - 1
        else:
            c -= unit
    return c, ce, False


def float32_text(x):
    """``str(np.float32(x))`` of the float32 ``x`` (held as a float64)."""
    return _text(x, False)


def complex64_text(re, im):
    """``str(np.complex64(z))`` of the parts ``re``, ``im`` (float32 values held
    as float64): as ``complex_repr``, each part's float32 text without a ``.0``,
    a NaN part ``nan`` (``+nan`` for the imaginary part), whatever its sign."""
    if re == 0.0 and math.copysign(1.0, re) > 0.0:
        return complex_text(np.empty(0, np.int32), _part(im, False), 0)
    return complex_text(_part(re, False), _part(im, True), 1)


def _part(x, plus):
    text = _text(x, True)
    if not plus or text[0] == 45:
        return text
    out = np.empty(len(text) + 1, np.int32)
    out[0] = 43
    for i in range(len(text)):
        out[1 + i] = text[i]
    return out


def _text(x, trim):
    """The text of the float32 ``x``; with ``trim``, NumPy's ``DptZeros``: no
    ``.0`` after a whole number (a complex's parts)."""
    if x != x:
        return _word(False, 110, 97, 110)                                    # nan
    # (NumPy's str of a negative NaN is 'nan' too)
    negative = math.copysign(1.0, x) < 0.0
    v = -x if negative else x
    if v > 3.5e38:
        return _word(negative, 105, 110, 102)                          # inf
    if v == 0.0:
        if not trim:
            return _word(negative, 48, 46, 48)                         # 0.0
        out = np.empty(2 if negative else 1, np.int32)                 # 0
        out[0] = 45
        out[len(out) - 1] = 48
        return out
    d, n, e = shortest(v)
    digits = np.empty(n, np.int32)
    for k in range(n):
        digits[n - 1 - k] = 48 + (d // 10 ** (18 - n + k)) % 10
    while n > 1 and digits[n - 1] == 48:
        n -= 1
    if 1e-4 <= v < 1e6:
        return _positional(negative, digits, n, e, trim)
    return _scientific(negative, digits, n, e)


def _positional(negative, digits, n, e, trim):
    whole = e + 1 if e >= 0 else 1
    frac = n - whole if n > whole else (0 if trim else 1)
    if e < 0:
        frac = n - e - 1
    out = np.empty((1 if negative else 0) + whole + (1 if frac else 0) + frac, np.int32)
    k = 0
    if negative:
        out[0] = 45
        k = 1
    for i in range(len(out) - k):
        out[k + i] = 48
    if frac:
        out[k + whole] = 46
    for i in range(n):
        pos = e - i                       # the digit's power of ten
        out[k + (whole - 1 - pos if pos >= 0 else whole - pos)] = digits[i]
    return out


def _scientific(negative, digits, n, e):
    ae = -e if e < 0 else e
    width = 3 if ae >= 100 else 2
    out = np.empty((1 if negative else 0) + n + (1 if n > 1 else 0) + 2 + width, np.int32)
    k = 0
    if negative:
        out[0] = 45
        k = 1
    out[k] = digits[0]
    k += 1
    if n > 1:
        out[k] = 46
        k += 1
        for i in range(1, n):
            out[k] = digits[i]
            k += 1
    out[k] = 101
    out[k + 1] = 45 if e < 0 else 43
    k += 2
    for i in range(width):
        out[k + width - 1 - i] = 48 + (ae // 10 ** i) % 10
    return out


def _word(negative, a, b, c):
    """The three characters ``a b c``, a '-' before them if ``negative``."""
    k = 1 if negative else 0
    out = np.empty(3 + k, np.int32)
    out[0] = 45
    out[k] = a
    out[k + 1] = b
    out[k + 2] = c
    return out
