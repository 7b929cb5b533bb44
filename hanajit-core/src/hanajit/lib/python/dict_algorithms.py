"""A dict of numbers as CPython's compact dict, in Python source compiled by hanajit
(``dicts.py`` types the calls; ``frontend/dict_locals.py`` makes them).

A dict local ``d`` is four arrays (hidden locals of the function):

* ``K``, ``V``: the entries' keys and values, in insertion order (CPython's
  ``dk_entries``), ``usable`` long;
* ``I``: int64, the hash index (``isize`` slots, a power of two: -1 empty, -2 a
  deleted key, else an entry) followed by one alive flag per entry;
* ``S``: int64 state -- ``S[0]`` entries made (``dk_nentries``), ``S[1]`` keys held
  (``ma_used``), ``S[2]`` entries left before a resize (``dk_usable``), ``S[3]``
  ``isize``, ``S[4]`` the position the last store or find used.

Sizes follow CPython 3.11 (``Objects/dictobject.c``) so that positions -- and so
the errors of a dict changed while iterated -- are CPython's: 8 slots at first (a
display of more than 5 items presized as ``dict_new_presized``), ``usable`` two
thirds of the slots, a deleted entry not reused, and when no entry is left the
live entries move, in order, into a table sized for ``3 * used``.  Hashes are
this module's own (only equal keys must hash alike: the order is the entries').
Library ints wrap, as the hash mixing wants.
"""
from __future__ import annotations

import numpy as np

from .. import prims
from .helpers import Deopt

_MIX = -7046029254386353131         # 0x9E3779B97F4A7C15 as an int64


def log2_keysize(minsize):
    """``calculate_log2_keysize``: the smallest power of two >= minsize, >= 8."""
    size = 8
    while size < minsize:
        size = size * 2
    return size


def calculate_keysize(minsize):
    """``calculate_log2_keysize`` as a size: ``1 << bit_length(((minsize | 8) - 1)
    | 7)`` (8 for 0, 16 for 1 to 7, the next power of two above 8 to 15 ...: an
    exact power of two 16 or more doubles)."""
    n = ((minsize | 8) - 1) | 7
    size = 1
    while n > 0:
        n = n >> 1
        size = size * 2
    return size


def presized(n):
    """The index size of a display of ``n`` items (``dict_new_presized``)."""
    if n <= 5:
        return 8
    if n > 87381:                      # USABLE_FRACTION(1 << 17)
        return 131072
    return log2_keysize((n * 3 + 1) // 2)


def key_hash(x, fl):
    """A hash of key ``x`` (``fl``: a float key) equal for equal keys; a NaN key
    re-runs the call in the interpreter (CPython finds one only by identity)."""
    if fl:
        f = float(x)
        if f != f:
            raise Deopt("a NaN dict key")
        if f == 0.0:
            return 0
        if -4.0e18 < f < 4.0e18:
            i = prims.to_int64(f)
            if float(i) == f:
                return i * _MIX
            return prims.to_int64(f * 1024.0) * _MIX
        if f > 4.0e18 and f - f != 0.0:
            return 3
        if f < -4.0e18 and f - f != 0.0:
            return -3
        return prims.to_int64(prims.fmod(f, 2305843009213693952.0)) * _MIX
    return int(x) * _MIX


def _same(a, b, fl):
    if fl:
        return float(a) == float(b)
    return int(a) == int(b)


def find(K, I, S, key, fl):
    """The entry holding ``key``, or -1."""
    isize = S[3]
    mask = isize - 1
    h = key_hash(key, fl)
    i = (h ^ (h >> 29)) & mask
    while True:
        ix = I[i]
        if ix == -1:
            S[4] = -1
            return -1
        if ix >= 0 and _same(K[ix], key, fl):
            S[4] = ix
            return ix
        i = (i + 1) & mask


def init(I, S, isize, usable):
    for i in range(isize):
        I[i] = -1
    S[0] = 0
    S[1] = 0
    S[2] = usable
    S[3] = isize
    S[4] = -1


def _place(I, isize, h, e):
    mask = isize - 1
    i = (h ^ (h >> 29)) & mask
    while I[i] >= 0:
        i = (i + 1) & mask
    I[i] = e


def resize(K, V, I, S, fl):
    """``insertion_resize``: the live entries, in order, into a table for
    ``3 * used`` keys (``calculate_log2_keysize(GROWTH_RATE)``: 16 slots for one
    or two keys); returns the new ``(K, V, I)``."""
    return resize_to(K, V, I, S, calculate_keysize(S[1] * 3), fl)


def resize_to(K, V, I, S, isize, fl):
    """``dictresize``: the live entries, in order, into a table of ``isize``
    slots; returns the new ``(K, V, I)``."""
    usable = isize * 2 // 3
    K2 = np.empty(usable, K.dtype)
    V2 = np.empty(usable, V.dtype)
    I2 = np.empty(isize + usable, np.int64)
    for i in range(isize):
        I2[i] = -1
    old = S[3]
    n = S[0]
    e = 0
    for j in range(n):
        if I[old + j] != 0:
            K2[e] = K[j]
            V2[e] = V[j]
            I2[isize + e] = 1
            _place(I2, isize, key_hash(K[j], fl), e)
            e = e + 1
    S[0] = e
    S[2] = usable - e
    S[3] = isize
    return K2, V2, I2


def room(K, I, S, key, fl):
    """Before ``d[key] = value``: True when ``key`` is new and no entry is left
    (the table must be resized first); ``S[4]`` the key's entry, or -1."""
    return find(K, I, S, key, fl) < 0 and S[2] <= 0


def put(K, V, I, S, key, value, fl):
    """``d[key] = value`` after :func:`room` (and a resize if it said so): the
    value replaced in entry ``S[4]``, or a new entry appended."""
    ix = S[4]
    if ix >= 0:
        V[ix] = value
        return ix
    e = S[0]
    K[e] = key
    V[e] = value
    I[S[3] + e] = 1
    _place(I, S[3], key_hash(key, fl), e)
    S[0] = e + 1
    S[1] = S[1] + 1
    S[2] = S[2] - 1
    S[4] = e
    return e


def remove(K, I, S, ix, fl):
    """Delete entry ``ix`` (found): its slot becomes a dummy, the entry dead."""
    isize = S[3]
    mask = isize - 1
    h = key_hash(K[ix], fl)
    i = (h ^ (h >> 29)) & mask
    while I[i] != ix:
        i = (i + 1) & mask
    I[i] = -2
    I[isize + ix] = 0
    S[1] = S[1] - 1


def next_entry(I, S, pos, used0, left):
    """``dictiter_iternextkey``: the next live entry at or after ``pos``, or -1;
    CPython's RuntimeErrors for a dict changed while iterated."""
    if used0 != S[1]:
        raise RuntimeError("dictionary changed size during iteration")
    isize = S[3]
    n = S[0]
    i = pos
    while i < n and I[isize + i] == 0:
        i = i + 1
    if i >= n:
        return -1
    if left == 0:
        raise RuntimeError("dictionary keys changed during iteration")
    return i


def sum_values(V, I, S):
    """``sum(d.values())``: Python's ``sum``, from the int 0, in order."""
    isize = S[3]
    s = 0
    for j in range(S[0]):
        if I[isize + j] != 0:
            s = s + V[j]
    return s


def max_entry(V, I, S):
    """The entry of ``max(d, key=d.get)``: the first of the largest values (a
    later one replaces it only when greater), or -1 for an empty dict."""
    isize = S[3]
    best = -1
    for j in range(S[0]):
        if I[isize + j] != 0:
            if best < 0:
                best = j
            elif V[j] > V[best]:
                best = j
    return best


def item(A, pos):
    return A[pos]


def last(V, S):
    return V[S[4]]


def used(S):
    return S[1]


def take(K, V, I, S, fl):
    """The value of entry ``S[4]`` (found), the entry removed."""
    pos = S[4]
    v = V[pos]
    remove(K, I, S, pos, fl)
    return v


def compact(A, I, S):
    """The live entries of ``A`` in order (a new array)."""
    out = np.empty(S[1], A.dtype)
    isize = S[3]
    e = 0
    for j in range(S[0]):
        if I[isize + j] != 0:
            out[e] = A[j]
            e = e + 1
    return out


def min_entry(V, I, S):
    """The entry of ``min(d, key=d.get)``: the first of the smallest values."""
    isize = S[3]
    best = -1
    for j in range(S[0]):
        if I[isize + j] != 0:
            if best < 0:
                best = j
            elif V[j] < V[best]:
                best = j
    return best


def popitem(K, I, S, fl):
    """``dict.popitem()`` of a dict holding a key: the last live entry removed
    (``S[4]`` it), the entries from it on dropped (``dk_nentries``), the usable
    count unchanged, as CPython's."""
    i = S[0] - 1
    while I[S[3] + i] == 0:
        i = i - 1
    remove(K, I, S, i, fl)
    S[0] = i
    S[4] = i
    return i


def cloneable(S, S2):
    """``dict_merge`` into ``S``'s dict clones ``S2``'s: the target empty, the
    other holding keys, no holes, and its table the smallest or more than a
    third full."""
    return S[1] == 0 and S2[1] > 0 and S2[1] == S2[0] and (
        S2[3] == 8 or (S2[3] // 2) * 2 // 3 < S2[1])


def copy_clones(S):
    """``dict.copy()`` clones: the dict holds keys and its holes are at most a
    third of its entries."""
    return S[1] > 0 and S[1] >= S[0] * 2 // 3


def presize(K, V, I, S, S2, fl):
    """``dict_merge``'s one resize before it stores ``S2``'s keys: when the
    target's table (none for a dict never stored into) has fewer usable entries
    than the other has keys, to ``estimate_log2_keysize`` of both counts."""
    dk = S[3]
    if S[0] == 0 and S[3] == 8 and S[2] == 5:
        dk = 1
    if dk * 2 // 3 < S2[1]:
        return resize_to(K, V, I, S, calculate_keysize(((S[1] + S2[1]) * 3 + 1) // 2), fl)
    return K, V, I


def merge(K, V, I, S, K2, V2, I2, S2, fl):
    """``dict_merge``: the other dict's items stored in order (or its table cloned,
    :func:`cloneable`); returns the target's ``(K, V, I)``."""
    if S2[1] == 0:
        return K, V, I
    if cloneable(S, S2):
        for j in range(5):
            S[j] = S2[j]
        return K2.copy(), V2.copy(), I2.copy()
    K, V, I = presize(K, V, I, S, S2, fl)
    isize2 = S2[3]
    for j in range(S2[0]):
        if I2[isize2 + j] != 0:
            if room(K, I, S, K2[j], fl):
                K, V, I = resize(K, V, I, S, fl)
            put(K, V, I, S, K2[j], V2[j], fl)
    return K, V, I


def copy_merge(K, V, I, S, K2, V2, I2, S2, fl):
    """``d.copy()`` into the new dict ``(K, V, I, S)``: a clone
    (:func:`copy_clones`) or :func:`merge`."""
    if copy_clones(S2):
        for j in range(5):
            S[j] = S2[j]
        return K2.copy(), V2.copy(), I2.copy()
    return merge(K, V, I, S, K2, V2, I2, S2, fl)


# Indices in range by construction, so no checks: a slot is masked by ``isize - 1``,
# an entry is below ``S[0]``, which stays below ``usable`` (the length of ``K``,
# ``V`` and of ``I``'s flags after its ``isize`` slots), ``S`` five numbers; the
# callers read an entry only where ``find`` found it (``item``, ``last``, ``take``
# after a KeyError test or behind ``found``), an iteration's position below
# ``S[0]`` and a probe's 0 of at least 5 entries.
for _f in (find, init, _place, resize, resize_to, room, put, remove, next_entry,
           sum_values, max_entry, item, last, used, take, compact, min_entry, popitem,
           cloneable, copy_clones, presize, merge, copy_merge):
    _f.hj_unchecked = True
