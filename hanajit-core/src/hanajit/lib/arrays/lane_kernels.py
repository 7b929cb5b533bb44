"""The vector loops of ``np.min``/``np.max`` (``extreme_lanes``): the least or
largest of a contiguous run of float values in 32 accumulators, LLVM's SLP
vectoriser making them vector ``min``/``max`` instructions, NaNs watched beside
them; and of a short run in eight (``short_extremes``).  Python source compiled
by hanajit; the loops are written out value by value, from one template per
kind where only the compare differs: written by ``scripts/gen_lane_kernels.py``
(edit the script, not this module).
"""
import numpy as np

LANES = 16


def keep(v, x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11, x12, x13, x14, x15):
    """``v[:16] = x0 .. x15``: the lanes' accumulators stored after a loop, which
    makes LLVM's SLP vectoriser take them as vectors (:func:`_lanes`).  Inlined
    where it is called."""
    v[0] = x0
    v[1] = x1
    v[2] = x2
    v[3] = x3
    v[4] = x4
    v[5] = x5
    v[6] = x6
    v[7] = x7
    v[8] = x8
    v[9] = x9
    v[10] = x10
    v[11] = x11
    v[12] = x12
    v[13] = x13
    v[14] = x14
    v[15] = x15


def lanes_min(a, lo, n, scratch, nans):
    """The least of ``a[lo:lo + n]`` (``n >= 2 * LANES``), or a NaN of ``a``
    when there is one.  Each of 32 accumulators keeps ``m if m < x else x``
    (vector ``min`` instructions; a NaN ``x`` would be dropped again by the next
    value, so NaNs are watched apart, in ``u``: int32 masks, 0 or -1, which stay
    vector registers where bools were packed to bytes at every step).  32
    accumulators, not 16: each vector ``min`` waits on the one before in its
    accumulator, and 16 float64 lanes were only four chains of 256-bit vectors,
    below what L2 delivers.  One mask watches lanes ``j`` and ``j + 16``
    (``(x != x) | (y != y)`` is one unordered compare of ``x`` and ``y``), and
    the two are folded after the loop, so the lanes left in ``scratch`` and
    ``nans`` are still :data:`LANES`: lane ``k`` of the values at ``k`` modulo
    16 from ``lo`` (``_stepped_at`` keeps some of them), its least and whether
    it met a NaN.  (The min and the max are two functions: as the max of ``-a``
    the min paid a negation of every value.)"""
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    m8 = a[lo + 8]
    m9 = a[lo + 9]
    m10 = a[lo + 10]
    m11 = a[lo + 11]
    m12 = a[lo + 12]
    m13 = a[lo + 13]
    m14 = a[lo + 14]
    m15 = a[lo + 15]
    m16 = a[lo + 16]
    m17 = a[lo + 17]
    m18 = a[lo + 18]
    m19 = a[lo + 19]
    m20 = a[lo + 20]
    m21 = a[lo + 21]
    m22 = a[lo + 22]
    m23 = a[lo + 23]
    m24 = a[lo + 24]
    m25 = a[lo + 25]
    m26 = a[lo + 26]
    m27 = a[lo + 27]
    m28 = a[lo + 28]
    m29 = a[lo + 29]
    m30 = a[lo + 30]
    m31 = a[lo + 31]
    u0 = -np.int32((m0 != m0) | (m16 != m16))
    u1 = -np.int32((m1 != m1) | (m17 != m17))
    u2 = -np.int32((m2 != m2) | (m18 != m18))
    u3 = -np.int32((m3 != m3) | (m19 != m19))
    u4 = -np.int32((m4 != m4) | (m20 != m20))
    u5 = -np.int32((m5 != m5) | (m21 != m21))
    u6 = -np.int32((m6 != m6) | (m22 != m22))
    u7 = -np.int32((m7 != m7) | (m23 != m23))
    u8 = -np.int32((m8 != m8) | (m24 != m24))
    u9 = -np.int32((m9 != m9) | (m25 != m25))
    u10 = -np.int32((m10 != m10) | (m26 != m26))
    u11 = -np.int32((m11 != m11) | (m27 != m27))
    u12 = -np.int32((m12 != m12) | (m28 != m28))
    u13 = -np.int32((m13 != m13) | (m29 != m29))
    u14 = -np.int32((m14 != m14) | (m30 != m30))
    u15 = -np.int32((m15 != m15) | (m31 != m31))
    pairs = n // 32
    for b in range(1, pairs):
        j = lo + 32 * b
        x0 = a[j + 0]
        m0 = m0 if m0 < x0 else x0
        x1 = a[j + 1]
        m1 = m1 if m1 < x1 else x1
        x2 = a[j + 2]
        m2 = m2 if m2 < x2 else x2
        x3 = a[j + 3]
        m3 = m3 if m3 < x3 else x3
        x4 = a[j + 4]
        m4 = m4 if m4 < x4 else x4
        x5 = a[j + 5]
        m5 = m5 if m5 < x5 else x5
        x6 = a[j + 6]
        m6 = m6 if m6 < x6 else x6
        x7 = a[j + 7]
        m7 = m7 if m7 < x7 else x7
        x8 = a[j + 8]
        m8 = m8 if m8 < x8 else x8
        x9 = a[j + 9]
        m9 = m9 if m9 < x9 else x9
        x10 = a[j + 10]
        m10 = m10 if m10 < x10 else x10
        x11 = a[j + 11]
        m11 = m11 if m11 < x11 else x11
        x12 = a[j + 12]
        m12 = m12 if m12 < x12 else x12
        x13 = a[j + 13]
        m13 = m13 if m13 < x13 else x13
        x14 = a[j + 14]
        m14 = m14 if m14 < x14 else x14
        x15 = a[j + 15]
        m15 = m15 if m15 < x15 else x15
        x16 = a[j + 16]
        m16 = m16 if m16 < x16 else x16
        x17 = a[j + 17]
        m17 = m17 if m17 < x17 else x17
        x18 = a[j + 18]
        m18 = m18 if m18 < x18 else x18
        x19 = a[j + 19]
        m19 = m19 if m19 < x19 else x19
        x20 = a[j + 20]
        m20 = m20 if m20 < x20 else x20
        x21 = a[j + 21]
        m21 = m21 if m21 < x21 else x21
        x22 = a[j + 22]
        m22 = m22 if m22 < x22 else x22
        x23 = a[j + 23]
        m23 = m23 if m23 < x23 else x23
        x24 = a[j + 24]
        m24 = m24 if m24 < x24 else x24
        x25 = a[j + 25]
        m25 = m25 if m25 < x25 else x25
        x26 = a[j + 26]
        m26 = m26 if m26 < x26 else x26
        x27 = a[j + 27]
        m27 = m27 if m27 < x27 else x27
        x28 = a[j + 28]
        m28 = m28 if m28 < x28 else x28
        x29 = a[j + 29]
        m29 = m29 if m29 < x29 else x29
        x30 = a[j + 30]
        m30 = m30 if m30 < x30 else x30
        x31 = a[j + 31]
        m31 = m31 if m31 < x31 else x31
        u0 = u0 | -np.int32((x0 != x0) | (x16 != x16))
        u1 = u1 | -np.int32((x1 != x1) | (x17 != x17))
        u2 = u2 | -np.int32((x2 != x2) | (x18 != x18))
        u3 = u3 | -np.int32((x3 != x3) | (x19 != x19))
        u4 = u4 | -np.int32((x4 != x4) | (x20 != x20))
        u5 = u5 | -np.int32((x5 != x5) | (x21 != x21))
        u6 = u6 | -np.int32((x6 != x6) | (x22 != x22))
        u7 = u7 | -np.int32((x7 != x7) | (x23 != x23))
        u8 = u8 | -np.int32((x8 != x8) | (x24 != x24))
        u9 = u9 | -np.int32((x9 != x9) | (x25 != x25))
        u10 = u10 | -np.int32((x10 != x10) | (x26 != x26))
        u11 = u11 | -np.int32((x11 != x11) | (x27 != x27))
        u12 = u12 | -np.int32((x12 != x12) | (x28 != x28))
        u13 = u13 | -np.int32((x13 != x13) | (x29 != x29))
        u14 = u14 | -np.int32((x14 != x14) | (x30 != x30))
        u15 = u15 | -np.int32((x15 != x15) | (x31 != x31))
    # lanes j and j + 16 folded: the values at j modulo 16
    m0 = m0 if m0 < m16 else m16
    m1 = m1 if m1 < m17 else m17
    m2 = m2 if m2 < m18 else m18
    m3 = m3 if m3 < m19 else m19
    m4 = m4 if m4 < m20 else m20
    m5 = m5 if m5 < m21 else m21
    m6 = m6 if m6 < m22 else m22
    m7 = m7 if m7 < m23 else m23
    m8 = m8 if m8 < m24 else m24
    m9 = m9 if m9 < m25 else m25
    m10 = m10 if m10 < m26 else m26
    m11 = m11 if m11 < m27 else m27
    m12 = m12 if m12 < m28 else m28
    m13 = m13 if m13 < m29 else m29
    m14 = m14 if m14 < m30 else m30
    m15 = m15 if m15 < m31 else m31
    done = 32 * pairs
    if n - done >= LANES:     # one block of 16 more
        j = lo + done
        x0 = a[j + 0]
        m0 = m0 if m0 < x0 else x0
        u0 = u0 | -np.int32(x0 != x0)
        x1 = a[j + 1]
        m1 = m1 if m1 < x1 else x1
        u1 = u1 | -np.int32(x1 != x1)
        x2 = a[j + 2]
        m2 = m2 if m2 < x2 else x2
        u2 = u2 | -np.int32(x2 != x2)
        x3 = a[j + 3]
        m3 = m3 if m3 < x3 else x3
        u3 = u3 | -np.int32(x3 != x3)
        x4 = a[j + 4]
        m4 = m4 if m4 < x4 else x4
        u4 = u4 | -np.int32(x4 != x4)
        x5 = a[j + 5]
        m5 = m5 if m5 < x5 else x5
        u5 = u5 | -np.int32(x5 != x5)
        x6 = a[j + 6]
        m6 = m6 if m6 < x6 else x6
        u6 = u6 | -np.int32(x6 != x6)
        x7 = a[j + 7]
        m7 = m7 if m7 < x7 else x7
        u7 = u7 | -np.int32(x7 != x7)
        x8 = a[j + 8]
        m8 = m8 if m8 < x8 else x8
        u8 = u8 | -np.int32(x8 != x8)
        x9 = a[j + 9]
        m9 = m9 if m9 < x9 else x9
        u9 = u9 | -np.int32(x9 != x9)
        x10 = a[j + 10]
        m10 = m10 if m10 < x10 else x10
        u10 = u10 | -np.int32(x10 != x10)
        x11 = a[j + 11]
        m11 = m11 if m11 < x11 else x11
        u11 = u11 | -np.int32(x11 != x11)
        x12 = a[j + 12]
        m12 = m12 if m12 < x12 else x12
        u12 = u12 | -np.int32(x12 != x12)
        x13 = a[j + 13]
        m13 = m13 if m13 < x13 else x13
        u13 = u13 | -np.int32(x13 != x13)
        x14 = a[j + 14]
        m14 = m14 if m14 < x14 else x14
        u14 = u14 | -np.int32(x14 != x14)
        x15 = a[j + 15]
        m15 = m15 if m15 < x15 else x15
        u15 = u15 | -np.int32(x15 != x15)
        done += LANES
    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,
         m8, m9, m10, m11, m12, m13, m14, m15)
    keep(nans, u0 != 0, u1 != 0, u2 != 0, u3 != 0, u4 != 0, u5 != 0, u6 != 0, u7 != 0,
         u8 != 0, u9 != 0, u10 != 0, u11 != 0, u12 != 0, u13 != 0, u14 != 0, u15 != 0)
    r = m0
    r = r if r < m1 else m1
    r = r if r < m2 else m2
    r = r if r < m3 else m3
    r = r if r < m4 else m4
    r = r if r < m5 else m5
    r = r if r < m6 else m6
    r = r if r < m7 else m7
    r = r if r < m8 else m8
    r = r if r < m9 else m9
    r = r if r < m10 else m10
    r = r if r < m11 else m11
    r = r if r < m12 else m12
    r = r if r < m13 else m13
    r = r if r < m14 else m14
    r = r if r < m15 else m15
    u = (u0 | u1 | u2 | u3 | u4 | u5 | u6 | u7
         | u8 | u9 | u10 | u11 | u12 | u13 | u14 | u15) != 0
    for i in range(lo + done, lo + n):
        x = a[i]
        r = r if r < x else x
        u = u | (x != x)
    if u:
        return first_nan_value(a, lo, n, 1)
    return r


def lanes_max(a, lo, n, scratch, nans):
    """:func:`lanes_min`'s largest instead of least."""
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    m8 = a[lo + 8]
    m9 = a[lo + 9]
    m10 = a[lo + 10]
    m11 = a[lo + 11]
    m12 = a[lo + 12]
    m13 = a[lo + 13]
    m14 = a[lo + 14]
    m15 = a[lo + 15]
    m16 = a[lo + 16]
    m17 = a[lo + 17]
    m18 = a[lo + 18]
    m19 = a[lo + 19]
    m20 = a[lo + 20]
    m21 = a[lo + 21]
    m22 = a[lo + 22]
    m23 = a[lo + 23]
    m24 = a[lo + 24]
    m25 = a[lo + 25]
    m26 = a[lo + 26]
    m27 = a[lo + 27]
    m28 = a[lo + 28]
    m29 = a[lo + 29]
    m30 = a[lo + 30]
    m31 = a[lo + 31]
    u0 = -np.int32((m0 != m0) | (m16 != m16))
    u1 = -np.int32((m1 != m1) | (m17 != m17))
    u2 = -np.int32((m2 != m2) | (m18 != m18))
    u3 = -np.int32((m3 != m3) | (m19 != m19))
    u4 = -np.int32((m4 != m4) | (m20 != m20))
    u5 = -np.int32((m5 != m5) | (m21 != m21))
    u6 = -np.int32((m6 != m6) | (m22 != m22))
    u7 = -np.int32((m7 != m7) | (m23 != m23))
    u8 = -np.int32((m8 != m8) | (m24 != m24))
    u9 = -np.int32((m9 != m9) | (m25 != m25))
    u10 = -np.int32((m10 != m10) | (m26 != m26))
    u11 = -np.int32((m11 != m11) | (m27 != m27))
    u12 = -np.int32((m12 != m12) | (m28 != m28))
    u13 = -np.int32((m13 != m13) | (m29 != m29))
    u14 = -np.int32((m14 != m14) | (m30 != m30))
    u15 = -np.int32((m15 != m15) | (m31 != m31))
    pairs = n // 32
    for b in range(1, pairs):
        j = lo + 32 * b
        x0 = a[j + 0]
        m0 = m0 if m0 > x0 else x0
        x1 = a[j + 1]
        m1 = m1 if m1 > x1 else x1
        x2 = a[j + 2]
        m2 = m2 if m2 > x2 else x2
        x3 = a[j + 3]
        m3 = m3 if m3 > x3 else x3
        x4 = a[j + 4]
        m4 = m4 if m4 > x4 else x4
        x5 = a[j + 5]
        m5 = m5 if m5 > x5 else x5
        x6 = a[j + 6]
        m6 = m6 if m6 > x6 else x6
        x7 = a[j + 7]
        m7 = m7 if m7 > x7 else x7
        x8 = a[j + 8]
        m8 = m8 if m8 > x8 else x8
        x9 = a[j + 9]
        m9 = m9 if m9 > x9 else x9
        x10 = a[j + 10]
        m10 = m10 if m10 > x10 else x10
        x11 = a[j + 11]
        m11 = m11 if m11 > x11 else x11
        x12 = a[j + 12]
        m12 = m12 if m12 > x12 else x12
        x13 = a[j + 13]
        m13 = m13 if m13 > x13 else x13
        x14 = a[j + 14]
        m14 = m14 if m14 > x14 else x14
        x15 = a[j + 15]
        m15 = m15 if m15 > x15 else x15
        x16 = a[j + 16]
        m16 = m16 if m16 > x16 else x16
        x17 = a[j + 17]
        m17 = m17 if m17 > x17 else x17
        x18 = a[j + 18]
        m18 = m18 if m18 > x18 else x18
        x19 = a[j + 19]
        m19 = m19 if m19 > x19 else x19
        x20 = a[j + 20]
        m20 = m20 if m20 > x20 else x20
        x21 = a[j + 21]
        m21 = m21 if m21 > x21 else x21
        x22 = a[j + 22]
        m22 = m22 if m22 > x22 else x22
        x23 = a[j + 23]
        m23 = m23 if m23 > x23 else x23
        x24 = a[j + 24]
        m24 = m24 if m24 > x24 else x24
        x25 = a[j + 25]
        m25 = m25 if m25 > x25 else x25
        x26 = a[j + 26]
        m26 = m26 if m26 > x26 else x26
        x27 = a[j + 27]
        m27 = m27 if m27 > x27 else x27
        x28 = a[j + 28]
        m28 = m28 if m28 > x28 else x28
        x29 = a[j + 29]
        m29 = m29 if m29 > x29 else x29
        x30 = a[j + 30]
        m30 = m30 if m30 > x30 else x30
        x31 = a[j + 31]
        m31 = m31 if m31 > x31 else x31
        u0 = u0 | -np.int32((x0 != x0) | (x16 != x16))
        u1 = u1 | -np.int32((x1 != x1) | (x17 != x17))
        u2 = u2 | -np.int32((x2 != x2) | (x18 != x18))
        u3 = u3 | -np.int32((x3 != x3) | (x19 != x19))
        u4 = u4 | -np.int32((x4 != x4) | (x20 != x20))
        u5 = u5 | -np.int32((x5 != x5) | (x21 != x21))
        u6 = u6 | -np.int32((x6 != x6) | (x22 != x22))
        u7 = u7 | -np.int32((x7 != x7) | (x23 != x23))
        u8 = u8 | -np.int32((x8 != x8) | (x24 != x24))
        u9 = u9 | -np.int32((x9 != x9) | (x25 != x25))
        u10 = u10 | -np.int32((x10 != x10) | (x26 != x26))
        u11 = u11 | -np.int32((x11 != x11) | (x27 != x27))
        u12 = u12 | -np.int32((x12 != x12) | (x28 != x28))
        u13 = u13 | -np.int32((x13 != x13) | (x29 != x29))
        u14 = u14 | -np.int32((x14 != x14) | (x30 != x30))
        u15 = u15 | -np.int32((x15 != x15) | (x31 != x31))
    # lanes j and j + 16 folded: the values at j modulo 16
    m0 = m0 if m0 > m16 else m16
    m1 = m1 if m1 > m17 else m17
    m2 = m2 if m2 > m18 else m18
    m3 = m3 if m3 > m19 else m19
    m4 = m4 if m4 > m20 else m20
    m5 = m5 if m5 > m21 else m21
    m6 = m6 if m6 > m22 else m22
    m7 = m7 if m7 > m23 else m23
    m8 = m8 if m8 > m24 else m24
    m9 = m9 if m9 > m25 else m25
    m10 = m10 if m10 > m26 else m26
    m11 = m11 if m11 > m27 else m27
    m12 = m12 if m12 > m28 else m28
    m13 = m13 if m13 > m29 else m29
    m14 = m14 if m14 > m30 else m30
    m15 = m15 if m15 > m31 else m31
    done = 32 * pairs
    if n - done >= LANES:     # one block of 16 more
        j = lo + done
        x0 = a[j + 0]
        m0 = m0 if m0 > x0 else x0
        u0 = u0 | -np.int32(x0 != x0)
        x1 = a[j + 1]
        m1 = m1 if m1 > x1 else x1
        u1 = u1 | -np.int32(x1 != x1)
        x2 = a[j + 2]
        m2 = m2 if m2 > x2 else x2
        u2 = u2 | -np.int32(x2 != x2)
        x3 = a[j + 3]
        m3 = m3 if m3 > x3 else x3
        u3 = u3 | -np.int32(x3 != x3)
        x4 = a[j + 4]
        m4 = m4 if m4 > x4 else x4
        u4 = u4 | -np.int32(x4 != x4)
        x5 = a[j + 5]
        m5 = m5 if m5 > x5 else x5
        u5 = u5 | -np.int32(x5 != x5)
        x6 = a[j + 6]
        m6 = m6 if m6 > x6 else x6
        u6 = u6 | -np.int32(x6 != x6)
        x7 = a[j + 7]
        m7 = m7 if m7 > x7 else x7
        u7 = u7 | -np.int32(x7 != x7)
        x8 = a[j + 8]
        m8 = m8 if m8 > x8 else x8
        u8 = u8 | -np.int32(x8 != x8)
        x9 = a[j + 9]
        m9 = m9 if m9 > x9 else x9
        u9 = u9 | -np.int32(x9 != x9)
        x10 = a[j + 10]
        m10 = m10 if m10 > x10 else x10
        u10 = u10 | -np.int32(x10 != x10)
        x11 = a[j + 11]
        m11 = m11 if m11 > x11 else x11
        u11 = u11 | -np.int32(x11 != x11)
        x12 = a[j + 12]
        m12 = m12 if m12 > x12 else x12
        u12 = u12 | -np.int32(x12 != x12)
        x13 = a[j + 13]
        m13 = m13 if m13 > x13 else x13
        u13 = u13 | -np.int32(x13 != x13)
        x14 = a[j + 14]
        m14 = m14 if m14 > x14 else x14
        u14 = u14 | -np.int32(x14 != x14)
        x15 = a[j + 15]
        m15 = m15 if m15 > x15 else x15
        u15 = u15 | -np.int32(x15 != x15)
        done += LANES
    keep(scratch, m0, m1, m2, m3, m4, m5, m6, m7,
         m8, m9, m10, m11, m12, m13, m14, m15)
    keep(nans, u0 != 0, u1 != 0, u2 != 0, u3 != 0, u4 != 0, u5 != 0, u6 != 0, u7 != 0,
         u8 != 0, u9 != 0, u10 != 0, u11 != 0, u12 != 0, u13 != 0, u14 != 0, u15 != 0)
    r = m0
    r = r if r > m1 else m1
    r = r if r > m2 else m2
    r = r if r > m3 else m3
    r = r if r > m4 else m4
    r = r if r > m5 else m5
    r = r if r > m6 else m6
    r = r if r > m7 else m7
    r = r if r > m8 else m8
    r = r if r > m9 else m9
    r = r if r > m10 else m10
    r = r if r > m11 else m11
    r = r if r > m12 else m12
    r = r if r > m13 else m13
    r = r if r > m14 else m14
    r = r if r > m15 else m15
    u = (u0 | u1 | u2 | u3 | u4 | u5 | u6 | u7
         | u8 | u9 | u10 | u11 | u12 | u13 | u14 | u15) != 0
    for i in range(lo + done, lo + n):
        x = a[i]
        r = r if r > x else x
        u = u | (x != x)
    if u:
        return first_nan_value(a, lo, n, 1)
    return r


def short_min(a, lo, n):
    """The least of ``a[lo:lo + n]`` (``n >= 4``), or a NaN of ``a``
    (``short_extremes``)."""
    if n < 8:
        m0 = a[lo + 0]
        m1 = a[lo + 1]
        m2 = a[lo + 2]
        m3 = a[lo + 3]
        x0 = a[lo + n - 4]
        x1 = a[lo + n - 3]
        x2 = a[lo + n - 2]
        x3 = a[lo + n - 1]
        if ((m0 != m0) | (m1 != m1) | (m2 != m2) | (m3 != m3)
                | (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3)):
            return first_nan_value(a, lo, n, 1)
        m0 = m0 if m0 < x0 else x0
        m1 = m1 if m1 < x1 else x1
        m2 = m2 if m2 < x2 else x2
        m3 = m3 if m3 < x3 else x3
        m0 = m0 if m0 < m2 else m2
        m1 = m1 if m1 < m3 else m3
        return m0 if m0 < m1 else m1
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    u0 = -np.int32((m0 != m0) | (m4 != m4))
    u1 = -np.int32((m1 != m1) | (m5 != m5))
    u2 = -np.int32((m2 != m2) | (m6 != m6))
    u3 = -np.int32((m3 != m3) | (m7 != m7))
    for t in range((n - 1) // 8):
        j = lo + min(8 + 8 * t, n - 8)
        x0 = a[j + 0]
        x1 = a[j + 1]
        x2 = a[j + 2]
        x3 = a[j + 3]
        x4 = a[j + 4]
        x5 = a[j + 5]
        x6 = a[j + 6]
        x7 = a[j + 7]
        m0 = m0 if m0 < x0 else x0
        m1 = m1 if m1 < x1 else x1
        m2 = m2 if m2 < x2 else x2
        m3 = m3 if m3 < x3 else x3
        m4 = m4 if m4 < x4 else x4
        m5 = m5 if m5 < x5 else x5
        m6 = m6 if m6 < x6 else x6
        m7 = m7 if m7 < x7 else x7
        u0 = u0 | -np.int32((x0 != x0) | (x4 != x4))
        u1 = u1 | -np.int32((x1 != x1) | (x5 != x5))
        u2 = u2 | -np.int32((x2 != x2) | (x6 != x6))
        u3 = u3 | -np.int32((x3 != x3) | (x7 != x7))
    if (u0 | u1 | u2 | u3) != 0:
        return first_nan_value(a, lo, n, 1)
    m0 = m0 if m0 < m4 else m4
    m1 = m1 if m1 < m5 else m5
    m2 = m2 if m2 < m6 else m6
    m3 = m3 if m3 < m7 else m7
    m0 = m0 if m0 < m2 else m2
    m1 = m1 if m1 < m3 else m3
    return m0 if m0 < m1 else m1


def short_max(a, lo, n):
    """The largest of ``a[lo:lo + n]`` (``n >= 4``), or a NaN of ``a``
    (``short_extremes``)."""
    if n < 8:
        m0 = a[lo + 0]
        m1 = a[lo + 1]
        m2 = a[lo + 2]
        m3 = a[lo + 3]
        x0 = a[lo + n - 4]
        x1 = a[lo + n - 3]
        x2 = a[lo + n - 2]
        x3 = a[lo + n - 1]
        if ((m0 != m0) | (m1 != m1) | (m2 != m2) | (m3 != m3)
                | (x0 != x0) | (x1 != x1) | (x2 != x2) | (x3 != x3)):
            return first_nan_value(a, lo, n, 1)
        m0 = m0 if m0 > x0 else x0
        m1 = m1 if m1 > x1 else x1
        m2 = m2 if m2 > x2 else x2
        m3 = m3 if m3 > x3 else x3
        m0 = m0 if m0 > m2 else m2
        m1 = m1 if m1 > m3 else m3
        return m0 if m0 > m1 else m1
    m0 = a[lo + 0]
    m1 = a[lo + 1]
    m2 = a[lo + 2]
    m3 = a[lo + 3]
    m4 = a[lo + 4]
    m5 = a[lo + 5]
    m6 = a[lo + 6]
    m7 = a[lo + 7]
    u0 = -np.int32((m0 != m0) | (m4 != m4))
    u1 = -np.int32((m1 != m1) | (m5 != m5))
    u2 = -np.int32((m2 != m2) | (m6 != m6))
    u3 = -np.int32((m3 != m3) | (m7 != m7))
    for t in range((n - 1) // 8):
        j = lo + min(8 + 8 * t, n - 8)
        x0 = a[j + 0]
        x1 = a[j + 1]
        x2 = a[j + 2]
        x3 = a[j + 3]
        x4 = a[j + 4]
        x5 = a[j + 5]
        x6 = a[j + 6]
        x7 = a[j + 7]
        m0 = m0 if m0 > x0 else x0
        m1 = m1 if m1 > x1 else x1
        m2 = m2 if m2 > x2 else x2
        m3 = m3 if m3 > x3 else x3
        m4 = m4 if m4 > x4 else x4
        m5 = m5 if m5 > x5 else x5
        m6 = m6 if m6 > x6 else x6
        m7 = m7 if m7 > x7 else x7
        u0 = u0 | -np.int32((x0 != x0) | (x4 != x4))
        u1 = u1 | -np.int32((x1 != x1) | (x5 != x5))
        u2 = u2 | -np.int32((x2 != x2) | (x6 != x6))
        u3 = u3 | -np.int32((x3 != x3) | (x7 != x7))
    if (u0 | u1 | u2 | u3) != 0:
        return first_nan_value(a, lo, n, 1)
    m0 = m0 if m0 > m4 else m4
    m1 = m1 if m1 > m5 else m5
    m2 = m2 if m2 > m6 else m6
    m3 = m3 if m3 > m7 else m7
    m0 = m0 if m0 > m2 else m2
    m1 = m1 if m1 > m3 else m3
    return m0 if m0 > m1 else m1


def first_nan_value(a, lo, n, step):
    """The first NaN of ``a[lo:lo + n:step]`` (there is one)."""
    for i in range(lo, lo + n, step):
        if a[i] != a[i]:                                # noqa: PLR0124
            return a[i]
    return a[lo]


# every index above is in range by construction: no checks (pipeline.py)
for _f in (keep, lanes_min, lanes_max, short_min, short_max, first_nan_value):
    _f.hj_unchecked = True
keep.hj_inline = True
lanes_min.hj_inline = True
lanes_max.hj_inline = True
short_min.hj_inline = True
short_max.hj_inline = True
