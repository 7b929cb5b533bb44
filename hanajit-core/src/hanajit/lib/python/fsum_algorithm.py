"""``math.fsum`` in Python source compiled by hanajit: CPython's ``math_fsum``
(``Modules/mathmodule.c``) step by step -- Shewchuk's non-overlapping partials,
the sums of special values (inf, nan) kept apart, "intermediate overflow in fsum"
and "-inf + inf in fsum", and the half-even correction across partials.

The state is one float64 array: ``state[0]`` the number of partials, ``state[1]``
the special sum, ``state[2]`` the sum of infinities, ``state[3:]`` the partials
(at most about 2100: they are non-overlapping doubles); ``fsum_add`` returns a
larger copy when they outgrow it, as CPython reallocates its array."""
import math

import numpy as np

HEAD = 3


def fsum_add(state, x):
    """Add ``x`` (already ``float(item)``) to the partials: CPython's inner loop."""
    n = int(state[0])
    xsave = x
    i = 0
    for j in range(n):
        y = state[HEAD + j]
        if abs(x) < abs(y):
            t = x
            x = y
            y = t
        hi = x + y
        yr = hi - x
        lo = y - yr
        if lo != 0.0:
            state[HEAD + i] = lo
            i += 1
        x = hi
    n = i
    if x != 0.0:
        if not math.isfinite(x):
            # a nan or inf from the items, or an overflow of finite ones
            if math.isfinite(xsave):
                raise OverflowError("intermediate overflow in fsum")
            if math.isinf(xsave):
                state[2] = state[2] + xsave
            state[1] = state[1] + xsave
            n = 0
        else:
            if HEAD + n == state.shape[0]:
                grown = np.zeros(2 * state.shape[0])
                for j in range(HEAD + n):
                    grown[j] = state[j]
                state = grown
            state[HEAD + n] = x
            n += 1
    state[0] = float(n)
    return state


def fsum_total(state):
    """The partials summed from the top until the sum is inexact, then CPython's
    correction so half-even rounding works across partials."""
    n = int(state[0])
    special_sum = state[1]
    if special_sum != 0.0:
        inf_sum = state[2]
        if inf_sum != inf_sum:
            raise ValueError("-inf + inf in fsum")
        return special_sum
    hi = 0.0
    lo = 0.0
    if n > 0:
        n -= 1
        hi = state[HEAD + n]
        while n > 0:
            x = hi
            n -= 1
            y = state[HEAD + n]
            hi = x + y
            yr = hi - x
            lo = y - yr
            if lo != 0.0:
                break
        if n > 0 and ((lo < 0.0 and state[HEAD + n - 1] < 0.0)
                      or (lo > 0.0 and state[HEAD + n - 1] > 0.0)):
            y = lo * 2.0
            x = hi + y
            yr = x - hi
            if y == yr:
                hi = x
    return hi


# every index is below HEAD + n, and the state has room for HEAD + n + 1 values
fsum_add.hj_unchecked = fsum_total.hj_unchecked = True
