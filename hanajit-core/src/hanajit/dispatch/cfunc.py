"""A compiled specialisation as a plain C function pointer (``f.specialize``).

ABI (``CFunction.address``), for specialisations whose arguments and result are
real scalars: ``ret f(args...)`` with C types ``int8_t``..``int64_t``,
``uint8_t``..``uint64_t``, ``_Bool``, ``float``, ``double`` (``void`` for a function
returning None).  When the kernel raises (``ZeroDivisionError`` ...), the function
returns 0 (NaN for a float result) and stores the raise code in an error word
shared by every thread; :meth:`CFunction.error` reads and clears it.

Every specialisation also has ``entry_address``, the status-returning C-ABI wrapper
``int32_t f(int64_t *ret, int64_t *err, flat args...)`` (tuples and complex numbers
flattened to ``int64_t``/``double``; see :mod:`hanajit.lowering.cabi`).

The pointers stay valid while the ``CFunction`` (or the jitted function) lives.
"""
from __future__ import annotations

import ctypes

from ..ir import types as T

_CTYPES = {
    T.BOOL: ctypes.c_bool,
    T.INT8: ctypes.c_int8, T.INT16: ctypes.c_int16, T.INT32: ctypes.c_int32,
    T.INT64: ctypes.c_int64,
    T.UINT8: ctypes.c_uint8, T.UINT16: ctypes.c_uint16, T.UINT32: ctypes.c_uint32,
    T.UINT64: ctypes.c_uint64,
    T.FLOAT32: ctypes.c_float, T.FLOAT64: ctypes.c_double,
}
_C_NAMES = {
    T.BOOL: "_Bool", T.FLOAT32: "float", T.FLOAT64: "double",
    **{t: f"{t.name}_t" for t in (T.INT8, T.INT16, T.INT32, T.INT64, T.UINT8,
                                  T.UINT16, T.UINT32, T.UINT64)},
}


def c_representable(arg_types, return_type) -> bool:
    """True when a specialisation has the plain ``ret f(args...)`` form."""
    return all(t in _CTYPES for t in arg_types) and (
        return_type in _CTYPES or return_type == T.NONE)


class CFunction:
    """A specialisation's native entry points (see the module docstring)."""

    def __init__(self, name: str, entry, keepalive=None):
        self.name = name
        self.arg_types = tuple(entry.arg_types)
        self.return_type = entry.return_type
        self.address = entry.cfunc_address
        self.entry_address = entry.entry_address
        self.can_raise = entry.can_raise
        self._entry = entry
        self._keepalive = keepalive
        self._ctypes = None

    @property
    def signature(self) -> str:
        """The C declaration, e.g. ``double (double, int64_t)``."""
        ret = "void" if self.return_type == T.NONE else _C_NAMES[self.return_type]
        return f"{ret} ({', '.join(_C_NAMES[t] for t in self.arg_types) or 'void'})"

    @property
    def ctypes(self):
        """A ctypes function pointer to :attr:`address`."""
        if self.address is None:
            raise TypeError(f"{self.name}{self._types()} has no plain C form (its "
                            "arguments or result are not real scalars); use "
                            "entry_address")
        if self._ctypes is None:
            restype = None if self.return_type == T.NONE else _CTYPES[self.return_type]
            proto = ctypes.CFUNCTYPE(restype, *(_CTYPES[t] for t in self.arg_types))
            self._ctypes = proto(self.address)
            self._ctypes._hanajit_keepalive = self   # the code lives while it does
        return self._ctypes

    def error(self):
        """The exception the kernel raised since the last call (cleared), or None."""
        addr = self._entry.cfunc_error_address
        if not addr:
            return None
        word = ctypes.c_int32.from_address(addr)
        code, word.value = word.value, 0
        if not code:
            return None
        from ..errors import kernel_exception
        exc, message, _deopt = self._entry.raises[code - 1]
        return kernel_exception(exc, message)

    def scipy_callable(self):
        """A ``scipy.LowLevelCallable``: ``double (double)`` for one float64
        argument, ``double (int, double *)`` for several (``quad``'s ``args=``)."""
        import scipy

        if self.return_type != T.FLOAT64 or not self.arg_types or any(
                t != T.FLOAT64 for t in self.arg_types):
            raise TypeError(f"{self.name}{self._types()}: scipy_callable needs "
                            "float64 arguments and a float64 result")
        if len(self.arg_types) == 1:
            return scipy.LowLevelCallable(self.ctypes)
        proto = ctypes.CFUNCTYPE(ctypes.c_double, ctypes.c_int,
                                 ctypes.POINTER(ctypes.c_double))
        fp = proto(self._entry.cfunc_nd_address)
        fp._hanajit_keepalive = self     # the code lives while the pointer does
        return scipy.LowLevelCallable(fp)

    def _types(self) -> str:
        return "(" + ", ".join(map(str, self.arg_types)) + ")"

    def __repr__(self):
        return f"<CFunction {self.name} {self.signature} at {self.address:#x}>" \
            if self.address else f"<CFunction {self.name}{self._types()}>"
