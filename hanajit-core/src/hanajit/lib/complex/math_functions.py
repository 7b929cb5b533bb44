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
complex math (``LLVMTargetInfo.math_functions``).
"""
from __future__ import annotations

import ctypes
import functools

from ...typing_rules import Incompatible
from ...ir import types as T

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


@functools.cache
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
    if intrinsic not in FUNCTIONS and intrinsic not in DERIVED \
            and intrinsic not in FORMULAS:
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


# NumPy's complex expm1 and log1p (``nc_expm1``, ``nc_log1p``): formulas over the C
# library's real functions, in the part's type
#   expm1: a = sin(y/2); (expm1(x)*cos(y) - 2*a*a, exp(x)*sin(y))
#   log1p: (log(hypot(x+1, y)), atan2(y, x+1))
FORMULAS = ("expm1", "log1p")


def formula(name: str, x, y, f, two, one):
    """The formula of ``name`` over the parts ``x``, ``y`` with real functions
    ``f.<name>(...)`` and the constants ``two``/``one`` of the part's type."""
    if name == "expm1":
        a = f.sin(y / two)
        return f.expm1(x) * f.cos(y) - two * a * a, f.exp(x) * f.sin(y)
    return f.log(f.hypot(x + one, y)), f.atan2(y, x + one)


def lower_derived(L, intrinsic: str, z, t: T.Scalar):
    """The IR of NumPy's complex ``log2``/``log10``/``exp2``/``expm1``/``log1p``
    of ``z`` (a Var)."""
    from ...ir import nodes as N
    from ..python.operators import C
    c = t.component
    if intrinsic in FORMULAS:
        x, y = L.let(N.ComplexPart(z, "real", c)), L.let(N.ComplexPart(z, "imag", c))
        re, im = formula(intrinsic, _Ex(x, c), _Ex(y, c), _Fns(L, c),
                         _Ex(C(2.0, c), c), _Ex(C(1.0, c), c))
        return N.MakeComplex(re.e, im.e, t)
    base, k, when = DERIVED[intrinsic]

    def scaled(v):
        return N.MakeComplex(N.BinOp("mul", N.ComplexPart(v, "real", c), C(k, c), c),
                             N.BinOp("mul", N.ComplexPart(v, "imag", c), C(k, c), c), t)
    if when == "before":
        return N.Intrinsic(base, [L.let(scaled(z))], t)
    return scaled(L.let(N.Intrinsic(base, [z], t)))


_OPS = {"+": "add", "-": "sub", "*": "mul", "/": "fdiv"}


class _Ex:
    """An IR expression of the real type ``c`` with Python's arithmetic operators
    (for :func:`formula`)."""

    def __init__(self, e, c):
        self.e, self.c = e, c

    def _bin(self, op, other):
        from ...ir import nodes as N
        return _Ex(N.BinOp(_OPS[op], self.e, other.e, self.c), self.c)

    def __add__(self, o):
        return self._bin("+", o)

    def __sub__(self, o):
        return self._bin("-", o)

    def __mul__(self, o):
        return self._bin("*", o)

    def __truediv__(self, o):
        return self._bin("/", o)


class _Fns:
    """The C library's real functions as scalar ``Intrinsic`` calls on ``_Ex``
    values (never a vector variant: NumPy's complex loop calls the C library)."""

    def __init__(self, L, c):
        self.L, self.c = L, c

    def __getattr__(self, name):
        from ...ir import nodes as N

        def call(*args):
            e = N.Intrinsic(name, [self.L.let(a.e) for a in args], self.c)
            e.scalar_only = True
            return _Ex(self.L.let(e), self.c)
        return call


def _formula_agrees(name: str, single: bool) -> bool:
    """Does NumPy's complex ``name`` equal :func:`formula` over the C library's
    real functions, bit for bit on the sample values?"""
    import numpy as np
    ct = ctypes.c_float if single else ctypes.c_double
    ft = np.float32 if single else np.float64

    class Lib:
        def __getattr__(self, fname):
            try:
                fn = getattr(libm(), fname + ("f" if single else ""))
            except AttributeError:
                raise LookupError(fname) from None
            fn.restype = ct
            fn.argtypes = [ct] * (2 if fname in ("atan2", "hypot") else 1)
            return lambda *a: ft(fn(*[float(v) for v in a]))
    dtype = np.complex64 if single else np.complex128
    with np.errstate(all="ignore"):
        z = np.array(_samples(), dtype)
        want = getattr(np, name)(z)
        try:
            got = np.array([complex(*formula(name, v.real, v.imag, Lib(), ft(2), ft(1)))
                            for v in z], dtype)
        except LookupError:
            return False
    return _same_bits(got, want, single)


def _same_bits(got, want, single) -> bool:
    """Equal bit for bit, NaNs by position (their payloads aside)."""
    import numpy as np
    ints = np.uint32 if single else np.uint64
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        nan = np.isnan(w)
        if not (np.array_equal(nan, np.isnan(g))
                and np.array_equal(g[~nan].view(ints), w[~nan].view(ints))):
            return False
    return True


def _samples():
    specials = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-300, -1e-310, 1e300, -700.0,
                710.0, float("inf"), float("-inf"), float("nan")]
    return [complex(r, i) for r in specials for i in specials]


@functools.cache
def agrees_with_numpy(intrinsic: str, bits: int) -> bool:
    """Does NumPy's ufunc equal the C library's ``c<intrinsic>`` (``f``: complex64)
    on the sample values, bit for bit (NaNs by position)?"""
    import numpy as np

    single = bits == 64
    part = ctypes.c_float if single else ctypes.c_double

    class Pair(ctypes.Structure):
        _fields_ = [("re", part), ("im", part)]
    if intrinsic in FORMULAS:
        return _formula_agrees(intrinsic, single)
    base, k, when = DERIVED.get(intrinsic, (intrinsic, None, None))
    try:
        fn = getattr(libm(), "c" + FUNCTIONS[base] + ("f" if single else ""))
    except (AttributeError, OSError):
        return False
    fn.restype, fn.argtypes = Pair, [Pair]
    dtype = np.complex64 if single else np.complex128
    scale = (np.float32 if single else np.float64)(k or 0.0)
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
    return _same_bits(got, want, single)
