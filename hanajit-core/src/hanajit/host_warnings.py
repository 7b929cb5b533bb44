"""``warnings.warn`` of compiled code: the host function ``hj.host.hanajit_warn``
(a ctypes callback the CPU engine links, :func:`address`).

The compiled code passes a constant text, the ``repr`` of ``(category,
message)`` with ``category`` the name of a builtin warning class, and the
integers that fill the message's ``{}`` fields
(``lib/python/warning_calls.py``; NumPy's ``multivariate_normal`` warns
"covariance is not symmetric positive-semidefinite.").  The callback warns as
the interpreter would, attributed to the first frame outside hanajit (compiled
code has no frame of its own), and returns 1 when the warning raised (a filter
turned it into an error): the compiled code then raises the warning as an
exception, as the interpreter's call does."""
from __future__ import annotations

import ast
import builtins
import ctypes
import sys
import warnings

SYMBOL = "hanajit_warn"
_texts: dict = {}


def _stacklevel() -> int:
    """``warnings.warn``'s stacklevel naming the first frame (from the caller of
    :func:`host_warn`) whose code is not hanajit's or a target plugin's (a
    module named ``hanajit...``)."""
    level, f = 2, sys._getframe(2)
    while f is not None and str(f.f_globals.get("__name__", "")).startswith("hanajit"):
        level, f = level + 1, f.f_back
    return level


def host_warn(text, slots, count) -> int:
    """``hj.host.hanajit_warn(text, slots, count)``: 0, or 1 if the warning raised."""
    key = ctypes.string_at(text)
    found = _texts.get(key)
    if found is None:
        found = _texts[key] = ast.literal_eval(key.decode("utf-8", "surrogatepass"))
    category, message = found
    if count:           # integers for the message's "{}" fields
        message = message.format(*(ctypes.c_int64 * count).from_address(slots))
    try:
        warnings.warn(message, getattr(builtins, category), stacklevel=_stacklevel())
    except Exception:
        return 1
    return 0


_WARN = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p,
                         ctypes.c_int64)(host_warn)


def address(name: str):
    """The address of the host function ``name`` when it is this module's."""
    if name == SYMBOL:
        return ctypes.cast(_WARN, ctypes.c_void_p).value
    return None
