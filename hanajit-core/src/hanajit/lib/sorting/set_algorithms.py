"""The steps of NumPy's ``union1d``, ``intersect1d``, ``setdiff1d`` and
``setxor1d`` in Python source compiled by hanajit (see ``lib/python/helpers.py``),
on 1-D arrays already unique, sorted and in the type NumPy compares them in
(``set_operations`` types the calls and does the rest)."""
import numpy as np


def join(a, b):
    """``np.concatenate((a, b))`` of two 1-D arrays of one dtype."""
    n = len(a)
    out = np.empty(n + len(b), a.dtype)
    for i in range(n):
        out[i] = a[i]
    for i in range(len(b)):
        out[n + i] = b[i]
    return out


def equal_neighbours(aux):
    """``aux[:-1][aux[1:] == aux[:-1]]`` (``intersect1d``'s last step), as a new
    array; ``aux`` is overwritten."""
    k = 0
    for i in range(len(aux) - 1):
        if aux[i + 1] == aux[i]:
            aux[k] = aux[i]         # (k <= i: what is still to be read is untouched)
            k += 1
    return aux[:k].copy()


def lone_values(aux):
    """``aux[flag[1:] & flag[:-1]]`` with ``flag = [True, aux[1:] != aux[:-1],
    True]`` (``setxor1d``'s last step: a NaN differs from every value, itself too)."""
    n = len(aux)
    out = np.empty(n, aux.dtype)
    k = 0
    for i in range(n):
        left = True
        if i > 0:
            left = aux[i] != aux[i - 1]
        right = True
        if i < n - 1:
            right = aux[i + 1] != aux[i]
        if left and right:
            out[k] = aux[i]
            k += 1
    return out[:k].copy()


def not_in_sorted(u, c, d):
    """The values of ``u`` whose ``c`` (``u`` in the common type, sorted, each
    value once) is not equal to a value of the sorted ``d``: ``setdiff1d``'s
    ``ar1[isin(ar1, ar2, invert=True)]`` (a NaN equals nothing)."""
    out = np.empty(len(u), u.dtype)
    m = len(d)
    j = 0
    k = 0
    for i in range(len(u)):
        x = c[i]
        while j < m and d[j] < x:
            j += 1
        found = False
        if j < m:
            found = d[j] == x
        if not found:
            out[k] = u[i]
            k += 1
    return out[:k].copy()
