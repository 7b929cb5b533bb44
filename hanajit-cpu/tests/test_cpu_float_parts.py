"""``np.ldexp``, ``np.frexp`` and ``np.modf`` compiled, against NumPy 2 bit for bit:
random bit patterns of float64 and float32 (subnormals, NaNs with payloads,
infinities, signed zeros), exponents from the int32 extremes to +-2200 and
those that land a result on the subnormal and overflow boundaries, int64
exponents beyond int32; NumPy's loop types (``x`` int16 -> float32, a Python
int exponent checked against int32), scalars giving NumPy scalars (a tuple of
them for frexp and modf), layouts and broadcasting; float16 loops and NumPy's
TypeErrors fall back with the reason."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit.errors import HanaJitError, HanaJitFallbackWarning
from hanajit.testing.jitted import jitted

RNG = np.random.default_rng(20240611)


def ldexp(x, n):
    return np.ldexp(x, n)


def frexp(x):
    return np.frexp(x)


def modf(x):
    return np.modf(x)


def fused(x, n):
    m, e = np.frexp(x)
    f, i = np.modf(x * 3.0)
    return np.ldexp(m, e + n) - f + i


def ldexp_out(x, n, out):
    np.ldexp(x, n, out=out)
    return out


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.tobytes() != want.tobytes():
        bad = np.nonzero(got.reshape(-1).view(np.uint8).reshape(got.size, -1)
                         != want.reshape(-1).view(np.uint8).reshape(want.size, -1))[0]
        raise AssertionError(f"{bad.size} differ, first at {bad[0]}: "
                             f"{got.reshape(-1)[bad[0]]!r} != {want.reshape(-1)[bad[0]]!r}")


def _same_results(got, want):
    assert type(got) is type(want)
    if isinstance(want, tuple):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert type(g) is type(w)
            _same(g, w)
    else:
        _same(got, want)


def _call(fn, *args):
    """NumPy's result (its warnings silenced) and the compiled one."""
    with np.errstate(all="ignore"):
        return jitted(fn, fallback=False)(*args), fn(*args)


def _values(dt, n=20000):
    """Random bit patterns (every class of float) with the edge values."""
    fi = np.finfo(dt)
    ut = np.uint64 if dt == np.float64 else np.uint32
    raw = RNG.integers(0, np.iinfo(ut).max, n, dtype=ut, endpoint=True).view(dt)
    sub = (RNG.integers(1, 2 ** fi.nmant, n // 4) * fi.smallest_subnormal).astype(dt)
    edge = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, fi.tiny, -fi.tiny,
                     fi.max, -fi.max, fi.smallest_subnormal, -fi.smallest_subnormal,
                     np.nextafter(fi.tiny, 0, dtype=dt), 1.0, -1.0, 0.5, 1.5, -3.0,
                     0.75, 1e-3, 123456.789], dt)
    return np.concatenate([raw, sub, -sub, edge])


EXPONENTS = [0, 1, -1, 127, 128, -126, -149, -150, 1023, 1024, -1022, -1074, -1075,
             -1076, 1100, -1100, 2000, -2000, 2 ** 31 - 1, -2 ** 31]


@pytest.mark.parametrize("dt", [np.float64, np.float32])
@pytest.mark.parametrize("nt", [np.int64, np.int32])
def test_ldexp_random_bits_and_exponents(dt, nt):
    x = _values(dt)
    n = RNG.integers(-2200, 2200, x.size)
    n[:len(EXPONENTS)] = EXPONENTS
    n[-len(EXPONENTS):] = EXPONENTS
    _same(*_call(ldexp, x, n.astype(nt)))
    # every edge exponent with every edge value
    xe, ne = np.meshgrid(x[-21:], np.array(EXPONENTS, nt))
    _same(*_call(ldexp, xe, ne))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_ldexp_rounds_once_at_the_subnormal_and_overflow_boundaries(dt):
    x = _values(dt)
    x = x[np.isfinite(x) & (x != 0)]
    e = np.frexp(x)[1].astype(np.int64)
    lowest, top = (-1074, 1024) if dt == np.float64 else (-149, 128)
    for off in range(-3, 3):
        _same(*_call(ldexp, x, lowest - e + off))      # around half the least subnormal
        _same(*_call(ldexp, x, top - e + off))         # around the largest finite


def test_ldexp_int64_exponents_beyond_int32():
    x = _values(np.float64, 4000)
    n = RNG.integers(-2 ** 62, 2 ** 62, x.size)
    n[:4] = [2 ** 63 - 1, -2 ** 63, 2 ** 31, -2 ** 31 - 1]
    _same(*_call(ldexp, x, n))
    with np.errstate(over="ignore"):
        x32 = x.astype(np.float32)
    _same(*_call(ldexp, x32, n))


def test_ldexp_loop_types_and_scalars():
    a = np.array([1.5, -3.0, 0.0, 7.0])
    cases = [
        (a, 3), (3.0, 2), (5, 3), (np.float32(5), 3), (5.0, np.int8(3)),
        (np.float64(5), True), (a.astype(np.float32), np.int64(3)),
        (np.arange(4, dtype=np.int16), 2),            # float32
        (np.arange(4, dtype=np.int32), np.arange(4, dtype=np.int32)),
        (np.arange(4, dtype=np.uint32), np.arange(4, dtype=np.uint32)),
        (np.arange(4), -1), (np.arange(4, dtype=np.uint64), 3),
        (a, np.array([True, False, True, True])), (2.0, np.arange(4, dtype=np.int32)),
        (1.0, 2 ** 40), (np.float32(1.0), np.array([2 ** 40])),
        (np.array(2.5), np.array(3)),
    ]
    for x, n in cases:
        _same_results(*_call(ldexp, x, n))


def test_ldexp_python_int_beyond_int32_raises_as_numpy():
    x = np.ones(3, np.float32)
    for fn in (ldexp, jitted(ldexp, fallback=False)):
        with pytest.raises(OverflowError, match="out of bounds for int32"):
            fn(x, 2 ** 40)


def test_ldexp_layouts_broadcast_empty_and_out():
    x = _values(np.float64, 600)[:600].reshape(20, 30)
    n = RNG.integers(-1100, 1100, 30)
    for xv in (x, np.asfortranarray(x), x[::-2, ::3], x.T):
        _same(*_call(ldexp, xv, n[:xv.shape[1]]))
    _same(*_call(ldexp, x[:, :1], n))
    _same(*_call(ldexp, np.zeros((0, 3)), np.arange(3)))
    got, want = _call(ldexp_out, x, n, np.empty_like(x))
    _same(got, want)
    _same(*_call(fused, x, n[::-1]))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_frexp_random_bits(dt):
    x = _values(dt)
    got, want = _call(frexp, x)
    assert isinstance(got, tuple) and len(got) == 2
    _same(got[0], want[0])
    _same(got[1], want[1])
    assert got[1].dtype == np.int32


def test_frexp_types_scalars_and_layouts():
    a = _values(np.float64, 300)[:300].reshape(10, 30)
    for x in (a, np.asfortranarray(a), a[::-1, ::4], np.zeros((2, 0)), 3.0, -0.0,
              np.float32(1e-40), np.inf, 5, np.int16(5), np.arange(-3, 9),
              np.arange(6, dtype=np.int16), np.arange(6, dtype=np.uint32),
              np.array(-6.5)):
        _same_results(*_call(frexp, x))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_modf_random_bits(dt):
    x = _values(dt)
    x = np.concatenate([x, np.array([2.0, -2.0, -2.5, 2.5, 1e30, -1e30, 0.5, -0.5], dt)])
    got, want = _call(modf, x)
    _same(got[0], want[0])
    _same(got[1], want[1])


def test_modf_types_scalars_and_layouts():
    a = RNG.standard_normal((10, 30)) * 100
    for x in (a, np.asfortranarray(a), a[::-1, ::4], np.zeros((0,)), -2.0, -0.0, np.inf,
              -np.inf, np.nan, np.float32(-7.25), -3, np.int16(9), np.arange(-4, 5),
              np.arange(5, dtype=np.uint64), np.array(2.5)):
        _same_results(*_call(modf, x))


FALLBACKS = [
    (frexp, (np.int8(3),), "float16"), (frexp, (True,), "float16"),
    (frexp, (np.arange(3, dtype=np.uint8),), "float16"),
    (modf, (np.array([True, False]),), "float16"), (modf, (np.int8(3),), "float16"),
    (ldexp, (np.int8(5), 3), "float16"),
    (ldexp, (5, np.arange(3, dtype=np.int32)), "float16"),   # NumPy: Python int -> 'ei'
    (ldexp, (np.ones(3), np.arange(3, dtype=np.uint64)), "TypeError"),
    (ldexp, (np.ones(3), 2.0), "TypeError"), (ldexp, (1j, 2), "TypeError"),
    (modf, (1 + 2j,), "TypeError"), (frexp, (np.ones(2, np.complex64),), "TypeError"),
]


@pytest.mark.parametrize("fn, args, why", FALLBACKS, ids=range(len(FALLBACKS)))
def test_numpy_float16_loops_and_type_errors_fall_back(fn, args, why):
    from hanajit import jit
    with pytest.raises(HanaJitError, match=why):
        jit(fn, fallback=False)(*args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HanaJitFallbackWarning)
        if why == "TypeError":
            with pytest.raises(TypeError):
                jit(fn)(*args)
        else:
            _same_results(jit(fn)(*args), fn(*args))


def test_frexp_with_out_falls_back():
    from hanajit import jit

    def into(x, m, e):
        return np.frexp(x, out=(m, e))
    x = np.array([1.5, -6.0])
    with pytest.raises(HanaJitError, match="out="):
        jit(into, fallback=False)(x, np.empty(2), np.empty(2, np.int32))
