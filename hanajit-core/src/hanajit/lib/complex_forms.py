"""How NumPy rounds a complex product, measured, so compiled code rounds alike.

NumPy's SIMD loops (AVX-512F, AVX2 with FMA) multiply complex numbers with fused
multiply-adds -- ``(fma(ar, br, -(ai*bi)), fma(ar, bi, ai*br))`` -- where its
scalar code computes the plain ``(ar*br - ai*bi, ar*bi + ai*br)``; the two
differ in the last bit for about half of all products.  Which code runs depends
on the machine and on the path: array ``*``/``np.multiply`` and ``np.square`` of
arrays take the loops, ``*`` of two NumPy complex scalars and ``np.square`` of a
NumPy scalar the scalar code, reductions (``np.prod`` along the last axis,
``np.cumprod``) the plain form too.  :func:`cmul_form` measures the form of each
path once per process, exactly (products rounded once through ``fractions``),
and :func:`cmul` builds it.  A path whose rounding is neither form makes the
compiled call fall back.
"""
from __future__ import annotations

import fractions
import functools

from ..infer.rules import Incompatible
from ..ir import nodes as N

PATHS = ("array", "square", "scalar_square", "scalar_ufunc", "operator")


@functools.lru_cache(maxsize=None)
def cmul_form(path: str, bits: int) -> str:
    """``"plain"`` or ``"fma"``: the rounding of NumPy's complex product on
    ``path`` (see :data:`PATHS`) for ``bits``-bit complex numbers."""
    import numpy as np
    single = bits == 64
    ft = np.float32 if single else np.float64
    ct = np.complex64 if single else np.complex128
    rng = np.random.default_rng(4321)
    parts = rng.standard_normal((4, 48)) * np.exp(rng.uniform(-8, 8, (4, 48)))
    a = (parts[0] + 1j * parts[1]).astype(ct)
    b = (parts[2] + 1j * parts[3]).astype(ct)
    if path in ("square", "scalar_square"):
        b = a
    if path == "array":
        got = list(np.multiply(a, b))
    elif path == "square":
        got = list(np.square(a))
    elif path == "scalar_square":
        got = [np.square(x) for x in a]
    elif path == "scalar_ufunc":
        got = [np.multiply(x, y) for x, y in zip(a, b)]
    else:
        got = [x * y for x, y in zip(a, b)]

    def fma(x, y, w):
        exact = fractions.Fraction(float(x)) * fractions.Fraction(float(y)) + \
            fractions.Fraction(float(w))
        return ft(float(exact))     # (float32: rounded twice, practically never off)

    forms = {"plain": lambda ar, ai, br, bi: (ar * br - ai * bi, ar * bi + ai * br),
             "fma": lambda ar, ai, br, bi: (fma(ar, br, -(ai * bi)), fma(ar, bi, ai * br))}
    for name, form in forms.items():
        with np.errstate(all="ignore"):
            want = [form(ft(x.real), ft(x.imag), ft(y.real), ft(y.imag))
                    for x, y in zip(a, b)]
        if all(g.real == w[0] and g.imag == w[1] for g, w in zip(got, want)):
            return name
    raise Incompatible(f"complex multiplication ({path}): NumPy rounds it in an unknown "
                       "way here")


def cmul(L, a, b, t, form: str = "plain"):
    """``a * b`` of complex values in NumPy's ``form`` (:func:`cmul_form`)."""
    c = t.component
    a, b = L.let(a), L.let(b)
    ar, ai = L.let(N.ComplexPart(a, "real", c)), L.let(N.ComplexPart(a, "imag", c))
    br, bi = L.let(N.ComplexPart(b, "real", c)), L.let(N.ComplexPart(b, "imag", c))

    def mul(x, y):
        return N.BinOp("mul", x, y, c)
    if form == "fma":
        return N.MakeComplex(
            N.Intrinsic("fma", [ar, br, N.UnOp("neg", mul(ai, bi), c)], c),
            N.Intrinsic("fma", [ar, bi, mul(ai, br)], c), t)
    return N.MakeComplex(N.BinOp("sub", mul(ar, br), mul(ai, bi), c),
                         N.BinOp("add", mul(ar, bi), mul(ai, br), c), t)
