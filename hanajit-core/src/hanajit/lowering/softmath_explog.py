"""Software float64 ``exp``, ``expm1``, ``log``, ``log2``, ``log10``, ``log1p``,
``pow``, ``sinh``, ``cosh`` and ``tanh`` (see ``softmath.py``), in the language of
``softmath_ops.py``.

Two double-double kernels carry them:

* ``exp_kernel``: ``exp(xh + xl) = 2**k * (yh + yl)`` by Cody-Waite reduction with a
  42-bit ``ln2`` head (so ``k * LN2H`` is exact for ``|k| < 2**11``) and a degree-15
  Taylor polynomial on ``|r| <= ln2/2``; it also gives ``expm1(r)`` as a pair.
* ``log_dd``: ``log(2**e * m) = e*ln2 + 2*atanh(s)``, ``s = (m-1)/(m+1)``,
  ``m`` in ``[sqrt(1/2), sqrt(2))``, with ``s`` and ``s**3`` as double-doubles and
  the series in ``s**2`` to ``s**27``: about 2**-64 relative, what ``pow`` needs
  for ``y * log(x)`` up to 745.
"""
from __future__ import annotations

from fractions import Fraction
from math import factorial

from .softmath_ops import Emitter, F

LN2H = float.fromhex("0x1.62e42fefa3800p-1")        # 42 bits
LN2L = float.fromhex("0x1.ef35793c76730p-45")
INVLN2 = float.fromhex("0x1.71547652b82fep+0")
_h = float.fromhex
IL2H, IL2L = _h("0x1.71547652b82fep+0"), _h("0x1.777d0ffda0d24p-56")      # 1/ln2
IL10H, IL10L = _h("0x1.bcb7b1526e50ep-2"), _h("0x1.95355baaafad3p-57")    # 1/ln10
C23H, C23L = _h("0x1.5555555555555p-1"), _h("0x1.5555555555555p-55")      # 2/3
SQRT2_BITS = 0x3FF6A09E667F3BCD
INF = float("inf")

EXP_POLY = [float(Fraction(1, factorial(n))) for n in range(2, 16)]      # 1/2! .. 1/15!
ATANH_POLY = [float(Fraction(2, 2 * n + 1)) for n in range(2, 14)]       # 2/5 .. 2/27
SINH_POLY = [float(Fraction(1, factorial(n))) for n in range(3, 20, 2)]  # 1/3! .. 1/19!


def clamp(e: Emitter, x: F, lo: float, hi: float) -> F:
    """``x`` clamped to ``[lo, hi]``; NaN becomes 0 (callers select NaN back)."""
    x = e.sel(x > hi, hi, e.sel(x < lo, lo, x))
    return e.sel(e.isnan(x), 0.0, x)


def exp_kernel(e: Emitter, xh: F, xl: F):
    """``(k, yh, yl, mh, ml)``: ``exp(xh + xl) = 2**k * (yh + yl)`` and
    ``expm1(r) = mh + ml`` for the reduced ``r``; ``|xh| <= 800``."""
    kf = e.round_int(xh * INVLN2)
    a = xh - kf * LN2H                          # exact (Sterbenz, exact product)
    rh, rl = e.two_sum(a, -(kf * LN2L))
    rl = rl + xl
    p = rh * rh * e.horner(rh, EXP_POLY)
    mh, ml = e.fast_two_sum(rh, p)
    ml = ml + (rl + rl * mh)                    # rl * exp(rh)
    yh, u = e.fast_two_sum(e.f(1.0), mh)
    return e.to_int(kf), yh, u + ml, mh, ml


def exp(e: Emitter, x: F) -> F:
    k, yh, yl, _, _ = exp_kernel(e, clamp(e, x, -800.0, 800.0), e.f(0.0))
    return e.sel(e.isnan(x), x, e.scale(yh + yl, k))


def expm1(e: Emitter, x: F) -> F:
    k, yh, yl, mh, ml = exp_kernel(e, clamp(e, x, -60.0, 800.0), e.f(0.0))
    p = e.pow2(e.sel(k > 60, 60, k))
    # 2**k * (1 + m) - 1 with every part exact but the last rounding
    low, high = k < -53, k > 53
    a = e.sel(low, -1.0, e.sel(high, p, p - 1.0))
    c = e.sel(low, p, e.sel(high, -1.0, 0.0))
    h, l = e.two_sum(a, p * mh)
    r = e.sel(k > 60, e.scale(yh + yl, k), h + (l + (p * ml + c)))
    return e.sel(e.isnan(x) | (e.fabs(x) < 2.0 ** -54), x, r)


def split(e: Emitter, x: F):
    """``(ex, m)``: ``x = 2**ex * m``, ``m`` in ``[sqrt(1/2), sqrt(2))``, for a
    finite x > 0."""
    sub = x < 2.0 ** -1022
    xs = e.sel(sub, x * 2.0 ** 54, x)
    bits = e.bits(xs)
    ex = ((bits >> 52) & 0x7FF) - e.sel(sub, 1023 + 54, 1023)
    mb = (bits & ((1 << 52) - 1)) | (1023 << 52)
    big = mb > SQRT2_BITS
    return e.sel(big, ex + 1, ex), e.from_bits(e.sel(big, mb - (1 << 52), mb))


def log_dd(e: Emitter, ex, f: F, dh: F, dl: F, corr):
    """``ex*ln2 + 2*atanh(f / (dh + dl)) + corr`` as a pair; ``(dh + dl)`` is
    ``2 + f`` exactly."""
    sh = f / dh
    sl = (e.fma(-sh, dh, f) - sh * dl) / dh
    th, tl = e.two_prod(sh, sh)
    ch, cl = e.two_prod(sh, th)
    cl = cl + (sh * tl + 3.0 * th * sl)                  # s**3
    w = th * e.horner(th, ATANH_POLY)
    ph, pl = e.two_prod(ch, e.f(C23H))
    pl = pl + (ch * (C23L + w) + cl * C23H)               # s**3 * (2/3 + w)
    lh, ll = e.fast_two_sum(sh * 2.0, ph)
    ll = ll + (sl * 2.0 + pl)
    exf = e.to_float(ex)
    h, l = e.two_sum(exf * LN2H, lh)
    l = l + (ll + (exf * LN2L + corr))
    return e.fast_two_sum(h, l)


def _log_of_positive(e: Emitter, x: F):
    """``(ex, f, dh, dl)``: what ``log_dd`` takes for a finite positive x
    (``x = 2**ex * (1 + f)``, ``dh + dl = 2 + f`` exactly)."""
    ex, m = split(e, x)
    f = m - 1.0
    dh, dl = e.two_sum(m, e.f(1.0))
    return ex, f, dh, dl


def _specials(e: Emitter, x: F, r: F, zero: float) -> F:
    """log-like results at 0 (``zero``), below 0 (NaN), +inf and NaN."""
    r = e.sel(x.eq(0.0), zero, r)
    r = e.sel(x < 0.0, float("nan"), r)
    return e.sel(x.eq(INF) | e.isnan(x), x, r)


def _positive(e: Emitter, x: F) -> F:
    return e.sel((x > 0.0) & (x < INF), x, 1.0)


def log(e: Emitter, x: F) -> F:
    ex, f, dh, dl = _log_of_positive(e, _positive(e, x))
    h, _ = log_dd(e, ex, f, dh, dl, 0.0)
    return _specials(e, x, h, -INF)


def log10(e: Emitter, x: F) -> F:
    ex, f, dh, dl = _log_of_positive(e, _positive(e, x))
    h, l = log_dd(e, ex, f, dh, dl, 0.0)
    r, _ = e.dd_mul(h, l, e.f(IL10H), IL10L)
    return _specials(e, x, r, -INF)


def log2(e: Emitter, x: F) -> F:
    ex, f, dh, dl = _log_of_positive(e, _positive(e, x))
    h, l = log_dd(e, e.i(0), f, dh, dl, 0.0)
    ph, pl = e.dd_mul(h, l, e.f(IL2H), IL2L)
    s, t = e.two_sum(e.to_float(ex), ph)
    return _specials(e, x, s + (t + pl), -INF)


def log1p(e: Emitter, x: F) -> F:
    xs = e.sel((x > -1.0) & (x < INF), x, 0.0)
    small = (xs > -0.2928932188134524) & (xs < 0.41421356237309503)
    uh, ul = e.two_sum(e.f(1.0), xs)
    ex, m = split(e, e.sel(small, 1.0, uh))
    corr = e.sel(small, 0.0, ul / uh)
    a = e.sel(small, xs, m)
    dh, dl = e.two_sum(a, e.sel(small, 2.0, 1.0))
    h, _ = log_dd(e, e.sel(small, 0, ex), e.sel(small, xs, m - 1.0), dh, dl, corr)
    r = _specials(e, x + 1.0, h, -INF)
    return e.sel(e.fabs(x) < 2.0 ** -54, x, r)


def _is_integer(e: Emitter, y: F):
    """``(is_int, is_odd)`` of y."""
    ay = e.fabs(y)
    yi = e.sel(ay < 2.0 ** 52, y, 0.0)
    is_int = e.sel(ay < 2.0 ** 52, e.round_int(yi).eq(yi), ay < INF)
    yo = e.sel(is_int & (ay < 2.0 ** 53), y, 0.0)
    return is_int, (e.to_int(yo) & 1).eq(1)


def pow(e: Emitter, x: F, y: F) -> F:
    ax = e.fabs(x)
    ex, f, dh, dl = _log_of_positive(e, _positive(e, ax))
    h, l = log_dd(e, ex, f, dh, dl, 0.0)
    ys = e.sel(e.isfinite(y), y, 0.0)
    raw, zl = e.two_prod(ys, h)             # raw may overflow; then zl is NaN
    inside = e.fabs(raw) <= 800.0
    zh, zl = e.fast_two_sum(raw, zl + ys * l)
    zh = e.sel(inside, zh, clamp(e, raw, -800.0, 800.0))
    k, yh, yl, _, _ = exp_kernel(e, zh, e.sel(inside, zl, 0.0))
    mag = e.scale(yh + yl, k)
    mag = e.sel(ax.eq(0.0), e.sel(y < 0.0, INF, 0.0), mag)
    mag = e.sel(ax.eq(INF), e.sel(y < 0.0, 0.0, INF), mag)
    is_int, odd = _is_integer(e, y)
    r = e.sel(e.signbit(x) & odd, -mag, mag)
    r = e.sel((x < 0.0) & e.isfinite(x) & e.isfinite(y) & ~is_int, float("nan"), r)
    below = ax < 1.0
    r = e.sel(e.fabs(y).eq(INF), e.sel(ax.eq(1.0), 1.0, e.sel(
        below, e.sel(y < 0.0, INF, 0.0), e.sel(y < 0.0, 0.0, INF))), r)
    r = e.sel(e.isnan(x) | e.isnan(y), x + y, r)
    return e.sel(y.eq(0.0) | x.eq(1.0), 1.0, r)


def _exp_pair(e: Emitter, ax: F):
    """``(k, yh, yl, ph, pl)``: ``exp(ax) = 2**k * y`` and ``exp(-ax) = 2**-k * p``
    with ``p`` scaled by ``2**-2k`` relative to ``y`` (k clamped where it no longer
    matters)."""
    k, yh, yl, _, _ = exp_kernel(e, clamp(e, ax, 0.0, 800.0), e.f(0.0))
    qh, ql = e.dd_div(e.f(1.0), 0.0, yh, yl)
    s = e.pow2(e.sel(k > 40, 40, k) * -2)
    return k, yh, yl, qh * s, ql * s


def cosh(e: Emitter, x: F) -> F:
    k, yh, yl, ph, pl = _exp_pair(e, e.fabs(x))
    h, l = e.two_sum(yh, ph)
    r = e.scale(h + (l + (yl + pl)), k - 1)
    return e.sel(e.isnan(x), x, r)


def sinh(e: Emitter, x: F) -> F:
    ax = e.fabs(x)
    k, yh, yl, ph, pl = _exp_pair(e, ax)
    h, l = e.two_sum(yh, -ph)
    big = e.scale(h + (l + (yl - pl)), k - 1)
    t = ax * ax
    small = ax + ax * t * e.horner(t, SINH_POLY)
    r = e.copysign(e.sel(ax < 1.0, small, big), x)
    return e.sel(e.isnan(x) | (ax < 2.0 ** -28), x, r)


def tanh(e: Emitter, x: F) -> F:
    ax = e.fabs(x)
    z = clamp(e, ax, 0.0, 40.0) * 2.0
    k, _, _, mh, ml = exp_kernel(e, z, e.f(0.0))
    p = e.pow2(k)
    th, tl = e.two_sum(p - 1.0, p * mh)                # expm1(2|x|), a pair
    tl = tl + p * ml
    dh, dl = e.two_sum(th, e.f(2.0))
    qh, _ = e.dd_div(th, tl, dh, dl + tl)
    r = e.copysign(qh, x)
    return e.sel(e.isnan(x) | (ax < 2.0 ** -28), x, r)
