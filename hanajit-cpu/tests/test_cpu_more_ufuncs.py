"""``np.deg2rad``/``np.radians``, ``np.rad2deg``/``np.degrees``, ``np.fix``,
``np.gcd``, ``np.lcm`` and ``np.float_power`` compiled, against NumPy 2: values
bit for bit (random bit patterns of float64 and float32 for the angles; every
integer dtype with its extremes for gcd/lcm: int64 min, lcm overflow wrapping),
NumPy's loop types (int16 angles are float32, bool and int8 ones float16: a
fallback with the reason), NEP 50's Python ints (checked against the dtype:
OverflowError), scalars, layouts, broadcasting and ``out=``.

``np.float_power`` is compared bit for bit where NumPy's result equals C's
``pow`` (``math.pow``) on this host -- its plain ``dd->d`` loop calls it, and so
does hanajit, in every loop -- and within 4 ulp elsewhere (none on the hosts
measured; the test says how many)."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitError, HanaJitFallbackWarning
from hanajit.testing.jitted import jitted

RNG = np.random.default_rng(7061)


def angles(x):
    return np.deg2rad(x), np.radians(x), np.rad2deg(x), np.degrees(x)


def deg2rad(x):
    return np.deg2rad(x)


def rad2deg_out(x, out):
    np.rad2deg(x, out=out)
    return out


def fix(x):
    return np.fix(x)


def fix_out(x, out):
    return np.fix(x, out)


def gcd(a, b):
    return np.gcd(a, b)


def lcm(a, b):
    return np.lcm(a, b)


def float_power(x, y):
    return np.float_power(x, y)


def float_power_out(x, y, out):
    return np.float_power(x, y, out=out)


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.tobytes() != want.tobytes():
        g, w = got.reshape(-1), want.reshape(-1)
        bad = np.nonzero(g.view(np.uint8).reshape(g.size, -1)
                         != w.view(np.uint8).reshape(w.size, -1))[0]
        raise AssertionError(f"{bad.size} differ, first at {bad[0]}: {g[bad[0]]!r} != "
                             f"{w[bad[0]]!r}")


def _same_results(got, want):
    assert type(got) is type(want)
    if isinstance(want, tuple):
        for g, w in zip(got, want):
            assert type(g) is type(w)
            _same(g, w)
    else:
        _same(got, want)


def _call(fn, *args):
    with np.errstate(all="ignore"):
        return jitted(fn, fallback=False)(*args), fn(*args)


def _bits(dt, n=20000):
    ut = np.uint64 if dt == np.float64 else np.uint32
    x = RNG.integers(0, np.iinfo(ut).max, n, dtype=ut, endpoint=True).view(dt)
    edge = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 180.0, -90.0, 1.0,
                     np.pi, np.finfo(dt).max, np.finfo(dt).smallest_subnormal], dt)
    return np.concatenate([x, edge])


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_angle_conversions_bit_for_bit(dt):
    x = _bits(dt)
    _same_results(*_call(angles, x))
    _same_results(*_call(angles, RNG.standard_normal(5000).astype(dt) * 720))


def test_angle_conversions_types_scalars_and_layouts():
    a = RNG.standard_normal((12, 20)) * 400
    for x in (a, np.asfortranarray(a), a[::-1, ::3], np.zeros((0, 4)), 90, 90.0,
              np.float32(45), np.int16(30), np.uint16(30), np.int32(-7), np.uint64(2 ** 63),
              np.arange(-5, 5), np.arange(9, dtype=np.int16), np.arange(9, dtype=np.uint32),
              np.array(60.0)):
        _same_results(*_call(angles, x))
    out = np.empty((12, 20), np.float32)
    got, want = _call(rad2deg_out, a, out)
    _same(got, want)
    _same(got, rad2deg_out(a, out.copy()))


def test_fix_rounds_towards_zero_keeping_the_dtype():
    f = np.array([-2.5, -1.0, -0.5, -0.0, 0.0, 0.5, 2.5, 1e300, -np.inf, np.inf, np.nan,
                  -np.nan, 4503599627370497.0])
    with np.errstate(over="ignore"):
        f32 = f.astype(np.float32)
    for x in (f, f32, _bits(np.float64, 2000), _bits(np.float32, 2000),
              np.arange(-4, 4, dtype=np.int8), np.arange(5, dtype=np.uint64),
              np.array([True, False]), -2.5, 3, True, np.int16(-3), np.float32(-0.7),
              f[::-2], np.asfortranarray(f.reshape(1, -1))):
        _same_results(*_call(fix, x))
    got, want = _call(fix_out, f, np.empty_like(f))
    _same(got, want)


INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
             np.uint64]


@pytest.mark.parametrize("dt", INT_TYPES)
def test_gcd_lcm_every_integer_type(dt):
    ii = np.iinfo(dt)
    a = RNG.integers(ii.min, ii.max, 3000, dtype=dt, endpoint=True)
    b = RNG.integers(ii.min, ii.max, 3000, dtype=dt, endpoint=True)
    small = RNG.integers(max(ii.min, -60), 60, 3000).astype(dt)
    ext = np.array([ii.min, ii.max, 0, 1, ii.max - 1] + ([-1] if ii.min else []), dt)
    x = np.concatenate([a, small, np.repeat(ext, ext.size), small * 6])
    y = np.concatenate([b, small[::-1], np.tile(ext, ext.size), small[::-1] * 4])
    for fn in (gcd, lcm):
        _same(*_call(fn, x, y))


def test_gcd_lcm_extremes_as_numpy():
    m = np.int64(-2 ** 63)
    cases = [(m, np.int64(0)), (m, m), (m, np.int64(3)), (np.int8(-128), np.int8(0)),
             (np.int8(100), np.int8(3)), (np.int8(-100), np.int8(3)),
             (np.int32(2 ** 30 + 1), np.int32(2 ** 30 - 1)), (2 ** 62 + 1, 3),
             (np.uint64(2 ** 63), np.uint64(3)), (0, 0), (-12, 18), (12, -18)]
    for a, b in cases:
        for fn in (gcd, lcm):
            _same_results(*_call(fn, a, b))


def test_gcd_lcm_types_broadcast_and_python_ints():
    a = RNG.integers(-1000, 1000, (8, 9))
    for x, y in ((a, 12), (12, a), (a[::-1, ::2], a[:, :5]), (np.asfortranarray(a), a[0]),
                 (a.astype(np.int8), np.int16(6)), (a.astype(np.uint8), 7),
                 (np.array([True, False, True]), 4), (np.int8(6), 4),
                 (np.uint32(12), np.int32(18)), (np.zeros((0, 2), np.int64), 3),
                 (np.array(12), np.array(18))):
        for fn in (gcd, lcm):
            _same_results(*_call(fn, x, y))


@pytest.mark.parametrize("fn", [gcd, lcm])
def test_python_int_beyond_the_dtype_raises_as_numpy(fn):
    for x, y in ((np.arange(3, dtype=np.int8), 300), (np.arange(3, dtype=np.uint8), -1)):
        for f in (fn, jitted(fn, fallback=False)):
            with pytest.raises(OverflowError, match="out of bounds"):
                f(x, y)


def test_float_power_is_c_pow_in_every_loop():
    x = np.abs(RNG.standard_normal(40000)) * 10.0 ** RNG.integers(-6, 6, 40000)
    x[::7] *= -1
    y = RNG.standard_normal(40000) * 8
    y[::5] = np.round(y[::5])
    y[::11] = 2.0                 # pow(x, 2.0), not x * x (they differ now and then)
    x[:8] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0]
    y[:8] = [-1.0, -3.0, 0.5, 3.0, 0.0, np.nan, np.inf, 1024.0]
    got, want = _call(float_power, x, y)
    assert got.dtype == np.float64
    agree = _agrees_with_c_pow(x, y, want)
    _same(got[agree], want[agree])
    ulps = np.abs(got[~agree].view(np.int64) - want[~agree].view(np.int64))
    assert (ulps <= 4).all(), f"{(~agree).sum()} values where NumPy is not C's pow"
    # the exponent 2 in a vectorised loop: pow, as NumPy (x * x differs)
    sq, want2 = _call(float_power, x, 2)
    agree = _agrees_with_c_pow(x, np.full_like(x, 2.0), want2)
    _same(sq[agree], want2[agree])


def _agrees_with_c_pow(x, y, want):
    """Where NumPy's float_power equals ``math.pow`` bit for bit (``math.pow``
    raising -- a zero to a negative power, a negative base to a fraction -- counts
    as agreeing: NumPy's inf or NaN is C's)."""
    out = np.empty(x.size, bool)
    for k, (a, b) in enumerate(zip(x.tolist(), y.tolist())):
        try:
            out[k] = np.float64(math.pow(a, b)).tobytes() == want[k].tobytes()
        except (ValueError, OverflowError):
            out[k] = True
    return out


def test_float_power_types_scalars_complex_and_out():
    a = RNG.standard_normal((6, 7))
    z = a + 1j * a[::-1]
    cases = [(a, 3), (2, 3), (2, -1), (True, 3), (np.int8(2), np.int8(3)),
             (np.float32(1.5), np.float32(2.5)), (a.astype(np.float32), 0.5),
             (np.arange(6, dtype=np.int16), np.arange(6, dtype=np.uint64)),
             (np.abs(a)[::-1, ::2], a[0, ::2]), (np.asfortranarray(np.abs(a)), 1.0 / 3),
             (z, 2), (z, 0.5), (z.astype(np.complex64), a), (np.complex64(1 + 1j), 2),
             (np.abs(a), 2 + 0j), (z, z[::-1]), (np.zeros((0, 3)), 2.0),
             (np.array(2.0), np.array(0.5))]
    for x, y in cases:
        _same_results(*_call(float_power, x, y))
    got, want = _call(float_power_out, np.abs(a), 1.5, np.empty_like(a))
    _same(got, want)


FALLBACKS = [
    (deg2rad, (True,), "float16"), (deg2rad, (np.int8(3),), "float16"),
    (deg2rad, (np.arange(3, dtype=np.uint8),), "float16"),
    (deg2rad, (np.array([True]),), "float16"), (deg2rad, (1j,), "TypeError"),
    (fix, (1 + 2j,), "TypeError"),
    (gcd, (True, True), "TypeError"), (gcd, (4.0, 6), "TypeError"),
    (lcm, (np.ones(2), np.ones(2)), "TypeError"),
    (lcm, (np.int64(4), np.uint64(6)), "TypeError"),
]


@pytest.mark.parametrize("fn, args, why", FALLBACKS, ids=range(len(FALLBACKS)))
def test_float16_loops_and_type_errors_fall_back(fn, args, why):
    with pytest.raises(HanaJitError, match=why):
        jit(fn, fallback=False)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        if why == "TypeError":
            with pytest.raises(TypeError):
                jit(fn)(*args)
        else:
            _same_results(jit(fn)(*args), fn(*args))
