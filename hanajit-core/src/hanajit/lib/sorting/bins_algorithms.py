"""``np.digitize`` and ``np.isin`` in Python source compiled by hanajit (see
``lib/python/helpers.py``), each on values already in the common type NumPy
compares them in (``digitize.py``, ``isin.py``)."""
import numpy as np

from .sort_algorithms import search_left, searchsorted_into


def monotonicity(bins):
    """1 if ``bins`` rises (or holds one value, or is empty), -1 if it falls, 0
    if neither -- NumPy's ``_monotonicity``, step for step on the values as
    float64 (a NaN compares false, so ``[nan, 1, 2]`` is neither, ``[1, nan, 3]``
    falls)."""
    n = len(bins)
    if n == 0:
        return 1
    last = float(bins[0])
    i = 1
    while i < n and float(bins[i]) == last:
        i += 1
    if i == n:
        return 1
    nxt = float(bins[i])
    if last < nxt:
        for k in range(i + 1, n):
            last = nxt
            nxt = float(bins[k])
            if last > nxt:
                return 0
        return 1
    for k in range(i + 1, n):
        last = nxt
        nxt = float(bins[k])
        if last < nxt:
            return 0
    return -1


def digitize_into(x, bins, out, right):
    """``out[i]`` = the bin of ``x[i]``, as NumPy's ``digitize``: ``searchsorted``
    of the rising ``bins`` on the side ``right`` does not name, of the reversed
    falling ones subtracted from their count; ValueError for bins that neither
    rise nor fall."""
    mono = monotonicity(bins)
    if mono == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    if mono == 1:
        searchsorted_into(bins, x, out, not right)
    else:
        searchsorted_into(bins[::-1], x, out, not right)
        n = len(bins)
        for i in range(len(x)):
            out[i] = n - out[i]
    return 0


def isin_into(x, tests, out, invert):
    """``out[i]`` = whether ``x[i]`` equals (``==``: never a NaN, ``-0.0`` is
    ``0.0``) one of ``tests``, negated when ``invert``: for few tests (NumPy's
    measure: fewer than ``10 * len(x) ** 0.145``) a pass of ``==`` over the values
    per test, as NumPy's loop (vectorised, no branch per value); else ``tests``
    sorted, then a binary search per value."""
    m = len(tests)
    if m < 10.0 * float(len(x)) ** 0.145:
        for i in range(len(x)):
            out[i] = False
        for k in range(m):
            v = tests[k]
            for i in range(len(x)):
                out[i] = out[i] | (x[i] == v)
        if invert:
            for i in range(len(x)):
                out[i] = not out[i]
        return 0
    t = np.sort(tests)
    n = len(t)
    for i in range(len(x)):
        v = x[i]
        k = search_left(t, v)
        found = False
        if k < n:
            found = t[k] == v
        out[i] = found != invert
    return 0


def isin_ints(x, tests, out, invert):
    """:func:`isin_into` of int64 or uint64 values: when the tests span at most
    six times as many values as there are (NumPy's own measure), a table of
    flags over that span, one lookup per value; else :func:`isin_into`.  (``v -
    lo`` may wrap for a value far outside the span, and then lands outside it
    too.)"""
    m = len(tests)
    if m == 0:
        for i in range(len(x)):
            out[i] = invert
        return 0
    lo = tests[0]
    hi = tests[0]
    for k in range(m):
        v = tests[k]
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    span = hi - lo
    if span < 0 or span > 6 * (len(x) + m):
        return isin_into(x, tests, out, invert)
    table = np.zeros(span + 1, np.bool_)
    for k in range(m):
        table[tests[k] - lo] = True
    for i in range(len(x)):
        d = x[i] - lo
        found = False
        if d >= 0 and d <= span:
            found = table[d]
        out[i] = found != invert
    return 0
