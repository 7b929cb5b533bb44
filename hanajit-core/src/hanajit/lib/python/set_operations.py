"""Set operators and methods of set locals of numbers as CPython computes them
(``Objects/setobject.c``: ``set_merge``, ``set_intersection``,
``set_difference``, ``set_symmetric_difference_update`` ...), in Python source
compiled by hanajit over the tables of ``set_algorithms`` (``K``, ``I``, ``S``).

Each result's table is the one CPython lays out -- the same slots, dummies and
size -- so iterating and popping it later follow CPython's order.  A function
making a new set returns its ``(K, I, S)``; one changing a set in place returns
its new ``(K, I)`` and updates ``S``.  When the Python code names the same set
twice (``a |= a``, ``a & a``) the frontend calls the forms CPython's identity
checks take instead (``frontend/set_operators.py``).  The same on Python 3.10
to 3.13 (``hanajit-cpu/tests/set_table_model.py`` checks the model against each).
"""
from __future__ import annotations

import numpy as np

from .set_algorithms import add, discard, find, init, insert_clean, new_table


def empty(K):
    """A new empty set of ``K``'s element type (8 slots, the finger at 0)."""
    K2, I2 = new_table(K, 8)
    S2 = np.zeros(4, np.int64)
    init(I2, S2, 0)
    return K2, I2, S2


def resize(K, I, S, minused):
    """``set_table_resize(so, minused)``: the smallest power of two above
    ``minused`` (at least 8), the elements moved in slot order."""
    n = 8
    while n <= minused:
        n = n * 2
    K2, I2 = new_table(K, n)
    old = S[2] + 1
    j = 0
    while j < old:
        if I[old + j] == 1:
            insert_clean(K2, I2, n - 1, K[j], I[j])
        j = j + 1
    S[0] = S[1]
    S[2] = n - 1
    return K2, I2


def add_entry(K, I, S, key, fl):
    """``set_add_entry``, growing the table as CPython does."""
    if add(K, I, S, key, fl):
        used = S[1]
        return resize(K, I, S, used * 2 if used > 50000 else used * 4)
    return K, I


def merge(K, I, S, K2, I2, S2, fl):
    """``set_merge(so, other)`` (``so`` not ``other``): one resize first, then a
    slot-by-slot copy into an empty table of the same size without dummies, a
    clean insertion into an empty table, else adds in ``other``'s slot order."""
    ou = S2[1]
    if ou == 0:
        return K, I
    if (S[0] + ou) * 5 >= S[2] * 3:
        K, I = resize(K, I, S, (S[1] + ou) * 2)
    mask = S[2]
    omask = S2[2]
    size = mask + 1
    osize = omask + 1
    if S[0] == 0 and mask == omask and S2[0] == S2[1]:
        j = 0
        while j < osize:
            if I2[osize + j] == 1:
                K[j] = K2[j]
                I[j] = I2[j]
                I[size + j] = 1
            j = j + 1
        S[0] = S2[0]
        S[1] = S2[1]
        return K, I
    if S[0] == 0:
        S[0] = ou
        S[1] = ou
        j = 0
        while j < osize:
            if I2[osize + j] == 1:
                insert_clean(K, I, mask, K2[j], I2[j])
            j = j + 1
        return K, I
    j = 0
    while j < osize:
        if I2[osize + j] == 1:
            K, I = add_entry(K, I, S, K2[j], fl)
        j = j + 1
    return K, I


def copy(K, I, S, fl):
    """``s.copy()``, ``set(s)``: ``set_merge`` into a new empty set."""
    K2, I2, S2 = empty(K)
    K2, I2 = merge(K2, I2, S2, K, I, S, fl)
    return K2, I2, S2


def _intersect(K, I, S, K2, I2, S2, fl):
    """The elements of the set ``2`` found in the other, in ``2``'s slot order."""
    Kr, Ir, Sr = empty(K)
    osize = S2[2] + 1
    j = 0
    while j < osize:
        if I2[osize + j] == 1 and find(K, I, S, K2[j], fl) >= 0:
            Kr, Ir = add_entry(Kr, Ir, Sr, K2[j], fl)
        j = j + 1
    return Kr, Ir, Sr


def intersection(K, I, S, K2, I2, S2, fl):
    """``set_intersection(so, other)`` of two sets: the smaller iterated."""
    if S2[1] > S[1]:
        return _intersect(K2, I2, S2, K, I, S, fl)
    return _intersect(K, I, S, K2, I2, S2, fl)


def adopt(S, S2):
    """``set_swap_bodies``: ``S`` takes ``S2``'s fill, used and mask (the caller
    its ``K``, ``I``); the finger stays."""
    S[0] = S2[0]
    S[1] = S2[1]
    S[2] = S2[2]
    return 0


def _discard_all(K, I, S, K2, I2, S2, fl):
    osize = S2[2] + 1
    j = 0
    while j < osize:
        if I2[osize + j] == 1:
            discard(K, I, S, K2[j], fl)
        j = j + 1
    if S[0] - S[1] <= S[2] // 4:            # (dummies resized away past a quarter)
        return K, I
    used = S[1]
    return resize(K, I, S, used * 2 if used > 50000 else used * 4)


def difference_update(K, I, S, K2, I2, S2, fl):
    """``set_difference_update_internal(so, other)``: ``other`` more than 8
    times larger is replaced by the intersection first."""
    if (S2[1] >> 3) > S[1]:
        K3, I3, S3 = intersection(K, I, S, K2, I2, S2, fl)
        return _discard_all(K, I, S, K3, I3, S3, fl)
    return _discard_all(K, I, S, K2, I2, S2, fl)


def difference(K, I, S, K2, I2, S2, fl):
    """``set_difference(so, other)``: a copy less ``other`` when ``len(so) >> 2``
    exceeds ``len(other)``, else ``so``'s elements not in ``other`` added."""
    if (S[1] >> 2) > S2[1]:
        Kr, Ir, Sr = copy(K, I, S, fl)
        Kr, Ir = difference_update(Kr, Ir, Sr, K2, I2, S2, fl)
        return Kr, Ir, Sr
    Kr, Ir, Sr = empty(K)
    size = S[2] + 1
    j = 0
    while j < size:
        if I[size + j] == 1 and find(K2, I2, S2, K[j], fl) < 0:
            Kr, Ir = add_entry(Kr, Ir, Sr, K[j], fl)
        j = j + 1
    return Kr, Ir, Sr


def symmetric_difference_update(K, I, S, K2, I2, S2, fl):
    """``set_symmetric_difference_update(so, other)``: each element of
    ``other`` in slot order discarded, or added where it was missing."""
    osize = S2[2] + 1
    j = 0
    while j < osize:
        if I2[osize + j] == 1 and discard(K, I, S, K2[j], fl) < 0:
            K, I = add_entry(K, I, S, K2[j], fl)
        j = j + 1
    return K, I


def symmetric_difference(K, I, S, K2, I2, S2, fl):
    """``set_symmetric_difference(so, other)``: a copy of ``other`` updated
    with ``so``."""
    Kr, Ir, Sr = copy(K2, I2, S2, fl)
    Kr, Ir = symmetric_difference_update(Kr, Ir, Sr, K, I, S, fl)
    return Kr, Ir, Sr


def issubset(K, I, S, K2, I2, S2, fl):
    """``set_issubset(so, other)``."""
    if S[1] > S2[1]:
        return False
    size = S[2] + 1
    j = 0
    while j < size:
        if I[size + j] == 1 and find(K2, I2, S2, K[j], fl) < 0:
            return False
        j = j + 1
    return True


def compare(K, I, S, K2, I2, S2, fl, op):
    """``set_richcompare``: ``op`` 0 ``==``, 1 ``!=``, 2 ``<=``, 3 ``<``, 4
    ``>=``, 5 ``>``."""
    n, m = S[1], S2[1]
    if op == 0:
        return n == m and issubset(K, I, S, K2, I2, S2, fl)
    if op == 1:
        return not (n == m and issubset(K, I, S, K2, I2, S2, fl))
    if op == 2:
        return issubset(K, I, S, K2, I2, S2, fl)
    if op == 3:
        return n < m and issubset(K, I, S, K2, I2, S2, fl)
    if op == 4:
        return issubset(K2, I2, S2, K, I, S, fl)
    return n > m and issubset(K2, I2, S2, K, I, S, fl)


def isdisjoint(K, I, S, K2, I2, S2, fl):
    """``set_isdisjoint(so, other)`` of two sets."""
    if S2[1] > S[1]:
        return _none_found(K2, I2, S2, K, I, S, fl)
    return _none_found(K, I, S, K2, I2, S2, fl)


def _none_found(K, I, S, K2, I2, S2, fl):
    osize = S2[2] + 1
    j = 0
    while j < osize:
        if I2[osize + j] == 1 and find(K, I, S, K2[j], fl) >= 0:
            return False
        j = j + 1
    return True


# (slots in range by construction, as in set_algorithms: no checks)
for _f in (empty, resize, add_entry, merge, copy, _intersect, intersection, adopt,
           _discard_all, difference_update, difference, symmetric_difference_update,
           symmetric_difference, issubset, compare, isdisjoint, _none_found):
    _f.hj_unchecked = True
