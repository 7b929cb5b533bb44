"""How NumPy computes ``np.abs`` of complex arrays, measured, so compiled code does alike.

NumPy's SIMD loop for the complex ``absolute`` ufunc does not call ``hypot``:
it takes ``big = max(|re|, |im|)``, ``small = min(|re|, |im|)`` and returns
``big * sqrt(r * r + 1)`` with ``r = small / big``, the ``r * r + 1`` fused on
AVX2+FMA and AVX-512 hosts; both parts 0 give 0, an infinite part inf, else a
NaN part NaN.  It differs from ``hypot`` in the last bit for about a third of
all values.  The loop runs for arrays of any
length and stride and for ``np.abs`` of a scalar (a 0-d array to NumPy);
``abs()`` of a Python or NumPy complex number is ``hypot`` (CPython's, NumPy's
scalar math), and so is NumPy's loop where it does not take the SIMD code: an
array read backwards, of complex64 on AVX2 hosts and of both types on AVX-512
ones.

:func:`cabs_form` measures each path once per process, exactly (fused products
rounded once through ``fractions``), and :func:`cabs` builds the form.  Where
no form matches, ``hypot`` is used: NumPy built without its SIMD loops.
"""
from __future__ import annotations

import fractions
import functools

from ...ir import nodes as N
from ...ir import types as T


@functools.cache
def cabs_form(bits: int, path: str = "array") -> str:
    """``"fma"``, ``"plain"`` or ``"hypot"``: NumPy's complex ``absolute`` of
    ``bits``-bit complex numbers on ``path``, ``"array"`` (an array read
    forwards) or ``"reversed"`` (a 1-D array read backwards)."""
    import numpy as np
    ft, ct = (np.float32, np.complex64) if bits == 64 else (np.float64, np.complex128)
    rng = np.random.default_rng(2468)
    parts = rng.standard_normal((2, 256)) * np.exp(rng.uniform(-6, 6, (2, 256)))
    z = (parts[0] + 1j * parts[1]).astype(ct)
    got = np.abs(z) if path == "array" else np.abs(z[::-1])[::-1]

    def model(fused):
        re, im = np.abs(z.real), np.abs(z.imag)
        big, small = np.maximum(re, im), np.minimum(re, im)
        r = small / big
        if fused:
            one = fractions.Fraction(1)
            inner = np.array([float(fractions.Fraction(float(x)) ** 2 + one) for x in r],
                             dtype=ft)   # (float32: rounded twice, practically never off)
        else:
            inner = r * r + ft(1.0)
        return np.sqrt(inner) * big
    with np.errstate(all="ignore"):
        for name, want in (("fma", model(True)), ("plain", model(False))):
            if np.array_equal(got, want):
                return name
    return "hypot"


def cabs(L, x, t: T.Scalar, form: str):
    """``|x|`` of the complex value ``x`` (of type ``t``) in NumPy's ``form``."""
    c = t.component
    x = L.let(x)
    re = L.let(N.ComplexPart(x, "real", c))
    im = L.let(N.ComplexPart(x, "imag", c))
    if form == "hypot":
        return N.Intrinsic("hypot", [re, im], c)
    inf, nan = N.Const(float("inf"), c), N.Const(float("nan"), c)
    zero, one = N.Const(0.0, c), N.Const(1.0, c)
    re = L.let(N.Intrinsic("fabs", [re], c))
    im = L.let(N.Intrinsic("fabs", [im], c))
    big = L.let(N.Select(N.Cmp("gt", re, im, T.BOOL), re, im, c))
    small = L.let(N.Select(N.Cmp("lt", im, re, T.BOOL), im, re, c))
    r = L.let(N.BinOp("fdiv", small, big, c))
    if form == "fma":
        inner = N.Intrinsic("fma", [r, r, one], c)
    else:
        inner = N.BinOp("add", N.BinOp("mul", r, r, c), one, c)
    v = N.BinOp("mul", N.Intrinsic("sqrt", [inner], c), big, c)
    # NumPy's special cases, as its loop gives them: both parts 0 -> 0 (not
    # 0/0), a NaN part (or both infinite) -> NaN, an infinite part -> inf
    v = N.Select(N.Cmp("eq", big, zero, T.BOOL), zero, v, c)
    v = N.Select(N.Cmp("uno", re, im, T.BOOL), nan, v, c)
    return N.Select(N.BinOp("or", N.Cmp("eq", re, inf, T.BOOL), N.Cmp("eq", im, inf, T.BOOL),
                            T.BOOL), inf, v, c)


def loop_abs(L, x, t: T.Scalar, backwards=None):
    """``|x|`` as NumPy's absolute loop gives it: the measured form, or ``hypot``
    where the run-time flag ``backwards`` (:func:`backwards_flag`) is set."""
    form = cabs_form(t.bits)
    if backwards is None:
        return cabs(L, x, t, form)
    x = L.let(x)
    return N.Select(backwards, cabs(L, x, t, "hypot"), cabs(L, x, t, form), t.component)


def backwards_flag(L, a):
    """Where NumPy's complex loop takes ``hypot`` for an array read backwards
    (``cabs_form(bits, "reversed")`` differs: complex64 on AVX2 hosts, both
    types on AVX-512 ones): for the 1-D array ``a``, a run-time
    flag of that; an N-D one, whose iterator NumPy may coalesce into a backwards
    line, re-runs the call in the interpreter if it has a negative stride.
    None where ``a``'s loop is always the array form."""
    from ..arrays.elementwise import Lazy
    t = a.type
    if (isinstance(a, Lazy) or not isinstance(t, T.ArrayType) or not t.dtype.is_complex
            or t.layout in ("C", "F")
            or cabs_form(t.dtype.bits) == cabs_form(t.dtype.bits, "reversed")):
        return None
    a = L.let(a)

    def backwards(k):
        return N.Cmp("lt", N.ArrayAttr(a, "stride", k, T.INT64), N.Const(0, T.INT64),
                     T.BOOL)
    if t.ndim == 1:
        return L.let(backwards(0))
    some = backwards(0)
    for k in range(1, t.ndim):
        some = N.BinOp("or", some, backwards(k), T.BOOL)
    L.emit(N.If(cond=some, then=[N.Raise(
        exc=ValueError, deopt=True, line=L.line,
        message="the absolute value of a complex array read backwards: NumPy "
                "computes it differently here")]))
    return None
