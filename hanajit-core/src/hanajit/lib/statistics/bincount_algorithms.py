"""``np.bincount`` in Python source compiled by hanajit (see ``helpers``)."""
import numpy as np

from ..python.helpers import Deopt


def bin_length(x, minlength):
    """max(x) + 1 (at least ``minlength``); ValueError for a negative value."""
    n = minlength
    for i in range(len(x)):
        v = x[i]
        if v < 0:
            raise ValueError("'list' argument must have no negative elements")
        if v + 1 > n:
            n = v + 1
    return n


def bincount(x, minlength):
    out = np.zeros(bin_length(x, minlength), np.int64)
    for i in range(len(x)):
        out[int(x[i])] += 1     # (a bool array counts as 0/1)
    return out


def bincount_weights(x, w, minlength):
    if len(x) == 0:
        # NumPy returns int64 zeros(minlength) for an empty x whatever the
        # weights (their length unchecked): a type known only at run time
        raise Deopt("np.bincount() of an empty array with weights is an int64 array")
    if len(w) != len(x):
        raise ValueError("The weights and list don't have the same length.")
    out = np.zeros(bin_length(x, minlength), np.float64)
    for i in range(len(x)):
        out[int(x[i])] += w[i]
    return out
