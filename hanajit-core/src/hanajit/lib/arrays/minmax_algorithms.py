"""Which zero NumPy's ``maximum.reduce``/``minimum.reduce`` (``np.max``, ``np.min``)
of a float lane returns when the extreme is zero, in Python source compiled by
hanajit (see ``lib/python/helpers.py``).  Its loops (``loops_minmax``) combine
values with ``pick`` -- x86's ``maxsd``/``maxpd`` (``minsd``/``minpd``): the
second operand of two equal values:

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

When the extreme is a zero, every other value loses every ``pick`` (it is
below a zero for a max), so ``pick(p, q)`` is ``q`` when ``q`` is a zero, else
``p``: the later zero wins.  Each tree of picks is then "the last zero in its
operands' order", and the loops need not be run: a lane's accumulator is the
last zero of its values, and the fold and the rest one by one take the last
zero of theirs -- found scanning back from the end, which stops at the first
zero met (``contiguous``, ``strided``; the test suite follows NumPy's loops
step by step to check it).

``W`` and ``low_from`` are the installed NumPy's on this host
(``zero_pick.simd_model``, asked of NumPy once per type).  The zeros are
not looked at again when the vector loop that found the zero saw its sign only
(``extreme_lanes._lanes``); otherwise the scan back runs at once, which stops
early where zeros are many (a count of their signs first, ``one_zero_sign``,
was a pass of its own; ``statistics/order_stats`` still uses it).  A whole
contiguous array's ``np.min``/``np.max`` keeps its blocks' extremes
(``extreme_lanes.extreme_zero``), and the scan back skips the blocks that hold
no zero (``contiguous_blocks``): a few zeros among 10**6 values no longer cost
a pass over all of them.
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


def contiguous(a, big, W, low_from):
    """The zero NumPy's contiguous loop with ``W`` lanes returns for the float
    lane ``a`` whose extreme (``big``: max) is a zero (module docstring); a
    value that is not a zero when ``a`` has none."""
    return contiguous_blocks(a, big, W, low_from, np.zeros(1, a.dtype), 62)


def contiguous_blocks(a, big, W, low_from, ext, shift):
    """:func:`contiguous`, told that block ``b`` of ``a`` (its ``2 ** shift``
    values from ``b << shift``) holds no zero where ``ext[b]``, the extreme of
    that block, is not zero (the extreme of all being a zero): the scan back
    jumps over such blocks, so that a few zeros among many values cost a look
    at their blocks only
    (``extreme_lanes.extreme_zero``)."""
    n = len(a)
    end = 1 + W * ((n - 1) // W)        # the values after ``end`` go one by one
    for k in range(n - 1, end - 1, -1):
        if a[k] == 0:
            return a[k]
    acc = np.empty(W, a.dtype)          # each lane's last zero, where ``found``
    found = np.zeros(W, np.bool_)
    left = W
    k = end - 1
    while left > 0:
        while k >= 16:
            if ext[k >> shift] != 0:
                k = ((k >> shift) << shift) - 1     # to the end of the block before
            elif not _any_zero(a, k - 15):
                k -= 16         # (sixteen values at a time: vector compares)
            else:
                break
        while k >= 1 and a[k] != 0:
            k -= 1
        if k < 1:
            break
        lane = (k - 1) % W
        if not found[lane]:
            acc[lane] = a[k]
            found[lane] = True
            left -= 1
        k -= 1
    if a[0] == 0:                       # every lane starts from the first value
        for lane in range(W):
            if not found[lane]:
                acc[lane] = a[0]
                found[lane] = True
    h = W // 2
    while h >= 1:
        for lane in range(h):
            if h * a.itemsize >= low_from:      # pick(upper, lower)
                if not found[lane] and found[lane + h]:
                    acc[lane] = acc[lane + h]
                    found[lane] = True
            elif found[lane + h]:               # pick(lower, upper)
                acc[lane] = acc[lane + h]
                found[lane] = True
        h = h // 2
    return acc[0] if found[0] else a[0]


def _any_zero(a, lo):
    """Is any of ``a[lo:lo + 16]`` a zero?"""
    z = False
    for j in range(16):
        z = z | (a[lo + j] == 0)
    return z


def strided(a, big):
    """The zero NumPy's strided loop returns for the float lane ``a`` whose
    extreme (``big``: max) is a zero (module docstring): the last zero of the
    values one by one, else of the highest of the eight accumulators that
    holds one, else the first value."""
    n = len(a)
    end = 1 + 8 * ((n - 1) // 8)
    for k in range(n - 1, end - 1, -1):
        if a[k] == 0:
            return a[k]
    for j in range(7, -1, -1):
        for k in range(end - 8 + j, 0, -8):
            if a[k] == 0:
                return a[k]
    return a[0]


# every index above is in range by construction
contiguous.hj_unchecked = True
contiguous_blocks.hj_unchecked = True
_any_zero.hj_unchecked = True
_any_zero.hj_inline = True
strided.hj_unchecked = True
one_zero_sign.hj_unchecked = True
