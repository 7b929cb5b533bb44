"""NumPy's ``logaddexp``, ``logaddexp2`` and ``heaviside`` of two floats, as its
``npy_math`` computes them (``npy_logaddexp``, ``npy_logaddexp2``, ``npy_heaviside``;
NumPy's loops call these scalar functions for every element, no SIMD).

``npy_logaddexp(x, y)``: ``x == y`` gives ``x + ln 2`` (infinities of one sign
too); otherwise ``tmp = x - y`` and ``x + log1p(exp(-tmp))`` for ``tmp > 0``,
``y + log1p(exp(tmp))`` for ``tmp <= 0``, and ``tmp`` (a NaN) else.  The base-2
one adds ``1`` for equal arguments and uses ``exp2`` and ``log2(e) * log1p``.
float32 calls the float functions (``expf``, ``log1pf``) with float constants.

The C library's ``exp``/``exp2``/``log1p`` are called one element at a time
(``scalar_only``): the vector variants a vectorised loop would otherwise call are
within a few ulp, not libm's bit for bit (docs/semantics.md).
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from .operators import C

LOGE2 = 0.693147180559945309417232121458176568      # NPY_LOGE2
LOG2E = 1.442695040888963407359924681001892137      # NPY_LOG2E


def _call(name, x, t):
    r = N.Intrinsic(name, [x], t)
    r.scalar_only = True
    return r


def logaddexp(L, x, y, t: T.Scalar, base2: bool):
    """``npy_logaddexp(x, y)`` (``base2``: ``npy_logaddexp2``) of two floats of
    type ``t`` (already converted, bound to names)."""
    tmp = L.let(N.BinOp("sub", x, y, t))
    pos = L.let(N.Cmp("gt", tmp, C(0.0, t), T.BOOL))
    # exp(-tmp) for tmp > 0, exp(tmp) else (a NaN tmp is picked below)
    e = L.let(_call("exp2" if base2 else "exp", N.Select(pos, N.UnOp("neg", tmp, t), tmp, t),
                    t))
    l1p = _call("log1p", e, t)
    if base2:                      # npy_log2_1p: LOG2E * log1p(x)
        l1p = N.BinOp("mul", C(LOG2E, t), l1p, t)
    big = N.Select(pos, x, y, t)
    general = N.Select(N.Cmp("uno", tmp, tmp, T.BOOL), tmp, N.BinOp("add", big, l1p, t), t)
    same = N.BinOp("add", x, C(1.0 if base2 else LOGE2, t), t)
    return N.Select(N.Cmp("eq", x, y, T.BOOL), same, general, t)


def heaviside(x, h0, t: T.Scalar):
    """``npy_heaviside(x, h0)``: NaN (NumPy's positive ``NPY_NAN``, whatever the
    sign of a NaN ``x``) for a NaN ``x``, ``h0`` for ``x == 0`` (either zero),
    ``0`` below and ``1`` above."""
    step = N.Select(N.Cmp("lt", x, C(0.0, t), T.BOOL), C(0.0, t), C(1.0, t), t)
    step = N.Select(N.Cmp("eq", x, C(0.0, t), T.BOOL), h0, step, t)
    return N.Select(N.Cmp("uno", x, x, T.BOOL), C(float("nan"), t), step, t)
