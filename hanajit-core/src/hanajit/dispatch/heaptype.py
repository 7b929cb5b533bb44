"""The native jitted-function type: a CPython heap type with a vectorcall slot.

:func:`native_type` builds, once per process, a subclass of a Python base class
(``hanajit.api.JitFunction``) through ``PyType_FromSpecWithBases`` (ctypes only, no
C extension).  Its instances are laid out as::

    +0   PyObject_HEAD
    +16  vectorcall function pointer   (__vectorcalloffset__)
    +24  instance __dict__             (__dictoffset__)
    +32  weak-reference list           (__weaklistoffset__)

The methods come from the Python base.  Because the base is a Python class, the
type inherits garbage-collector support (``subtype_traverse``/``subtype_clear``
visit and clear the instance dict), so reference cycles through the dict are
collected.  A NULL vectorcall pointer makes CPython call ``tp_call``, inherited from
the base's ``__call__``: the Python dispatcher.  A target that can generate a
vectorcall function writes its address with :func:`set_vectorcall`; it is read on
every call, so swapping it (with the GIL held) is safe at any time.

:func:`native_dispatch_enabled` says whether this interpreter can use it: CPython
with the GIL, and ``HANAJIT_NATIVE_DISPATCH`` not ``0``.  Elsewhere (PyPy,
free-threaded builds) the Python dispatcher runs with identical results.
"""
from __future__ import annotations

import ctypes
import os
import platform
import sysconfig
import threading
from ctypes import POINTER, Structure, c_char_p, c_int, c_ssize_t, c_uint, c_void_p

VECTORCALL_OFFSET = 16
DICT_OFFSET = 24
WEAKLIST_OFFSET = 32
BASICSIZE = 40

_T_PYSSIZET = 19
_READONLY = 1
_Py_tp_members = 72
_Py_tp_getset = 73
_Py_TPFLAGS_DEFAULT = 1 << 18
_Py_TPFLAGS_HAVE_VECTORCALL = 1 << 11
_Py_TPFLAGS_METHOD_DESCRIPTOR = 1 << 17   # obj.f(x) calls f(obj, x) without binding


class _PyMemberDef(Structure):
    _fields_ = [("name", c_char_p), ("type", c_int), ("offset", c_ssize_t),
                ("flags", c_int), ("doc", c_char_p)]


class _PyGetSetDef(Structure):
    _fields_ = [("name", c_char_p), ("get", c_void_p), ("set", c_void_p),
                ("doc", c_char_p), ("closure", c_void_p)]


class _PyTypeSlot(Structure):
    _fields_ = [("slot", c_int), ("pfunc", c_void_p)]


class _PyTypeSpec(Structure):
    _fields_ = [("name", c_char_p), ("basicsize", c_int), ("itemsize", c_int),
                ("flags", c_uint), ("slots", POINTER(_PyTypeSlot))]


def interpreter_supports_native() -> tuple[bool, str]:
    """Can this interpreter run generated vectorcall code at all?"""
    if platform.python_implementation() != "CPython":
        return False, f"{platform.python_implementation()} is not CPython"
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        return False, "free-threaded CPython build"
    if not hasattr(ctypes, "pythonapi"):        # pragma: no cover
        return False, "ctypes.pythonapi is missing"
    return True, "CPython with the GIL"


def native_dispatch_enabled() -> bool:
    """True when new jitted functions use the native type (read at ``@jit`` time)."""
    if os.environ.get("HANAJIT_NATIVE_DISPATCH", "1").strip().lower() in (
            "0", "no", "off", "false"):
        return False
    return interpreter_supports_native()[0]


_lock = threading.Lock()
_types: dict = {}
_keepalive: list = []


def native_type(base: type, name: str = "hanajit.api.NativeJitFunction") -> type:
    """The heap type (built once per base) whose instances carry a vectorcall slot."""
    tp = _types.get(base)
    if tp is not None:
        return tp
    with _lock:
        tp = _types.get(base)
        if tp is None:
            tp = _types[base] = _build(base, name)
    return tp


def _build(base: type, name: str) -> type:
    if base.__basicsize__ != object.__basicsize__ or base.__dictoffset__ \
            or base.__weakrefoffset__:
        raise TypeError(f"{base.__name__} must declare __slots__ = ()")
    api = ctypes.pythonapi
    members = (_PyMemberDef * 4)(
        _PyMemberDef(b"__vectorcalloffset__", _T_PYSSIZET, VECTORCALL_OFFSET, _READONLY),
        _PyMemberDef(b"__dictoffset__", _T_PYSSIZET, DICT_OFFSET, _READONLY),
        _PyMemberDef(b"__weaklistoffset__", _T_PYSSIZET, WEAKLIST_OFFSET, _READONLY),
        _PyMemberDef(None, 0, 0, 0, None))
    # types made from a spec get no __dict__ descriptor: add the generic one, which
    # functools.update_wrapper and vars() need
    getset = (_PyGetSetDef * 2)(
        _PyGetSetDef(b"__dict__", ctypes.cast(api.PyObject_GenericGetDict, c_void_p),
                     ctypes.cast(api.PyObject_GenericSetDict, c_void_p), None, None),
        _PyGetSetDef(None, None, None, None, None))
    slots = (_PyTypeSlot * 3)(
        _PyTypeSlot(_Py_tp_members, ctypes.cast(members, c_void_p)),
        _PyTypeSlot(_Py_tp_getset, ctypes.cast(getset, c_void_p)),
        _PyTypeSlot(0, None))
    qualname = name.encode()
    flags = (_Py_TPFLAGS_DEFAULT | _Py_TPFLAGS_HAVE_VECTORCALL
             | _Py_TPFLAGS_METHOD_DESCRIPTOR)
    spec = _PyTypeSpec(qualname, BASICSIZE, 0, flags, slots)
    from_spec = api.PyType_FromSpecWithBases
    from_spec.restype = ctypes.py_object
    from_spec.argtypes = [POINTER(_PyTypeSpec), ctypes.py_object]
    tp = from_spec(ctypes.byref(spec), (base,))
    # the type keeps pointers into members/getset/the name: keep them for ever
    _keepalive.append((members, getset, slots, qualname, spec))
    return tp


def set_vectorcall(obj, address: int | None) -> None:
    """Point ``obj``'s vectorcall slot at ``address`` (None: the Python ``__call__``)."""
    c_void_p.from_address(id(obj) + VECTORCALL_OFFSET).value = address or None


def get_vectorcall(obj) -> int | None:
    return c_void_p.from_address(id(obj) + VECTORCALL_OFFSET).value
