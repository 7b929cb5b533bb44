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

from ...typing_rules import Incompatible
from ...ir import nodes as N

PATHS = ("array", "square", "scalar_square", "scalar_ufunc", "operator",
         "array_reversed", "square_reversed", "prod_kept", "prod_kept_reversed")


@functools.cache
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
    if path in ("square", "scalar_square", "square_reversed"):
        b = a
    if path == "array":
        got = list(np.multiply(a, b))
    elif path == "array_reversed":        # operands read with a negative stride
        got = list(np.multiply(a[::-1], b[::-1])[::-1])
    elif path == "square":
        got = list(np.square(a))
    elif path == "square_reversed":
        got = list(np.square(a[::-1])[::-1])
    elif path == "scalar_square":
        got = [np.square(x) for x in a]
    elif path in ("prod_kept", "prod_kept_reversed"):
        # ``np.prod`` along an axis that is not the innermost: NumPy's multiply
        # loop over the kept axis, ``out *= x`` (the first product, by 1, exact)
        pair = np.stack([a, b])
        got = list(np.prod(pair, axis=0) if path == "prod_kept" else
                   np.prod(pair[:, ::-1], axis=0)[::-1])
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


def plain_flag(L, inputs, t, square=False, out=None):
    """A run-time flag for the plain form where NumPy's array multiply (or
    square) loop takes its plain scalar code instead of the SIMD one: operands
    read backwards (:func:`reversed_operands`), or a result of one element from
    operands of different dimensions (:func:`one_element_broadcast`).  None
    when neither can happen (or the forms agree here)."""
    flags = [f for f in (one_element_broadcast(L, inputs, t, square, out),
                         reversed_operands(L, inputs, t, square, out)) if f is not None]
    if len(flags) == 2:
        return L.let(N.BinOp("or", flags[0], flags[1], flags[0].type))
    return flags[0] if flags else None


def one_element_broadcast(L, inputs, t, square=False, out=None):
    """NumPy multiplies complex arrays in its plain scalar code when the result
    has one element and either the arrays (the output included, 0-d ones not)
    differ in dimensions (``(1, 1) * (1,)``) or the output is an input (``a *=
    b``, ``np.multiply(a, b, out=a)``); measured with complex64 and complex128:
    otherwise (same dimensions, a 0-d operand, a new output, more elements) the
    SIMD loop.  A run-time flag for that (every operand of one element), or
    None."""
    from ...ir import types as T
    from ..arrays.elementwise import Lazy
    from ..python.operators import C
    base = "square" if square else "array"
    if cmul_form(base, t.bits) == "plain":
        return None
    shapes = []         # of the arrays of one dimension or more
    for a in list(inputs) + [out]:
        if isinstance(a, Lazy):
            shapes.append(list(a.dims))
        elif a is not None and isinstance(a.type, T.ArrayType) and a.type.ndim >= 1:
            a = L.let(a)
            shapes.append([N.ArrayAttr(a, "shape", k, T.INT64) for k in range(a.type.ndim)])
    inplace = out is not None and any(_same(out, a) for a in inputs)
    if not inplace and len({len(dims) for dims in shapes if dims}) < 2:
        return None
    flag = C(True, T.BOOL)
    for dims in shapes:
        for d in dims:
            flag = N.BinOp("and", flag, N.Cmp("eq", d, C(1, T.INT64), T.BOOL), T.BOOL)
    return L.let(flag)


def _same(x, y) -> bool:
    """Are ``x`` and ``y`` the same array (one node, or one variable)?"""
    return x is y or (isinstance(x, N.Var) and isinstance(y, N.Var) and x.name == y.name)


def reversed_operands(L, inputs, t, square=False, out=None):
    """NumPy's complex multiply and square loops take their plain scalar code,
    not the SIMD one, when the 1-D loop reads an input with a negative stride
    (seen on AVX-512: ``x[::-1] * y``); NumPy first turns the loop around when
    every operand, the output included, runs backwards (``a[::-1] *= b[::-1]``),
    and the output's own stride does not matter (nor a number's, stride 0).  When the two forms round
    differently here, this returns a run-time flag for the plain form: for 1-D
    operands, some input backwards and not all operands.  With more dimensions
    NumPy's iterator decides which strides its loop sees (``X[:, ::-1] *
    Y[:, ::-1]`` is SIMD, ``X[::-1, ::-1] * Y[::-1, ::-1]`` is not), so there a
    negative stride re-runs the call in the interpreter rather than guess.
    ``out``: the output array when it is not a new one.  None: no flag needed."""
    from ...ir import types as T
    from ..arrays.elementwise import Lazy
    from ..python.operators import C
    if not t.is_complex:
        return None
    base = "square" if square else "array"
    if cmul_form(base, t.bits) == cmul_form(base + "_reversed", t.bits):
        return None

    def negative(a, k):
        return N.Cmp("lt", N.ArrayAttr(a, "stride", k, T.INT64), C(0, T.INT64), T.BOOL)

    def either(x, y):
        return y if x is None else N.BinOp("or", x, y, T.BOOL)
    some, every, deep = None, C(out is not None, T.BOOL), None
    flat = all(getattr(a.type, "ndim", 0) <= 1 for a in list(inputs) + [out]
               if a is not None)                    # a 1-D loop (else NumPy's iterator)
    for a in inputs:
        if not isinstance(a, Lazy) and not isinstance(a.type, T.ArrayType):
            continue                            # a number: stride 0 either way
        if isinstance(a, Lazy) or a.type.layout == "C":
            every = C(False, T.BOOL)            # (a new or contiguous operand)
            continue
        a = L.let(a)
        if flat and a.type.ndim == 1:
            c = L.let(negative(a, 0))
            some = either(some, c)
            every = N.BinOp("and", every, c, T.BOOL)
        else:
            for k in range(a.type.ndim):
                deep = either(deep, negative(a, k))
            every = C(False, T.BOOL)
    if out is not None and isinstance(out.type, T.ArrayType) and out.type.ndim == 1:
        every = N.BinOp("and", every, negative(L.let(out), 0), T.BOOL)
    elif out is not None and isinstance(out.type, T.ArrayType):
        for k in range(out.type.ndim):
            deep = either(deep, negative(L.let(out), k))
    if deep is not None:
        L.emit(N.If(cond=deep, then=[N.Raise(
            exc=ValueError, deopt=True, line=L.line,
            message="complex multiplication of an array read backwards: NumPy "
                    "rounds it differently here")]))
    if some is None:
        return None
    return L.let(N.BinOp("and", some, N.UnOp("not", every, T.BOOL), T.BOOL))


def cmul_plain_if(L, a, b, t, form, plain_if):
    """:func:`cmul` in ``form``, or plain where the flag ``plain_if`` is set."""
    if plain_if is None or form == "plain":
        return cmul(L, a, b, t, form)
    a, b = L.let(a), L.let(b)
    return N.Select(plain_if, cmul(L, a, b, t, "plain"), cmul(L, a, b, t, form), t)


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
