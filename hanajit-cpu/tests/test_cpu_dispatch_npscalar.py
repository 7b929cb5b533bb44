"""NumPy scalar arguments on the native call path (``hanajit_cpu.nativescalar``).

Each NumPy scalar type is checked, unboxed and called by the generated
dispatcher without entering Python; a Python number and the NumPy scalar of the
same type keep apart specialisations (NEP 50 promotes them differently).  Every
test runs with ``HANAJIT_NATIVE_DISPATCH`` on and off and compares with CPython.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

from hanajit import api
from hanajit.dispatch.heaptype import interpreter_supports_native
from hanajit.testing.dispatch_modes import jitted, mode  # noqa: F401

NATIVE_OK = interpreter_supports_native()[0]

SCALARS = [np.float64(1.5), np.float32(-2.25), np.int64(-3), np.int32(7), np.int16(-300),
           np.int8(-128), np.uint8(255), np.uint16(65535), np.uint32(2 ** 32 - 1),
           np.uint64(2 ** 64 - 1), np.bool_(True), np.bool_(False),
           np.complex64(1.5 - 2j), np.complex128(-0.5 + 3j), np.longlong(5),
           np.ulonglong(6)]


def _same(got, want):
    """Equal value (bit for bit for floats, NaN included) and equal type (a
    ``np.longlong`` comes back as ``np.int64``, the type of its dtype)."""
    if isinstance(want, np.generic):
        assert isinstance(got, np.generic) and got.dtype == want.dtype, (got, want)
    else:
        assert type(got) is type(want), (got, want)
    if isinstance(want, (float, np.floating)):
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (got, want)
    else:
        assert got == want, (got, want)


def _python_calls(f, *args) -> set:
    """The Python functions a call of ``f`` enters."""
    seen = set()

    def prof(frame, event, arg):
        if event == "call":
            seen.add(frame.f_code.co_name)
    sys.setprofile(prof)
    try:
        f(*args)
    finally:
        sys.setprofile(None)
    return seen


def _ident(x):
    return x


def _double(x):
    return x * 2


def _mix(x, y):
    return x + y


@pytest.mark.parametrize("x", SCALARS, ids=lambda v: type(v).__name__ + repr(v.item()))
def test_numpy_scalar_argument_value(mode, x):  # noqa: F811
    for fn in (_ident, _double):
        jf = jitted(fn)
        # compile, then enough calls for the dispatcher to be generated again
        # (api._regenerate_after: at most HOT_CALLS, or n // 4 of n types)
        for _ in range(2 + max(api.HOT_CALLS, (len(jf._compiled) + 1) // 4)):
            got = jf(x)
        with np.errstate(over="ignore"):
            _same(got, fn(x))            # value and type: the interpreter's
        if mode == "native" and NATIVE_OK:
            assert "__call__" not in _python_calls(jf, x), type(x)


def test_python_and_numpy_scalars_keep_apart(mode):  # noqa: F811
    # x * np.float32(2): a Python float adapts (float32), np.float64 does not
    def f(x):
        return x * np.float32(2.0) + np.float32(0.1)
    jf = jitted(f)
    for order in ([0.1, np.float64(0.1), 0.1, np.float64(0.1)],
                  [np.float64(0.1), 0.1, np.float64(0.1), 0.1]):
        for v in order * 2:
            assert jf(v) == f(v)
    for v in (np.True_, True, 1, np.int64(1)):
        assert jf(v) == f(v)


def test_mixed_arguments(mode):  # noqa: F811
    jf = jitted(_mix)
    for x, y in [(np.float32(1.5), 2), (2, np.int8(5)), (np.uint8(200), np.uint8(100)),
                 (np.float64(1.0), np.float32(0.5)), (1.5, np.complex64(1j))]:
        for _ in range(2 + api.HOT_CALLS):
            got = jf(x, y)
        assert got == _mix(x, y)
        if mode == "native" and NATIVE_OK:
            assert "__call__" not in _python_calls(jf, x, y)


def test_numpy_scalars_in_a_tuple(mode):  # noqa: F811
    def first(t):
        return t[0] + t[1]
    jf = jitted(first)
    for t in [(np.float32(1.5), np.int8(2)), (1.5, 2), (np.float64(1.5), 2.0)]:
        for _ in range(3):
            assert jf(t) == first(t)


def test_layout_probe():
    from hanajit_cpu import nativescalar
    assert nativescalar.layout_known()
