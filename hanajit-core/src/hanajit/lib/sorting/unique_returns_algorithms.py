"""``np.unique(a, return_index=, return_inverse=, return_counts=, equal_nan=)``
and the array-API ``np.unique_*`` in Python source compiled by hanajit
(``unique_returns`` types the calls): ``numpy/lib/_arraysetops_impl.py``'s
``_unique1d`` step by step on the flattened array -- its permutation sorting
the values, the mask of the first of each run of equal values (NaNs one run
with ``equal_nan``), then the values, first indices, inverse and counts.

NumPy sorts with ``argsort(kind='mergesort')`` when the first indices are
asked for (stable: the first of equal values in the input comes first) and
with its quicksort otherwise, whose order of equal values is its own: equal
values differ in bits only for ``0.0``/``-0.0`` and NaNs of both signs, and
there the call re-runs in the interpreter (``mixed_signs``)."""
import numpy as np

from ..python.helpers import Deopt


def mixed_signs(ar):
    """Raise Deopt when ``ar`` holds zeros, or NaNs, of both signs."""
    pz = False
    nz = False
    pn = False
    nn = False
    for i in range(ar.shape[0]):
        v = ar[i]
        if v == 0:
            if np.signbit(v):
                nz = True
            else:
                pz = True
        elif v != v:
            if np.signbit(v):
                nn = True
            else:
                pn = True
    if (pz and nz) or (pn and nn):
        raise Deopt("np.unique: zeros or NaNs of both signs (NumPy's quicksort order)")


def unique_all(ar, equal_nan):
    """``(values, first indices, inverse (1-D), counts)`` of the 1-D ``ar``."""
    n = ar.shape[0]
    perm = np.argsort(ar, kind="stable")
    aux = np.empty(n, ar.dtype)
    for i in range(n):
        aux[i] = ar[perm[i]]
    mask = np.empty(n, np.bool_)
    firstnan = n
    if equal_nan and n > 0 and aux[n - 1] != aux[n - 1]:
        firstnan = n - 1
        while firstnan > 0 and aux[firstnan - 1] != aux[firstnan - 1]:
            firstnan -= 1
    k = 0
    for i in range(n):
        if i == 0 or i == firstnan:
            mask[i] = True
        elif i > firstnan:
            mask[i] = False
        else:
            mask[i] = aux[i] != aux[i - 1]
        if mask[i]:
            k += 1
    values = np.empty(k, ar.dtype)
    index = np.empty(k, np.int64)
    counts = np.empty(k, np.int64)
    inverse = np.empty(n, np.int64)
    j = -1
    last = 0
    for i in range(n):
        if mask[i]:
            j += 1
            values[j] = aux[i]
            index[j] = perm[i]
            if j > 0:
                counts[j - 1] = i - last
            last = i
        inverse[perm[i]] = j
    if k > 0:
        counts[k - 1] = n - last
    return values, index, inverse, counts
