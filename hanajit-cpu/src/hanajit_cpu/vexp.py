"""A vector exp of hanajit's own (LLVM IR), used by the loop vectoriser instead of
libmvec's exp: gather-free, so it keeps up with NumPy's AVX-512 exp on CPUs where
libmvec's table lookups are slow.

Algorithm, per lane (``vecmath.py`` registers the functions as vector variants of
``llvm.exp.f64`` / ``llvm.exp.f32``; the scalar remainder still calls libm):

* clamp x to [-X, X] (``minnum``/``maxnum``) so the integer part below stays in
  range; the result of a clamped lane over- or underflows exactly as exp(x) does;
* n = rint(x / ln 2); r = x - n ln 2 with a two-part ln 2 and FMAs (exact);
* e^r by a Taylor polynomial in Horner form with FMAs (degree 13 for double, 7
  for float: truncation below 0.05 ulp on |r| <= ln2/2);
* scale by 2^n in two exact power-of-two factors 2^(n>>1) * 2^(n - (n>>1)), built
  from integer shifts, so results in the subnormal range round once, correctly;
* nan lanes return x (nan), which also covers the clamp's nan handling.

Max error about 1 ulp (asserted with the libmvec bound, 4 ulp, by
tests/test_cpu_vector_math.py; measured figures in docs/vector-math.md).
"""
from __future__ import annotations

import math

# type, int type, exponent bias, mantissa bits, clamp, ln2 hi/lo, polynomial degree
_PARAMS = {
    "f64": ("double", "i64", 1023, 52, 1100.0, 0.6931471803691238, 1.9082149292705877e-10,
            13),
    "f32": ("float", "i32", 127, 23, 150.0, 0.693145751953125, 1.4286067653301870e-06, 7),
}

SYMBOL = {("f64", 8): "_ZGVeN8v_hjexp", ("f64", 4): "_ZGVdN4v_hjexp",
          ("f32", 16): "_ZGVeN16v_hjexpf", ("f32", 8): "_ZGVdN8v_hjexpf"}


def _hex(value: float, ty: str) -> str:
    """An LLVM IR literal for ``value`` in ``ty`` (float literals are written as the
    double of the same value, which must be exactly representable)."""
    import struct
    if ty == "float":
        value = struct.unpack("f", struct.pack("f", value))[0]
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X}"


def _splat(value, ty, lanes):
    lit = _hex(value, ty) if isinstance(value, float) else str(value)
    return "<" + ", ".join([f"{ty} {lit}"] * lanes) + ">"


def function_ir(kind: str, lanes: int) -> str:
    ty, ity, bias, mbits, clamp, ln2hi, ln2lo, degree = _PARAMS[kind]
    v = f"<{lanes} x {ty}>"
    iv = f"<{lanes} x {ity}>"
    sfx = f"v{lanes}{'f64' if ty == 'double' else 'f32'}"

    def c(x):
        return _splat(x, ty, lanes)

    def ci(x):
        return _splat(x, ity, lanes)
    lines = [
        f"define {v} @{SYMBOL[kind, lanes]}({v} %x) nounwind {{",
        f"  %lo = call {v} @llvm.maxnum.{sfx}({v} %x, {v} {c(-clamp)})",
        f"  %xc = call {v} @llvm.minnum.{sfx}({v} %lo, {v} {c(clamp)})",
        f"  %t = fmul {v} %xc, {c(1.0 / math.log(2.0))}",
        f"  %n = call {v} @llvm.rint.{sfx}({v} %t)",
        f"  %nn = fneg {v} %n",
        f"  %r1 = call {v} @llvm.fma.{sfx}({v} %nn, {v} {c(ln2hi)}, {v} %xc)",
        f"  %r = call {v} @llvm.fma.{sfx}({v} %nn, {v} {c(ln2lo)}, {v} %r1)",
    ]
    prev = c(1.0 / math.factorial(degree))
    for k in range(degree - 1, -1, -1):
        acc = prev if k == degree - 1 else f"%p{k + 1}"
        lines.append(f"  %p{k} = call {v} @llvm.fma.{sfx}({v} {acc}, {v} %r, "
                     f"{v} {c(1.0 / math.factorial(k))})")
    lines += [
        f"  %ni = fptosi {v} %n to {iv}",
        f"  %n1 = ashr {iv} %ni, {ci(1)}",
        f"  %n2 = sub {iv} %ni, %n1",
        f"  %b1 = add {iv} %n1, {ci(bias)}",
        f"  %b2 = add {iv} %n2, {ci(bias)}",
        f"  %e1 = shl {iv} %b1, {ci(mbits)}",
        f"  %e2 = shl {iv} %b2, {ci(mbits)}",
        f"  %s1 = bitcast {iv} %e1 to {v}",
        f"  %s2 = bitcast {iv} %e2 to {v}",
        f"  %q = fmul {v} %p0, %s1",
        f"  %y = fmul {v} %q, %s2",
        f"  %isnan = fcmp uno {v} %x, %x",
        f"  %res = select <{lanes} x i1> %isnan, {v} %x, {v} %y",
        f"  ret {v} %res",
        "}",
    ]
    return "\n".join(lines) + "\n"


def runtime_ir() -> str:
    """Every variant, in one module (compiled once per process by vecmath.py)."""
    out = []
    for (kind, lanes) in SYMBOL:
        out.append(function_ir(kind, lanes))
    return "\n".join(out)


# vector variants of the LLVM exp intrinsic, the widest first
VARIANTS = {
    "llvm.exp.f64": ((8, SYMBOL["f64", 8]), (4, SYMBOL["f64", 4])),
    "llvm.exp.f32": ((16, SYMBOL["f32", 16]), (8, SYMBOL["f32", 8])),
}
