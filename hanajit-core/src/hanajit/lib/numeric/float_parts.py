"""``np.ldexp(x, n)``, ``np.frexp(x)`` and ``np.modf(x)``, typed by NumPy's loops
(``ufunc_loops``: the mantissa's dtype follows ``x``, the exponent is int32 or
int64 as the loop says; a float16 loop -- bool, int8, uint8 ``x``, or a Python
int ``x`` with an integer array ``n`` -- falls back), computed exactly with
float arithmetic (the IR has no bit casts):

* ``ldexp`` is musl's ``scalbn``/``scalbnf`` step for step: at most two exact
  scalings by 2**1023 (or 2**-969, which keeps the final exponent below -53 so
  that a subnormal result is rounded once), the exponent clamped, then one
  product by the power of two, built from the exponent's bits by exact
  products.  So it rounds once, as C's ``ldexp`` does; NumPy's int64 loop first
  clamps an exponent beyond int32, which gives the same result.
* ``frexp`` scales a subnormal by 2**54 (2**25), then halves or doubles by
  2**512 ... 2**1 (2**64 ... 2**1) with comparisons: every step is exact.
  Zero, inf and NaN are returned as they are, with the exponent 0.
* ``modf`` is ``(x - trunc(x), trunc(x))`` with the sign of ``x`` on the
  fractional part (``-2.0`` gives ``(-0.0, -2.0)``), ``(+-0.0, +-inf)`` for an
  infinity, NaN for both parts of a NaN.
"""
from __future__ import annotations

from ...ir import nodes as N
from ...ir import types as T
from ..python.operators import C
from ..registry import register
from .ufunc_loops import LoopUfunc

I64 = T.INT64


def _sel(L, cond, a, b, t):
    return L.let(N.Select(cond, a, b, t))


def _cmp(op, a, b):
    return N.Cmp(op, a, b, T.BOOL)


# (max exponent, min normal exponent, mantissa bits + 1, exponent bits) of musl
_FORMAT = {64: (1023, -1022, 53, 10), 32: (127, -126, 24, 7)}


def power_of_two(L, n, t):
    """``2.0 ** n`` exactly, for an int64 ``n`` in the normal exponents of ``t``:
    the product of ``2**(+-2**j)`` over the bits ``j`` of ``|n|``."""
    bits = _FORMAT[t.bits][3]
    neg = L.let(_cmp("lt", n, C(0, I64)))
    mag = _sel(L, neg, N.UnOp("neg", n, I64), n, I64)
    p = C(1.0, t)
    for j in range(bits):
        on = _cmp("ne", N.BinOp("and", mag, C(1 << j, I64), I64), C(0, I64))
        f = _sel(L, neg, C(2.0 ** -(1 << j), t), C(2.0 ** (1 << j), t), t)
        p = _sel(L, on, N.BinOp("mul", p, f, t), p, t)
    return p


def scalbn(L, x, n, t):
    """musl's ``scalbn(x, n)`` (``scalbnf`` for float32); ``n`` an int64."""
    top, bottom, digits, _ = _FORMAT[t.bits]
    y, n = x, L.let(n)
    up, up_n = C(2.0 ** top, t), C(top, I64)
    for _ in range(2):              # n > 1023: y *= 2**1023, n -= 1023 (twice)
        c = L.let(_cmp("gt", n, up_n))
        y = _sel(L, c, N.BinOp("mul", y, up, t), y, t)
        n = _sel(L, c, N.BinOp("sub", n, up_n, I64), n, I64)
    n = _sel(L, _cmp("gt", n, up_n), up_n, n, I64)
    down = C(2.0 ** (bottom + digits), t)   # 2**-1022 * 2**53
    down_n, low_n = C(-(bottom + digits), I64), C(bottom, I64)
    for _ in range(2):              # n < -1022: y *= 2**-969, n += 969 (twice)
        c = L.let(_cmp("lt", n, low_n))
        y = _sel(L, c, N.BinOp("mul", y, down, t), y, t)
        n = _sel(L, c, N.BinOp("add", n, down_n, I64), n, I64)
    n = _sel(L, _cmp("lt", n, low_n), low_n, n, I64)
    return N.BinOp("mul", y, power_of_two(L, n, t), t)


def frexp_parts(L, x, t, e_t):
    """(mantissa, exponent of type ``e_t``) of C's ``frexp(x)``."""
    top, bottom, digits, bits = _FORMAT[t.bits]
    ax = L.let(N.Intrinsic("fabs", [x], t))
    special = L.let(N.BinOp("or", N.UnOp("not", _cmp("lt", ax, C(float("inf"), t)), T.BOOL),
                            _cmp("eq", ax, C(0.0, t)), T.BOOL))
    m = _sel(L, special, C(1.0, t), ax, t)          # (specials: a stand-in)
    sub = L.let(_cmp("lt", m, C(2.0 ** bottom, t)))
    m = _sel(L, sub, N.BinOp("mul", m, C(2.0 ** (digits + 1), t), t), m, t)
    e = _sel(L, sub, C(-(digits + 1), e_t), C(0, e_t), e_t)
    for j in reversed(range(bits)):         # m < 2**(top+1): divided down below 2
        k = 1 << j
        c = L.let(_cmp("ge", m, C(2.0 ** k, t)))
        m = _sel(L, c, N.BinOp("mul", m, C(2.0 ** -k, t), t), m, t)
        e = _sel(L, c, N.BinOp("add", e, C(k, e_t), e_t), e, e_t)
    for j in reversed(range(bits)):         # m >= 2**bottom: multiplied up to 1
        k = 1 << j
        c = L.let(_cmp("lt", m, C(2.0 ** (1 - k), t)))
        m = _sel(L, c, N.BinOp("mul", m, C(2.0 ** k, t), t), m, t)
        e = _sel(L, c, N.BinOp("sub", e, C(k, e_t), e_t), e, e_t)
    mant = N.Intrinsic("copysign", [N.BinOp("mul", m, C(0.5, t), t), x], t)
    return (N.Select(special, x, mant, t),
            N.Select(special, C(0, e_t), N.BinOp("add", e, C(1, e_t), e_t), e_t))


class Ldexp(LoopUfunc):
    nin = 2

    def __init__(self):
        super().__init__("ldexp")

    def element(self, L, xs, outs, k):
        x, n = xs
        return scalbn(L, x, N.Cast(n, I64) if n.type != I64 else n, outs[0])


class Frexp(LoopUfunc):
    nout = 2

    def __init__(self):
        super().__init__("frexp")

    def element(self, L, xs, outs, k):
        return frexp_parts(L, xs[0], outs[0], outs[1])[k]


class Modf(LoopUfunc):
    nout = 2

    def __init__(self):
        super().__init__("modf")

    def element(self, L, xs, outs, k):
        x, t = xs[0], outs[0]
        whole = L.let(N.Intrinsic("trunc", [x], t))
        if k == 1:
            return whole
        inf = _cmp("eq", N.Intrinsic("fabs", [x], t), C(float("inf"), t))
        frac = N.Select(inf, C(0.0, t), N.BinOp("sub", x, whole, t), t)
        return N.Intrinsic("copysign", [frac, x], t)


register(Ldexp())
register(Frexp())
register(Modf())
