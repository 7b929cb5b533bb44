"""A set display of three or more constants (``s = {1, 2, 3}``) as adds whose
table is the one CPython makes (``frontend/set_locals.py`` asks
through ``registry.set_display_order``).

CPython folds such a display into a frozenset constant (``Python/compile.c``)
and runs ``BUILD_SET 0; LOAD_CONST frozenset; SET_UPDATE``: the set is
``set_merge`` of the frozenset into an empty set (3.10 to 3.13).  The
frozenset's table depends on how it was made (folding, merging equal constants,
a ``.pyc``), so it is read from the function's own code object: its slots
(``hanajit.host_sets.table_of``), then merged as ``set_merge`` does (one resize
first for five or more elements, a slot-by-slot copy into a table of the same
size, else a clean insertion in slot order).  The elements are then added, in the
merged table's slot order, to a new compiled set, when the adds (resizes
included) lay out exactly that table; otherwise (or where the table cannot be
read: not CPython, a debug or free-threaded build) the display stays and the
function falls back naming why.
"""
from __future__ import annotations

import marshal

import numpy as np

from ... import host_sets


def frozenset_slots(fz):
    """``(mask, [(slot, element), ...])`` of a frozenset's table, or None
    (``host_sets.table_of``: CPython 3.10 to 3.13 release builds only)."""
    got = host_sets.table_of(fz) if type(fz) is frozenset else None
    if got is None or got[0] != got[1]:
        return None
    return got[2], [(j, e) for j, e, _ in got[4]]


def _key(v):
    return (type(v).__name__, repr(v))


def constant_for(code, values):
    """The frozenset constant of ``code`` a display of ``values`` loads, or None."""
    want = sorted(_key(v) for v in frozenset(values))
    found = [c for c in getattr(code, "co_consts", ()) if type(c) is frozenset and
             sorted(_key(v) for v in c) == want]
    return found[0] if len(found) == 1 else None


def _adds(values, fl):
    """The table (mask and slots) adds of ``values`` in this order lay out."""
    from . import set_operations as O
    K, I, S = O.empty(np.zeros(1, np.float64 if fl else np.int64))
    for v in values:
        K, I = O.add_entry(K, I, S, v, fl)
    size = int(S[2]) + 1
    return int(S[2]), [(j, _key(K[j].item() if not fl else float(K[j])))
                       for j in range(size) if I[size + j] == 1]


def _dumped(v, flag):
    b = marshal.dumps(v)
    return (b[0] & 0x7F if not flag else b[0]).to_bytes(1, "little") + b[1:]


def add_order(code, values):
    """An order of adds laying out the table of the frozenset constant that
    ``code`` loads for the display of ``values`` (ints or floats, one type), or
    None.  The frozenset was itself made by adds: of the display's items (the
    first written of equal ones), then of each earlier frozenset's items in its
    order (the constants merged), or read from a ``.pyc`` (marshal writes them
    ordered by their own marshal bytes, whose first has a reference flag where
    the item had other references: all, none, or the small ints cached and
    any of up to 8 others); those orders, each followed by its frozensets, are
    tried.  (Any order laying out
    the same table will do: the table is what matters.)"""
    fz = constant_for(code, values)
    slots = frozenset_slots(fz) if fz is not None else None
    if slots is None:
        return None
    mask, items = slots
    fl = isinstance(items[0][1], float)
    want = (mask, [(j, _key(v)) for j, v in items])
    kept, written = set(), []
    for v in values:
        if v not in kept:
            kept.add(v)
            written.append(v)
    members = [v for _, v in items]
    small = [type(v) is int and -5 <= v <= 256 for v in members]
    others = [i for i, x in enumerate(small) if not x]
    flags = [[True] * len(members), [False] * len(members)]
    for bits in range(2 ** len(others) if len(others) <= 8 else 0):
        f = list(small)
        for n, i in enumerate(others):
            f[i] = bool(bits >> n & 1)
        flags.append(f)
    starts = [written]
    for f in flags:
        ranked = sorted((_dumped(v, f[i]), i) for i, v in enumerate(members))
        starts.append([members[i] for _, i in ranked])
    for order in starts:
        seen = set()
        for _ in range(4):
            got = _adds(order, fl)
            if got == want:
                return order
            key = tuple(_key(v) for v in order)
            if key in seen:
                break
            seen.add(key)
            by_key = {_key(v): v for v in order}
            order = [by_key[k] for _, k in got[1]]      # (the next frozenset's adds)
    return None
