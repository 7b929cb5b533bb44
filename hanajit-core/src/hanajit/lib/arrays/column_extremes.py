"""``np.min``/``np.max`` of a 2-D float or integer array along its first axis, in Python
source compiled by hanajit (see ``lib/python/helpers.py``): blocks of
:data:`LANES` columns, each column's extreme kept in a register while the
rows go by, stored once at the end.  The values meet in the order of
``axis_reduce.accumulate`` (row by row), with its rule: of equal values the
later wins (which zero), a NaN wins and the first NaN stays -- the same
result bit for bit.  ``accumulate`` itself stores every row's maxima into the
result, and LLVM makes those stores of a select with the value loaded
``vmaskmovpd``, slow on AMD CPUs (``a.max(axis=0)`` of 300 x 300 values: 51 us
against NumPy's 24 on a Zen 2 host; 19 us this way).  Arrays of fewer than
``LANES`` columns keep ``accumulate``.  Other axes, N-D arrays and expressions
are ``accumulate``'s too.  Integers (which have no NaN and whose equal values
are the same) take the same loops: int64 ``a.min(axis=0)`` of 300 x 300 values
went from 48 to 18 us (NumPy 22)."""
LANES = 16


def _pick(m, x, big):
    """``x`` when it replaces ``m``: not smaller (larger), or a NaN, while ``m``
    is not a NaN."""
    if big:
        return x if ((x >= m) | (x != x)) & (m == m) else m
    return x if ((x <= m) | (x != x)) & (m == m) else m


def column_extremes(a, out, big):
    """``out[j]`` = the max (``big``) or min of column ``j`` of the 2-D float
    array ``a`` (at least one row; any strides)."""
    # (a copy of the loops for each direction, a constant in each: a shared
    # helper piece would otherwise test ``big`` at every value)
    if big:
        return _columns(a, out, True)
    return _columns(a, out, False)


def _columns(a, out, big):
    """:func:`column_extremes`."""
    rows, cols = a.shape
    blocks = cols // LANES
    for b in range(blocks):
        j = b * LANES
        m0 = a[0, j + 0]
        m1 = a[0, j + 1]
        m2 = a[0, j + 2]
        m3 = a[0, j + 3]
        m4 = a[0, j + 4]
        m5 = a[0, j + 5]
        m6 = a[0, j + 6]
        m7 = a[0, j + 7]
        m8 = a[0, j + 8]
        m9 = a[0, j + 9]
        m10 = a[0, j + 10]
        m11 = a[0, j + 11]
        m12 = a[0, j + 12]
        m13 = a[0, j + 13]
        m14 = a[0, j + 14]
        m15 = a[0, j + 15]
        for i in range(1, rows):
            m0 = _pick(m0, a[i, j + 0], big)
            m1 = _pick(m1, a[i, j + 1], big)
            m2 = _pick(m2, a[i, j + 2], big)
            m3 = _pick(m3, a[i, j + 3], big)
            m4 = _pick(m4, a[i, j + 4], big)
            m5 = _pick(m5, a[i, j + 5], big)
            m6 = _pick(m6, a[i, j + 6], big)
            m7 = _pick(m7, a[i, j + 7], big)
            m8 = _pick(m8, a[i, j + 8], big)
            m9 = _pick(m9, a[i, j + 9], big)
            m10 = _pick(m10, a[i, j + 10], big)
            m11 = _pick(m11, a[i, j + 11], big)
            m12 = _pick(m12, a[i, j + 12], big)
            m13 = _pick(m13, a[i, j + 13], big)
            m14 = _pick(m14, a[i, j + 14], big)
            m15 = _pick(m15, a[i, j + 15], big)
        out[j + 0] = m0
        out[j + 1] = m1
        out[j + 2] = m2
        out[j + 3] = m3
        out[j + 4] = m4
        out[j + 5] = m5
        out[j + 6] = m6
        out[j + 7] = m7
        out[j + 8] = m8
        out[j + 9] = m9
        out[j + 10] = m10
        out[j + 11] = m11
        out[j + 12] = m12
        out[j + 13] = m13
        out[j + 14] = m14
        out[j + 15] = m15
    for j in range(blocks * LANES, cols):
        m = a[0, j]
        for i in range(1, rows):
            m = _pick(m, a[i, j], big)
        out[j] = m
    return 0


def column_args(a, out, big):
    """``out[j]`` = the argmax (``big``) or argmin of column ``j`` of the 2-D
    float or integer array ``a`` (at least one row; any strides): the first
    row of the extreme, or of the first NaN."""
    if big:
        return _arg_columns(a, out, True)
    return _arg_columns(a, out, False)


def _better(m, x, big):
    """Does ``x`` replace ``m`` in an argmax (argmin): strictly larger (smaller),
    or a NaN, while ``m`` is not a NaN."""
    if big:
        return ((x > m) | (x != x)) & (m == m)
    return ((x < m) | (x != x)) & (m == m)


def _arg_columns(a, out, big):
    """:func:`column_args`."""
    rows, cols = a.shape
    blocks = cols // LANES
    for b in range(blocks):
        j = b * LANES
        m0 = a[0, j + 0]
        p0 = 0
        m1 = a[0, j + 1]
        p1 = 0
        m2 = a[0, j + 2]
        p2 = 0
        m3 = a[0, j + 3]
        p3 = 0
        m4 = a[0, j + 4]
        p4 = 0
        m5 = a[0, j + 5]
        p5 = 0
        m6 = a[0, j + 6]
        p6 = 0
        m7 = a[0, j + 7]
        p7 = 0
        m8 = a[0, j + 8]
        p8 = 0
        m9 = a[0, j + 9]
        p9 = 0
        m10 = a[0, j + 10]
        p10 = 0
        m11 = a[0, j + 11]
        p11 = 0
        m12 = a[0, j + 12]
        p12 = 0
        m13 = a[0, j + 13]
        p13 = 0
        m14 = a[0, j + 14]
        p14 = 0
        m15 = a[0, j + 15]
        p15 = 0
        for i in range(1, rows):
            x0 = a[i, j + 0]
            c0 = _better(m0, x0, big)
            m0 = x0 if c0 else m0
            p0 = i if c0 else p0
            x1 = a[i, j + 1]
            c1 = _better(m1, x1, big)
            m1 = x1 if c1 else m1
            p1 = i if c1 else p1
            x2 = a[i, j + 2]
            c2 = _better(m2, x2, big)
            m2 = x2 if c2 else m2
            p2 = i if c2 else p2
            x3 = a[i, j + 3]
            c3 = _better(m3, x3, big)
            m3 = x3 if c3 else m3
            p3 = i if c3 else p3
            x4 = a[i, j + 4]
            c4 = _better(m4, x4, big)
            m4 = x4 if c4 else m4
            p4 = i if c4 else p4
            x5 = a[i, j + 5]
            c5 = _better(m5, x5, big)
            m5 = x5 if c5 else m5
            p5 = i if c5 else p5
            x6 = a[i, j + 6]
            c6 = _better(m6, x6, big)
            m6 = x6 if c6 else m6
            p6 = i if c6 else p6
            x7 = a[i, j + 7]
            c7 = _better(m7, x7, big)
            m7 = x7 if c7 else m7
            p7 = i if c7 else p7
            x8 = a[i, j + 8]
            c8 = _better(m8, x8, big)
            m8 = x8 if c8 else m8
            p8 = i if c8 else p8
            x9 = a[i, j + 9]
            c9 = _better(m9, x9, big)
            m9 = x9 if c9 else m9
            p9 = i if c9 else p9
            x10 = a[i, j + 10]
            c10 = _better(m10, x10, big)
            m10 = x10 if c10 else m10
            p10 = i if c10 else p10
            x11 = a[i, j + 11]
            c11 = _better(m11, x11, big)
            m11 = x11 if c11 else m11
            p11 = i if c11 else p11
            x12 = a[i, j + 12]
            c12 = _better(m12, x12, big)
            m12 = x12 if c12 else m12
            p12 = i if c12 else p12
            x13 = a[i, j + 13]
            c13 = _better(m13, x13, big)
            m13 = x13 if c13 else m13
            p13 = i if c13 else p13
            x14 = a[i, j + 14]
            c14 = _better(m14, x14, big)
            m14 = x14 if c14 else m14
            p14 = i if c14 else p14
            x15 = a[i, j + 15]
            c15 = _better(m15, x15, big)
            m15 = x15 if c15 else m15
            p15 = i if c15 else p15
        out[j + 0] = p0
        out[j + 1] = p1
        out[j + 2] = p2
        out[j + 3] = p3
        out[j + 4] = p4
        out[j + 5] = p5
        out[j + 6] = p6
        out[j + 7] = p7
        out[j + 8] = p8
        out[j + 9] = p9
        out[j + 10] = p10
        out[j + 11] = p11
        out[j + 12] = p12
        out[j + 13] = p13
        out[j + 14] = p14
        out[j + 15] = p15
    for j in range(blocks * LANES, cols):
        m = a[0, j]
        p = 0
        for i in range(1, rows):
            x = a[i, j]
            c = _better(m, x, big)
            m = x if c else m
            p = i if c else p
        out[j] = p
    return 0


# every index above is in range by construction: no checks (pipeline.py)
for _f in (column_extremes, _columns, _pick, column_args, _arg_columns, _better):
    _f.hj_unchecked = True
for _f in (_columns, _pick, _arg_columns, _better):
    _f.hj_inline = True
