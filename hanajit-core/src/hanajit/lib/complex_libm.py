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


# NumPy's complex log2, log10 and exp2 (``nc_log2`` ...): the C library's clog or
# cexp with both parts multiplied by a constant of the part's type, after (log) or
# before (exp) the call
DERIVED = {"log2": ("log", 1.4426950408889634074, "after"),
           "log10": ("log", 0.434294481903251827651, "after"),
           "exp2": ("exp", 0.693147180559945309417, "before")}


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
    if intrinsic not in FUNCTIONS and intrinsic not in DERIVED:
        raise Incompatible(f"np.{name}() of {t}")
    if not agrees_with_numpy(intrinsic, t.bits):
        raise Incompatible(f"np.{name}() of {t}: NumPy's complex {name} is not the C "
                           "library's here")
    return t


def _scaled(z, k):
    """Both parts of the complex array ``z`` times the real ``k`` (its part type)."""
    out = z.copy()
    out.real = z.real * k
    out.imag = z.imag * k
    return out


def lower_derived(L, intrinsic: str, z, t: T.Scalar):
    """The IR of NumPy's complex ``log2``/``log10``/``exp2`` of ``z`` (a Var)."""
    from ..ir import nodes as N
    from .operators import C
    base, k, when = DERIVED[intrinsic]
    c = t.component

    def scaled(v):
        return N.MakeComplex(N.BinOp("mul", N.ComplexPart(v, "real", c), C(k, c), c),
                             N.BinOp("mul", N.ComplexPart(v, "imag", c), C(k, c), c), t)
    if when == "before":
        return N.Intrinsic(base, [L.let(scaled(z))], t)
    return scaled(L.let(N.Intrinsic(base, [z], t)))


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
    base, k, when = DERIVED.get(intrinsic, (intrinsic, None, None))
    try:
        fn = getattr(libm(), "c" + FUNCTIONS[base] + ("f" if single else ""))
    except (AttributeError, OSError):
        return False
    fn.restype, fn.argtypes = Pair, [Pair]
    dtype = np.complex64 if single else np.complex128
    scale = np.float32(k) if single else np.float64(k or 0.0)
    with np.errstate(all="ignore"):
        z = np.array(_samples(), dtype)
    ufunc = getattr(np, {"asin": "arcsin", "acos": "arccos", "atan": "arctan",
                         "asinh": "arcsinh", "acosh": "arccosh",
                         "atanh": "arctanh"}.get(intrinsic, intrinsic))
    with np.errstate(all="ignore"):
        want = ufunc(z)
    with np.errstate(all="ignore"):
        arg = z if when != "before" else _scaled(z, scale)
        got = np.array([complex(r.re, r.im) for r in (fn(Pair(v.real, v.imag))
                                                      for v in arg)], dtype)
        if when == "after":
            got = _scaled(got, scale)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        nan = np.isnan(w)
        if not (np.array_equal(nan, np.isnan(g))
                and np.array_equal(g[~nan].view(np.uint32 if single else np.uint64),
                                   w[~nan].view(np.uint32 if single else np.uint64))):
            return False
    return True
