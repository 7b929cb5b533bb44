"""``sorted()`` of a list's items in Python source compiled by hanajit
(``sorted_list.py`` types the call): a stable sort, NaN re-running the function
in the interpreter."""
import numpy as np

from ..python.helpers import Deopt


def _no_nan(a):
    for i in range(len(a)):
        if a[i] != a[i]:
            raise Deopt("sorted() of a list holding a NaN (where it goes is the order "
                        "of CPython's merge algorithm)")


def sorted_forward(a):
    """``sorted(items)``: equal items in their order."""
    _no_nan(a)
    return np.sort(a, kind="stable")


def sorted_reversed(a):
    """``sorted(items, reverse=True)``: largest first, equal items still in their
    order (CPython reverses, sorts stably, reverses back)."""
    _no_nan(a)
    s = np.sort(a[::-1], kind="stable")
    n = len(s)
    out = np.empty_like(s)
    for i in range(n):
        out[i] = s[n - 1 - i]
    return out
