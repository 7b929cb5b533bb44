"""``sorted(seq, key=f)`` in Python source compiled by hanajit
(``key_functions.py`` types the call): the items in the stable order of their
keys; a NaN key re-runs the function in the interpreter."""
import numpy as np

from .helpers import Deopt


def _no_nan(keys):
    for i in range(len(keys)):
        if keys[i] != keys[i]:
            raise Deopt("sorted() with a NaN key (where it goes is the order of "
                        "CPython's merge algorithm)")


def sorted_by_key(items, keys):
    """Equal keys keep their items' order."""
    _no_nan(keys)
    order = np.argsort(keys, kind="stable")
    out = np.empty(len(items), items.dtype)
    for i in range(len(items)):
        out[i] = items[order[i]]
    return out


def sorted_by_key_reversed(items, keys):
    """Largest key first, equal keys still in their items' order (CPython
    reverses, sorts stably, reverses back)."""
    _no_nan(keys)
    n = len(items)
    order = np.argsort(keys[::-1], kind="stable")
    out = np.empty(n, items.dtype)
    for i in range(n):
        out[i] = items[n - 1 - order[n - 1 - i]]
    return out
