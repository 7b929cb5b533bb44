"""The little language the software float64 math (``softmath.py``) is written in.

An :class:`Emitter` wraps an ``llvmlite`` builder; :class:`F` (a double), :class:`I`
(an i64) and :class:`Bo` (an i1) wrap its values with Python operators, so that an
algorithm reads like arithmetic and prints straight-line LLVM IR: ``fadd``/``fmul``/
``fdiv``, ``llvm.fma.f64``, ``llvm.sqrt.f64``, ``llvm.fabs.f64``, ``bitcast`` between
double and i64, integer operations, ``fcmp``/``icmp`` and ``select`` -- no branches, no
tables, no calls, so the same IR serves every backend (SPIR-V, AMDGPU, NVPTX, a CPU).

Every floating-point instruction is printed without fast-math flags: the error-free
transformations below (``two_sum``, ``two_prod``) depend on IEEE round-to-nearest
``fadd``/``fmul`` and on an exact (single-rounding) ``fma``.  A backend that fuses
``a*b + c`` into an fma on its own (NVPTX does) keeps them correct: they only use
sums of two values and explicit fmas.  A device whose fma is a multiply and an add
(lavapipe) gets an :class:`Emitter` without ``fused_fma``: its fmas are then
computed from Dekker's exact products (:meth:`Emitter.soft_fma`).
"""
from __future__ import annotations

from llvmlite import ir

F64, I64, I1 = ir.DoubleType(), ir.IntType(64), ir.IntType(1)


class Bo:
    """An i1 value: ``&``, ``|``, ``~``."""

    __slots__ = ("e", "v")

    def __init__(self, e, v):
        self.e, self.v = e, v

    def __and__(self, o):
        return Bo(self.e, self.e.b.and_(self.v, o.v))

    def __or__(self, o):
        return Bo(self.e, self.e.b.or_(self.v, o.v))

    def __invert__(self):
        return Bo(self.e, self.e.b.not_(self.v))


class _Num:
    __slots__ = ("e", "v")
    __hash__ = None

    def __init__(self, e, v):
        self.e, self.v = e, v

    def _o(self, o):
        return o.v if isinstance(o, _Num) else self._const(o)


class F(_Num):
    """A double: ``+ - * /``, unary ``-``, ordered ``< <= > >=`` (False on NaN)."""

    def _const(self, o):
        return ir.Constant(F64, float(o))

    def _bin(self, op, a, b):
        return F(self.e, getattr(self.e.b, op)(a, b))

    def __add__(self, o):
        return self._bin("fadd", self.v, self._o(o))

    def __radd__(self, o):
        return self._bin("fadd", self._o(o), self.v)

    def __sub__(self, o):
        return self._bin("fsub", self.v, self._o(o))

    def __rsub__(self, o):
        return self._bin("fsub", self._o(o), self.v)

    def __mul__(self, o):
        return self._bin("fmul", self.v, self._o(o))

    def __rmul__(self, o):
        return self._bin("fmul", self._o(o), self.v)

    def __truediv__(self, o):
        return self._bin("fdiv", self.v, self._o(o))

    def __rtruediv__(self, o):
        return self._bin("fdiv", self._o(o), self.v)

    def __neg__(self):
        return F(self.e, self.e.b.fneg(self.v))

    def _cmp(self, op, o):
        return Bo(self.e, self.e.b.fcmp_ordered(op, self.v, self._o(o)))

    def __lt__(self, o):
        return self._cmp("<", o)

    def __le__(self, o):
        return self._cmp("<=", o)

    def __gt__(self, o):
        return self._cmp(">", o)

    def __ge__(self, o):
        return self._cmp(">=", o)

    def eq(self, o) -> Bo:
        return self._cmp("==", o)


class I(_Num):
    """An i64: ``+ - * & | << >>`` (``>>`` is arithmetic), signed comparisons."""

    def _const(self, o):
        return ir.Constant(I64, int(o))

    def _bin(self, op, a, b):
        return I(self.e, getattr(self.e.b, op)(a, b))

    def __add__(self, o):
        return self._bin("add", self.v, self._o(o))

    def __sub__(self, o):
        return self._bin("sub", self.v, self._o(o))

    def __rsub__(self, o):
        return self._bin("sub", self._o(o), self.v)

    def __mul__(self, o):
        return self._bin("mul", self.v, self._o(o))

    def __and__(self, o):
        return self._bin("and_", self.v, self._o(o))

    def __or__(self, o):
        return self._bin("or_", self.v, self._o(o))

    def __xor__(self, o):
        return self._bin("xor", self.v, self._o(o))

    def __lshift__(self, o):
        return self._bin("shl", self.v, self._o(o))

    def __rshift__(self, o):
        return self._bin("ashr", self.v, self._o(o))

    def _cmp(self, op, o):
        return Bo(self.e, self.e.b.icmp_signed(op, self.v, self._o(o)))

    def __lt__(self, o):
        return self._cmp("<", o)

    def __le__(self, o):
        return self._cmp("<=", o)

    def __gt__(self, o):
        return self._cmp(">", o)

    def __ge__(self, o):
        return self._cmp(">=", o)

    def eq(self, o) -> Bo:
        return self._cmp("==", o)


class Emitter:
    """Builds one function body: constants, intrinsics, bit casts, selects, and the
    double-double helpers of the algorithms."""

    def __init__(self, builder: ir.IRBuilder, module: ir.Module, fused_fma: bool = True):
        self.b, self.module, self.fused_fma = builder, module, fused_fma

    # -- values ------------------------------------------------------------------
    def f(self, x) -> F:
        return F(self, ir.Constant(F64, float(x)))

    def i(self, x) -> I:
        return I(self, ir.Constant(I64, int(x)))

    def _intrinsic(self, name, *args):
        fnty = ir.FunctionType(F64, [F64] * len(args))
        fn = self.module.declare_intrinsic(name, [F64], fnty)
        return F(self, self.b.call(fn, [a.v for a in args]))

    def fma(self, a, b, c) -> F:
        """``a*b + c`` rounded once (``llvm.fma``); without ``fused_fma``,
        :meth:`soft_fma`."""
        a, b, c = (self._f(x) for x in (a, b, c))
        if self.fused_fma:
            return self._intrinsic("llvm.fma", a, b, c)
        return self.soft_fma(a, b, c)

    def split(self, a: F):
        """Dekker's split: ``(h, l)``, ``h + l == a``, each of at most 26 bits (a
        huge ``a`` is split at ``2**-28`` scale, exactly)."""
        big = self.fabs(a) > 2.0 ** 995
        x = self.sel(big, a * 2.0 ** -28, a)
        t = x * 134217729.0                     # 2**27 + 1
        h = t - (t - x)
        s = self.sel(big, 2.0 ** 28, 1.0)
        return h * s, (x - h) * s

    def soft_fma(self, a: F, b: F, c: F) -> F:
        """``a*b + c`` from Dekker's exact product ``p + q == a*b``: ``(p + c) + q``
        with the first sum error-free.  Exact where the result is a double (the
        error of a product, a division's remainder), within an ulp elsewhere; the
        plain ``a*b + c`` where a product or sum is not finite."""
        p = a * b
        ah, al = self.split(a)
        bh, bl = self.split(b)
        q = ((ah * bh - p) + ah * bl + al * bh) + al * bl
        s, t = self.two_sum(p, c)
        r = s + (t + q)
        return self.sel(self.isfinite(r), r, p + c)

    def sqrt(self, a) -> F:
        return self._intrinsic("llvm.sqrt", a)

    def fabs(self, a) -> F:
        return self._intrinsic("llvm.fabs", a)

    def _f(self, x):
        return x if isinstance(x, F) else self.f(x)

    def bits(self, a: F) -> I:
        return I(self, self.b.bitcast(a.v, I64))

    def from_bits(self, a: I) -> F:
        return F(self, self.b.bitcast(a.v, F64))

    def to_int(self, a: F) -> I:
        """``fptosi``: only on values known to be small integers."""
        return I(self, self.b.fptosi(a.v, I64))

    def to_float(self, a: I) -> F:
        return F(self, self.b.sitofp(a.v, F64))

    def lshr(self, a: I, n: int) -> I:
        return I(self, self.b.lshr(a.v, ir.Constant(I64, n)))

    def sel(self, c: Bo, a, b):
        """``c ? a : b`` (both computed); one of ``a``/``b`` may be a Python number."""
        if isinstance(a, Bo):
            return Bo(self, self.b.select(c.v, a.v, b.v))
        t = type(a) if isinstance(a, _Num) else type(b) if isinstance(b, _Num) else (
            F if isinstance(a, float) else I)
        av = a.v if isinstance(a, _Num) else t._const(None, a)
        bv = b.v if isinstance(b, _Num) else t._const(None, b)
        return t(self, self.b.select(c.v, av, bv))

    def isnan(self, a: F) -> Bo:
        # ``a != a`` (fcmp une), not ``fcmp uno``: SPIR-V's OpUnordered is a Kernel
        # (OpenCL) instruction that Vulkan shaders may not use
        return Bo(self, self.b.fcmp_unordered("!=", a.v, a.v))

    def isfinite(self, a: F) -> Bo:
        return self.fabs(a) < float("inf")

    def copysign(self, mag: F, sign: F) -> F:
        """``mag`` with the sign bit of ``sign`` (``mag`` non-negative)."""
        s = self.bits(sign) & (-1 << 63)
        return self.from_bits(self.bits(mag) | s)

    def signbit(self, a: F) -> Bo:
        return self.bits(a) < 0

    def pow2(self, k: I) -> F:
        """``2.0**k`` for ``-1022 <= k <= 1023``."""
        return self.from_bits((k + 1023) << 52)

    def scale(self, y: F, k: I) -> F:
        """``y * 2**k`` for ``|k| <= 2044``, rounded once (the first of the two
        steps is exact)."""
        k1 = k >> 1
        return y * self.pow2(k1) * self.pow2(k - k1)

    # -- rounding to an integer --------------------------------------------------
    def round_int(self, a: F) -> F:
        """``a`` rounded to the nearest integer, for ``|a| < 2**51``."""
        shifter = 6755399441055744.0            # 1.5 * 2**52
        return (a + shifter) - shifter

    # -- double-double (error-free) helpers --------------------------------------
    def fast_two_sum(self, a: F, b: F):
        """``(s, e)`` with ``s + e == a + b`` exactly, for ``|a| >= |b|``
        (or ``a == 0``)."""
        s = a + b
        return s, b - (s - a)

    def two_sum(self, a: F, b: F):
        """``(s, e)`` with ``s + e == a + b`` exactly, any order."""
        s = a + b
        bb = s - a
        return s, (a - (s - bb)) + (b - bb)

    def two_prod(self, a: F, b: F):
        """``(p, e)`` with ``p + e == a * b`` exactly (no overflow/underflow)."""
        p = a * b
        return p, self.fma(a, b, -p)

    def dd_mul(self, ah: F, al, bh: F, bl):
        """Double-double product, renormalised."""
        p, e = self.two_prod(ah, bh)
        e = e + (ah * bl + al * bh)
        return self.fast_two_sum(p, e)

    def dd_div(self, ah: F, al, bh: F, bl):
        """Double-double quotient ``(ah + al) / (bh + bl)``, renormalised."""
        q = ah / bh
        r = self.fma(-q, bh, ah) + al - q * bl
        return self.fast_two_sum(q, r / bh)

    def horner(self, x: F, coeffs) -> F:
        """``c0 + x*(c1 + x*(c2 + ...))`` with fmas."""
        acc = self.f(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = self.fma(acc, x, c)
        return acc
