"""``np.interp`` in Python source compiled by hanajit (``interp`` types the
call): NumPy's ``arr_interp`` and ``binary_search_with_guess`` step for step
(``numpy/_core/src/multiarray/compiled_base.c``), so every value, the search
among repeated sample points included, is NumPy's."""
import numpy as np

LIKELY_IN_CACHE_SIZE = 8


def search_with_guess(key, arr, n, guess):
    """The index ``j`` with ``arr[j] <= key < arr[j+1]`` found NumPy's way: -1
    below the range, ``n`` above it; short arrays linearly, else around the
    previous answer ``guess`` first, then by bisection."""
    imin = 0
    imax = n
    if key > arr[n - 1]:
        return n
    if key < arr[0]:
        return -1
    if n <= 4:
        i = 1
        while i < n and key >= arr[i]:
            i += 1
        return i - 1
    if guess > n - 3:
        guess = n - 3
    if guess < 1:
        guess = 1
    if key < arr[guess]:
        if key < arr[guess - 1]:
            imax = guess - 1
            if guess > LIKELY_IN_CACHE_SIZE and key >= arr[guess - LIKELY_IN_CACHE_SIZE]:
                imin = guess - LIKELY_IN_CACHE_SIZE
        else:
            return guess - 1
    else:
        if key < arr[guess + 1]:
            return guess
        if key < arr[guess + 2]:
            return guess + 1
        imin = guess + 2
        if guess < n - LIKELY_IN_CACHE_SIZE - 1 and key < arr[guess + LIKELY_IN_CACHE_SIZE]:
            imax = guess + LIKELY_IN_CACHE_SIZE
    while imin < imax:
        imid = imin + ((imax - imin) >> 1)
        if key >= arr[imid]:
            imin = imid + 1
        else:
            imax = imid
    return imin - 1


def interp_into(z, dx, dy, left, right, has_left, has_right):
    """Overwrite the float64 values ``z`` (flat) with their interpolation on the
    sample points ``dx`` and values ``dy`` (float64, same length, not empty)."""
    n = len(dx)
    lval = left if has_left else dy[0]
    rval = right if has_right else dy[n - 1]
    if n == 1:
        xp = dx[0]
        fp = dy[0]
        for i in range(len(z)):
            x = z[i]
            z[i] = lval if x < xp else (rval if x > xp else fp)
        return 0
    # NumPy computes the slopes first when there are no more of them than
    # values to interpolate (the same divisions: the same values)
    slopes = np.empty(n - 1 if n <= len(z) else 0)
    for k in range(len(slopes)):
        slopes[k] = (dy[k + 1] - dy[k]) / (dx[k + 1] - dx[k])
    j = 0
    for i in range(len(z)):
        x = z[i]
        if x != x:                                   # noqa: PLR0124 - NaN stays
            continue
        j = search_with_guess(x, dx, n, j)
        if j == -1:
            z[i] = lval
        elif j == n:
            z[i] = rval
        elif j == n - 1:
            z[i] = dy[j]
        elif dx[j] == x:
            z[i] = dy[j]
        else:
            if len(slopes) > 0:
                slope = slopes[j]
            else:
                slope = (dy[j + 1] - dy[j]) / (dx[j + 1] - dx[j])
            r = slope * (x - dx[j]) + dy[j]
            if r != r:                               # noqa: PLR0124
                r = slope * (x - dx[j + 1]) + dy[j + 1]
                if r != r and dy[j] == dy[j + 1]:    # noqa: PLR0124
                    r = dy[j]
            z[i] = r
    return 0


# NumPy's C indexes only in range: the search returns -1 .. n, and the samples
# j and j + 1 are read for 0 <= j <= n - 2 (interp checks that dx and dy have
# one length): no index checks (pipeline.py)
search_with_guess.hj_unchecked = True
interp_into.hj_unchecked = True
