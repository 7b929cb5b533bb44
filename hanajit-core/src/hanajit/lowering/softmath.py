"""Software float64 math: one implementation of ``exp``, ``log``, ``sin`` ... for
every target without a float64 math library (``Capabilities.float64_math`` False:
Vulkan's GLSL.std.450 is 32-bit only).

Each function is emitted as LLVM IR -- straight-line ``fadd``/``fmul``/``fdiv``,
``llvm.fma.f64``, ``llvm.sqrt.f64``, ``llvm.fabs.f64``, double<->i64 ``bitcast``,
integer operations and ``select`` -- that every LLVM backend prints (SPIR-V, AMDGPU,
NVPTX, CPUs).  The algorithms (``softmath_explog.py``, ``softmath_trig.py``, ``cbrt``
and ``hypot`` here) assume IEEE round-to-nearest add/mul/div/sqrt and an exact
fma.  They give C99 values (NaN for ``log(-1)``, ``inf`` on overflow ...): the IR
raises CPython's ``ValueError``/``OverflowError`` before it calls the math.

API:

* :data:`NAMES` -- name -> number of arguments of what is provided;
* :func:`define` -- add (once) ``hj.softmath.<name>`` to an ``llvmlite`` module and
  return it; ``ModuleLowering.math_call`` calls it for float64 math when
  ``LLVMTargetInfo.softmath`` is set (a target sets it from
  ``not capabilities.float64_math``);
* :func:`link` -- the same for a list of names (all by default);
* :func:`module_text` -- a standalone module of the definitions (``linkonce_odr``)
  for a backend that links LLVM IR text.

Accuracy, measured against CPython's ``math`` (glibc) by
``tests/test_core_softmath.py``, is in ``docs/gpu.md``.
"""
from __future__ import annotations

from llvmlite import ir

from . import softmath_explog as _el
from . import softmath_trig as _tr
from .softmath_ops import F64, Emitter, F

PREFIX = "hj.softmath."
INF = float("inf")


def cbrt(e: Emitter, x: F) -> F:
    ax = e.fabs(x)
    # scale into [2**-512, 2**512] (exactly, by 2**-768 or 2**768) so that the
    # steps below neither overflow nor underflow; the root scales by 2**-+256
    up, down = ax < 2.0 ** -512, ax > 2.0 ** 512
    a = e.sel(up, ax * 2.0 ** 768, e.sel(down, ax * 2.0 ** -768, ax))
    a = e.sel((a > 0.0) & (a < INF), a, 1.0)
    # a guess from the bit pattern (its low bits don't matter), three Halley
    # steps, and a last Newton step on the exact residual a - y**3
    third = e.to_int(e.to_float(e.bits(a)) / 3.0)
    y = e.from_bits(third + 0x2A9F7893782DA1CE)
    for _ in range(3):
        y3 = y * y * y
        y = y * (y3 + a * 2.0) / (y3 * 2.0 + a)
    sh, sl = e.two_prod(y, y)
    ch, cl = e.two_prod(sh, y)
    cl = cl + sl * y
    y = y + ((a - ch) - cl) / (y * y * 3.0)
    y = e.sel(up, y * 2.0 ** -256, e.sel(down, y * 2.0 ** 256, y))
    r = e.copysign(y, x)
    return e.sel(ax.eq(0.0) | ~e.isfinite(x), x + x, r)


def hypot(e: Emitter, x: F, y: F) -> F:
    ax, ay = e.fabs(x), e.fabs(y)
    big = e.sel(ax > ay, ax, ay)
    small = e.sel(ax > ay, ay, ax)
    ex = ((e.bits(big) >> 52) & 0x7FF) - 1023
    ex = e.sel(ex > 1000, 1000, e.sel(ex < -1000, -1000, ex))
    a, b = big * e.pow2(ex * -1), small * e.pow2(ex * -1)
    p1, e1 = e.two_prod(a, a)
    p2, e2 = e.two_prod(b, b)
    s, e3 = e.two_sum(p1, p2)
    lo = e3 + (e1 + e2)
    r = e.sqrt(s)
    r = r + (e.fma(-r, r, s) + lo) / (r * 2.0)
    r = e.sel(big.eq(0.0), 0.0, r * e.pow2(ex))
    r = e.sel(e.isnan(x) | e.isnan(y), x + y, r)
    return e.sel(ax.eq(INF) | ay.eq(INF), INF, r)


_ALGORITHMS = {
    "exp": _el.exp, "expm1": _el.expm1, "log": _el.log, "log2": _el.log2,
    "log10": _el.log10, "log1p": _el.log1p, "pow": _el.pow, "sinh": _el.sinh,
    "cosh": _el.cosh, "tanh": _el.tanh,
    "sin": _tr.sin, "cos": _tr.cos, "tan": _tr.tan, "atan": _tr.atan,
    "atan2": _tr.atan2, "asin": _tr.asin, "acos": _tr.acos,
    "cbrt": cbrt, "hypot": hypot,
}

#: name -> number of float64 arguments of every software function
NAMES: dict[str, int] = {n: (2 if n in ("pow", "atan2", "hypot") else 1)
                         for n in _ALGORITHMS}


def define(module: ir.Module, name: str, linkage: str = "internal",
           fused_fma: bool = True) -> ir.Function:
    """``hj.softmath.<name>`` in ``module`` (defined on the first call); without
    ``fused_fma`` its fmas are computed from Dekker's exact products
    (``Emitter.fma``), for a device whose ``llvm.fma.f64`` is not rounded once."""
    symbol = PREFIX + name
    fn = module.globals.get(symbol)
    if fn is not None:
        return fn
    nargs = NAMES[name]
    fn = ir.Function(module, ir.FunctionType(F64, [F64] * nargs), symbol)
    fn.linkage = linkage
    for attr in ("nounwind", "readnone"):
        fn.attributes.add(attr)
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    e = Emitter(builder, module, fused_fma)
    builder.ret(_ALGORITHMS[name](e, *(F(e, a) for a in fn.args)).v)
    return fn


def link(module: ir.Module, names=None) -> list:
    """Define the software functions ``names`` (all of :data:`NAMES` by default) in
    ``module``; return them."""
    return [define(module, n) for n in (names or NAMES)]


def module_text(names=None, triple: str = "") -> str:
    """LLVM IR text of a module holding the ``names`` functions (``linkonce_odr``)."""
    module = ir.Module(name="hj.softmath")
    if triple:
        module.triple = triple
    for n in names or NAMES:
        define(module, n, linkage="linkonce_odr")
    return str(module)
