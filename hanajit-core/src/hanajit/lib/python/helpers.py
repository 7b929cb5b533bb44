"""Python semantics written in Python, compiled by hanajit itself.

These transcribe CPython's C implementations (``Objects/floatobject.c``,
``Objects/complexobject.c``, ``long_pow``) using only operations that lower to
primitives: the ``prims`` functions have C libm semantics (no Python checks), and
``//``/``%`` appear only on floats in ways that do not re-enter these helpers.
They are compiled like user code, marked always-inline, so every target gets the
same semantics from the same IR.
"""
from __future__ import annotations

from ... import errors
from .. import prims
from .float_divmod import np_floordiv, np_mod


class Deopt(Exception):
    """Raised by compiled code when CPython's result cannot be represented (an
    int power with a negative exponent, a complex result from a float power); the
    dispatcher re-runs a pure function in the interpreter."""


def int_pow(base, exp):
    if exp < 0:
        raise Deopt("integer power with a negative exponent")
    return _times_power(1, base, exp)


def py_int_pow(base, exp):
    """``**`` of Python ints: ``int_pow`` whose products deoptimise beyond int64
    (``int_overflow``) where NumPy's int64 power wraps."""
    if exp < 0:
        raise Deopt("integer power with a negative exponent")
    return _checked_times_power(1, base, exp)


def _checked_times_power(result, base, exp):
    while exp > 0:
        if exp & 1:
            result = result * base
        exp = exp >> 1
        if exp > 0:
            base = base * base
    return result


py_int_pow.hj_int_checked = _checked_times_power.hj_int_checked = True


def uint_pow(base, exp):
    """NumPy's unsigned integer power, wrapping modulo 2**64 (the product starts
    as the base's type: an int64 1 times a uint64 would promote to float64)."""
    return _times_power(base * 0 + 1, base, exp)


def _times_power(result, base, exp):
    """``result * base ** exp`` by repeated squaring (``exp >= 0``)."""
    while exp > 0:
        if exp & 1:
            result = result * base
        exp = exp >> 1
        if exp > 0:
            base = base * base
    return result


def float_floordiv(vx, wx):
    """Python's float ``//``: NumPy's algorithm (the same as CPython's
    ``_float_div_mod``) after the zero check."""
    if wx == 0.0:
        raise ZeroDivisionError("float floor division by zero")
    return np_floordiv(vx, wx)


def float_mod(vx, wx):
    if wx == 0.0:
        if errors.MODULO_BY_ZERO:
            raise ZeroDivisionError("float modulo by zero")
        raise ZeroDivisionError("float modulo")
    return np_mod(vx, wx)


def float_pow(iv, iw):
    if iw == 0.0:
        return 1.0
    if iv != iv:
        return iv
    if iw != iw:
        return 1.0 if iv == 1.0 else iw
    if prims.isinf(iw):
        av = prims.fabs(iv)
        if av == 1.0:
            return 1.0
        if (iw > 0.0) == (av > 1.0):
            return prims.fabs(iw)
        return 0.0
    if prims.isinf(iv):
        odd = prims.fmod(prims.fabs(iw), 2.0) == 1.0   # iw is an odd integer
        if iw > 0.0:
            return iv if odd else prims.fabs(iv)
        return prims.copysign(0.0, iv) if odd else 0.0
    if iv == 0.0:
        odd = prims.fmod(prims.fabs(iw), 2.0) == 1.0   # iw is an odd integer
        if iw < 0.0:
            raise ZeroDivisionError("0.0 cannot be raised to a negative power")
        return iv if odd else 0.0
    negate = False
    if iv < 0.0:
        if iw != prims.floor(iw):
            raise Deopt("negative number raised to a fractional power is complex")
        iv = -iv
        negate = prims.fmod(prims.fabs(iw), 2.0) == 1.0
    if iv == 1.0:
        return -1.0 if negate else 1.0
    ix = prims.pow(iv, iw)
    if prims.isinf(ix):
        raise OverflowError("(34, 'Numerical result out of range')")
    return -ix if negate else ix


def float_square(x):
    """``x ** 2`` on a float, bit for bit CPython's ``float_pow`` (libm ``pow``)
    without calling ``pow`` where its result is known.

    ``x*x`` is the correctly rounded square; glibc's (and musl's) ``pow`` is
    documented within 0.54 ulp in general, and for ``y = 2`` with
    ``2**-100 < x*x < 2**100`` within 0.52 ulp (0.509 ulp of its exp plus at most
    ``|2 log x| * 1.5 * 2**-68`` relative from its log).  The exact square is
    ``hi + lo`` (``lo`` from an fma); when ``|lo|`` is at most 0.4706 of the
    spacing around ``hi`` -- ``hi + 1.0625 * lo`` (one fma) still rounds to ``hi`` -- every
    value within 0.52 ulp of the exact square rounds to ``hi``, so ``pow`` would
    return ``hi`` too.  Otherwise (about 1 input in 17, and every NaN, infinity,
    zero, tiny or huge value) ``float_pow`` computes it.  Only used where the
    target's ``pow`` is glibc's or musl's (``operators.square_is_libm_exact``).
    """
    hi = x * x
    if _square_is_pows(x, hi):
        return hi
    return float_pow(x, 2.0)


def _square_is_pows(x, hi):
    """Is ``hi = x*x`` what glibc's/musl's ``pow(x, 2)`` returns (see above)?"""
    lo = prims.fma(x, x, -hi)
    return ((hi > 7.888609052210118e-31) & (hi < 1.2676506002282294e30)
            & (prims.fma(lo, 1.0625, hi) == hi))


def np_float_square(x):
    """A NumPy float64 scalar's ``x ** 2``: C's ``pow`` (NumPy's ``npy_pow``), so
    overflow is inf and NaN propagates, with :func:`float_square`'s exact fast
    path."""
    hi = x * x
    if _square_is_pows(x, hi):
        return hi
    return prims.pow_scalar(x, 2.0)


def complex_div(a, b):
    """CPython's ``_Py_c_quot`` (Smith's algorithm)."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    abs_breal = prims.fabs(br)
    abs_bimag = prims.fabs(bi)
    if abs_breal >= abs_bimag:
        if abs_breal == 0.0:
            raise ZeroDivisionError("complex division by zero")
        ratio = prims.fdiv(bi, br)
        denom = br + bi * ratio
        return complex(prims.fdiv(ar + ai * ratio, denom), prims.fdiv(ai - ar * ratio, denom))
    if abs_bimag >= abs_breal:
        ratio = prims.fdiv(br, bi)
        denom = br * ratio + bi
        return complex(prims.fdiv(ar * ratio + ai, denom), prims.fdiv(ai * ratio - ar, denom))
    nan = prims.fdiv(0.0, 0.0)
    return complex(nan, nan)


def _complex_prod(ar, ai, br, bi):
    """CPython's ``_Py_c_prod`` (no fused multiply-add)."""
    return complex(ar * br - ai * bi, ar * bi + ai * br)


def _complex_powu(x, n):
    """CPython's ``c_powu``: ``x ** n`` for ``n >= 0`` by binary powering."""
    r = complex(1.0, 0.0)
    p = x
    mask = 1
    while mask <= n:
        if n & mask:
            r = _complex_prod(r.real, r.imag, p.real, p.imag)
        mask = mask << 1
        p = _complex_prod(p.real, p.imag, p.real, p.imag)
    return r


def complex_pow(a, b):
    """CPython's ``complex ** complex`` (``complex_pow`` in complexobject.c).

    An integer exponent of magnitude at most 100 multiplies by squaring
    (``c_powi``: the reciprocal of the power for a negative one); any other
    exponent takes ``_Py_c_pow``'s polar form through the C library.  CPython
    decides its exceptions from ``errno`` afterwards; the C library sets it
    (glibc, musl) as follows, so the tests here are equivalent: ``EDOM`` from
    a zero base with a negative or complex exponent and from ``cos``/``sin``
    of an infinite phase (ZeroDivisionError); ``ERANGE`` (OverflowError) only
    when a part of the result is infinite, since CPython clears an underflow's
    or intermediate overflow's ``ERANGE`` otherwise."""
    br = b.real
    bi = b.imag
    if bi == 0.0 and prims.fabs(br) <= 100.0 and br == prims.floor(br):
        n = int(br)
        if n > 0:
            r = _complex_powu(a, n)
        else:
            d = _complex_powu(a, -n)
            if d.real == 0.0 and d.imag == 0.0:
                raise ZeroDivisionError("0.0 to a negative or complex power")
            r = complex_div(complex(1.0, 0.0), d)
    elif br == 0.0 and bi == 0.0:
        r = complex(1.0, 0.0)
    elif a.real == 0.0 and a.imag == 0.0:
        if bi != 0.0 or br < 0.0:
            raise ZeroDivisionError("0.0 to a negative or complex power")
        r = complex(0.0, 0.0)
    else:
        vabs = prims.hypot(a.real, a.imag)
        length = prims.pow(vabs, br)
        at = prims.atan2(a.imag, a.real)
        phase = at * br
        if bi != 0.0:
            length = prims.fdiv(length, prims.exp(at * bi))
            phase = phase + bi * prims.log(vabs)
        if prims.isinf(phase):
            raise ZeroDivisionError("0.0 to a negative or complex power")
        r = complex(length * prims.cos(phase), length * prims.sin(phase))
    if prims.isinf(r.real) or prims.isinf(r.imag):
        raise OverflowError("complex exponentiation")
    return r
