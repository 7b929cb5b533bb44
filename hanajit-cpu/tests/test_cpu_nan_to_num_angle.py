"""np.nan_to_num and np.angle against NumPy, byte for byte: float32/float64/complex
arrays and numbers with NaN, infinities and signed zeros, the replacement values
(cast to the part's type as NumPy's copyto casts them), integers passed through,
deg=True; boolean angle and copy=False fall back."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.jitted import jitted


def nan_to_num(x):
    return np.nan_to_num(x)


def nan_to_num_values(x):
    return np.nan_to_num(x, nan=5, posinf=1.5, neginf=-2.0)


def nan_to_num_positional(x, v):
    return np.nan_to_num(x, True, v)


def nan_to_num_in_place(x):
    return np.nan_to_num(x, copy=False)


def angle(z):
    return np.angle(z)


def angle_degrees(z):
    return np.angle(z, deg=True)


def angle_positional(z):
    return np.angle(z, True)


SPECIAL = np.array([np.nan, np.inf, -np.inf, 1.0, -0.0, 0.0, 1e300, -3.5, 1e-310])
CASES = [SPECIAL, SPECIAL.astype(np.float32), SPECIAL + 1j * SPECIAL[::-1],
         (SPECIAL + 1j * SPECIAL[::-1]).astype(np.complex64), np.arange(-3, 4),
         np.arange(5, dtype=np.uint16), np.float64(np.nan), np.float32(np.inf), 3, 2.5,
         complex(-1, -0.0), SPECIAL[:8].reshape(2, 4)[:, ::-1], np.zeros((0, 3))]


def same(got, want):
    w = np.asarray(want)
    g = np.asarray(got, dtype=w.dtype)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype
    assert g.shape == w.shape and g.tobytes() == w.tobytes(), (got, want)


@pytest.mark.parametrize("k", range(len(CASES)))
def test_against_numpy(k):
    x = CASES[k]
    with np.errstate(all="ignore"):
        for fn in (nan_to_num, nan_to_num_values, angle, angle_degrees, angle_positional):
            same(jitted(fn, fallback=False)(x), fn(x))
        for v in (7, -1e40, np.float32(2.5)):
            same(jitted(nan_to_num_positional, fallback=False)(x, v), nan_to_num_positional(x, v))


def test_a_copy_and_fallbacks():
    x = SPECIAL.copy()
    r = jitted(nan_to_num, fallback=False)(x)
    assert np.isnan(x[0]) and r[0] == 0.0 and not np.shares_memory(r, x)
    with pytest.warns(HanaJitFallbackWarning, match="copy=False"):
        jit(nan_to_num_in_place)(x.copy())
    with pytest.warns(HanaJitFallbackWarning, match="angle"):
        assert np.array_equal(jit(angle)(np.array([True, False])),
                              np.angle(np.array([True, False])))
    with pytest.warns(HanaJitFallbackWarning, match="float16"):
        assert jit(angle)(np.arange(3, dtype=np.int8)).dtype == np.float16
