"""Software float64 ``sin``, ``cos``, ``tan``, ``atan``, ``atan2``, ``asin`` and
``acos`` (see ``softmath.py``), in the language of ``softmath_ops.py``.

Argument reduction for sin/cos/tan is Cody-Waite with ``pi/2`` in five parts (four
of 30 bits and a last full double, 173 bits in all) and ``k`` in two halves, so that
``x - k*pi/2`` is a sum of exact products carried as a double-double while
``|x| < 2**46 * pi/2`` (about 1.1e14).  Beyond that the products round and the error
grows with ``ulp(x)``; past ``2**51`` the reduction gives up (``r = 0``): no
Payne-Hanek reduction, results bounded but meaningless.

atan reduces to ``[0, 1]`` (``pi/2 - atan(1/q)``), then around ``j/8`` with
``atan(q) = atan(j/8) + atan((q - j/8) / (1 + q*j/8))`` (``|t| <= 1/16``, a
degree-17 odd Taylor polynomial), everything as double-doubles.
"""
from __future__ import annotations

from fractions import Fraction
from math import factorial

from .softmath_ops import Emitter, F

_h = float.fromhex
TWO_OVER_PI = _h("0x1.45f306dc9c883p-1")
PIO2_PARTS = (_h("0x1.921fb54000000p+0"), _h("0x1.10b4611800000p-30"),
              _h("0x1.313198a000000p-61"), _h("0x1.701b839800000p-92"),
              _h("0x1.129024e088a68p-123"))
PIO2H, PIO2L = _h("0x1.921fb54442d18p+0"), _h("0x1.1a62633145c07p-54")
PIH, PIL = _h("0x1.921fb54442d18p+1"), _h("0x1.1a62633145c07p-53")
# atan(j/8), j = 0..8, as pairs
ATAN_TABLE = [(0.0, 0.0),
              (_h("0x1.fd5ba9aac2f6ep-4"), _h("-0x1.cd37686760c17p-59")),
              (_h("0x1.f5b75f92c80ddp-3"), _h("0x1.8ab6e3cf7afbdp-57")),
              (_h("0x1.6f61941e4def1p-2"), _h("-0x1.c63aae6f6e918p-56")),
              (_h("0x1.dac670561bb4fp-2"), _h("0x1.a2b7f222f65e2p-56")),
              (_h("0x1.1e00babdefeb4p-1"), _h("-0x1.928df287a668fp-58")),
              (_h("0x1.4978fa3269ee1p-1"), _h("0x1.2419a87f2a458p-56")),
              (_h("0x1.700a7c5784634p-1"), _h("-0x1.8c34d25aadef6p-56")),
              (_h("0x1.921fb54442d18p-1"), _h("0x1.1a62633145c07p-55"))]

SIN_POLY = [float(Fraction((-1) ** n, factorial(2 * n + 1))) for n in range(1, 10)]
COS_POLY = [float(Fraction((-1) ** n, factorial(2 * n))) for n in range(2, 11)]
ATAN_POLY = [float(Fraction((-1) ** n, 2 * n + 1)) for n in range(1, 9)]
INF = float("inf")


def reduce(e: Emitter, x: F):
    """``(q, rh, rl)``: ``x = q*pi/2 + rh + rl``, ``|rh| <= ~pi/4``, x finite.

    ``k`` splits into ``kh + kl`` (``kh`` a multiple of 2**23 of at most 23 bits,
    ``|kl| <= 2**22``) so every ``k*C_i`` is two exact products while
    ``|k| < 2**46``; ``two_sum`` keeps every rounding error.  Past ``2**51`` there
    is no integer ``k`` to take: ``r`` is 0 (a bounded, meaningless result)."""
    kf = e.round_int(x * TWO_OVER_PI)
    usable = e.fabs(kf) < 2.0 ** 51
    kf = e.sel(usable, kf, 0.0)
    kh = e.round_int(kf * 2.0 ** -23) * 2.0 ** 23
    kl = kf - kh
    s, err = x, e.f(0.0)
    for c in PIO2_PARTS[:4]:
        for k in (kh, kl):
            s, d = e.two_sum(s, -(k * c))
            err = err + d
    rh, rl = e.two_sum(s, err - kf * PIO2_PARTS[4])
    return e.to_int(kf), e.sel(usable, rh, 0.0), e.sel(usable, rl, 0.0)


def sin_dd(e: Emitter, rh: F, rl: F):
    t = rh * rh
    p = rh * t * e.horner(t, SIN_POLY)
    return e.fast_two_sum(rh, p + rl * (1.0 - t * 0.5))


def cos_dd(e: Emitter, rh: F, rl: F):
    hh, hl = e.two_prod(rh, rh * 0.5)
    w = 1.0 - hh
    err = (1.0 - w) - hh
    t = rh * rh
    q = t * t * e.horner(t, COS_POLY)
    return e.fast_two_sum(w, (err - hl) + (q - rh * rl))


def _trig(e: Emitter, x: F):
    xs = e.sel(e.isfinite(x), x, 0.0)
    q, rh, rl = reduce(e, xs)
    return q, sin_dd(e, rh, rl), cos_dd(e, rh, rl)


def _finish(e: Emitter, x: F, r: F, tiny) -> F:
    r = e.sel(e.fabs(x) < 2.0 ** -26, tiny, r)
    return e.sel(e.isfinite(x), r, x - x)


def sin(e: Emitter, x: F) -> F:
    q, (sh, _), (ch, _) = _trig(e, x)
    v = e.sel((q & 1).eq(1), ch, sh)
    return _finish(e, x, e.sel((q & 2).eq(2), -v, v), x)


def cos(e: Emitter, x: F) -> F:
    q, (sh, _), (ch, _) = _trig(e, x)
    v = e.sel((q & 1).eq(1), sh, ch)
    return _finish(e, x, e.sel(((q + 1) & 2).eq(2), -v, v), e.f(1.0))


def tan(e: Emitter, x: F) -> F:
    q, (sh, sl), (ch, cl) = _trig(e, x)
    odd = (q & 1).eq(1)
    nh, nl = e.sel(odd, ch, sh), e.sel(odd, cl, sl)
    dh, dl = e.sel(odd, sh, ch), e.sel(odd, sl, cl)
    v, _ = e.dd_div(nh, nl, dh, dl)
    return _finish(e, x, e.sel(odd, -v, v), x)


def atan_unit(e: Emitter, qh: F, ql: F):
    """``atan(qh + ql)`` as a pair, for ``0 <= q <= 1``."""
    kf = e.round_int(qh * 8.0)
    c = kf * 0.125
    ph, pl = e.two_prod(qh, c)
    dh, dl = e.fast_two_sum(e.f(1.0), ph)
    th, tl = e.dd_div(qh - c, ql, dh, dl + (pl + ql * c))
    u = th * th
    p = th * u * e.horner(u, ATAN_POLY)
    j = e.to_int(kf)
    ah, al = e.f(0.0), e.f(0.0)
    for n, (h, l) in enumerate(ATAN_TABLE[1:], 1):
        hit = j.eq(n)
        ah, al = e.sel(hit, h, ah), e.sel(hit, l, al)
    s, err = e.two_sum(ah, th)
    return e.fast_two_sum(s, err + (al + (tl + p)))


def atan_ratio(e: Emitter, nh: F, nl, dh: F, dl):
    """``atan((nh + nl) / (dh + dl))`` as a pair in ``[0, pi/2]``, for non-negative,
    finite numerator and denominator, not both zero."""
    swap = nh > dh
    ah, al = e.sel(swap, dh, nh), e.sel(swap, dl, nl)
    bh, bl = e.sel(swap, nh, dh), e.sel(swap, nl, dl)
    ok = bh > 0.0
    qh, ql = e.dd_div(ah, al, e.sel(ok, bh, 1.0), e.sel(ok, bl, 0.0))
    th, tl = atan_unit(e, e.sel(ok, qh, 0.0), e.sel(ok, ql, 0.0))
    # atan(q) = q, the correctly rounded quotient (its pair is no pair in subnormals)
    q0 = ah / e.sel(ok, bh, 1.0)
    tiny = q0 < 2.0 ** -500
    th, tl = e.sel(tiny, q0, th), e.sel(tiny, 0.0, tl)
    h, l = e.two_sum(e.f(PIO2H), -th)
    h, l = e.fast_two_sum(h, l + (PIO2L - tl))
    return e.sel(swap, h, th), e.sel(swap, l, tl)


def atan2(e: Emitter, y: F, x: F) -> F:
    ay, ax = e.fabs(y), e.fabs(x)
    both = ay.eq(INF) & ax.eq(INF)
    one_inf = (ay.eq(INF) | ax.eq(INF)) & ~both
    # an infinite side against a finite one: the finite one counts as 0
    ny = e.sel(both, 1.0, e.sel(one_inf & ~ay.eq(INF), 0.0, e.sel(ay.eq(INF), 1.0, ay)))
    nx = e.sel(both, 1.0, e.sel(one_inf & ~ax.eq(INF), 0.0, e.sel(ax.eq(INF), 1.0, ax)))
    big = e.sel(ny > nx, ny, nx)
    s = e.sel(big < 2.0 ** -900, 2.0 ** 600, e.sel(big > 2.0 ** 900, 2.0 ** -600, 1.0))
    bh, bl = atan_ratio(e, ny * s, 0.0, nx * s, 0.0)
    h, l = e.two_sum(e.f(PIH), -bh)
    r = e.sel(e.signbit(x), h + (l + (PIL - bl)), bh)
    r = e.copysign(r, y)
    return e.sel(e.isnan(x) | e.isnan(y), x + y, r)


def atan(e: Emitter, x: F) -> F:
    return atan2(e, x, e.f(1.0))


def _sqrt_one_minus_square(e: Emitter, ax: F):
    """``sqrt(1 - ax**2)`` as a pair, ``0 <= ax <= 1``."""
    a = 1.0 - ax
    bh, bl = e.fast_two_sum(e.f(1.0), ax)
    w1h, w1l = e.two_prod(a, bh)
    w1l = w1l + a * bl
    ph, pl = e.two_prod(ax, ax)
    w2h, w2l = e.fast_two_sum(e.f(1.0), -ph)
    w2l = w2l - pl
    ge = ax >= 0.5
    wh, wl = e.sel(ge, w1h, w2h), e.sel(ge, w1l, w2l)
    sh = e.sqrt(wh)
    sl = (e.fma(-sh, sh, wh) + wl) / (sh * 2.0)
    return sh, e.sel(sh > 0.0, sl, 0.0)


def _arc(e: Emitter, x: F, ax: F, r: F) -> F:
    r = e.sel(ax > 1.0, float("nan"), r)
    return e.sel(e.isnan(x), x, r)


def asin(e: Emitter, x: F) -> F:
    ax = e.fabs(x)
    axs = e.sel(ax <= 1.0, ax, 0.0)
    sh, sl = _sqrt_one_minus_square(e, axs)
    h, l = atan_ratio(e, axs, 0.0, sh, sl)
    r = e.copysign(h + l, x)
    r = e.sel(ax < 2.0 ** -26, x, r)
    return _arc(e, x, ax, r)


def acos(e: Emitter, x: F) -> F:
    ax = e.fabs(x)
    axs = e.sel(ax <= 1.0, ax, 0.0)
    sh, sl = _sqrt_one_minus_square(e, axs)
    h, l = atan_ratio(e, sh, sl, axs, 0.0)
    ph, pl = e.two_sum(e.f(PIH), -h)
    r = e.sel(x < 0.0, ph + (pl + (PIL - l)), h + l)
    return _arc(e, x, ax, r)
