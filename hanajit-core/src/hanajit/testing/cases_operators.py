"""Conformance cases: Python operators on scalars (arithmetic, ``//``, ``%``,
``**``, bit operations, comparisons, ``and``/``or``/``not``, ``in``, complex).

The functions under test are module-level ``def``s (hanajit reads their source).
"""
from __future__ import annotations

import math

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ..api import jit
from .base import PROPERTY, ConformanceBase, requires
from .reference import INT64_MAX, INT64_MIN
from .strategies import EDGE_FLOATS, EDGE_INTS, SMALL_INTS, floats, int64s


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def truediv(a, b):
    return a / b


def floordiv(a, b):
    return a // b


def mod(a, b):
    return a % b


def power(a, b):
    return a ** b


def square_int2(x):
    return x ** 2


def square_float2(x):
    return x ** 2.0


def _square_inputs():
    """Floats whose square takes each path of ``helpers.float_square``: random
    values (some 1 in 1250 of which glibc's pow rounds differently from x*x), the
    ones where it does, the range limits, overflow, underflow, and the edges."""
    import random
    rng = random.Random(2)
    xs = [rng.gauss(0.0, 10.0) for _ in range(3000)]
    xs += [x for x in (rng.gauss(0.0, 10.0) for _ in range(40000)) if x ** 2 != x * x][:40]
    for b in (2.0 ** -50, 2.0 ** 50, 1.3407807929942596e154, 1.4916681462400413e-154):
        xs += [b, math.nextafter(b, 0.0), math.nextafter(b, math.inf), -b]
    xs += [1e-160, 3e-162, 1e155, 1e-320, -1e154]
    return xs + list(EDGE_FLOATS)


def divmod_(a, b):
    return divmod(a, b)


def bitand(a, b):
    return a & b


def bitor(a, b):
    return a | b


def bitxor(a, b):
    return a ^ b


def lshift(a, b):
    return a << b


def rshift(a, b):
    return a >> b


def lt(a, b):
    return a < b


def le(a, b):
    return a <= b


def eq(a, b):
    return a == b


def ne(a, b):
    return a != b


def gt(a, b):
    return a > b


def ge(a, b):
    return a >= b


def neg(a):
    return -a


def pos(a):
    return +a


def invert(a):
    return ~a


def not_(a):
    return not a


def and_(a, b):
    return a and b


def or_(a, b):
    return a or b


def and_or3(a, b, c):
    return a and b or c


def guarded_div(a, b):
    return b != 0 and a // b > 1


def guarded_or(a, b):
    return b == 0 or a % b == 0


def in_tuple(a):
    return a in (1, 2.5, -3)


def not_in_tuple(a):
    return a not in (1, 2.5, -3)


def in_tuple_var(a, b, c):
    return a in (b, c)


def chain3(a, b, c):
    return a < b < c


def chain4(a, b, c, d):
    return a <= b < c != d


def chain_mixed(a, b, c):
    return a < b > c


@jit
def _middle(x):
    return x * 2


def chain_call(a, b, c):
    return a < _middle(b) < c


def chain_short_circuit(a, b):
    # a // b is not evaluated when a < 0 fails, so b == 0 does not raise
    return 0 < a < a // b


def ifexp(a, b):
    return a if a > b else b


def ifexp_div(a, b):
    return a // b if b != 0 else -1


def int_float_eq(a):
    return a == 9007199254740992.0


def complex_ops(a, b):
    return a + b, a - b, a * b, -a, a == b, a != b


def complex_div(a, b):
    return a / b


def complex_parts(a):
    return a.real, a.imag, a.conjugate()


def bool_arith(a, b):
    return a + b, a * b, a - b, a & b, a | b, a ^ b, -a, ~a


ARITH = [add, sub, mul, truediv, floordiv, mod, divmod_]
COMPARE = [lt, le, eq, ne, gt, ge]
BITS = [bitand, bitor, bitxor]
SHIFT_COUNTS = (0, 1, 2, 31, 62, 63, 64, 65, 100, -1, -64)


def _name(f):
    return f.__name__.rstrip("_")


class OperatorCases(ConformanceBase):
    """Operators on ints, floats, bools and complex numbers."""

    # ----------------------------------------------------------------- grids
    @pytest.mark.parametrize("op", ARITH + COMPARE, ids=_name)
    def test_int_int_edges(self, op):
        self.check_grid(op, EDGE_INTS, EDGE_INTS, wrap=True)

    @pytest.mark.parametrize("op", ARITH + COMPARE, ids=_name)
    def test_float_float_edges(self, op):
        self.check_grid(op, EDGE_FLOATS, EDGE_FLOATS)

    @pytest.mark.parametrize("op", ARITH + COMPARE, ids=_name)
    def test_int_float_edges(self, op):
        self.check_grid(op, EDGE_INTS, EDGE_FLOATS)
        self.check_grid(op, EDGE_FLOATS, EDGE_INTS)

    @pytest.mark.parametrize("op", BITS, ids=_name)
    def test_bitwise_edges(self, op):
        self.check_grid(op, EDGE_INTS, EDGE_INTS)
        self.check_grid(op, (True, False), (True, False))

    @pytest.mark.parametrize("op", [lshift, rshift], ids=_name)
    def test_shift_edges(self, op):
        # a left shift beyond int64 wraps (documented): compare small ones exactly
        values = EDGE_INTS if op is rshift else SMALL_INTS
        counts = SHIFT_COUNTS if op is rshift else (0, 1, 2, 10, 50, -1, -64)
        self.check_grid(op, values, counts)

    def test_negative_shift_count_raises(self):
        for op in (lshift, rshift):
            with pytest.raises(ValueError, match="negative shift count"):
                self.jit(op)(5, -1)

    def test_left_shift_wraps(self):
        assert self.jit(lshift)(1, 63) == INT64_MIN
        assert self.jit(lshift)(1, 64) == 0
        assert self.jit(lshift)(-1, 70) == 0

    def test_int_power_edges(self):
        self.check_grid(power, EDGE_INTS, (0, 1, 2, 3, 5, 62, 63, 64), wrap=True)

    def test_int_power_negative_exponent(self):
        # a constant negative exponent types as float; a runtime one deoptimises
        self.check_grid(power, (2, -2, 3, 10, 1, -1), (-1, -2, -3))
        with pytest.raises(ZeroDivisionError):
            self.jit(power)(0, -1)

    def test_float_power_edges(self):
        self.check_grid(power, EDGE_FLOATS, EDGE_FLOATS)
        self.check_grid(power, EDGE_INTS, EDGE_FLOATS)
        self.check_grid(power, EDGE_FLOATS, (0, 1, 2, 3, -1, -2, 1023, 1024))

    def test_float_square_matches_pow(self):
        # x ** 2 with a constant 2 takes a fast path that must still be CPython's
        # pow bit for bit (helpers.float_square), OverflowError included
        xs = _square_inputs()
        self.check_grid(square_int2, xs)
        self.check_grid(square_float2, xs)
        self.check_grid(square_int2, EDGE_INTS, wrap=True)

    def test_division_by_zero_raises_in_caller(self):
        for op in (truediv, floordiv, mod, divmod_):
            for a, b in ((1, 0), (0, 0), (1.5, 0.0), (1, 0.0), (-0.0, -0.0), (1.0, 0)):
                with pytest.raises(ZeroDivisionError):
                    self.jit(op)(a, b)

    def test_documented_examples(self):
        assert self.jit(floordiv)(1.0, 0.1) == 9.0
        assert self.jit(mod)(-7, 3) == 2
        assert self.jit(mod)(7, -3) == -2
        assert self.jit(floordiv)(-7, 2) == -4
        assert self.jit(divmod_)(-7.5, 2) == (-4.0, 0.5)
        assert self.jit(floordiv)(INT64_MIN, -1) == INT64_MIN      # wraps
        assert self.jit(mod)(INT64_MIN, -1) == 0

    # ------------------------------------------------------------ properties
    @PROPERTY
    @given(a=int64s(), b=int64s())
    def test_int_ops_property(self, a, b):
        for op in ARITH + COMPARE + BITS:
            self.check(op, a, b, wrap=True)

    @PROPERTY
    @given(a=floats(), b=floats())
    def test_float_ops_property(self, a, b):
        for op in ARITH + COMPARE + [power]:
            self.check(op, a, b)
        self.check(square_int2, a)

    @PROPERTY
    @given(a=int64s(), b=floats())
    def test_mixed_ops_property(self, a, b):
        for op in ARITH + COMPARE:
            self.check(op, a, b)
            self.check(op, b, a)

    @PROPERTY
    @given(a=int64s(), b=st.integers(-70, 70))
    def test_shift_property(self, a, b):
        self.check(rshift, a, b)
        self.check(lshift, a, b, wrap=True)

    # --------------------------------------------------------------- unary
    @pytest.mark.parametrize("op", [neg, pos, not_], ids=_name)
    def test_unary_edges(self, op):
        self.check_grid(op, EDGE_INTS + EDGE_FLOATS + (True, False), wrap=True)

    def test_invert(self):
        self.check_grid(invert, EDGE_INTS + (True, False))

    def test_bool_arithmetic(self):
        self.check_grid(bool_arith, (True, False), (True, False))

    # -------------------------------------------------- and / or / not / in
    def test_and_or_return_the_operand(self):
        values = (0, 1, -1, 7, INT64_MAX)
        self.check_grid(and_, values, values)
        self.check_grid(or_, values, values)
        fvalues = (0.0, -0.0, 1.5, math.nan, math.inf)
        self.check_grid(and_, fvalues, fvalues)
        self.check_grid(or_, fvalues, fvalues)
        self.check_grid(and_or3, (0, 3), (0, 4), (0, 5))

    def test_and_or_short_circuit(self):
        self.check_grid(guarded_div, (7, -7, 0), (0, 2, -3))
        self.check_grid(guarded_or, (7, -7, 0), (0, 2, -3))
        self.check_grid(ifexp_div, (7, -7), (0, 2))

    def test_in_tuple(self):
        values = (1, 2, -3, 0, 2.5, -3.0, 1.0, math.nan, True, False)
        self.check_grid(in_tuple, values)
        self.check_grid(not_in_tuple, values)
        # CPython's ``in`` tests identity first, so ``x in (x,)`` holds for one NaN
        # object; compiled code compares values (a documented divergence)
        self.check_grid(in_tuple_var, (1, 2.0, math.nan), (1, 2.0), (2, 3))

    # ------------------------------------------------------------ comparisons
    def test_chained_comparisons(self):
        values = (0, 1, 2, 1.5, math.nan)
        self.check_grid(chain3, values, values, values)
        self.check_grid(chain4, (0, 1, 2), (0, 1, 2), (1, 2, 3), (2, 3))
        self.check_grid(chain_mixed, (0, 1, 2), (0, 1, 2), (0, 1, 2))

    def test_chained_comparison_short_circuits(self):
        self.check_grid(chain_short_circuit, (-1, 0, 5, 10), (0, 2, 3))

    def test_chained_comparison_evaluates_middle_once(self):
        self.check_grid(chain_call, (0, 3, 5), (1, 2, 3), (3, 5, 7))
        jf = self.jit(chain_call, inline="never")     # keep the call to count it
        assert jf(0, 1, 3) == chain_call(0, 1, 3)
        module = jf.ir_module()
        from ..ir import nodes as N
        calls = [e for fn in module.functions.values() for s in N.walk_stmts(fn.body)
                 for root in N.stmt_exprs(s) if root is not None
                 for e in N.walk_expr(root)
                 if isinstance(e, N.Call) and "_middle" in e.func]
        assert len(calls) == 1

    def test_exact_int_float_comparisons(self):
        big = 2 ** 53 + 1
        for op in COMPARE:
            self.check_grid(op, (big, -big, 2 ** 53, INT64_MAX, INT64_MIN, 2 ** 63 - 512),
                            (float(2 ** 53), -float(2 ** 53), 2.0 ** 63, -(2.0 ** 63),
                             math.inf, math.nan, 9.223372036854775e18))
        assert self.jit(int_float_eq)(2 ** 53 + 1) is False
        assert self.jit(int_float_eq)(2 ** 53) is True

    # ----------------------------------------------------------------- complex
    @requires("complex")
    def test_complex_arithmetic(self):
        values = (0j, 1 + 2j, -1.5 - 0.5j, complex(-0.0, 0.0), complex(math.inf, 1),
                  complex(math.nan, 0), 3 + 0j)
        self.check_grid(complex_ops, values, values)
        self.check_grid(complex_ops, values, (2, 0.5, True))
        self.check_grid(complex_parts, values)

    @requires("complex")
    def test_complex_division(self):
        values = (1 + 2j, -1.5 - 0.5j, 3 + 0j, 1e300 + 1e300j, 2j, complex(math.inf, 1))
        self.check_grid(complex_div, values, values + (0j, 2, 0.5))

    def test_ifexp(self):
        self.check_grid(ifexp, (1, 2), (2, 1))
        # an int arm and a float arm make a float (documented): 2 comes back as 2.0
        self.check_grid(ifexp, (math.nan, 1.5), (2, 1), int_as_float=True)

    @PROPERTY
    @given(a=st.sampled_from(EDGE_INTS), b=st.sampled_from(EDGE_INTS))
    def test_int_true_division_is_correctly_rounded(self, a, b):
        assume(b != 0)
        self.check(truediv, a, b)
