"""hanajit's copy of CPython's inline ``PyObject_Vectorcall`` (``nativecall``).

On CPython 3.10 the generated dispatchers call their Python handlers through it;
here it is called directly through ctypes on every version, with callables that
take each of its paths (a vectorcall slot, ``tp_call``), keyword names, the
``PY_VECTORCALL_ARGUMENTS_OFFSET`` flag and exceptions, and compared with
calling the same objects from Python.
"""
from __future__ import annotations

import ctypes
import sys

import pytest
from hanajit.dispatch.heaptype import interpreter_supports_native

from hanajit.testing.dispatch_modes import native_at_once  # noqa: F401
from hanajit_cpu import nativecall

pytestmark = [pytest.mark.skipif(not interpreter_supports_native()[0],
                                 reason=interpreter_supports_native()[1]),
              pytest.mark.usefixtures("native_at_once")]   # native from the second call

OFFSET_FLAG = 1 << 63


@pytest.fixture(scope="module")
def inline():
    assert nativecall.inline_layout_known()
    saved = nativecall.force_inline
    nativecall.force_inline = True
    try:
        address = nativecall.address()
    finally:
        nativecall.force_inline = saved
    assert address != nativecall._symbol("PyObject_Vectorcall")
    return ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.py_object, ctypes.c_void_p,
                             ctypes.c_int64, ctypes.c_void_p)(address)


def vectorcall(fn, callable_, *args, offset=False, **kwargs):
    """``callable_(*args, **kwargs)`` through ``fn``, as a dispatcher calls it."""
    items = [None] + list(args) + list(kwargs.values())     # slot 0: args[-1]
    arr = (ctypes.c_void_p * len(items))(*[id(x) for x in items])
    start = ctypes.addressof(arr) + 8
    kwnames = tuple(sys.intern(k) for k in kwargs) or None
    nargsf = len(args) | (OFFSET_FLAG if offset else 0)
    return fn(callable_, start, nargsf - (1 << 64) if offset else nargsf,
              id(kwnames) if kwnames else None)


def py_function(a, b=10, *, c=100):
    return (a, b, c)


class CallMe:
    """Instances have no vectorcall slot: the call goes through ``tp_call``."""

    def __call__(self, *args, **kwargs):
        return ("called", args, sorted(kwargs.items()))


def boom(x):
    raise ValueError(f"boom {x}")


@pytest.mark.parametrize("offset", [False, True])
@pytest.mark.parametrize("callable_, args, kwargs", [
    (py_function, (1,), {}),
    (py_function, (1, 2), {"c": 3}),
    (py_function, (), {"c": 3, "a": 1}),
    (sorted, ([3, 1, 2],), {"reverse": True}),
    (max, (4, 9, 2), {}),
    (CallMe(), (1, 2), {"z": 3}),
    (CallMe(), (), {}),
    (complex, (1.0,), {"imag": 2.0}),
    (dict, (), {"x": 1}),
])
def test_inline_vectorcall_calls_like_python(inline, callable_, args, kwargs, offset):
    assert vectorcall(inline, callable_, *args, offset=offset, **kwargs) == \
        callable_(*args, **kwargs)


@pytest.mark.parametrize("callable_, args, kwargs, exc", [
    (boom, (1,), {}, ValueError),
    (py_function, (), {}, TypeError),
    (py_function, (1,), {"d": 2}, TypeError),
    (CallMe, (1,), {}, TypeError),
])
def test_inline_vectorcall_raises_like_python(inline, callable_, args, kwargs, exc):
    with pytest.raises(exc) as got:
        vectorcall(inline, callable_, *args, **kwargs)
    with pytest.raises(exc) as want:
        callable_(*args, **kwargs)
    assert str(got.value) == str(want.value)


def test_inline_vectorcall_reference_counts(inline):
    arg = object()
    before = sys.getrefcount(arg)
    for _ in range(100):
        assert vectorcall(inline, py_function, arg, b=arg)[:2] == (arg, arg)
    assert sys.getrefcount(arg) == before


def test_available_on_this_interpreter():
    assert nativecall.available()
    # 3.11 and later export the function; 3.10 declares it static inline
    assert nativecall.exported() == (sys.version_info >= (3, 11))
