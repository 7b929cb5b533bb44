"""The builtins ``min(a)`` / ``max(a)`` of one 1-D array: CPython iterates over
the array's NumPy scalars, keeps the first item and takes a later one where
``item < current`` (``>`` for max) -- so a NaN first stays, a later NaN never
wins -- and raises ValueError for an empty array.  A 2-D array (rows compared as
arrays: ValueError in CPython) and complex items fall back."""
from __future__ import annotations

from ...typing_rules import Incompatible


def array_typer(name, args, kwargs):
    """The result type of ``name(a)`` (min or max) of array ``a``."""
    a = args[0]
    if kwargs or len(args) != 1:
        raise Incompatible(f"{name}() of an array with other arguments")
    if a.ndim != 1:
        raise Incompatible(f"{name}() of a {a.ndim}-D array (CPython compares its "
                           "rows)")
    if a.dtype.is_complex:
        raise Incompatible(f"{name}() of a complex array")
    return a.dtype


def array_lower(L, name, a):
    return L.call_helper(array_min if name == "min" else array_max, [L.let(a)])


def array_min(a):
    n = a.shape[0]
    if n == 0:
        raise ValueError("min() arg is an empty sequence")
    cur = a[0]
    for i in range(1, n):
        v = a[i]
        if v < cur:
            cur = v
    return cur


def array_max(a):
    n = a.shape[0]
    if n == 0:
        raise ValueError("max() arg is an empty sequence")
    cur = a[0]
    for i in range(1, n):
        v = a[i]
        if v > cur:
            cur = v
    return cur
