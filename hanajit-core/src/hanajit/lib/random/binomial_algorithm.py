"""``Generator.binomial``: NumPy 2's ``random_binomial`` (``distributions.c``),
compiled by hanajit.

Below a mean of 30 (of ``min(p, 1 - p)``) it is inversion, restarting past a
bound of ten standard deviations; above, Kachitvichyanukul and Schmeiser's BTPE
(triangle, parallelogram and exponential tails, with the squeeze of step 5.2).
NumPy keeps the set-up values in the generator (``binomial_t``) between calls
with the same ``n`` and ``p``; they are the same numbers computed again, so
each call computes them.  Arithmetic mixes int64 and double as the C code
does (an int64 operand converted where C converts it).
"""
import math

import numpy as np

from .. import prims


def check_binomial(n, p):
    """``check_constraint`` of ``p`` (CONS_BOUNDED_0_1), then of ``n``."""
    if not (p >= 0.0 and p <= 1.0):
        raise ValueError("p < 0, p > 1 or p is NaN")
    if n < 0:
        raise ValueError("n < 0")


def inversion_setup(n, p):
    """The set-up of ``random_binomial_inversion`` (what NumPy keeps in
    ``binomial_t``): ``q``, ``qn`` and the bound."""
    q = 1.0 - p
    qn = prims.exp(n * prims.log1p(-p))
    npq = n * p
    bound = n
    lim = npq + 10.0 * math.sqrt(npq * q + 1.0)
    if lim < n:
        bound = int(lim)
    return q, qn, bound


def inversion_with(rng, n, p, q, qn, bound):
    """One draw of ``random_binomial_inversion`` after its set-up."""
    x = 0
    px = qn
    u = prims.rng_next_double(rng)
    while u > px:
        x = x + 1
        if x > bound:
            x = 0
            px = qn
            u = prims.rng_next_double(rng)
        else:
            u = u - px
            px = ((n - x + 1) * p * px) / (x * q)
    return x


def inversion(rng, n, p):
    """``random_binomial_inversion``."""
    q, qn, bound = inversion_setup(n, p)
    return inversion_with(rng, n, p, q, qn, bound)


def _stirling(v):
    """The correction term of step 5.3 for one of ``f1``, ``z``, ``x1``, ``w``."""
    v2 = v * v
    return (13680.0 - (462.0 - (132.0 - (99.0 - 140.0 / v2) / v2) / v2) / v2) / v / 166320.0


def btpe_setup(n, p):
    """The set-up of ``random_binomial_btpe`` (what NumPy keeps in
    ``binomial_t``), as one tuple for :func:`btpe_with`."""
    r = min(p, 1.0 - p)
    q = 1.0 - r
    fm = n * r + r
    m = int(np.floor(fm))
    p1 = np.floor(2.195 * math.sqrt(n * r * q) - 4.6 * q) + 0.5
    xm = m + 0.5
    xl = xm - p1
    xr = xm + p1
    c = 0.134 + 20.5 / (15.3 + m)
    a = (fm - xl) / (fm - xl * r)
    laml = a * (1.0 + a / 2.0)
    a = (xr - fm) / (xr * q)
    lamr = a * (1.0 + a / 2.0)
    p2 = p1 * (1.0 + 2.0 * c)
    p3 = p2 + c / laml
    p4 = p3 + c / lamr
    nrq = n * r * q
    return r, q, m, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4, nrq


def btpe(rng, n, p):
    """``random_binomial_btpe`` (``p <= 0.5``)."""
    return btpe_with(rng, n, btpe_setup(n, p))


def btpe_with(rng, n, setup):
    """One draw of ``random_binomial_btpe`` after its set-up."""
    r, q, m, p1, xm, xl, xr, c, laml, lamr, p2, p3, p4, nrq = setup
    while True:
        u = prims.rng_next_double(rng) * p4
        v = prims.rng_next_double(rng)
        if u <= p1:                                       # step 1: the triangle
            return int(np.floor(xm - p1 * v + u))
        if u <= p2:                                       # step 2: parallelogram
            x = xl + (u - p1) / c
            v = v * c + 1.0 - abs(m - x + 0.5) / p1
            if v > 1.0:
                continue
            y = int(np.floor(x))
        elif u <= p3:                                     # step 3: left tail
            fy = np.floor(xl + prims.log(v) / laml)
            if fy < 0.0 or v == 0.0:
                continue
            y = int(fy)
            v = v * (u - p2) * laml
        else:                                             # step 4: right tail
            fy = np.floor(xr - prims.log(v) / lamr)
            if fy > n or v == 0.0:
                continue
            y = int(fy)
            v = v * (u - p3) * lamr
        k = abs(y - m)                                    # step 5
        if not (k > 20 and k < nrq / 2.0 - 1.0):
            s = r / q
            a = s * (n + 1)
            f = 1.0
            if m < y:
                for i in range(m + 1, y + 1):
                    f = f * (a / i - s)
            elif m > y:
                for i in range(y + 1, m + 1):
                    f = f / (a / i - s)
            if v > f:
                continue
            return y
        rho = (k / nrq) * ((k * (k / 3.0 + 0.625) + 0.16666666666666666) / nrq + 0.5)
        t = -k * k / (2.0 * nrq)
        big_a = prims.log(v)
        if big_a < t - rho:
            return y
        if big_a > t + rho:
            continue
        x1 = y + 1.0
        f1 = m + 1.0
        z = n + 1.0 - m
        w = n - y + 1.0
        if big_a > (xm * prims.log(f1 / x1) + (n - m + 0.5) * prims.log(z / w)
                    + (y - m) * prims.log(w * r / (x1 * q))
                    + _stirling(f1) + _stirling(z) + _stirling(x1) + _stirling(w)):
            continue
        return y


def binomial_draw(rng, n, p):
    """``random_binomial``."""
    if n == 0 or p == 0.0:
        return 0
    if p <= 0.5:
        if p * n <= 30.0:
            return inversion(rng, n, p)
        return btpe(rng, n, p)
    q = 1.0 - p
    if q * n <= 30.0:
        return n - inversion(rng, n, q)
    return n - btpe(rng, n, q)



def fill_binomial(rng, out, n, p):
    """``random_binomial`` for every element of ``out`` (1-D int64), one ``n``
    and ``p``: the inversion's set-up made once, as NumPy keeps it in
    ``binomial_t`` between the draws of one call (an exp, a log and a square
    root a draw otherwise, a tenth of ``binomial(100, 0.3)``), and BTPE's."""
    if n == 0 or p == 0.0:
        for i in range(out.shape[0]):
            out[i] = 0
        return
    fill_binomial_drawn(rng, out, n, p)


def fill_binomial_drawn(rng, out, n, p):
    """:func:`fill_binomial` without its zeros for ``n == 0`` or ``p == 0``
    (the inversion then draws a uniform each: ``legacy_random_binomial``)."""
    flip = p > 0.5
    r = 1.0 - p if flip else p
    if r * n <= 30.0:
        q, qn, bound = inversion_setup(n, r)
        for i in range(out.shape[0]):
            x = inversion_with(rng, n, r, q, qn, bound)
            out[i] = n - x if flip else x
    else:
        setup = btpe_setup(n, r)
        for i in range(out.shape[0]):
            x = btpe_with(rng, n, setup)
            out[i] = n - x if flip else x
