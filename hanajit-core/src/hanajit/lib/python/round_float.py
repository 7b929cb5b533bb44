"""``round(x, ndigits)`` for floats, exactly as CPython (correctly rounded,
half to even on the exact binary value), compiled by hanajit (see ``helpers``).

CPython formats ``x`` to ``ndigits`` decimals with correct rounding and parses the
string back.  For ``|ndigits| <= 22`` the power of ten is exact, so the exact
scaled value is ``hi + lo`` (``hi = x * p`` and its error ``lo`` from one fused
multiply-add); the nearest integer to that sum, ties to even, divided by ``p`` (one
correctly rounded division) is the same double as CPython's.  Other ``ndigits``
deoptimise to the interpreter.
"""
from .. import prims
from .helpers import Deopt


def _nearest(hi, lo):
    """The integer nearest ``hi + lo`` (an exact sum, ``|hi| < 2**53``), ties to
    even."""
    r = prims.rint(hi)
    f = hi - r
    if f == 0.5 and lo > 0.0:
        r = r + 1.0
    elif f == -0.5 and lo < 0.0:
        r = r - 1.0
    elif f == 0.0 and prims.fabs(lo) == 0.5:
        # hi is an integer (|hi| >= 2**52) and hi + lo lies halfway: the even one
        other = r + 1.0 if lo > 0.0 else r - 1.0
        if prims.fmod(r, 2.0) != 0.0:
            r = other
    return r


def float_round(x, ndigits):
    if x != x or prims.isinf(x) or x == 0.0:
        return x
    if ndigits > 22 or ndigits < -22:
        if ndigits > 308:
            return x
        raise Deopt("round() with more than 22 digits")
    if ndigits >= 0:
        p = 1.0
        for _ in range(ndigits):
            p = p * 10.0
        hi = x * p
        if prims.fabs(hi) >= 9007199254740992.0:
            # 10**-ndigits is below x's ulp: the rounded decimal parses back to x
            return x
        lo = prims.fma(x, p, -hi)
        r = _nearest(hi, lo)
        y = prims.fdiv(r, p)
    else:
        p = 1.0
        for _ in range(-ndigits):
            p = p * 10.0
        q = prims.fdiv(x, p)
        if prims.fabs(q) >= 9007199254740992.0:
            return x
        rem = prims.fma(-q, p, x)          # x - q * p exactly
        r = _nearest(q, prims.fdiv(rem, p))
        y = r * p
        if prims.isinf(y):
            raise OverflowError("rounded value too large to represent")
    if y == 0.0:
        return prims.copysign(0.0, x)
    return y
