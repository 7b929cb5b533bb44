"""Python sets with a compiled set's table, and the tables of Python sets: CPython's
``PySetObject`` read and written through ctypes (release builds of 3.10 to 3.13).

A compiled set local (``lib/python/set_algorithms.py``) is CPython's hash table
of the same elements -- its slots, dummies, ``fill``, ``used``, ``mask`` and
``pop()`` finger -- and a set the caller gets (``return s``, ``print(s)``) must
be a Python set with exactly that table, or its iteration order and what later
adds, discards and pops do would differ from the interpreter's.  Adds into a new
set cannot always lay it out (dummies, a table grown larger than its elements
need), so :func:`set_of_table` builds the set from the elements with CPython's
own ``set()`` (which takes a reference to each and computes their hashes), then
moves those same object pointers into a table of the compiled layout: a new
``PyMem_Malloc`` table (or the set's own 8-slot ``smalltable``), written with
the header in one ``memmove`` (no Python code runs while the set is half
written), the old table freed as ``set_dealloc`` frees one.  The hashes CPython
computed are checked against the compiled ones first.

The layout is read once per process and checked by writing sets of known tables
and comparing everything they do afterwards with sets CPython built
(:func:`writable`); where the check fails or the build is another (a debug or
free-threaded build, PyPy, another version) a function returning or printing a
set falls back at compile time (``frontend/set_locals.py`` asks through
``lib/registry``).
"""
from __future__ import annotations

import ctypes
import random
import sys
import sysconfig

_P = ctypes.sizeof(ctypes.c_void_p)
_HEAD = 2 * _P                  # (ob_refcnt, ob_type)
_FIELDS = 6                     # fill, used, mask, table, hash, finger
_MINSIZE = 8                    # (PySet_MINSIZE: the smalltable's slots)
_WORDS = _FIELDS + 2 * _MINSIZE
_malloc = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_size_t)(("PyMem_Malloc", ctypes.pythonapi))
_free = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)(("PyMem_Free", ctypes.pythonapi))
_state: dict = {}               # "dummy": the dummy key's address; "writable": bool


def readable() -> bool:
    """CPython's release builds whose ``PySetObject`` layout was checked (3.10 to
    3.13); another's sets are never read or written."""
    return sys.implementation.name == "cpython" and not hasattr(sys, "gettotalrefcount") \
        and not sysconfig.get_config_var("Py_GIL_DISABLED") \
        and (3, 10) <= sys.version_info[:2] <= (3, 13) and _P == 8


def _header(s) -> list:
    """``[fill, used, mask, table, hash, finger]`` of the set ``s``."""
    return list((ctypes.c_ssize_t * _FIELDS).from_address(id(s) + _HEAD))


def _dummy() -> int:
    """The address of CPython's dummy key (a discarded element's slot holds it)."""
    if "dummy" not in _state:
        s = {0}
        s.discard(0)
        fill, used, mask, table, _, _ = _header(s)
        key, h = (ctypes.c_ssize_t * 2).from_address(table)
        if not (fill == 1 and used == 0 and mask == 7 and h == -1 and key not in (0, id(0))):
            raise RuntimeError("a discarded element's slot is not as expected")
        _state["dummy"] = key
    return _state["dummy"]


def table_of(s):
    """``(fill, used, mask, finger, slots)`` of a set or frozenset: ``slots`` the
    ``(slot, element or None for a dummy, hash)`` of each slot in use; None where
    sets are not read (:func:`readable`) or the table is not understood."""
    if not readable() or type(s) not in (set, frozenset):
        return None
    fill, used, mask, table, _, finger = _header(s)
    if not (0 <= used <= fill <= mask and mask >= 7 and not mask & (mask + 1) and table):
        return None
    ids = {id(e): e for e in s}
    words = (ctypes.c_ssize_t * (2 * (mask + 1))).from_address(table)
    dummy, slots = (_dummy() if fill > used else None), []
    for j in range(mask + 1):
        key, h = words[2 * j], words[2 * j + 1]
        if key == 0:
            continue
        if key == dummy:
            slots.append((j, None, h))
        elif key in ids:
            slots.append((j, ids[key], h))
        else:
            return None
    live = sum(e is not None for _, e, _ in slots)
    return (fill, used, mask, finger, slots) if live == used and len(slots) == fill else None


def set_of_table(K, I, S, flags):
    """The Python set with the compiled table ``K``, ``I``, ``S`` (the arrays of
    ``set_algorithms``); its elements NumPy scalars where ``flags & 1``, else
    Python numbers; a frozenset where ``flags & 2``.  The dispatchers call it
    for a returned set (``lib/python/sets.py`` types the result as a named tuple
    of this function), ``print`` for a printed one."""
    if not writable():
        raise RuntimeError("hanajit: this Python's sets are not written (host_sets.writable)")
    return _written(K, I, S, flags)


def _written(K, I, S, flags):
    import numpy as np
    mask = int(S[2])
    size = mask + 1
    hashes, states = I[:size], I[size:2 * size]
    live = np.flatnonzero(states == 1)
    items = K[live]
    objs = list(items) if flags & 1 else items.tolist()
    s = (frozenset if flags & 2 else set)(objs)
    if len(s) != len(objs) or len(objs) != int(S[1]):
        raise RuntimeError("hanajit: a compiled set's elements are not distinct")
    fill0, used0, mask0, table0, h, _ = _header(s)
    ids = np.fromiter(map(id, objs), np.int64, len(objs))
    if used0:           # (the table CPython made: these objects, the same hashes)
        old = np.ctypeslib.as_array(
            (ctypes.c_int64 * (2 * (mask0 + 1))).from_address(table0)).reshape(-1, 2)
        old = old[old[:, 0] != 0]
        a, b = np.argsort(old[:, 0]), np.argsort(ids)
        if len(old) != len(ids) or not np.array_equal(old[a, 0], ids[b]) or \
                not np.array_equal(old[a, 1], hashes[live][b]):
            raise RuntimeError("hanajit: a compiled set's hashes are not CPython's")
    new = np.zeros((size, 2), np.int64)
    new[live, 0] = ids
    new[live, 1] = hashes[live]
    dummies = states == 2
    if dummies.any():
        new[dummies, 0] = _dummy()
        new[dummies, 1] = -1
    base = id(s) + _HEAD
    small = base + _FIELDS * _P
    head = np.zeros(_WORDS, np.int64)
    if size == _MINSIZE:
        table = small
        head[_FIELDS:] = new.ravel()
    else:
        table = _malloc(16 * size)
        if not table:
            raise MemoryError
        ctypes.memmove(table, new.ctypes.data, 16 * size)
    head[:_FIELDS] = (int(S[0]), int(S[1]), mask, table, h, int(S[3]))
    ctypes.memmove(base, head.ctypes.data, head.nbytes)     # (the set switches at once)
    if table0 != small:
        _free(table0)
    return s


def arrays_of(s):
    """The compiled arrays ``(K, I, S)`` of the table of the Python set ``s`` of
    ints or floats of one type (``table_of``), or None."""
    import numpy as np
    got = table_of(s)
    if got is None:
        return None
    fill, used, mask, finger, slots = got
    kinds = {type(e) for _, e, _ in slots if e is not None}
    if len(kinds) > 1:
        return None
    K = np.zeros(mask + 1, kinds.pop() if kinds else np.int64)
    Ix = np.zeros(2 * (mask + 1), np.int64)
    for j, e, h in slots:
        Ix[j], Ix[mask + 1 + j] = h, 1 if e is not None else 2
        if e is not None:
            K[j] = e
    return K, Ix, np.array([fill, used, mask, finger], np.int64)


def writable() -> bool:
    """Can :func:`set_of_table` write this Python's sets?  Checked once: sets of
    known tables (grown, with dummies, after pops and clears) written from their
    arrays must read back the same and then do what CPython's own sets do."""
    if "writable" not in _state:
        try:
            _state["writable"] = readable() and _check()
        except Exception:               # (an unexpected layout: never written)
            _state["writable"] = False
    return _state["writable"]


def _check() -> bool:
    empty = set()
    fill, used, mask, table, h, finger = _header(empty)
    if (fill, used, mask, h, finger) != (0, 0, 7, -1, 0) or \
            table != id(empty) + _HEAD + _FIELDS * _P:         # (the smalltable)
        return False
    rng = random.Random(20240611)
    for run in range(24):
        floats = run % 3 == 2
        pool = [rng.choice((-1, -2, 2**61 - 1, 2**62, 7, 8, 15, 16)) + rng.randrange(-3, 3)
                for _ in range(6)] + list(range(-4, 60 + 40 * (run % 4)))
        if floats:
            pool = [float(v) + (0.5 if v % 3 == 0 else 0.0) for v in pool]
        a = set()
        for _ in range(rng.randrange(0, 400)):
            _step(a, rng, pool)
        arrays = arrays_of(a)
        if arrays is None:
            return False
        b = _written(*arrays, 2 * (run % 5 == 4))
        if table_of(b) != table_of(a) or list(b) != list(a):
            return False
        if type(b) is frozenset:
            if hash(b) != hash(frozenset(a)) or b != a:
                return False
            continue
        for _ in range(60):             # (the same after adds, discards and pops)
            state = rng.getstate()
            x = _step(a, rng, pool + [v * 3 for v in pool])
            rng.setstate(state)
            if _step(b, rng, pool + [v * 3 for v in pool]) != x or list(a) != list(b):
                return False
        if table_of(b) != table_of(a):
            return False
    return True


def _step(s, rng, pool):
    k, v = rng.randrange(10), rng.choice(pool)
    if k < 6:
        s.add(v)
    elif k < 8:
        s.discard(v)
    elif k < 9 or not s:
        return s.pop() if s else None
    elif rng.randrange(8) == 0:
        s.clear()
    return None
