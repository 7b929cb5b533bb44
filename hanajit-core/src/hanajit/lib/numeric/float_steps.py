"""``np.nextafter(x1, x2)`` and ``np.spacing(x)`` of float32 and float64, typed
by NumPy's loops (``ufunc_loops``: int16 computes in float32, int32/int64 in
float64; a float16 loop -- bool, int8, uint8 -- falls back with the reason),
computed with exact float arithmetic (the IR has no bit casts): the step from
``x`` to its neighbour is the power of two ``2**(e - 52)`` (``2**(e - 23)`` in
float32) of ``x``'s exponent ``e`` (``float_parts.frexp_parts``; at least the
smallest normal's, so ``2**-1074`` among subnormals), half that toward zero from
an exact power of two; ``|x| +- step`` is then exact (the largest finite number
plus its step rounds to inf, as C's ``nextafter`` gives).

* ``nextafter`` is C's ``nextafter`` (glibc): a NaN operand gives NaN (``x2``'s
  when both are, quieted), ``x1 == x2`` gives ``x2`` (``nextafter(0.0, -0.0)`` is
  ``-0.0``), a zero steps to the smallest subnormal with ``x2``'s sign, an
  infinity toward zero to the largest finite number; a result of zero keeps
  ``x1``'s sign (``nextafter(-5e-324, 0)`` is ``-0.0``).
* ``spacing`` is NumPy's ``npy_spacing``: ``_next(x, +1) - x``, the neighbour
  away from zero (so negative for a negative ``x``; the smallest subnormal for
  either zero); NaN for an infinity, ``x`` quieted for a NaN.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python.operators import C
from ..registry import register
from .float_parts import frexp_parts, scalbn
from .ufunc_loops import LoopUfunc

I64 = T.INT64

# (mantissa bits after the point, smallest normal exponent) of each format
_FORMAT = {64: (52, -1022), 32: (23, -126)}


def _cmp(op, a, b):
    return N.Cmp(op, a, b, T.BOOL)


def _and(a, b):
    return N.BinOp("and", a, b, T.BOOL)


def _largest(t):
    import numpy as np
    return float(np.finfo(np.dtype(t.name)).max)


def neighbour(L, ax, away, t):
    """The neighbour of the finite, nonzero magnitude ``ax`` away from zero (the
    bool ``away``) or toward it."""
    digits, bottom = _FORMAT[t.bits]
    m, e = frexp_parts(L, ax, t, I64)       # ax = m * 2**e, 0.5 <= m < 1
    e = L.let(N.BinOp("sub", e, C(1, I64), I64))
    e = L.let(N.Select(_cmp("lt", e, C(bottom, I64)), C(bottom, I64), e, I64))
    below = _and(_cmp("eq", m, C(0.5, t)), _cmp("gt", e, C(bottom, I64)))
    down = _and(N.UnOp("not", away, T.BOOL), below)
    n = N.BinOp("sub", e, N.Select(down, C(digits + 1, I64), C(digits, I64), I64), I64)
    step = L.let(scalbn(L, C(1.0, t), L.let(n), t))
    return N.Select(away, N.BinOp("add", ax, step, t), N.BinOp("sub", ax, step, t), t)


def nextafter(L, x, y, t):
    inf = C(float("inf"), t)
    ax = L.let(N.Intrinsic("fabs", [x], t))
    finite = L.let(_cmp("lt", ax, inf))
    safe = L.let(N.Select(_and(finite, _cmp("ne", ax, C(0.0, t))), ax, C(1.0, t), t))
    away = L.let(_cmp("eq", _cmp("gt", y, x), _cmp("gt", x, C(0.0, t))))
    r = N.Select(finite, neighbour(L, safe, away, t), C(_largest(t), t), t)
    r = N.Intrinsic("copysign", [r, x], t)
    tiny = N.Intrinsic("copysign", [C(2.0 ** -(_FORMAT[t.bits][0] - _FORMAT[t.bits][1]), t),
                                    y], t)
    r = N.Select(_cmp("eq", ax, C(0.0, t)), tiny, r, t)
    r = N.Select(_cmp("eq", x, y), y, r, t)
    r = N.Select(_cmp("ne", x, x), N.BinOp("add", x, x, t), r, t)
    return N.Select(_cmp("ne", y, y), N.BinOp("add", y, y, t), r, t)


def spacing(L, x, t):
    ax = L.let(N.Intrinsic("fabs", [x], t))
    finite = L.let(_cmp("lt", ax, C(float("inf"), t)))
    zero = L.let(_cmp("eq", ax, C(0.0, t)))
    safe = L.let(N.Select(_and(finite, N.UnOp("not", zero, T.BOOL)), ax, C(1.0, t), t))
    up = N.Intrinsic("copysign", [neighbour(L, safe, C(True, T.BOOL), t), x], t)
    tiny = C(2.0 ** -(_FORMAT[t.bits][0] - _FORMAT[t.bits][1]), t)
    r = N.BinOp("sub", N.Select(zero, tiny, up, t), x, t)
    r = N.Select(_cmp("eq", ax, C(float("inf"), t)), C(float("nan"), t), r, t)
    return N.Select(_cmp("ne", x, x), N.BinOp("sub", x, x, t), r, t)


class NextAfter(LoopUfunc):
    nin = 2

    def __init__(self):
        super().__init__("nextafter")

    def element(self, L, xs, outs, k):
        return nextafter(L, xs[0], xs[1], outs[0])


class Spacing(LoopUfunc):
    def __init__(self):
        super().__init__("spacing")

    def element(self, L, xs, outs, k):
        return spacing(L, xs[0], outs[0])


register(NextAfter())
register(Spacing())
