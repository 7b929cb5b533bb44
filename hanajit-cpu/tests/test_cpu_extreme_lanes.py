"""``np.min``/``np.max`` of whole float arrays run as vector code
(``lib/arrays/extreme_lanes.py``) and still give NumPy's value: NaN when any value
is NaN, NumPy's own zero of ``0.0``/``-0.0``, in every layout and at the lengths
where the helper changes path (16 lanes, chunks of 4096 for strided lanes)."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hanajit import jit
from hypothesis import given, settings
from hypothesis import strategies as st


def amin(a):
    return a.min()


def amax(a):
    return np.max(a)


def real_min(z):
    return z.real.min()


def imag_max(z):
    return z.imag.max()


FUNCS = {f: jit(f, fallback=False) for f in (amin, amax, real_min, imag_max)}


def same(f, x):
    want, got = f(x), FUNCS[f](x)
    assert type(got) is type(want), (got, want)
    if np.isnan(want):
        assert np.isnan(got), (got, want)
    else:
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), (got, want, x)


def layouts(a):
    yield a
    yield a[::-1]
    yield a[::3]
    if a.size % 2 == 0 and a.size:
        yield a.reshape(2, -1)
        yield a.reshape(2, -1).T.copy()


SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [1, 7, 15, 16, 17, 31, 32, 33, 100, 4095, 4096, 4097,
                               3 * 4096 + 5, 30000])
def test_lengths_and_layouts(dtype, n):
    rng = np.random.default_rng(n)
    base = rng.standard_normal(n).astype(dtype)
    cases = [base, np.abs(base), -np.abs(base)]
    for pos in {0, n // 2, n - 1}:
        for v in (np.nan, 0.0, -0.0, np.inf):
            c = base.copy()
            c[pos] = v
            cases.append(c)
    zeros = rng.choice(np.array([0.0, -0.0], dtype), n)
    cases.append(zeros)
    for c in cases:
        for a in layouts(c):
            same(amin, a)
            same(amax, a)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(SPECIAL) | st.floats(width=64), min_size=1,
                max_size=200), st.sampled_from([np.float64, np.float32]))
def test_hypothesis(xs, dtype):
    with np.errstate(all="ignore"):
        a = np.array(xs, dtype=dtype)
    for x in layouts(a):
        same(amin, x)
        same(amax, x)


@pytest.mark.parametrize("n", [3, 40, 5000])
def test_complex_parts(n):
    rng = np.random.default_rng(n)
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    z[n // 2] = complex(np.nan, -0.0)
    for x in (z, z[::2], z.astype(np.complex64)):
        same(real_min, x)
        same(imag_max, x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("step", [2, 3, 4, 8, 16, 32])
def test_stepped_lanes_ignore_the_values_between(dtype, step):
    """A step of 2, 4, 8 or 16 items is read whole (``extreme_stepped``): NaN,
    infinities and zeros planted in the skipped items must not show, at lengths
    on both sides of the helper's 16-lane blocks."""
    rng = np.random.default_rng(step)
    for n in (1, 2, 15, 16, 17, 31, 32, 33, 64, 65, 1000):
        base = rng.standard_normal(n * step + 3).astype(dtype)
        for filler in (np.nan, -np.inf, np.inf, -0.0):
            full = base.copy()
            keep = full[::step].copy()
            full[:] = filler
            full[::step] = keep
            for a in (full[::step], full[step - 1::step][:n - 1] if n > 1 else full[::step]):
                same(amin, a)
                same(amax, a)
        zeros = base.copy()
        zeros[::step] = rng.choice(np.array([0.0, -0.0], dtype), len(zeros[::step]))
        same(amin, zeros[::step])
        same(amax, zeros[::step])


def test_complex_parts_beside_nan():
    """``z.real`` of values whose imaginary parts are NaN has no NaN."""
    z = np.arange(100.0) - 50.0 + 1j * np.nan
    for x in (z, z[::3], z.astype(np.complex64)):
        same(real_min, x)
        same(imag_max, x)
        same(real_min, np.conj(x) * 1j)


def test_empty_raises_as_numpy():
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        FUNCS[amin](np.zeros(0))


def test_the_loop_is_vector_code(monkeypatch):
    """Contiguous lanes compare whole vectors: a loop carrying vectors, without
    gathers (a property, not a vector width)."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")
    g = jit(amin, fallback=False)
    a = np.random.default_rng(1).random(1000)
    assert g(a) == a.min()
    ir = g.inspect_llvm()
    blocks = re.split(r"\n(?=[\w.]+:)", ir)
    loops = [b for b in blocks if re.search(r"= phi <\d+ x double>", b)
             and re.search(r"label %" + re.escape(b.split(":", 1)[0]) + r"\b", b)]
    assert loops and all("gather" not in b for b in loops)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("signs", ["positive", "negative", "both"])
def test_zero_extremes_of_one_sign_or_both(dtype, signs):
    """A zero extreme: where every zero has one sign it is NumPy's whatever
    loop found it, where both signs are there NumPy's loops are followed
    (``minmax_algorithms``; ``one_zero_sign`` counts the signs for
    ``order_stats``); every layout, many lengths."""
    from hanajit.lib.arrays import minmax_algorithms as hm

    rng = np.random.default_rng(len(signs))
    for n in (1, 5, 33, 100, 1000, 4097):
        a = rng.integers(0, 3, n).astype(dtype)        # min 0 (when there is one)
        if signs == "negative":
            a = -a                                     # zeros -0.0, max -0.0
        elif signs == "both":
            a[rng.random(n) < 0.5] *= -1
        b = -a
        for x in list(layouts(a)) + list(layouts(b)):
            same(amin, x)
            same(amax, x)
        assert hm.one_zero_sign(a) == (len(set(np.signbit(a[a == 0]))) < 2)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 0.0, -0.0, 2.0, 3.5, np.nan]), min_size=32,
                max_size=300), st.sampled_from([np.float64, np.float32]),
       st.sampled_from([1.0, -1.0]), st.booleans())
def test_zero_extremes_of_mixed_signs(xs, dtype, direction, nan):
    """Zeros of both signs, of one sign, with NaNs and without: a zero extreme
    is recomputed in NumPy's loops (``zero_pick.numpy_zero``); checked against
    NumPy in both directions, and the helper run as Python gives NumPy's value
    (a NaN where there is one)."""
    from hanajit.lib.arrays import extreme_lanes

    a = np.array([x for x in xs if nan or x == x], dtype) * dtype(direction)
    if len(a) < 32:
        return
    for x in (a, -a):
        same(amin, x)
        same(amax, x)
        for big in (False, True):
            v = extreme_lanes.extreme(x, big)
            want = np.max(x) if big else np.min(x)
            assert v == want or (np.isnan(v) and np.isnan(want))
