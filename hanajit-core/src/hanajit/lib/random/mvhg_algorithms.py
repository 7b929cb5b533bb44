"""``Generator.multivariate_hypergeometric(colors, nsample, size=None,
method='marginals')``: the checks of NumPy 2's ``_generator.pyx`` and its C
``random_multivariate_hypergeometric_marginals`` / ``_count``
(``random_mvhg_marginals.c``, ``random_mvhg_count.c``), compiled by hanajit.

``method`` arrives as a code: 0 ``'marginals'``, 1 ``'count'``, 2 anything else.
The rows of the new array (``len(colors)`` int64 each) start zeroed, as NumPy's
``np.zeros``; ``marginals`` draws ``random_hypergeometric`` of each colour against
the rest, ``count`` shuffles the first ``nsample`` of a list of every item's
colour with ``random_interval``; both draw the smaller of ``nsample`` and
``total - nsample`` and take the complement for the larger.
"""
import numpy as np

from .distributions import interval
from .hypergeometric import hypergeometric_draw

INT64_MAX = 9223372036854775807


def check_mvhg(colors, nsample, method):
    """The checks in NumPy's order; the total of ``colors``."""
    if method == 2:
        raise ValueError('method must be "count" or "marginals".')
    if nsample < 0:
        raise ValueError("nsample must be nonnegative.")
    for i in range(colors.shape[0]):
        if colors[i] < 0:
            raise ValueError("colors must be a one-dimensional sequence of nonnegative "
                             "integers not exceeding 9223372036854775807.")
    total = 0
    for i in range(colors.shape[0]):
        if colors[i] > INT64_MAX - total:
            raise ValueError("sum(colors) must not exceed the maximum value of a 64 bit "
                             "signed integer (9223372036854775807)")
        total += colors[i]
    if method == 0 and total >= 1000000000:
        raise ValueError('When method is "marginals", sum(colors) must be less than '
                         '1000000000.')
    if method == 1 and total > 1152921504606846975:
        raise ValueError("When method is 'count', sum(colors) must not exceed "
                         "1152921504606846975")
    if nsample > total:
        raise ValueError("nsample > sum(colors)")
    return total


def fill_mvhg(rng, out, colors, nsample, total, method):
    """The rows of ``out`` (1-D, rows of ``len(colors)`` int64)."""
    for i in range(out.shape[0]):
        out[i] = 0
    k = colors.shape[0]
    if k == 0 or total == 0 or nsample == 0 or out.shape[0] == 0:
        return
    more_than_half = nsample > total // 2
    if more_than_half:
        nsample = total - nsample
    if method == 1:
        _count(rng, out, colors, nsample, total)
    else:
        _marginals(rng, out, colors, nsample, total)
    if more_than_half:
        for i in range(0, out.shape[0], k):
            for j in range(k):
                out[i + j] = colors[j] - out[i + j]


def _marginals(rng, out, colors, nsample, total):
    k = colors.shape[0]
    for i in range(0, out.shape[0], k):
        num_to_sample = nsample
        remaining = total
        j = 0
        while num_to_sample > 0 and j + 1 < k:
            remaining -= colors[j]
            r = hypergeometric_draw(rng, colors[j], remaining, num_to_sample)
            out[i + j] = r
            num_to_sample -= r
            j += 1
        if num_to_sample > 0:
            out[i + k - 1] = num_to_sample


def _count(rng, out, colors, nsample, total):
    k = colors.shape[0]
    choices = np.empty(total, np.int64)
    at = 0
    for c in range(k):
        for _ in range(colors[c]):
            choices[at] = c
            at += 1
    for i in range(0, out.shape[0], k):
        for j in range(nsample):
            m = j + np.int64(interval(rng, np.uint64(total - j - 1)))
            tmp = choices[m]
            choices[m] = choices[j]
            choices[j] = tmp
        for j in range(nsample):
            out[i + choices[j]] += 1
