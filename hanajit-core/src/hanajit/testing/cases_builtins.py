"""Conformance cases: builtins (abs, min, max, round, int, float, bool, complex,
divmod, pow), ``math`` functions with CPython's exceptions, NumPy scalar functions
with NumPy's NaN/inf results, and NumPy scalar arguments."""
from __future__ import annotations

import math
from math import sqrt

import numpy as np
import pytest
from hypothesis import given

from .base import PROPERTY, ConformanceBase, requires
from .sourcefile import load_module
from .strategies import EDGE_FLOATS, EDGE_INTS, floats, int64s


def abs_(a):
    return abs(a)


def min2(a, b):
    return min(a, b)


def max2(a, b):
    return max(a, b)


def min3(a, b, c):
    return min(a, b, c)


def max_tuple(a, b, c):
    return max((a, b, c))


def round1(a):
    return round(a)


def round2(a, n):
    return round(a, n)


def round_float_digits(a):
    return round(a, 2)


def int_(a):
    return int(a)


def float_(a):
    return float(a)


def bool_(a):
    return bool(a)


def complex1(a):
    return complex(a)


def complex2(a, b):
    return complex(a, b)


def pow2(a, b):
    return pow(a, b)


def is_integer(a):
    return a.is_integer()


def from_import_sqrt(a):
    return sqrt(a)


def math_log_base(a, b):
    return math.log(a, b)


def np_mixed(a, b):
    return a + b, a * b, a - b, a < b


def np_div(a, b):
    return a / b, a // b, a % b


def np_times_literal(a):
    return a * 2, a + 1.5, a * 2.5


def _make(module, name, nargs):
    """``f(x[, y]) -> module.name(x[, y])`` as a real function (generated once per
    name into a temporary file: hanajit reads the source)."""
    key = (module, name)
    fn = _GENERATED.get(key)
    if fn is None:
        args = ", ".join("xy"[:nargs])
        source = (f"import math\nimport numpy as np\n\n\ndef {module}_{name}({args}):\n"
                  f"    return {module}.{name}({args})\n")
        mod = load_module(source, f"{module}_{name}")
        fn = _GENERATED[key] = getattr(mod, f"{module}_{name}")
    return fn


_GENERATED: dict = {}
# math.cbrt and math.exp2 are new in Python 3.11: on 3.10 there is nothing to match
MATH_1 = tuple(n for n in (
    "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
    "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "erf", "erfc", "fabs", "cbrt", "exp2", "floor", "ceil", "trunc", "isnan",
    "isinf", "isfinite", "degrees", "radians") if hasattr(math, n))
MATH_2 = ("atan2", "hypot", "copysign", "fmod", "pow")
NP_1 = ("sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
        "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
        "arctanh", "fabs", "floor", "ceil", "trunc", "rint", "cbrt", "exp2", "isnan",
        "isinf", "isfinite", "abs", "absolute")
NP_2 = ("minimum", "maximum", "fmin", "fmax", "arctan2", "hypot", "copysign", "fmod")
REAL_ARGS = EDGE_FLOATS + EDGE_INTS + (True, 0.75, -0.75, 710.0, -745.5, 1e-310)


class BuiltinCases(ConformanceBase):
    """Builtins and math on scalars."""

    def test_abs(self):
        self.check_grid(abs_, EDGE_INTS + EDGE_FLOATS + (True, False), wrap=True)

    @requires("complex")
    def test_abs_complex(self):
        self.check_grid(abs_, (0j, 3 + 4j, -1.5 - 0.5j, complex(math.inf, math.nan),
                               complex(math.nan, 1), complex(1e308, 1e308)))

    def test_min_max(self):
        # an int and a float argument make a float result (documented), so the ints
        # here are exact as floats; big ints are compared among ints only
        values = (0, -1, 5, 2 ** 53, 1.5, -0.0, 0.0, math.nan, math.inf, -math.inf)
        for f in (min2, max2):
            self.check_grid(f, values, values, int_as_float=True)
            self.check_grid(f, EDGE_INTS, EDGE_INTS)
            self.check_grid(f, EDGE_FLOATS, EDGE_FLOATS)
        self.check_grid(min3, (1, 2.5), (3, -1), (0.5, math.nan), int_as_float=True)
        self.check_grid(max_tuple, (1, 2), (3, -1), (0, 7))

    def test_round_half_even(self):
        values = (0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 2.675, 1e16 + 1,
                  4503599627370497.0, 1.0, -0.0, math.nan, math.inf, -math.inf, 1e300)
        self.check_grid(round1, values + EDGE_INTS + (True,))

    def test_round_int_ndigits(self):
        self.check_grid(round2, (0, 5, 15, 25, -25, 150, 1234567, -1234567, 1049, 1050,
                                 1051, 1150, 10 ** 18, 2 ** 62 + 1),
                        (0, 1, 5, -1, -2, -3, -18, -19, -30))

    def test_round_float_ndigits(self):
        # correctly rounded on the exact binary value, as CPython's dtoa-based round
        values = (2.675, 0.125, 0.375, 1.005, 4.35, 0.285, -2.5, 12345.678, 1e300, 5e-324,
                  0.1, 1.23456789e-10, -0.0, 0.0, math.nan, math.inf, -math.inf,
                  -194803.12889025896, 940388.2258434617, 123456789.5, 1e22)
        self.check_grid(round2, values, (0, 1, 2, 3, 10, 12, 17, 22, -1, -2, -5, -22))
        self.check_grid(round_float_digits, values)

    def test_int_float_bool(self):
        for f in (int_, float_, bool_):
            self.check_grid(f, EDGE_INTS + EDGE_FLOATS + (True, False))

    @requires("complex")
    def test_complex_constructor(self):
        self.check_grid(complex1, (0, -1, 2.5, -0.0, math.inf, True, 1 + 2j))
        self.check_grid(complex2, (0, -1, 2.5, -0.0, math.nan), (0, 3, -0.0, 1.5))

    def test_pow_builtin(self):
        self.check_grid(pow2, (2, -3, 0, 1), (0, 3, 10, -1, -2), wrap=True)
        self.check_grid(pow2, (2.0, -3.5, 0.0), (0.5, 3, -1.0))

    def test_divmod(self):
        from .cases_operators import divmod_
        self.check_grid(divmod_, (7, -7, 0, 7.5, -7.5, -0.0, math.inf, math.nan),
                        (2, -2, 0.5, -0.5, math.inf, 3))

    def test_is_integer(self):
        self.check_grid(is_integer, EDGE_FLOATS)

    @pytest.mark.parametrize("name", MATH_1)
    def test_math_unary(self, name):
        self.check_grid(_make("math", name, 1), REAL_ARGS)

    @pytest.mark.parametrize("name", MATH_2)
    def test_math_binary(self, name):
        values = (0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 1e308, math.inf, -math.inf, math.nan,
                  0, 3, -2)
        self.check_grid(_make("math", name, 2), values, values)

    def test_math_log_with_base(self):
        self.check_grid(math_log_base, (1.0, 8, 100.0, 0.0, -1.0, math.inf, math.nan),
                        (2, 10.0, 1.0, 0.5, 0.0, -2.0))

    def test_from_math_import(self):
        self.check_grid(from_import_sqrt, (4.0, 2, -1.0, math.inf, math.nan, -0.0))

    @pytest.mark.parametrize("name", NP_1)
    def test_numpy_unary(self, name):
        args = EDGE_FLOATS + EDGE_INTS + (0.75, -0.75, 710.0)
        with np.errstate(all="ignore"):
            self.check_grid(_make("np", name, 1), args, ulps=2)

    @pytest.mark.parametrize("name", NP_2)
    def test_numpy_binary(self, name):
        values = (0.0, -0.0, 1.0, -1.0, 2.5, -3.0, math.inf, -math.inf, math.nan, 0, 3)
        with np.errstate(all="ignore"):
            self.check_grid(_make("np", name, 2), values, values, ulps=2)

    @PROPERTY
    @given(x=floats())
    def test_math_property(self, x):
        for name in ("sqrt", "exp", "log", "sin", "atan", "tanh", "floor", "ceil",
                     "trunc", "log10", "cosh"):
            self.check(_make("math", name, 1), x)
        with np.errstate(all="ignore"):
            for name in ("sqrt", "log", "exp", "floor", "isnan"):
                self.check(_make("np", name, 1), x, ulps=2)

    @PROPERTY
    @given(x=int64s())
    def test_conversions_property(self, x):
        for f in (int_, float_, bool_, abs_, round1):
            self.check(f, x, wrap=True)
        for f in (int_, round1):
            self.check(f, x * 0.5)

    # ------------------------------------------------------- NumPy scalar args
    def test_numpy_scalar_arguments(self):
        # NumPy scalars come back as the Python number of the same value
        kinds = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32,
                 np.float32, np.float64)
        values = [k(v) for k in kinds for v in (3, 100)]
        with np.errstate(all="ignore"):
            self.check_grid(np_mixed, values, values)
            self.check_grid(np_times_literal, values)

    def test_numpy_scalar_division(self):
        values = [np.int32(7), np.int64(-7), np.float32(2.5), np.float64(-0.5)]
        with np.errstate(all="ignore"):
            self.check_grid(np_div, values, values)

    def test_numpy_scalar_division_by_zero(self):
        # an operator with a NumPy scalar operand has NumPy's semantics: inf, nan
        # and 0 where Python's numbers raise ZeroDivisionError
        values = [np.int32(7), np.float32(1), np.float64(-0.5), np.int64(0),
                  np.float64(0.0), 3, -2.5]
        zeros = [np.int32(0), np.float32(0), np.int8(0), np.float64(-0.0)]
        with np.errstate(all="ignore"):
            self.check_grid(np_div, values, zeros)
