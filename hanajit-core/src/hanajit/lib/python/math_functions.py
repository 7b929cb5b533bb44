"""``math`` and NumPy scalar functions, and hanajit's own ``prims``.

``math.*`` keeps Python's error behaviour (CPython's ``math_1``/``math_2``:
ValueError for a domain error, OverflowError for a range error) made explicit as
checks around a primitive ``Intrinsic``; ``numpy.*`` on scalars follows NumPy (NaN
or inf, no exception); ``prims.*`` is the bare C function.
"""
from __future__ import annotations

import functools
import sys

from ...ir import nodes as N
from ...ir import types as T
from . import logaddexp_heaviside as lae
from .operators import C, band, bor, convert, float_to_int, logical_not
from ..registry import CallTemplate, register
from ...typing_rules import Incompatible


def _num(t):
    return isinstance(t, T.Scalar) and not t.is_complex


def _isnan(e):
    return N.Cmp("uno", e, e, T.BOOL)


def _isinf(e):
    return N.Cmp("eq", N.Intrinsic("fabs", [e], e.type), C(float("inf"), e.type), T.BOOL)


def _isfinite(e):
    return N.Cmp("lt", N.Intrinsic("fabs", [e], e.type), C(float("inf"), e.type), T.BOOL)


def _signbit(e):
    """The sign bit (``-0.0`` and a negative NaN have it): ``copysign(1, e) < 0``."""
    return N.Cmp("lt", N.Intrinsic("copysign", [C(1.0, e.type), e], e.type),
                 C(0.0, e.type), T.BOOL)


# functions of one or a few instructions (the others are library calls)
_CHEAP = {"sqrt", "fabs", "abs", "floor", "ceil", "trunc", "rint", "round", "copysign",
          "neg", "negative", "positive", "sign", "signbit", "square", "reciprocal",
          "deg2rad", "rad2deg", "radians", "degrees"}


class MathFunc(CallTemplate):
    """A float function of ``math`` (checked), ``numpy`` (unchecked) or prims."""

    def __init__(self, name, intrinsic=None, nargs=1, overflow=False, checked=True,
                 paths=(), numpy_float32=True, result=None):
        self.name = name
        self.intrinsic = intrinsic or name
        self.nargs = nargs
        self.overflow = overflow
        self.checked = checked
        self.paths = paths
        self.numpy_float32 = numpy_float32
        self.result = result
        self.ufunc = not checked
        # an element costs far more than a load (``elementwise.Lazy.costly``)
        self.costly = self.intrinsic not in _CHEAP
        # NumPy's ufuncs take out= (ufuncs.out_typer); math.* and prims do not
        self.accepts_out = bool(paths) and all(p.startswith("numpy.") for p in paths)

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != self.nargs:
            raise Incompatible(f"{self.name}() takes {self.nargs} argument(s)")
        if (len(args) == 1 and isinstance(args[0], T.Scalar) and args[0].is_complex
                and not self.checked and self.paths[0].startswith("numpy.")):
            from ..complex.math_functions import complex_function_type
            return complex_function_type(self.name, self.intrinsic, args[0])
        if not all(_num(a) for a in args):
            raise Incompatible(f"{self.name}() of {', '.join(map(str, args))}")
        if self.result is not None:
            return self.result
        if not self.checked:
            return numpy_float_result(self.name, args)
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        if call.type.is_complex:
            z = L.let(convert(L, args[0], call.type))
            from ..complex.math_functions import DERIVED, FORMULAS, lower_derived
            if self.intrinsic in DERIVED or self.intrinsic in FORMULAS:
                return lower_derived(L, self.intrinsic, z, call.type)
            return N.Intrinsic(self.intrinsic, [z], call.type)
        ft = call.type if call.type.is_float else T.FLOAT64
        xs = [L.let(convert(L, a, ft)) for a in args]
        r = N.Intrinsic(self.intrinsic, xs, ft)
        if self.paths[0].startswith("hanajit.lib.prims."):
            # the C library's function, as the NumPy C code the helpers follow calls
            # it: never a vector variant, even where LLVM packs two calls into one
            # (the legacy Gaussian's log, after two inlined draws)
            r.scalar_only = True          # (lowering/llvm.py: no vector variant)
        if not self.checked:
            return numpy_loop_element(L, r) if self.paths[0].startswith("numpy.") else r
        r = L.let(r)
        if self.intrinsic == "sqrt":
            # the same test as below, made on the argument: sqrt is NaN exactly for
            # x < 0 (-0.0 and NaN pass) and never overflows; it does not wait for
            # the square root, and LLVM drops it where x is known not negative
            L.raise_if(N.Cmp("lt", xs[0], C(0.0, ft), T.BOOL), ValueError,
                       "math domain error")
        elif self.nargs == 1:
            x = xs[0]
            L.raise_if(band(_isnan(r), logical_not(_isnan(x))), ValueError, "math domain error")
            exc = OverflowError if self.overflow else ValueError
            L.raise_if(band(_isinf(r), _isfinite(x)), exc,
                       "math range error" if self.overflow else "math domain error")
        else:
            x, y = xs
            if self.intrinsic == "pow":     # CPython: 0.0 ** negative is a domain error
                zero_pole = band(N.Cmp("eq", x, C(0.0, ft), T.BOOL), _isinf(r))
                if sys.version_info >= (3, 11):     # 3.11+: pow(0.0, -inf) is inf
                    zero_pole = band(zero_pole, _isfinite(y))
                L.raise_if(zero_pole, ValueError, "math domain error")
            nan_in = bor(_isnan(x), _isnan(y))
            L.raise_if(band(_isnan(r), logical_not(nan_in)), ValueError, "math domain error")
            L.raise_if(band(_isinf(r), band(_isfinite(x), _isfinite(y))), OverflowError,
                       "math range error")
        return r


def numpy_float_result(name, args) -> T.Scalar:
    """The float type of a NumPy float function of ``args``: each integer type
    maps to the smallest float holding it (bool, int8, uint8: float16; int16,
    uint16: float32; wider: float64), then the widest wins.  hanajit has no
    float16, so a float16 result is refused (the call falls back)."""
    bits = 16
    for a in args:
        if a.is_float:
            b = a.bits
        elif a.is_bool or a.bits <= 8:
            b = 16
        elif a.bits <= 16:
            b = 32
        else:
            b = 64
        bits = max(bits, b)
    if bits == 16:
        raise Incompatible(f"numpy.{name}() of {', '.join(map(str, args))} is float16")
    return T.FLOAT32 if bits == 32 else T.FLOAT64


class NumpyRounding(MathFunc):
    """numpy.floor / ceil / trunc: NumPy 2.1+ keeps integer (and bool) inputs as
    they are (integer loops); older NumPy converts them to float64."""

    def typer(self, inf, call, args, kwargs):
        t = super().typer(inf, call, args, kwargs)
        x = args[0]
        if (x.is_int or x.is_bool) and _numpy_has_int_loop(self.name):
            return x
        return t

    def lower(self, L, call, args, kwargs):
        if call.type.is_int or call.type.is_bool:
            return args[0]
        return super().lower(L, call, args, kwargs)


def _numpy_has_int_loop(name) -> bool:
    import numpy
    return "l->l" in getattr(numpy, name).types


class Predicate(CallTemplate):
    """isnan / isinf / isfinite on a real number."""

    ufunc = True

    def __init__(self, name, paths):
        self.name = name
        self.paths = paths

    def typer(self, inf, call, args, kwargs):
        import numpy
        numpy_complex = (isinstance(call.callee, numpy.ufunc) and len(args) == 1
                         and isinstance(args[0], T.Scalar) and args[0].is_complex
                         and self.name != "signbit")    # (NumPy: TypeError)
        if len(args) != 1 or kwargs or not (_num(args[0]) or numpy_complex):
            raise Incompatible(f"{self.name}() takes one real number")
        return T.BOOL

    def lower(self, L, call, args, kwargs):
        return numpy_predicate(L, self.name, args[0])


def numpy_predicate(L, name, x):
    """NumPy's ``isnan``/``isinf``/``isfinite``/``signbit`` of a number: of
    either part of a complex one (``isfinite``: of both), constant for integers
    and bools (``signbit``: ``x < 0`` of integers)."""
    test = {"isnan": _isnan, "isinf": _isinf, "isfinite": _isfinite,
            "signbit": _signbit}[name]
    if x.type.is_complex:
        x = L.let(x)
        c = x.type.component
        re, im = (L.let(N.ComplexPart(x, p, c)) for p in ("real", "imag"))
        return (bor if name != "isfinite" else band)(test(re), test(im))
    if not x.type.is_float:
        if name == "signbit" and x.type.is_signed:
            return N.Cmp("lt", x, C(0, x.type), T.BOOL)
        return C(name == "isfinite", T.BOOL)
    return test(L.let(x))


class ToInt(CallTemplate):
    """math.floor / ceil / trunc: a float rounded to a Python int."""

    def __init__(self, name):
        self.name = name
        self.paths = (f"math.{name}",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not _num(args[0]):
            raise Incompatible(f"math.{self.name}() takes one real number")
        t = args[0]
        call.plan = None
        if inf.is_strong(call.args[0]) and t != T.FLOAT64:
            # a NumPy scalar other than np.float64 (a float) has no __floor__ /
            # __ceil__ / __trunc__: floor and ceil round its float(), trunc raises
            call.plan = "TypeError" if self.name == "trunc" else "float"
        return T.INT64

    def lower(self, L, call, args, kwargs):
        x = args[0]
        if call.plan == "TypeError":
            L.emit(N.Raise(exc=TypeError, line=L.line, message=(
                f"type numpy.{T.numpy_name(x.type)} doesn't define __trunc__ method")))
            return C(0, T.INT64)
        if (x.type.is_int or x.type.is_bool) and call.plan != "float":
            return convert(L, x, call.type)
        x = convert(L, x, T.FLOAT64)
        return float_to_int(L, N.Intrinsic(self.name, [x], T.FLOAT64), T.INT64)


class MathLog(MathFunc):
    """math.log(x[, base])."""

    def __init__(self):
        super().__init__("log", paths=("math.log",))

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) not in (1, 2) or not all(_num(a) for a in args):
            raise Incompatible("math.log() takes one or two real numbers")
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        logs = []
        for a in args:
            x = L.let(convert(L, a, T.FLOAT64))
            L.raise_if(N.Cmp("le", x, C(0.0, T.FLOAT64), T.BOOL), ValueError,
                       "math domain error")
            logs.append(L.let(N.Intrinsic("log", [x], T.FLOAT64)))
        if len(logs) == 1:
            return logs[0]
        L.raise_if(N.Cmp("eq", logs[1], C(0.0, T.FLOAT64), T.BOOL), ZeroDivisionError,
                   "float division by zero")
        return N.BinOp("fdiv", logs[0], logs[1], T.FLOAT64)


class Scale(CallTemplate):
    """math.degrees / math.radians."""

    def __init__(self, name, factor):
        self.name, self.factor = name, factor
        self.paths = (f"math.{name}",)

    def typer(self, inf, call, args, kwargs):
        if len(args) != 1 or kwargs or not _num(args[0]):
            raise Incompatible(f"math.{self.name}() takes one real number")
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        return N.BinOp("mul", convert(L, args[0], T.FLOAT64), C(self.factor, T.FLOAT64),
                       T.FLOAT64)


# NumPy's binary ufuncs with float loops only (integer inputs give floats)
FLOAT_ONLY = ("atan2", "hypot", "copysign", "pow", "logaddexp", "logaddexp2", "heaviside")


class NumpyBinary(CallTemplate):
    """numpy.minimum / maximum / fmin / fmax / arctan2 / hypot / power / copysign /
    logaddexp / logaddexp2 / heaviside on scalars (NaN-propagating as NumPy)."""

    ufunc = True
    accepts_out = True
    nargs = 2
    converts_python_ints = True     # on arrays (ufuncs.lift_lower)

    def __init__(self, name, impl):
        self.name = name
        self.impl = impl
        self.paths = (f"numpy.{name}",)
        self.costly = impl not in ("minimum", "maximum", "fmin", "fmax", "copysign",
                                   "heaviside")

    def typer(self, inf, call, args, kwargs):
        ordered = self.impl in ("minimum", "maximum", "fmin", "fmax")
        if kwargs or len(args) != 2 or not all(
                _num(a) or ordered and isinstance(a, T.Scalar) for a in args):
            raise Incompatible(f"numpy.{self.name}() of {args}")
        from ...typing_rules import arith_operands, is_weak
        whole = [n.type if isinstance(getattr(n, "type", None), T.ArrayType) else e
                 for n, e in zip(call.args, args)]
        for node, w in zip(call.args, whole):
            inf.mark_weak(node, w)           # NEP 50 on scalars, as for operators
        if any(isinstance(w, T.ArrayType) for w in whole):
            # on arrays: NumPy 2's promotion, a Python number adapting to the array
            from ..arrays.elementwise import result_dtype
            t = result_dtype("add", *whole, *(inf.weak(n) for n in call.args))
        else:
            # (two bools, Python's too, are NumPy bools here: no int promotion)
            t = T.BOOL if args[0].is_bool and args[1].is_bool else \
                arith_operands(args[0], args[1], call.args[0], call.args[1])
        if self.impl in FLOAT_ONLY and not t.is_float:
            # NumPy's first float loop every (non-Python) input casts to safely:
            # int16 -> float32, int8/uint8/bool -> float16 (hanajit refuses those:
            # the call falls back), so int8 with uint8 is float16, not int16's
            kinds = [w.dtype if isinstance(w, T.ArrayType) else w
                     for w, n in zip(whole, call.args) if not is_weak(n)]
            t = numpy_float_result(self.name, kinds or [t])
        if self.impl == "fmod" and t.is_bool:
            t = T.INT8                      # NumPy's fmod of two bools is int8
        return t

    def lower(self, L, call, args, kwargs):
        t = call.type
        if t.is_int:        # a Python int must fit (np.maximum(i8[0], 300) raises)
            from ..arrays.elementwise import python_int_fits
            args = python_int_fits(L, list(args), t)
        a, b = (L.let(convert(L, x, t)) for x in args)
        if t.is_complex:
            from ..arrays.elementwise import np_complex_extreme
            return np_complex_extreme(L, self.impl, a, b)
        if self.impl in ("minimum", "maximum"):
            op = "lt" if self.impl == "minimum" else "gt"
            pick = N.Select(N.Cmp(op, a, b, T.BOOL), a, b, t)
            if t.is_float:   # NaN wins
                return N.Select(_isnan(a), a, N.Select(_isnan(b), b, pick, t), t)
            return pick
        if self.impl in ("fmin", "fmax"):
            # equal values (0.0 and -0.0): the argument this NumPy returns
            op = "le" if self.impl == "fmin" else "ge"
            if t.is_float and not getattr(call, "elementwise", False) and \
                    not _equal_gives_first(self.impl, t.name):
                op = "lt" if self.impl == "fmin" else "gt"
            pick = N.Select(N.Cmp(op, a, b, T.BOOL), a, b, t)
            if t.is_float:   # NaN loses
                return N.Select(_isnan(a), b, N.Select(_isnan(b), a, pick, t), t)
            return pick
        if self.impl == "fmod" and not t.is_float:
            return _numpy_int_fmod(a, b, t)
        if self.impl in ("logaddexp", "logaddexp2"):
            return lae.logaddexp(L, a, b, t, self.impl == "logaddexp2")
        if self.impl == "heaviside":
            return lae.heaviside(a, b, t)
        return numpy_loop_element(L, N.Intrinsic(self.impl, [a, b], t))


def numpy_loop_element(L, r: N.Intrinsic) -> N.Intrinsic:
    """``r`` as an element of NumPy's ufunc loop in a user's function: NumPy's own
    SIMD function where NumPy's loop is one and the target calls it
    (``Intrinsic.numpy_loop``, ``lowering/numpy_loops.py``).  Not in hanajit's
    library code, whose NumPy calls stand for NumPy's C code calling the C
    library (``np.expm1`` in a random distribution is C's ``expm1``)."""
    from ..registry import ours
    if not ours(L.fn):
        r.numpy_loop = True
    return r


@functools.lru_cache(maxsize=None)
def _equal_gives_first(impl: str, dtype: str) -> bool:
    """Does the installed NumPy's ``fmin``/``fmax`` of two scalars return the first
    for equal values (``0.0`` and ``-0.0``)?  Its releases differ (float64: the
    first from NumPy 2.3, the second in 2.2), so it is asked, once per type.
    (Over arrays, NumPy's answer depends on where an element falls in its SIMD
    loop; there the first is kept.)"""
    import numpy as np
    dt = np.dtype(dtype)
    return not np.signbit(getattr(np, impl)(dt.type(0.0), dt.type(-0.0)))


def _numpy_int_fmod(a, b, t):
    """numpy.fmod on integers: C's ``%`` (sign of the dividend), 0 for a zero
    divisor (NumPy warns and gives 0); ``MIN % -1`` is 0."""
    zero = C(0, t)
    if t.is_signed:
        bad = bor(N.Cmp("eq", b, zero, T.BOOL), N.Cmp("eq", b, C(-1, t), T.BOOL))
        op = "srem"
    else:
        bad = N.Cmp("eq", b, zero, T.BOOL)
        op = "urem"
    safe = N.Select(bad, C(1, t), b, t)
    return N.Select(bad, zero, N.BinOp(op, a, safe, t), t)


def _register_all():
    one = [  # name, intrinsic, can overflow
        ("sqrt", "sqrt", False), ("exp", "exp", True), ("expm1", "expm1", True),
        ("log2", "log2", False), ("log10", "log10", False), ("log1p", "log1p", False),
        ("sin", "sin", False), ("cos", "cos", False), ("tan", "tan", False),
        ("asin", "asin", False), ("acos", "acos", False), ("atan", "atan", False),
        ("sinh", "sinh", True), ("cosh", "cosh", True), ("tanh", "tanh", False),
        ("asinh", "asinh", False), ("acosh", "acosh", False), ("atanh", "atanh", False),
        ("erf", "erf", False), ("erfc", "erfc", False), ("fabs", "fabs", False),
        ("cbrt", "cbrt", False), ("exp2", "exp2", True),
    ]
    for name, intr, ovf in one:
        register(MathFunc(name, intr, 1, ovf, True, paths=(f"math.{name}",)))
    # (math.hypot: math_norms, CPython 3.11+'s vector_norm; before 3.11 the C
    # library's hypot, as 3.10's two-argument hypot gives)
    two = (("atan2", "atan2"), ("copysign", "copysign"), ("fmod", "fmod"), ("pow", "pow"),
           ("remainder", "remainder"))
    if sys.version_info < (3, 11):
        two += (("hypot", "hypot"),)
    for name, intr in two:
        register(MathFunc(name, intr, 2, True, True, paths=(f"math.{name}",)))
    register(MathLog())
    import math
    register(Scale("degrees", 180.0 / math.pi))
    register(Scale("radians", math.pi / 180.0))
    for name in ("floor", "ceil", "trunc"):
        register(ToInt(name))
    for name in ("isnan", "isinf", "isfinite"):
        register(Predicate(name, (f"math.{name}", f"numpy.{name}")))
    register(Predicate("signbit", ("numpy.signbit",)))
    np_one = {"sqrt": "sqrt", "exp": "exp", "expm1": "expm1", "log": "log", "log2": "log2",
              "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos", "tan": "tan",
              "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh",
              "cosh": "cosh", "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh",
              "arctanh": "atanh", "fabs": "fabs", "floor": "floor", "ceil": "ceil",
              "trunc": "trunc", "rint": "rint", "cbrt": "cbrt", "exp2": "exp2"}
    for name, intr in np_one.items():
        cls = NumpyRounding if name in ("floor", "ceil", "trunc") else MathFunc
        register(cls(name, intr, 1, checked=False, paths=(f"numpy.{name}",)))
    for name, impl in (("minimum", "minimum"), ("maximum", "maximum"), ("fmin", "fmin"),
                       ("fmax", "fmax"), ("arctan2", "atan2"), ("hypot", "hypot"),
                       ("copysign", "copysign"), ("fmod", "fmod"), ("logaddexp", "logaddexp"),
                       ("logaddexp2", "logaddexp2"), ("heaviside", "heaviside")):
        register(NumpyBinary(name, impl))
    for name in ("fmod", "floor", "copysign", "fabs", "pow", "rint", "fma", "log", "exp",
                 "hypot", "atan2", "cos", "sin", "log1p"):
        nargs = 3 if name == "fma" else 2 if name in ("fmod", "copysign", "pow",
                                                      "hypot", "atan2") else 1
        register(MathFunc(name, name, nargs, checked=False,
                          paths=(f"hanajit.lib.prims.{name}",)))
    register(MathFunc("pow_scalar", "pow", 2, checked=False,
                      paths=("hanajit.lib.prims.pow_scalar",)))
    register(PrimDiv())
    for name in ("isinf",):
        register(Predicate(name, (f"hanajit.lib.prims.{name}",)))


class PrimDiv(CallTemplate):
    paths = ("hanajit.lib.prims.fdiv",)

    def typer(self, inf, call, args, kwargs):
        return T.FLOAT64

    def lower(self, L, call, args, kwargs):
        a, b = (convert(L, x, T.FLOAT64) for x in args)
        return N.BinOp("fdiv", a, b, T.FLOAT64)


@register
class PrimToInt64(CallTemplate):
    """``prims.to_int64(x)``: a bare ``Cast`` of a float to int64."""

    paths = ("hanajit.lib.prims.to_int64",)
    result = T.INT64

    def typer(self, inf, call, args, kwargs):
        if kwargs or len(args) != 1 or not (_num(args[0]) and args[0].is_float):
            raise Incompatible(f"prims.{self.paths[0].rsplit('.', 1)[1]}(a float)")
        return self.result

    def lower(self, L, call, args, kwargs):
        return N.Cast(args[0], self.result)


@register
class PrimToInt32(PrimToInt64):
    """``prims.to_int32(x)``: a bare ``Cast`` of a float to int32."""

    paths = ("hanajit.lib.prims.to_int32",)
    result = T.INT32


_register_all()
