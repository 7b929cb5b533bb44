"""``math.gamma`` and ``math.lgamma`` in Python source compiled by hanajit:
CPython's own ``m_tgamma``/``m_lgamma`` (``Modules/mathmodule.c``, not the C
library's), step by step -- Lanczos' approximation (``lanczos_sum``, g = 6.0246...,
13 terms, Horner in ``x`` below 5 and in ``1/x`` above), the reflection formula
with CPython's ``m_sinpi`` for negative arguments, the table of factorials for
integers up to 23, and CPython's errors: ValueError "math domain error" for a
pole or -inf (``EDOM``), OverflowError "math range error" for a finite argument
whose result overflows (``ERANGE`` with ``|r| >= 1.5``; an underflow is no
error).

The C library's functions are called as ``prims`` (one scalar call each, as
CPython makes them: LLVM may not pack two ``log`` calls into a vector ``log``
whose last bits differ)."""
import math

import numpy as np

from .. import prims

LANCZOS_G = 6.024680040776729583740234375
LANCZOS_G_MINUS_HALF = 5.524680040776729583740234375
NUM_COEFFS = np.array([
    23531376880.410759688572007674451636754734846804940,
    42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843,
    17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708,
    1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801,
    31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768,
    186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024,
    210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408])
DEN_COEFFS = np.array([
    0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0,
    13339535.0, 2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0])
GAMMA_INTEGRAL = np.array([
    1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0, 5040.0, 40320.0, 362880.0,
    3628800.0, 39916800.0, 479001600.0, 6227020800.0, 87178291200.0,
    1307674368000.0, 20922789888000.0, 355687428096000.0,
    6402373705728000.0, 121645100408832000.0, 2432902008176640000.0,
    51090942171709440000.0, 1124000727777607680000.0])
PI = 3.141592653589793238462643383279502884197
LOGPI = 1.144729885849400174143427351353058711647


def lanczos_sum(x):
    num = 0.0
    den = 0.0
    if x < 5.0:
        for j in range(13):
            i = 12 - j
            num = num * x + NUM_COEFFS[i]
            den = den * x + DEN_COEFFS[i]
    else:
        for i in range(13):
            num = num / x + NUM_COEFFS[i]
            den = den / x + DEN_COEFFS[i]
    return float(num / den)


def sinpi(x):
    """CPython's ``m_sinpi`` (finite ``x``)."""
    y = prims.fmod(abs(x), 2.0)
    v = 2.0 * y
    n = prims.floor(v)             # C's round(v): halves away from zero
    if v - n >= 0.5:
        n += 1.0
    if n == 0.0:
        r = prims.sin(PI * y)
    elif n == 1.0:
        r = prims.cos(PI * (y - 0.5))
    elif n == 2.0:
        r = prims.sin(PI * (1.0 - y))
    elif n == 3.0:
        r = -prims.cos(PI * (y - 1.5))
    else:
        r = prims.sin(PI * (y - 2.0))
    return math.copysign(1.0, x) * r


def gamma(x):
    if not math.isfinite(x):
        if x != x or x > 0.0:
            return x
        raise ValueError("math domain error")
    if x == 0.0:
        raise ValueError("math domain error")
    if x == prims.floor(x):
        if x < 0.0:
            raise ValueError("math domain error")
        if x <= 23.0:
            return float(GAMMA_INTEGRAL[int(x) - 1])
    absx = abs(x)
    if absx < 1e-20:
        r = 1.0 / x
        if math.isinf(r):
            raise OverflowError("math range error")
        return r
    if absx > 200.0:
        if x < 0.0:
            return 0.0 / sinpi(x)
        raise OverflowError("math range error")
    y = absx + LANCZOS_G_MINUS_HALF
    if absx > LANCZOS_G_MINUS_HALF:
        q = y - absx
        z = q - LANCZOS_G_MINUS_HALF
    else:
        q = y - LANCZOS_G_MINUS_HALF
        z = q - absx
    z = z * LANCZOS_G / y
    if x < 0.0:
        r = -PI / sinpi(absx) / absx * prims.exp(y) / lanczos_sum(absx)
        r -= z * r
        if absx < 140.0:
            r /= prims.pow(y, absx - 0.5)
        else:
            sqrtpow = prims.pow(y, absx / 2.0 - 0.25)
            r /= sqrtpow
            r /= sqrtpow
    else:
        r = lanczos_sum(absx) / prims.exp(y)
        r += z * r
        if absx < 140.0:
            r *= prims.pow(y, absx - 0.5)
        else:
            sqrtpow = prims.pow(y, absx / 2.0 - 0.25)
            r *= sqrtpow
            r *= sqrtpow
    if math.isinf(r):
        raise OverflowError("math range error")
    return r


def lgamma(x):
    if not math.isfinite(x):
        if x != x:
            return x
        return math.inf
    if x == prims.floor(x) and x <= 2.0:
        if x <= 0.0:
            raise ValueError("math domain error")
        return 0.0
    absx = abs(x)
    if absx < 1e-20:
        return -prims.log(absx)
    r = prims.log(lanczos_sum(absx)) - LANCZOS_G
    r += (absx - 0.5) * (prims.log(absx + LANCZOS_G - 0.5) - 1)
    if x < 0.0:
        r = LOGPI - prims.log(abs(sinpi(absx))) - prims.log(absx) - r
    if math.isinf(r):
        raise OverflowError("math range error")
    return r
