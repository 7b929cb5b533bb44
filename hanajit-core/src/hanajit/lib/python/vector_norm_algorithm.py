"""``math.hypot`` and ``math.dist`` in Python source compiled by hanajit: CPython
3.11+'s ``vector_norm`` (``Modules/mathmodule.c``) step by step.

The coordinates (absolute values, or absolute differences for ``dist``) are
scaled by the power of two that brings the largest into [0.5, 1) (subnormal
a largest below 2**-1024 instead divides each by it and
sums the squares with one compensation), squared without loss (Dekker's product), and
added to a running sum that starts at 1.0 with the lost low parts collected in
``frac1`` and ``frac2``; the square root then gets one differential correction.
An infinity wins over a NaN; a single coordinate (or none) is the largest.

``DEKKER`` selects 3.11's product (Veltkamp's split); 3.12 and later use
``fma``, which gives the same exact product except where a square underflows.
"""
import math
import sys

import numpy as np

from .. import prims

TWO_M1024 = 2.0 ** -1024         # frexp's exponent below -1023
DEKKER = sys.version_info < (3, 12)


def mul_lo(x, y, z):
    """The low part of the exact product ``x * y`` whose rounding is ``z``
    (CPython's ``dl_mul``: Dekker's ``mul12`` in 3.11, ``fma`` from 3.12)."""
    if DEKKER:
        t = x * 134217729.0             # Veltkamp's split, 2**27 + 1
        xh = t - (t - x)
        xl = x - xh
        t = y * 134217729.0
        yh = t - (t - y)
        yl = y - yh
        p = xh * yh
        q = xh * yl + xl * yh
        return p - z + q + xl * yl
    return prims.fma(x, y, -z)


def _scale_of(mx):
    """``ldexp(1.0, -max_e)`` with ``frexp(mx) = (m, max_e)``: a float64 power of
    two ``s`` with ``mx * s`` in [0.5, 1); ``mx`` is normal and finite."""
    e = np.frexp(mx)[1]
    return float(np.ldexp(1.0, -int(e)))


def vector_norm(vec, mx, found_nan):
    """CPython's ``vector_norm(n, vec, max, found_nan)``; ``vec`` holds the
    absolute values (changed in place by the subnormal rescaling)."""
    n = vec.shape[0]
    if math.isinf(mx):
        return mx
    if found_nan:
        return math.nan
    if mx == 0.0 or n <= 1:
        return mx
    if mx < TWO_M1024:
        # max_e < -1023 (ldexp(1.0, -max_e) would overflow): each coordinate
        # divided by the largest, squared, and summed with one correction
        csum = 1.0
        frac1 = 0.0
        for i in range(n):
            x = float(vec[i]) / mx
            x = x * x
            old = csum
            csum += x
            frac1 += (old - csum) + x
        return mx * math.sqrt(csum - 1.0 + frac1)
    scale = _scale_of(mx)
    csum = 1.0
    frac1 = 0.0
    frac2 = 0.0
    for i in range(n):
        x = float(vec[i]) * scale
        prhi = x * x
        prlo = mul_lo(x, x, prhi)
        smhi = csum + prhi
        smlo = (csum - smhi) + prhi
        csum = smhi
        frac1 += prlo
        frac2 += smlo
    return finish(csum, frac1, frac2, scale)


def finish(csum, frac1, frac2, scale):
    """The square root of the compensated sum, with CPython's one correction."""
    h = math.sqrt(csum - 1.0 + (frac1 + frac2))
    x = -h
    prhi = x * h
    prlo = mul_lo(x, h, prhi)
    smhi = csum + prhi
    smlo = (csum - smhi) + prhi
    csum = smhi
    frac1 += prlo
    frac2 += smlo
    x = csum - 1.0 + (frac1 + frac2)
    h += x / (2.0 * h)
    return h / scale


def hypot_of(vec):
    """``math.hypot(*vec)``: ``vec`` the arguments as floats (overwritten)."""
    mx = 0.0
    found_nan = False
    for i in range(vec.shape[0]):
        x = float(abs(vec[i]))
        vec[i] = x
        if x != x:
            found_nan = True
        if x > mx:
            mx = x
    return vector_norm(vec, mx, found_nan)


def hypot2(a, b):
    """``math.hypot(a, b)``: ``hypot_of`` and ``vector_norm`` for two floats,
    without an array."""
    x = abs(a)
    y = abs(b)
    mx = 0.0
    if x > mx:
        mx = x
    if y > mx:
        mx = y
    if math.isinf(mx):
        return mx
    if x != x or y != y:
        return math.nan
    if mx == 0.0:
        return mx
    if mx < TWO_M1024:
        csum = 1.0
        frac1 = 0.0
        t = x / mx
        t = t * t
        old = csum
        csum += t
        frac1 += (old - csum) + t
        t = y / mx
        t = t * t
        old = csum
        csum += t
        frac1 += (old - csum) + t
        return mx * math.sqrt(csum - 1.0 + frac1)
    scale = _scale_of(mx)
    x = x * scale
    prhi = x * x
    prlo = mul_lo(x, x, prhi)
    csum = 1.0 + prhi
    frac1 = prlo
    frac2 = (1.0 - csum) + prhi
    y = y * scale
    prhi = y * y
    prlo = mul_lo(y, y, prhi)
    smhi = csum + prhi
    frac1 += prlo
    frac2 += (csum - smhi) + prhi
    return finish(smhi, frac1, frac2, scale)


def dist_of(p, q):
    """``math.dist(p, q)`` of two 1-D arrays of real numbers."""
    n = p.shape[0]
    if q.shape[0] != n:
        raise ValueError("both points must have the same dimension")
    diffs = np.empty(n)
    for i in range(n):
        diffs[i] = float(p[i]) - float(q[i])
    return hypot_of(diffs)


hypot_of.hj_unchecked = dist_of.hj_unchecked = vector_norm.hj_unchecked = True
