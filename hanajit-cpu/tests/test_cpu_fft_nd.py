"""np.fft.fft2/ifft2/fftn/ifftn against NumPy, bit for bit: one pocketfft
transform per axis, the last first (``_raw_fftnd``), of float64, float32,
complex64 and int64 arrays in C, Fortran and strided layouts, every norm, axes
given (repeated, a list), empty axes (NumPy's ValueError); dtype, shape and
strides; what falls back."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit


def fft2(x):
    return np.fft.fft2(x)


def ifft2_ortho(x):
    return np.fft.ifft2(x, norm="ortho")


def fftn(x):
    return np.fft.fftn(x)


def ifftn_forward(x):
    return np.fft.ifftn(x, norm="forward")


def fftn_axes(x):
    return np.fft.fftn(x, axes=(0, 0))


def ifftn_list(x):
    return np.fft.ifftn(x, axes=[-1])


def fft2_all(x):
    return np.fft.fft2(x, axes=None, norm="backward")


def round_trip(x):
    return np.fft.ifft2(np.fft.fft2(x) * 0.5).real


def with_s(x):
    return np.fft.fftn(x, s=(4, 4))


_JITTED = {}


def check(fn, x):
    if fn not in _JITTED:
        _JITTED[fn] = jit(fn, fallback=False)
    try:
        want = fn(x)
    except ValueError as e:
        with pytest.raises(ValueError) as got:
            _JITTED[fn](x)
        assert str(got.value) == str(e)
        return
    got = _JITTED[fn](x)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides or want.size == 0
    assert got.tobytes() == want.tobytes()


RNG = np.random.default_rng(11)


def arrays(dt):
    x = (RNG.standard_normal((5, 6)) * 3).astype(dt)
    big = (RNG.standard_normal((11, 13))).astype(dt)
    return [x, np.asfortranarray(x), big[::2, ::-3], np.ones((1, 7), dt),
            (RNG.standard_normal((3, 4, 5)) * 2).astype(dt),
            np.asfortranarray(RNG.standard_normal((2, 3, 4)).astype(dt))]


@pytest.mark.parametrize("dt", (np.float64, np.float32, np.complex64, np.int64))
def test_transforms(dt):
    fns = (fft2, ifft2_ortho, fftn, ifftn_forward, fftn_axes, ifftn_list, fft2_all)
    if dt != np.float64:                # (the same code for other dtypes)
        fns = (fft2, ifftn_forward)
    for x in arrays(dt):
        for fn in (fns if x.ndim == 2 else fns[:4]):    # (3-D: the N-D transforms)
            check(fn, x)
    check(round_trip, arrays(dt)[0])


def test_empty_and_errors():
    check(fftn, np.zeros((3, 0)))
    check(fft2, np.zeros((0, 4), np.complex128))
    check(fftn, np.arange(7.0))


def test_fallbacks():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        x = RNG.standard_normal((3, 5))
        assert jit(with_s)(x).tobytes() == with_s(x).tobytes()
        v = RNG.standard_normal((3, 4, 6))[:, ::2, ::-1]
        assert jit(fftn)(v).tobytes() == fftn(v).tobytes()
