"""``np.tensordot`` (``lib/linalg/tensordot.py``) and ``np.corrcoef``
(``lib/statistics/corrcoef.py``) against NumPy: the same bits, dtype, shape and
type.  tensordot over int, pair and list axes, dtypes, C, Fortran, reversed
and strided operands (the strides NumPy's reshapes hand BLAS: views, C strides
and copies), empty ones and its ValueError; corrcoef of rows, columns, ``y``,
one variable (NumPy's ``c / c`` scalar) and NaN; unsupported forms fall back
naming why."""
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


def td2(a, b):
    return np.tensordot(a, b)


def td1(a, b):
    return np.tensordot(a, b, 1)


def td0(a, b):
    return np.tensordot(a, b, axes=0)


def td_lists(a, b):
    return np.tensordot(a, b, axes=([1, 0], [0, 1]))


def td_pair(a, b):
    return np.tensordot(a, b, (0, -1))


def cc(x):
    return np.corrcoef(x)


def cc_y(x, y):
    return np.corrcoef(x, y)


def cc_columns(x):
    return np.corrcoef(x, rowvar=False)


JIT = {f: jit(f, fallback=False) for f in (td2, td1, td0, td_lists, td_pair, cc, cc_y,
                                           cc_columns)}


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
    assert type(g) is type(w), (f.__name__, g, w)
    g, w = np.asarray(g), np.asarray(w)
    assert g.shape == w.shape and g.dtype == w.dtype, (f.__name__, g, w)
    assert g.tobytes() == w.tobytes(), (f.__name__, [a.strides for a in args], g, w)


def values(rng, shape, dtype):
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        return (rng.standard_normal(shape) * 10).astype(dtype)
    return rng.integers(-50, 50, shape).astype(dtype)


def layouts(x):
    """``x`` C-ordered, Fortran-ordered, reversed and strided (views of one
    layout type: a single compilation)."""
    big = np.concatenate([x, x], axis=-1)
    return [x, np.asfortranarray(x), x[::-1, ..., ::-1], big[..., ::2], big[..., :x.shape[-1]]]


def any_first(views):
    """``views`` with the any-layout ones first: a C or F array then runs through
    the function compiled for them (which accepts it).  The operands' strides
    are looked at at run time (``numpy_reshape_2d``: NumPy's view, its C strides
    or a copy), so this runs every run-time path once compiled; the C- and
    F-typed compilations are float64's."""
    return sorted(views, key=lambda v: v.flags.c_contiguous or v.flags.f_contiguous)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64])
def test_tensordot_layouts(dtype):
    rng = np.random.default_rng(5)
    order = (lambda views: views) if dtype == np.float64 else any_first
    for sa, sb in [((3, 4, 5), (4, 5, 6)), ((2, 1, 7), (1, 7, 1)), ((5, 6, 1), (6, 1, 2)),
                   ((1, 3, 3), (3, 3, 4)), ((4, 0, 2), (0, 2, 3))]:
        for a in order(layouts(values(rng, sa, dtype))):
            for b in order(layouts(values(rng, sb, dtype))[::2]):
                same(td2, a, b)
                same(td_lists, a, b.transpose(1, 0, 2))
        a2, b2 = values(rng, sa[:2], dtype), values(rng, sb[:2], dtype)
        for a in order(layouts(a2)[::2]):
            same(td1, a, b2)
            same(td1, a.T, a)
            same(td2, a, a)                 # a 0-d result
            same(td_pair, a, b2[::-1])
    a1 = values(rng, (6,), dtype)
    same(td0, a1, a1[::-2])                 # (an outer product)
    same(td1, a1, a1)


def test_tensordot_mixed_and_errors():
    rng = np.random.default_rng(6)
    a, b = values(rng, (3, 4, 5), np.float32), values(rng, (4, 5, 2), np.float64)
    same(td2, a, b)
    same(td2, values(rng, (3, 4, 5), np.int32), b)
    a[0, 0, 0], a[1, 2, 3] = np.nan, np.inf
    same(td2, a, b.astype(np.float32))
    same(td2, a, b[:3])                     # ValueError: shape-mismatch for sum
    same(td1, a, b)


def dup(a, b):
    return np.tensordot(a, b, ([0, 0], [0, 1]))


def uneven(a, b):
    return np.tensordot(a, b, ([0, 1], [0]))


def of_bools(a, b):
    return np.tensordot(a, b, 1)


@pytest.mark.parametrize("f, args, why", [
    (dup, (np.ones((2, 2)), np.ones((2, 2))), "duplicate"),
    (uneven, (np.ones((2, 2)), np.ones((2, 2))), "shape-mismatch"),
    (of_bools, (np.ones((2, 2), bool), np.ones((2, 2), bool)), "boolean"),
])
def test_tensordot_fall_backs_name_why(f, args, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got, want = outcome(jit(f), *args), outcome(f, *args)
    assert got[0] == want[0] and (got[0] == "raise" and got[1] is want[1]
                                  or np.array_equal(got[1], want[1]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.bool_])
def test_corrcoef(dtype):
    rng = np.random.default_rng(7)
    for shape in [(3, 8), (5, 2), (2, 1), (4, 0), (1, 5)]:
        x = values(rng, shape, dtype) if dtype is not np.bool_ else rng.random(shape) < .5
        same(cc, x)
        same(cc_columns, x)
        same(cc_y, x, values(rng, (2, shape[1]), np.float64))
        same(cc, x[0])                      # one variable: a float64 scalar
    same(cc, np.ones(5, dtype))             # c / c of 0: NaN
    same(cc, values(rng, 7, dtype)[::-2])


def test_corrcoef_special_values():
    x = np.array([[1.0, 2.0, 3.0, 4.0], [1.0, 1.0, 1.0, 1.0], [np.nan, 1.0, 2.0, 0.0],
                  [-0.0, np.inf, 2.0, 1.0], [4.0, 3.0, 2.0, 1.0]])
    same(cc, x)
    same(cc, x[0])
    same(cc, x[2])


def of_complex(x):
    return np.corrcoef(x + 0j)


def biased(x):
    return np.corrcoef(x, dtype=np.float32)


@pytest.mark.parametrize("f, args, why", [
    (of_complex, (np.arange(12.0).reshape(3, 4) ** 2,), "real array"),
    (biased, (np.arange(12.0).reshape(3, 4) ** 2,), "dtype"),
])
def test_corrcoef_fall_backs_name_why(f, args, why):
    with pytest.warns(HanaJitFallbackWarning, match=why):
        got, want = outcome(jit(f), *args), outcome(f, *args)
    assert got[0] == want[0]
    if got[0] == "ok":
        assert np.asarray(got[1]).tobytes() == np.asarray(want[1]).tobytes()
