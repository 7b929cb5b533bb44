"""``np.deg2rad``/``np.radians``, ``np.rad2deg``/``np.degrees``, ``np.fix``,
``np.gcd``, ``np.lcm`` and ``np.float_power``, typed by NumPy's loops
(``ufunc_loops``: a float16 loop -- bool and int8 angles -- falls back, as does
a TypeError of NumPy's) and computed as they compute:

* the angle conversions are ``npy_deg2rad``/``npy_rad2deg``: one product with
  the constant in the loop's float type (float32: ``NPY_PIf/180.0f`` and
  ``180.0f/NPY_PIf`` rounded in float32, which differ from the float64 constant
  rounded to float32 for ``rad2deg``);
* ``np.fix`` is ``np.trunc`` (NumPy 2: integers and bools unchanged);
* ``np.gcd``/``np.lcm`` are ``npy_gcd``/``npy_lcm``: Euclid on the absolute
  values as unsigned integers, ``lcm = a / gcd * b`` wrapping, the result cast
  back (``gcd(int64 min, 0)`` is int64 min, ``lcm`` overflows wrap);
* ``np.float_power`` is C's ``pow`` in float64 (NumPy's plain ``dd->d`` loop:
  the C library's scalar ``pow`` in every loop, never vector math nor ``x*x``),
  and NumPy's ``npy_cpow`` in complex128.
"""
from __future__ import annotations

import math

from ...typing_rules import Incompatible
from ...ir import nodes as N
from ...ir import types as T
from ..arrays import elementwise as ew
from ..python.operators import C
from ..registry import register
from .ufunc_loops import LoopUfunc

# (float64 constant, float32 constant) of npy_deg2rad / npy_rad2deg
_PI32 = float.fromhex("0x1.921fb6p+1")          # NPY_PIf, pi rounded to float32


def _f32_quotient(a: float, b: float) -> float:
    """``a / b`` divided in float32 (a C constant expression of floats)."""
    import numpy as np
    return float(np.float32(a) / np.float32(b))


DEG2RAD = (math.pi / 180.0, _f32_quotient(_PI32, 180.0))
RAD2DEG = (180.0 / math.pi, _f32_quotient(180.0, _PI32))


class Angle(LoopUfunc):
    def __init__(self, name, factors):
        super().__init__(name)
        self.factors = factors

    def element(self, L, xs, outs, k):
        t = outs[0]
        return N.BinOp("mul", xs[0], C(self.factors[t.bits == 32], t), t)


class Fix(LoopUfunc):
    """``np.fix(x, out=None)``: ``np.trunc(x, out=out)``."""

    def __init__(self):
        super().__init__("fix", "trunc")

    def element(self, L, xs, outs, k):
        t = outs[0]
        if t.is_float:
            return N.Intrinsic("trunc", [xs[0]], t)
        return xs[0]


def unsigned_gcd(a, b):
    """``npy_gcdu``/``npy_gcdull``: Euclid on two unsigned integers."""
    while a != 0:
        c = a
        a = b % a
        b = c
    return b


def _unsigned(t: T.Scalar) -> T.Scalar:
    return T.BY_NAME[f"uint{t.bits}"]


class GcdLcm(LoopUfunc):
    nin = 2

    def check_loop(self, ins, outs):
        if not outs[0].is_int:      # (NumPy has integer loops only; never here)
            raise Incompatible(f"np.{self.name}() of {outs[0]}")

    def element(self, L, xs, outs, k):
        t = outs[0]
        u = T.UINT64
        wide = []
        for x in xs:
            if t.is_signed:         # |x| wrapping (npy_gcd: a < 0 ? -a : a)
                x = N.Select(N.Cmp("lt", x, C(0, t), T.BOOL), N.UnOp("neg", x, t), x, t)
                x = N.Cast(x, _unsigned(t)) if t.bits < 64 else x
            wide.append(L.let(N.Cast(x, u)))
        g = L.let(L.call_helper(unsigned_gcd, wide))
        if self.name == "lcm":
            zero = N.Cmp("eq", g, C(0, u), T.BOOL)
            q = N.BinOp("udiv", wide[0], N.Select(zero, C(1, u), g, u), u)
            g = N.Select(zero, C(0, u), N.BinOp("mul", q, wide[1], u), u)
        if t.bits < 64:
            g = N.Cast(g, _unsigned(t))
        return N.Cast(g, t) if g.type != t else g


class FloatPower(LoopUfunc):
    nin = 2

    def __init__(self):
        super().__init__("float_power")

    def element(self, L, xs, outs, k):
        t = outs[0]
        if t.is_complex:
            return ew.np_binop(L, "pow", xs[0], xs[1], t)
        r = N.Intrinsic("pow", list(xs), t)
        r.libm_exact = True         # (lowering/llvm.py: C's pow in every loop)
        return r


for _name, _factors in (("deg2rad", DEG2RAD), ("radians", DEG2RAD),
                        ("rad2deg", RAD2DEG), ("degrees", RAD2DEG)):
    register(Angle(_name, _factors))
register(Fix())
register(GcdLcm("gcd"))
register(GcdLcm("lcm"))
register(FloatPower())
