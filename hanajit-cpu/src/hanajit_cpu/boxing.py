"""Arrays coming back from compiled code become ordinary NumPy arrays.

An array allocated by compiled code arrives with its meminfo reference
(``hanajit.lowering.nrt``); it is wrapped without a copy in an :class:`NrtOwner`
that becomes the ndarray's ``base`` and releases the reference when NumPy frees
the array.  An array without a meminfo is a view of an argument's memory: the
result is a view whose base is that argument.
"""
from __future__ import annotations

import ctypes

from hanajit.ir import types as T

_decref = None


def _get_decref():
    global _decref
    if _decref is None:
        from hanajit.lowering import nrt

        from . import runtimes
        addr = runtimes.addresses("nrt")[nrt.DECREF]
        _decref = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(addr)
    return _decref


class NrtOwner:
    """Holds one reference to a meminfo; NumPy sees it through the array interface."""

    __slots__ = ("meminfo", "__array_interface__", "__weakref__", "_decref")

    def __init__(self, meminfo, interface):
        self.meminfo = meminfo
        self.__array_interface__ = interface
        self._decref = _get_decref()

    def __del__(self):
        if self.meminfo:
            self._decref(self.meminfo)
            self.meminfo = 0


class _ViewOwner:
    __slots__ = ("base", "__array_interface__")

    def __init__(self, base, interface):
        self.base = base
        self.__array_interface__ = interface


_TYPESTR: dict = {}     # Scalar -> NumPy typestr ("<f8")


def _interface(t: T.ArrayType, data, shape, strides, readonly):
    typestr = _TYPESTR.get(t.dtype)
    if typestr is None:
        import numpy as np
        typestr = _TYPESTR[t.dtype] = np.dtype(t.dtype.name).str
    return {"version": 3, "shape": shape, "strides": strides,
            "typestr": typestr, "data": (data, readonly)}


def box_array(t: T.ArrayType, meminfo, data, shape, strides, args=()):
    import numpy as np
    if meminfo:
        return np.asarray(NrtOwner(meminfo, _interface(t, data, shape, strides, False)))
    if 0 in shape:
        # an empty view may point one element outside its base: nothing to keep alive
        empty = np.empty(shape, dtype=np.dtype(t.dtype.name))
        empty.flags.writeable = not t.readonly
        return empty
    # memory owned by an argument: find it so the result keeps it alive (and
    # read-only when it is or when the result's type is: np.diag).  First
    # the array arguments themselves (the generated dispatcher's rule, so both
    # paths give the same base and writeability), then any array whose root
    # buffer holds the data
    for a in args:
        if type(a) is np.ndarray and _has_element_at(a, data):
            iface = _interface(t, data, shape, strides,
                               t.readonly or not a.flags.writeable)
            return np.asarray(_ViewOwner(a, iface))
    for a in _arrays_in(args):
        if _within(a, data):
            iface = _interface(t, data, shape, strides,
                               t.readonly or not a.flags.writeable)
            view = np.asarray(_ViewOwner(a, iface))
            if type(a) is not np.ndarray:
                # a view of a subclass (np.memmap) is one, as NumPy's slicing
                # gives: its __array_finalize__ takes the parent's attributes
                view = view.view(type(a))
                view.__array_finalize__(a)
            return view
    from hanajit.lib.arrays.global_arrays import kept
    for a in kept():                # a view of an array read through a global name
        if _has_element_at(a, data):
            return np.asarray(_ViewOwner(a, _interface(t, data, shape, strides,
                                                       t.readonly or not a.flags.writeable)))
    raise RuntimeError("hanajit: returned array memory has no owner")  # pragma: no cover


def _has_element_at(a, data) -> bool:
    """Is there an element of ``a`` at byte address ``data``?  (Its elements span
    ``[data + sum(min(0, (n-1)*s)), data + sum(max(0, (n-1)*s)) + itemsize)``.)"""
    if a.size == 0:
        return False
    lo = hi = a.__array_interface__["data"][0]
    for n, s in zip(a.shape, a.strides):
        ext = (n - 1) * s
        if ext < 0:
            lo += ext
        else:
            hi += ext
    return lo <= data < hi + a.itemsize


def _within(a, data):
    import numpy as np
    base = a
    while isinstance(base.base, np.ndarray):
        base = base.base
    lo = base.__array_interface__["data"][0]
    return lo <= data < lo + max(base.nbytes, 1)


def _arrays_in(args):
    import numpy as np
    for a in args:
        if isinstance(a, np.ndarray):
            yield a
        elif isinstance(a, tuple):
            yield from _arrays_in(a)
