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


# every index above is in range by construction: no checks (pipeline.py)
for _f in (column_extremes, _columns, _pick):
    _f.hj_unchecked = True
_columns.hj_inline = True
_pick.hj_inline = True
