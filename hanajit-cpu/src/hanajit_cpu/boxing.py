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
        from .engine import get_engine
        from hanajit.lowering import nrt
        addr = get_engine().nrt_addresses()[nrt.DECREF]
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


def _interface(t: T.ArrayType, data, shape, strides, readonly):
    import numpy as np
    return {"version": 3, "shape": shape, "strides": strides,
            "typestr": np.dtype(t.dtype.name).str, "data": (data, readonly)}


def box_array(t: T.ArrayType, meminfo, data, shape, strides, args=()):
    import numpy as np
    if meminfo:
        return np.asarray(NrtOwner(meminfo, _interface(t, data, shape, strides, False)))
    if 0 in shape:
        # an empty view may point one element outside its base: nothing to keep alive
        return np.empty(shape, dtype=np.dtype(t.dtype.name))
    # memory owned by an argument: find it so the result keeps it alive
    for a in _arrays_in(args):
        if _within(a, data):
            iface = _interface(t, data, shape, strides, not a.flags.writeable)
            return np.asarray(_ViewOwner(a, iface))
    raise RuntimeError("hanajit: returned array memory has no owner")  # pragma: no cover


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
