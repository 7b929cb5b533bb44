"""NumPy's complex math functions (``np.exp``, ``np.log``, ``np.sqrt``, the
trigonometric and hyperbolic functions and their inverses, of complex values)
as the C library's ``cexp``, ``clog`` ... on the CPU target.

NumPy computes them with the platform's C99 complex functions where it has
them (glibc: ``npy_cexp`` is ``cexp``), so calling the same functions gives
NumPy's results bit for bit.  That is checked, not assumed: the first time a
function is compiled, NumPy's ufunc and the C library's function are compared
on values around every special case (zeros of both signs, infinities, NaNs,
huge and tiny parts); if any differs, or the C library lacks the function, the
call falls back to the interpreter.  Targets other than the host CPU refuse
complex math (``LLVMTargetInfo.complex_libm``).
"""
from __future__ import annotations

import ctypes
import functools

from ..infer.rules import Incompatible
from ..ir import types as T

# intrinsic name -> the C99 complex function's stem (c<stem>, c<stem>f)
FUNCTIONS = {"exp": "exp", "log": "log", "sqrt": "sqrt", "sin": "sin", "cos": "cos",
             "tan": "tan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
             "asin": "asin", "acos": "acos", "atan": "atan", "asinh": "asinh",
             "acosh": "acosh", "atanh": "atanh"}


@functools.lru_cache(maxsize=None)
def libm() -> ctypes.CDLL:
    """The C math library; by its usual soname first (``ctypes.util.find_library``
    runs ``ldconfig`` in a subprocess: milliseconds of a warm start)."""
    try:
        return ctypes.CDLL("libm.so.6")
    except OSError:
        from ctypes.util import find_library
        return ctypes.CDLL(find_library("m") or None)


def complex_function_type(name: str, intrinsic: str, t: T.Scalar) -> T.Scalar:
    """The result type of ``np.<name>`` of complex ``t`` (``t`` itself), or
    Incompatible when it cannot be NumPy's result here."""
    if intrinsic not in FUNCTIONS:
        raise Incompatible(f"np.{name}() of {t}")
    if not agrees_with_numpy(intrinsic, t.bits):
        raise Incompatible(f"np.{name}() of {t}: NumPy's complex {name} is not the C "
                           "library's here")
    return t


def _samples():
    specials = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-300, -1e-310, 1e300, -700.0,
                710.0, float("inf"), float("-inf"), float("nan")]
    return [complex(r, i) for r in specials for i in specials]


@functools.lru_cache(maxsize=None)
def agrees_with_numpy(intrinsic: str, bits: int) -> bool:
    """Does NumPy's ufunc equal the C library's ``c<intrinsic>`` (``f``: complex64)
    on the sample values, bit for bit (NaNs by position)?"""
    import numpy as np

    single = bits == 64
    part = ctypes.c_float if single else ctypes.c_double

    class Pair(ctypes.Structure):
        _fields_ = [("re", part), ("im", part)]
    try:
        fn = getattr(libm(), "c" + FUNCTIONS[intrinsic] + ("f" if single else ""))
    except (AttributeError, OSError):
        return False
    fn.restype, fn.argtypes = Pair, [Pair]
    dtype = np.complex64 if single else np.complex128
    with np.errstate(all="ignore"):
        z = np.array(_samples(), dtype)
    ufunc = getattr(np, {"asin": "arcsin", "acos": "arccos", "atan": "arctan",
                         "asinh": "arcsinh", "acosh": "arccosh",
                         "atanh": "arctanh"}.get(intrinsic, intrinsic))
    with np.errstate(all="ignore"):
        want = ufunc(z)
    got = np.array([complex(r.re, r.im) for r in (fn(Pair(v.real, v.imag)) for v in z)],
                   dtype)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        nan = np.isnan(w)
        if not (np.array_equal(nan, np.isnan(g))
                and np.array_equal(g[~nan].view(np.uint32 if single else np.uint64),
                                   w[~nan].view(np.uint32 if single else np.uint64))):
            return False
    return True
