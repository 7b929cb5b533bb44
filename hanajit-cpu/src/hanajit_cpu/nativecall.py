"""Calling a Python object with the vectorcall convention from generated code.

The dispatcher (:mod:`hanajit_cpu.native`) calls its Python handlers with
``PyObject_Vectorcall(callable, args, nargsf, kwnames)``.  CPython exports that
function from 3.11 on; in 3.10 it is a static inline function of
``cpython/abstract.h``, so no symbol of that name exists.  There the dispatchers
link that name to a copy of the inline, ``__hj_vectorcall``, compiled once per
process, which calls only exported functions::

    tstate = PyThreadState_Get()
    tp = Py_TYPE(callable)
    if tp->tp_flags & Py_TPFLAGS_HAVE_VECTORCALL:
        func = *(vectorcallfunc *)((char *)callable + tp->tp_vectorcall_offset)
        if func:
            return _Py_CheckFunctionResult(tstate, callable,
                                           func(callable, args, nargsf, kwnames), NULL)
    return _PyObject_MakeTpCall(tstate, callable, args, nargsf & ~OFFSET_FLAG, kwnames)

The type-object offsets it reads (``tp_vectorcall_offset`` +56, ``tp_flags``
+168, identical in 3.10 to 3.13 on 64-bit builds) are checked once per process
against real objects through ctypes (:func:`inline_layout_known`); where they do
not match, :func:`available` is False and jitted functions keep the Python
dispatcher, with identical results.
"""
from __future__ import annotations

import ctypes
import threading
import types

VECTORCALL = "PyObject_Vectorcall"
INLINE = "__hj_vectorcall"
TP_VECTORCALL_OFFSET, TP_FLAGS = 56, 168
HAVE_VECTORCALL = 1 << 11
_OFFSET_FLAG = 1 << 63            # PY_VECTORCALL_ARGUMENTS_OFFSET
_INLINE_IMPORTS = ("PyThreadState_Get", "_Py_CheckFunctionResult",
                   "_PyObject_MakeTpCall")
_INLINE_IR = f"""
declare ptr @PyThreadState_Get()
declare ptr @_Py_CheckFunctionResult(ptr, ptr, ptr, ptr)
declare ptr @_PyObject_MakeTpCall(ptr, ptr, ptr, i64, ptr)

define ptr @{INLINE}(ptr %callable, ptr %args, i64 %nargsf, ptr %kwnames) {{
entry:
  %tstate = call ptr @PyThreadState_Get()
  %tpp = getelementptr i8, ptr %callable, i64 8
  %tp = load ptr, ptr %tpp
  %flagsp = getelementptr i8, ptr %tp, i64 {TP_FLAGS}
  %flags = load i32, ptr %flagsp
  %bit = and i32 %flags, {HAVE_VECTORCALL}
  %has = icmp ne i32 %bit, 0
  br i1 %has, label %slot, label %tpcall
slot:
  %offp = getelementptr i8, ptr %tp, i64 {TP_VECTORCALL_OFFSET}
  %off = load i64, ptr %offp
  %fpp = getelementptr i8, ptr %callable, i64 %off
  %fp = load ptr, ptr %fpp
  %none = icmp eq ptr %fp, null
  br i1 %none, label %tpcall, label %call
call:
  %res = call ptr %fp(ptr %callable, ptr %args, i64 %nargsf, ptr %kwnames)
  %checked = call ptr @_Py_CheckFunctionResult(ptr %tstate, ptr %callable,
                                                ptr %res, ptr null)
  ret ptr %checked
tpcall:
  %nargs = and i64 %nargsf, {_OFFSET_FLAG - 1}
  %made = call ptr @_PyObject_MakeTpCall(ptr %tstate, ptr %callable, ptr %args,
                                         i64 %nargs, ptr %kwnames)
  ret ptr %made
}}
"""

# tests set this to exercise the 3.10 path on any version
force_inline = False
_state: dict = {}
_lock = threading.Lock()


def _symbol(name: str) -> int | None:
    """The address of an exported CPython function, or None."""
    try:
        return ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value
    except AttributeError:
        return None


def exported() -> bool:
    """True when this CPython exports ``PyObject_Vectorcall`` (3.11 and later)."""
    if "exported" not in _state:
        _state["exported"] = _symbol(VECTORCALL) is not None
    return _state["exported"]


def inline_layout_known() -> bool:
    """True when the type-object fields the inline copy reads are where it reads
    them and every function it calls is exported (checked once, on real objects)."""
    ok = _state.get("inline")
    if ok is None:
        try:
            ok = _probe()
        except Exception:           # pragma: no cover - any surprise: Python path
            ok = False
        _state["inline"] = ok
    return ok


def _probe() -> bool:
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        return False
    if any(_symbol(name) is None for name in _INLINE_IMPORTS):
        return False
    flags = ctypes.c_uint32.from_address
    for tp in (types.FunctionType, int, type, types.BuiltinFunctionType):
        if flags(id(tp) + TP_FLAGS).value != tp.__flags__ & 0xFFFFFFFF:
            return False
    if not types.FunctionType.__flags__ & HAVE_VECTORCALL:
        return False
    # a Python function's vectorcall slot holds _PyFunction_Vectorcall
    offset = ctypes.c_ssize_t.from_address(
        id(types.FunctionType) + TP_VECTORCALL_OFFSET).value
    if not 16 <= offset < types.FunctionType.__basicsize__:
        return False
    slot = ctypes.c_void_p.from_address(id(_probe) + offset).value
    expected = _symbol("_PyFunction_Vectorcall")
    return expected is None or slot == expected


def available() -> bool:
    """True when generated code can call Python objects on this interpreter."""
    if force_inline:
        return inline_layout_known()
    return exported() or inline_layout_known()


def address() -> int:
    """What generated code links ``PyObject_Vectorcall`` to: CPython's exported
    function, or the inline copy, compiled once per process and never freed."""
    if not force_inline and exported():
        return _symbol(VECTORCALL)
    if "inline_address" not in _state:
        with _lock:
            if "inline_address" not in _state:
                _state["inline_address"] = _compile_inline()
    return _state["inline_address"]


def _compile_inline() -> int:
    if not inline_layout_known():
        raise RuntimeError("this CPython neither exports PyObject_Vectorcall nor lays "
                           "out type objects as hanajit's copy of it reads them")
    from .engine import get_engine
    eng = get_engine()
    tracker, addrs = eng.link(eng.compile_object(_INLINE_IR)[1], [INLINE],
                              imports={name: _symbol(name) for name in _INLINE_IMPORTS})
    _state["keep"] = tracker
    return addrs[INLINE]
