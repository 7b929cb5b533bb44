"""np.fft.fftfreq, rfftfreq, fftshift and ifftshift against NumPy: values bit for
bit, dtype, shape and strides; NumPy's ZeroDivisionError and ValueError; what
falls back (non-C arrays of more than one dimension, NumPy scalar spacings)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import strict as jitted


def fftfreq(n, d):
    return np.fft.fftfreq(n, d)


def fftfreq_1(n):
    return np.fft.fftfreq(n)


def rfftfreq(n, d):
    return np.fft.rfftfreq(n, d=d)


def rfftfreq_1(n):
    return np.fft.rfftfreq(n)


def fftshift(x):
    return np.fft.fftshift(x)


def ifftshift(x):
    return np.fft.ifftshift(x)


def fftshift_last(x):
    return np.fft.fftshift(x, axes=-1)


def ifftshift_0(x):
    return np.fft.ifftshift(x, 0)


def fftshift_twice(x):
    return np.fft.fftshift(x, axes=(0, 0))


def round_trip(x):
    return np.fft.ifftshift(np.fft.fftshift(np.fft.fft(x))) + np.fft.fftfreq(x.shape[0])


def check(fn, *args):
    try:
        want = fn(*args)
    except (ValueError, ZeroDivisionError) as e:
        with pytest.raises(type(e)) as got:
            jitted(fn)(*args)
        assert str(got.value) == str(e)
        return
    got = jitted(fn)(*args)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides or want.size == 0
    assert got.tobytes() == want.tobytes()


def test_frequencies():
    for n in list(range(-2, 18)) + [100, 1001]:
        for d in (1.0, 0.1, 3, 1e-300, -2.5, 0.0):
            check(fftfreq, n, d)
            check(rfftfreq, n, d)
        check(fftfreq_1, n)
        check(rfftfreq_1, n)


def test_shifts():
    rng = np.random.default_rng(3)
    arrays = [np.arange(7.0), np.arange(8), rng.standard_normal((5, 6)),
              (rng.standard_normal((3, 4, 5)) * 1j).astype(np.complex64),
              np.arange(10)[::-3], np.zeros((0, 3)), np.array([True, False, True])]
    for x in arrays:
        for fn in (fftshift, ifftshift, fftshift_last, ifftshift_0, fftshift_twice):
            if fn is fftshift_twice and x.ndim == 1:
                continue
            check(fn, x)
    for n in (1, 6, 9):
        check(round_trip, rng.standard_normal(n))


def test_fallbacks():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = np.asfortranarray(np.arange(12.0).reshape(3, 4))
        assert jit(fftshift)(x).strides == fftshift(x).strides
        assert jit(fftfreq)(4, np.float32(0.1)).tobytes() == fftfreq(4, np.float32(0.1)).tobytes()
