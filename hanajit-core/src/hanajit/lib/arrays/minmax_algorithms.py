"""Which zero NumPy's ``maximum.reduce``/``minimum.reduce`` (``np.max``, ``np.min``)
of a float lane returns when the extreme is zero, in Python source compiled by
hanajit (see ``lib/python/helpers.py``) and run only then: its loops (``loops_minmax``) are
followed step by step on the lane, with ``pick`` -- x86's ``maxsd``/``maxpd``
(``minsd``/``minpd``): the second operand of two equal values.

* contiguous lane of ``n`` values, ``W`` SIMD lanes (``contiguous``): the first
  value is the accumulator in every lane; blocks of ``8 * W`` combine as
  ``acc = pick(acc, pick(pick(v0, v1), pick(v2, v3)), pick(pick(v4, v5),
  pick(v6, v7)))`` lane by lane, then single vectors ``acc = pick(acc, v)``, then
  the lanes fold in halves (lane ``l`` with lane ``l + W/2``: ``pick(lower,
  upper)``, except that halves of ``low_from`` bytes or more are taken as
  ``pick(upper, lower)``, the order of GCC's ``_mm512_reduce_max_pd`` that NumPy
  uses with AVX-512), then the rest one by one;
* strided lane (``strided``): after the first value, eight accumulators take
  every eighth of the following values (from 8 of them), folded as
  ``((m0, m1), (m2, m3)), ((m4, m5), (m6, m7))``, then the rest one by one.

``W`` and ``low_from`` are the installed NumPy's on this host
(``zero_pick.simd_model``, asked of NumPy once per type).  They are followed
only when the lane holds zeros of both signs (``one_zero_sign``).
"""
import math

import numpy as np


def one_zero_sign(a):
    """Are the zeros of the 1-D ``a`` all of one sign?  Then any zero taken
    from it is the one NumPy's loops return, and they need not be followed
    (a sum of compares: vector code)."""
    zeros = 0
    negative = 0
    for i in range(len(a)):
        x = a[i]
        zeros += x == 0
        negative += (x == 0) & (math.copysign(1.0, x) < 0)
    return negative == 0 or negative == zeros


def pick(p, q, big):
    if p == q:
        return q
    if big:
        return p if p > q else q
    return p if p < q else q


def contiguous(a, big, W, low_from):
    n = len(a)
    acc = np.empty(W, a.dtype)
    for l in range(W):
        acc[l] = a[0]
    i = 1
    while n - i >= 8 * W:
        for l in range(W):
            r01 = pick(a[i + l], a[i + W + l], big)
            r23 = pick(a[i + 2 * W + l], a[i + 3 * W + l], big)
            r45 = pick(a[i + 4 * W + l], a[i + 5 * W + l], big)
            r67 = pick(a[i + 6 * W + l], a[i + 7 * W + l], big)
            acc[l] = pick(acc[l], pick(pick(r01, r23, big), pick(r45, r67, big), big), big)
        i += 8 * W
    while n - i >= W:
        for l in range(W):
            acc[l] = pick(acc[l], a[i + l], big)
        i += W
    h = W // 2
    while h >= 1:
        for l in range(h):
            if h * a.itemsize >= low_from:
                acc[l] = pick(acc[l + h], acc[l], big)
            else:
                acc[l] = pick(acc[l], acc[l + h], big)
        h = h // 2
    r = acc[0]
    for k in range(i, n):
        r = pick(r, a[k], big)
    return r


def strided(a, big):
    n = len(a)
    out = a[0]
    i = 1
    if n - 1 >= 8:
        m = np.empty(8, a.dtype)
        for j in range(8):
            m[j] = a[1 + j]
        i = 9
        while i + 8 <= n:
            for j in range(8):
                m[j] = pick(m[j], a[i + j], big)
            i += 8
        m0 = pick(m[0], m[1], big)
        m2 = pick(m[2], m[3], big)
        m4 = pick(m[4], m[5], big)
        m6 = pick(m[6], m[7], big)
        out = pick(out, pick(pick(m0, m2, big), pick(m4, m6, big), big), big)
    for k in range(i, n):
        out = pick(out, a[k], big)
    return out


# run only when the extreme is a zero: compiled without optimisation and not
# inlined (pipeline.py, ``hj_compact``), so a caller of np.max/np.min compiles as
# fast as before
contiguous.hj_compact = True
strided.hj_compact = True
one_zero_sign.hj_unchecked = True
