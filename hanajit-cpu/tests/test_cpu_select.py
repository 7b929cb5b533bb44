"""``np.select`` (``lib/arrays/select.py``) against NumPy: the same bits, dtype
(NumPy's ``result_type`` with weak Python numbers) and shape (everything
broadcast), the first true condition winning; conditions that are not boolean,
lists of different lengths and a Python int choice with an unsigned result
fall back naming why (NumPy raises there)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit


def outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as exc:        # noqa: BLE001 - compared by class
        return "raise", type(exc)


def two(c1, c2, a, b):
    return np.select([c1, c2], [a, b])


def two_default(c1, c2, a, b, d):
    return np.select((c1, c2), (a, b), d)


def signs(x):
    return np.select([x > 0, x < 0, x == 0], [x, -x, 7], default=-1.5)


def wide_default(x):
    return np.select([x > 1], [x], 300)


def int_choice(x):
    return np.select([x > 1], [300], x)


def bool_choices(x):
    return np.select([x > 1, x < 1], [True, x], default=False)


def scalars(c, v):
    return np.select([c, True], [v, 2.5])


JIT = {f: jit(f, fallback=False) for f in (two, two_default, signs, wide_default,
                                           int_choice, bool_choices, scalars)}


def same(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = outcome(f, *args)
        got = outcome(JIT[f], *args)
    assert got[0] == want[0], (f.__name__, args, got, want)
    if want[0] == "raise":
        assert got[1] is want[1]
        return
    g, w = got[1], want[1]
    assert type(g) is type(w) and g.shape == w.shape and g.dtype == w.dtype, (g, w)
    assert g.tobytes() == w.tobytes(), (f.__name__, args, g, w)


def values(rng, shape, dtype):
    if dtype is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        v = rng.standard_normal(shape).astype(dtype)
        flat = v.reshape(-1)
        specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0], dtype)
        flat[:min(flat.size, 5)] = specials[:min(flat.size, 5)]
        return v
    return rng.integers(0, 100, shape).astype(dtype)


PAIRS = [(np.int64, np.float32), (np.int32, np.int8), (np.uint8, np.uint16),
         (np.bool_, np.int8), (np.float64, np.uint16), (np.complex128, np.float32)]


def test_two_choices_and_dtypes():
    rng = np.random.default_rng(3)
    c1, c2 = rng.random((4, 5)) < 0.4, rng.random((4, 5)) < 0.6
    for da, db in PAIRS:
        a, b = values(rng, (4, 5), da), values(rng, (4, 5), db)
        same(two, c1, c2, a, b)
        same(two_default, c1, c2, a, b, -1)        # (wraps into unsigned: np.full's cast)
    a, b = values(rng, (4, 5), np.uint8), values(rng, (4, 5), np.uint8)
    same(two_default, c1, c2, a, b, np.float32(2.5))
    same(two_default, c1, c2, a, b, 2.5)


def test_layouts_and_broadcasting():
    rng = np.random.default_rng(4)
    a = rng.standard_normal((6, 5))
    b = np.asfortranarray(rng.standard_normal((6, 5)))
    c1 = rng.random((6, 5)) < 0.5
    same(two, c1, c1.T.T[::-1], a[::-1, ::2][:, :1], b)          # (6, 1) choice
    same(two, c1[0], rng.random((3, 1, 5)) < 0.5, a[0], b[:, ::-1])
    same(two, c1, c1, np.float32(2), a[:, 0][:, None])           # scalar choice
    same(two_default, c1[:2], c1[2:4], a[:2], b[2:4], a[4:])     # array default
    same(two, c1[:0], c1[:0], a[:0], b[:0])                      # empty
    same(two, c1, c1, a[:3], b)                                  # ValueError
    for dt in (np.int32, np.uint8, np.float32, np.float64, np.complex128):
        x = values(rng, (3, 4), dt)
        same(signs, x)                      # (NaN, infinities, signed zeros)
        same(signs, np.asfortranarray(x)[:, ::-1])
        if dt is not np.complex128:
            same(bool_choices, x)


def test_python_numbers_and_scalars():
    same(wide_default, np.arange(5, dtype=np.uint8))     # 300 -> 44 (np.full)
    same(wide_default, np.arange(5, dtype=np.int8))
    same(int_choice, np.arange(5, dtype=np.int8))        # 300 -> 44 (copyto)
    same(int_choice, np.arange(5, dtype=np.float32))
    same(scalars, True, 1)
    same(scalars, False, np.float32(1.5))
    same(scalars, np.bool_(True), 3j)


def not_bool(x):
    return np.select([x], [x])


def uneven(x):
    return np.select([x > 0, x > 1], [x])


@pytest.mark.parametrize("f, args, why", [
    (not_bool, (np.arange(3),), "boolean"),
    (uneven, (np.arange(3),), "same length"),
    (int_choice, (np.arange(3, dtype=np.uint8),), "same-kind"),
])
def test_fall_backs_name_why(f, args, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got, want = outcome(jit(f), *args), outcome(f, *args)
    assert got[0] == want[0] == "raise" and got[1] is want[1]
