"""``np.pad`` (``lib/arrays/pad.py``) against NumPy: values, dtype and shape, the
same exceptions, over random shapes (empty axes included), layouts, dtypes, modes
and every form of ``pad_width`` -- widths larger than the axis too, where the
periodic modes go round more than once.  Each form is a generated function (the
form of ``pad_width`` is part of the specialisation)."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import HanaJitFallbackWarning, jit
from hanajit.testing.sourcefile import load_module

MODES = ["constant", "edge", "wrap", "reflect", "symmetric"]
DTYPES = [np.float64, np.float32, np.int64, np.int8, np.uint8, np.bool_, np.complex128]


def outcome(f, *args):
    try:
        return "ok", f(*args)
    except Exception as exc:        # noqa: BLE001 - compared by class and text
        return "raise", type(exc), str(exc)


def same(f, *args):
    want = outcome(f, *args)
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        got = outcome(jit(f), *args)
    assert got[0] == want[0], (got, want)
    if want[0] == "raise":
        assert got[1:] == want[1:], (got, want)
        return
    g, w = got[1], want[1]
    assert type(g) is type(w) and g.dtype == w.dtype and g.shape == w.shape, (g, w)
    assert np.ascontiguousarray(g).tobytes() == np.ascontiguousarray(w).tobytes(), (g, w)


def _width_form(rng, ndim):
    w = lambda: rng.randint(0, 7)      # noqa: E731
    comma = "," if ndim == 1 else ""
    forms = [str(w()), f"({w()}, {w()})", f"(({w()}, {w()}),)", f"(({w()},),)",
             "(" + ", ".join(f"({w()}, {w()})" for _ in range(ndim)) + comma + ")",
             "(" + ", ".join(f"({w()},)" for _ in range(ndim)) + comma + ")", "w"]
    return rng.choice(forms)


def make_case(seed):
    rng = random.Random(seed)
    ndim = rng.randint(1, 3)
    shape = tuple(rng.randint(0 if rng.random() < 0.15 else 1, 4) for _ in range(ndim))
    dtype = rng.choice(DTYPES)
    a = (np.arange(int(np.prod(shape))) * 3 - 5).astype(dtype).reshape(shape)
    layout = rng.choice(["C", "F", "rev"])
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "rev":
        a = a[::-1]
    mode = rng.choice(MODES)
    extra = ""
    if mode == "constant" and rng.random() < 0.5:
        value = rng.choice(["-1", "2.5", "7", "True"] + (["1 + 2j"] if dtype is np.complex128
                                                          else []))
        extra = f", constant_values={value}"
    src = (f"import numpy as np\n\n\ndef f(a, w):\n    return np.pad(a, "
           f"{_width_form(rng, ndim)}, mode={mode!r}{extra})\n")
    return src, a, rng.randint(0, 9)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_random_pads_match_numpy(seed):
    src, a, w = make_case(seed)
    f = load_module(src, "pad").f
    with np.errstate(all="ignore"):
        same(f, a, w)


def edge_scaled(a):
    return np.pad(a, 1, mode="edge") * 2.0


def reflect_sum(a):
    return np.pad(a, (2, 3), mode="reflect").sum()


def padded_stencil(a):
    p = np.pad(a, 1)
    return p[2:, 1:-1] + p[:-2, 1:-1] + p[1:-1, 2:] + p[1:-1, :-2] - 4 * a


def test_in_expressions():
    m = np.arange(20.0).reshape(4, 5) ** 1.5
    for f, x in ((edge_scaled, m), (reflect_sum, m[0]), (padded_stencil, m)):
        same(f, x)


def pad_by(a, w):
    return np.pad(a, w)


def pad_value(a, v):
    return np.pad(a, 1, constant_values=v)


def test_numpys_errors_and_casts():
    same(pad_by, np.ones(3), -1)                       # negative width
    same(pad_by, np.ones((2, 2)), (1, -2))
    same(pad_value, np.zeros(2, np.int8), 300)         # OverflowError
    same(pad_value, np.zeros(2, np.int8), -2.7)        # truncated
    same(pad_value, np.zeros(2, np.uint8), -1)         # cast, as NumPy scalars are
    same(pad_value, np.zeros(2, np.int64), float("nan"))
    same(pad_value, np.zeros(3), np.float32(0.1))
    for w in (np.uint64(2), True, (1, np.uint8(2))):        # NumPy's TypeError (or not)
        with pytest.warns(HanaJitFallbackWarning, match="signed integers"):
            got = outcome(jit(pad_by), np.ones(3), w)
        want = outcome(pad_by, np.ones(3), w)
        assert got[0] == want[0]
        assert got[1:] == want[1:] if got[0] == "raise" else np.array_equal(got[1], want[1])


def statistic(a):
    return np.pad(a, 1, mode="mean")


def per_side(a):
    return np.pad(a, 1, constant_values=(1, 2))


@pytest.mark.parametrize("f, why", [(statistic, "mode 'mean'"),
                                    (per_side, "constant_values")])
def test_fall_backs_name_why(f, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got = jit(f)(np.arange(4.0))
    assert np.array_equal(got, f(np.arange(4.0)))
