"""A set of numbers as CPython's hash table (``Objects/setobject.c``), in Python
source compiled by hanajit (``sets.py`` types the calls; ``frontend/set_locals.py``
makes them).

A set local ``s`` is three arrays (hidden locals of the function):

* ``K``: the slots' elements, one per slot of the table (``mask + 1`` slots);
* ``I``: int64, the slots' hashes followed by one state per slot (0 empty, 1 an
  element, 2 a dummy: an element discarded or popped);
* ``S``: int64 state -- ``S[0]`` slots used or dummies (``fill``), ``S[1]``
  elements (``used``), ``S[2]`` ``mask``, ``S[3]`` ``pop()``'s ``finger``.

Iteration, ``pop()`` and so ``list(s)``, ``sum(s)`` ... follow the table's order,
so the table is CPython's (the same on 3.10 to 3.13): 8 slots at first, Python's
hashes of ints and floats (``hash(x)``: ``x`` mod 2**61 - 1 with its sign, -1 ->
-2; a float as the int or the fraction it equals), probing 9 slots on in a row
(while they are in the table) then ``i = i * 5 + 1 + perturb`` (``perturb`` the
hash as an unsigned number, shifted right 5 bits each time), an element added in
the last dummy met before the empty slot that ends the search, else in that slot,
and after a new slot is used, ``fill * 5 >= mask * 3`` resizes to the smallest
power of two above ``4 * used`` (``2 * used`` above 50000), the elements moved
in slot order.  ``clear()`` empties the table to 8 slots and keeps the finger.
A NaN added re-runs the call in the interpreter (CPython hashes a NaN by
identity); a NaN looked up is never found, as in CPython (the set holds none).
"""
from __future__ import annotations

import numpy as np

from .. import prims
from .helpers import Deopt

MODULUS = 2305843009213693951       # 2**61 - 1 (_PyHASH_MODULUS)
_LOW59 = 576460752303423487         # (perturb >> 5) of an unsigned 64-bit perturb
_INF = 314159                       # _PyHASH_INF


def int_hash(x):
    """``hash(x)`` of an int that fits in int64."""
    v = int(x)
    if v >= 0:
        return v % MODULUS
    a = (-(v + 1)) % MODULUS + 1        # |v|, also for -2**63
    if a == MODULUS:
        return 0
    if a == 1:
        return -2
    return -a


def float_hash(f):
    """``hash(f)`` of a float that is not a NaN (``_Py_HashDouble``): the
    53-bit mantissa rotated within 61 bits by the exponent."""
    if f == 0.0:
        return 0
    if f - f != 0.0:
        if f > 0.0:
            return _INF
        return -_INF
    a = f
    if f < 0.0:
        a = -f
    parts = np.frexp(a)
    n = prims.to_int64(parts[0] * 9007199254740992.0)
    r = (int(parts[1]) + 1106) % 61     # (e - 53) mod 61, e >= -1073
    x = ((n << r) & MODULUS) | (n >> (61 - r))
    if f < 0.0:
        if x == 1:
            return -2
        return -x
    return x


def key_hash(x, fl, adding):
    """``hash(x)``; a NaN added re-runs the call in the interpreter (one looked
    up is never found: any hash will do)."""
    if fl:
        f = float(x)
        if f != f:
            if adding:
                raise Deopt("a NaN added to a set")
            return 0
        return float_hash(f)
    return int_hash(x)


def _same(a, b, fl):
    if fl:
        return float(a) == float(b)
    return int(a) == int(b)


def init(I, S, finger):
    I[:] = 0
    S[0] = 0
    S[1] = 0
    S[2] = 7
    S[3] = finger


def new_table(K, n):
    return np.empty(n, K.dtype), np.zeros(2 * n, np.int64)


def clear(K, I, S):
    """``s.clear()``: an empty table of 8 slots; returns the new ``(K, I)``."""
    K2, I2 = new_table(K, 8)
    init(I2, S, S[3])
    return K2, I2


def _step(i, j, probes, perturb, mask):
    """The next slot of a search from slot ``i`` (now at ``j``): one of the 9
    slots on in a row, else the next start, ``i * 5 + 1 + (perturb >> 5)``."""
    if probes > 0:
        return i, j + 1, probes - 1, perturb
    perturb = (perturb >> 5) & _LOW59
    i = (i * 5 + 1 + perturb) & mask
    return i, i, 9 if i + 9 <= mask else 0, perturb


def find(K, I, S, key, fl):
    """``set_lookkey``: the slot holding ``key``, or -1."""
    hh = key_hash(key, fl, False)
    mask = S[2]
    size = mask + 1
    i = hh & mask
    perturb = hh
    j = i
    probes = 9 if i + 9 <= mask else 0
    while True:
        st = I[size + j]
        if st == 0:
            return -1
        if st == 1 and I[j] == hh and _same(K[j], key, fl):
            return j
        i, j, probes, perturb = _step(i, j, probes, perturb, mask)


def add(K, I, S, key, fl):
    """``set_add_entry``: ``key`` added unless held; True when the table must
    grow (:func:`grow`) before anything else."""
    hh = key_hash(key, fl, True)
    mask = S[2]
    size = mask + 1
    i = hh & mask
    perturb = hh
    free = -1
    j = i
    probes = 9 if i + 9 <= mask else 0
    while True:
        st = I[size + j]
        if st == 0:
            break
        if st == 2:
            free = j
        elif I[j] == hh and _same(K[j], key, fl):
            return False
        i, j, probes, perturb = _step(i, j, probes, perturb, mask)
    if free >= 0:
        j = free
    else:
        S[0] = S[0] + 1
    K[j] = key
    I[j] = hh
    I[size + j] = 1
    S[1] = S[1] + 1
    return free < 0 and S[0] * 5 >= mask * 3


def insert_clean(K, I, mask, key, hh):
    size = mask + 1
    i = hh & mask
    perturb = hh
    j = i
    probes = 9 if i + 9 <= mask else 0
    while I[size + j] != 0:
        i, j, probes, perturb = _step(i, j, probes, perturb, mask)
    K[j] = key
    I[j] = hh
    I[size + j] = 1


def grow(K, I, S):
    """``set_table_resize(used * 4)`` (``used * 2`` above 50000): the elements in
    slot order into the new table; returns the new ``(K, I)``."""
    used = S[1]
    minused = used * 2 if used > 50000 else used * 4
    n = 8
    while n <= minused:
        n = n * 2
    K2, I2 = new_table(K, n)
    old = S[2] + 1
    j = 0
    while j < old:                  # (in order: a while loop, never made parallel)
        if I[old + j] == 1:
            insert_clean(K2, I2, n - 1, K[j], I[j])
        j = j + 1
    S[0] = used
    S[2] = n - 1
    return K2, I2


def drop(I, S, j):
    """Slot ``j`` (an element) becomes a dummy."""
    I[j] = -1
    I[S[2] + 1 + j] = 2
    S[1] = S[1] - 1


def discard(K, I, S, key, fl):
    """``s.discard(key)``: the slot it was in, or -1."""
    j = find(K, I, S, key, fl)
    if j >= 0:
        drop(I, S, j)
    return j


def pop(I, S):
    """``s.pop()`` of a set holding elements: the slot from the finger on (round
    the table) holding one, made a dummy; the finger moves past it."""
    mask = S[2]
    size = mask + 1
    j = S[3] & mask
    while I[size + j] != 1:
        j = j + 1
        if j > mask:
            j = 0
    S[3] = j + 1
    drop(I, S, j)
    return j


def next_slot(I, S, pos, used0):
    """``setiter_iternext``: the next slot at or after ``pos`` holding an element,
    or -1; CPython's RuntimeError for a set changed in size while iterated."""
    if used0 != S[1]:
        raise RuntimeError("Set changed size during iteration")
    mask = S[2]
    size = mask + 1
    i = pos
    while i <= mask and I[size + i] != 1:
        i = i + 1
    if i > mask:
        return -1
    return i


def used(S):
    return S[1]


def item(K, j):
    return K[j]


# Indices in range by construction, so no checks: a slot ``j`` is at most ``mask``
# (``& mask``, or ``> mask`` tested first), ``K`` holds ``mask + 1`` slots and ``I``
# twice that (a state at ``mask + 1 + j``), ``S`` four numbers; callers index with
# slots these functions gave.  The checks and their raise paths were a quarter of
# the code of a set kernel's pieces.
for _f in (init, clear, find, add, insert_clean, grow, drop, discard, pop, next_slot,
           used, item):
    _f.hj_unchecked = True
