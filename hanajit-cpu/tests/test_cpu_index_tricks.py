"""``np.unravel_index``, ``np.ravel_multi_index``, ``np.triu_indices``,
``np.tril_indices`` (``lib/indexing/index_tricks.py``) and ``np.squeeze``,
``np.resize``, ``np.trim_zeros``, ``np.ediff1d`` (``lib/arrays/squeeze_resize.py``)
against NumPy: values (bytes), dtype, shape, scalar types and the same exceptions."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import HanaJitFallbackWarning, jit


def un(i, s):
    return np.unravel_index(i, s)


def un_f(i):
    return np.unravel_index(i, (2, 3, 4), order="F")


def rm(m, d):
    return np.ravel_multi_index(m, d)


def rm_wrap(m):
    return np.ravel_multi_index(m, (3, 4), mode="wrap")


def rm_clip(m):
    return np.ravel_multi_index(m, (3, 4), mode="clip", order="F")


def tu(n, k, m):
    return np.triu_indices(n, k, m)


def tl(n):
    return np.tril_indices(n)


def tl_k(n, k):
    return np.tril_indices(n, k=k)


def sq(a):
    return np.squeeze(a, axis=1)


def sq_method(a):
    return a.squeeze((0, -1))


def sq_none(a):
    return np.squeeze(a)


def rs(a, s):
    return np.resize(a, s)


def tz(a):
    return np.trim_zeros(a)


def tz_f(a):
    return np.trim_zeros(a, "F")


def tz_b(a):
    return np.trim_zeros(a, trim="b")


def ed(a):
    return np.ediff1d(a)


def ed_ends(a, e, b):
    return np.ediff1d(a, to_end=e, to_begin=b)


JITTED = {}


def same(g, w):
    assert type(g) is type(w), (g, w)
    if isinstance(w, tuple):
        assert len(g) == len(w)
        for x, y in zip(g, w):
            same(x, y)
    elif isinstance(w, np.ndarray):
        assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
        assert g.tobytes() == w.tobytes(), (g, w)
    else:
        assert g == w


def run(f, *args):
    try:
        want = ("ok", f(*args))
    except Exception as exc:        # noqa: BLE001 - compared by class and text
        want = ("raise", type(exc), str(exc))
    g = JITTED.setdefault(f, jit(f, fallback=False))
    if want[0] == "raise":
        with pytest.raises(want[1]) as info:
            g(*args)
        assert str(info.value) == want[2]
        return
    same(g(*args), want[1])


def test_unravel_index():
    run(un, 4, (2, 3))
    run(un, 6, (2, 3))
    run(un, -1, (2, 3))
    run(un, 3, 5)
    run(un, 0, (0,))
    for dt in (np.int64, np.int32, np.uint8):
        run(un, np.array([1, 5, 0], dt), (2, 3))
        run(un, np.array([[1, 5]], dt), (2, 3))
        run(un, np.array([1, 7], dt), (2, 3))
        run(un, np.array([], dt), (2, 3))
    run(un, np.arange(24)[::-2], (4, 3, 2))
    run(un_f, np.arange(24))
    run(un_f, 23)


def test_ravel_multi_index():
    run(rm, (1, 2), (2, 3))
    run(rm, (1, 3), (2, 3))
    run(rm, (-1, 0), (2, 3))
    run(rm, (np.array([1, 0]), np.array([2, 1])), (2, 3))
    run(rm, (np.array([1, 0], np.int32), np.array([2, 3], np.int32)), (2, 3))
    run(rm, (np.array([[1, 0]]), np.array([[2, 1]])), (2, 3))
    run(rm, (np.array([], np.int64), np.array([], np.int64)), (2, 3))
    run(rm_wrap, (np.array([5, -1]), np.array([2, 7])))
    run(rm_clip, (np.array([5, -1]), np.array([2, 7])))
    run(rm_wrap, (5, -7))


def test_tri_indices():
    for n, k, m in ((4, 1, 5), (3, -1, 2), (0, 0, 3), (5, 7, 2), (4, -9, 4)):
        run(tu, n, k, m)
    for n in (0, 1, 4):
        run(tl, n)
    for k in (-2, 0, 3):
        run(tl_k, 4, k)


def test_squeeze():
    a = np.arange(6.0).reshape(2, 1, 3)
    run(sq, a)
    run(sq, np.asfortranarray(a))
    run(sq, a[::-1, :, ::2])
    run(sq, np.ones((2, 2)))
    run(sq_method, np.ones((1, 3, 1), np.int8))
    run(sq_method, np.ones((2, 3, 1), np.int8))
    run(sq_method, np.ones((1, 0, 1), np.int8))
    run(sq_none, np.array(5.0))
    b = np.ones((1, 3))
    assert jit(sq_method)(b[None, :, :, None][0]).base is not None      # a view
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always", HanaJitFallbackWarning)
        same(jit(sq_none)(b), sq_none(b))
    assert any("squeeze() without axis" in str(x.message) for x in w)


@pytest.mark.parametrize("dt", [np.int64, np.uint8, np.bool_, np.float32, np.complex128])
def test_resize(dt):
    a = (np.arange(6) - 2).astype(dt).reshape(2, 3)
    run(rs, a, (4, 5))
    run(rs, a, 7)
    run(rs, a.T, (3, 3))
    run(rs, a[:, ::-1], (1, 4))
    run(rs, np.zeros((0, 2), dt), (2, 2))
    run(rs, a, (0, 3))
    run(rs, a, (2, -1))


def test_trim_zeros():
    for x in ([0, 0, 1, 0, 2, 0, 0], [0, 0, 0], [], [3], [-0.0, np.nan, 0.0, 1, 0]):
        for dt in (np.float64, np.int64):
            if dt is np.int64 and any(v != v for v in x):
                continue
            a = np.array(x, dt)
            run(tz, a)
            run(tz_f, a)
            run(tz_b, a)
    run(tz, np.array([0, 1, 0, 2, 0, 0], np.int8)[::-1])
    run(tz, np.array([0, 1j, 0]))
    run(tz, np.array([False, True, False]))


def test_ediff1d():
    for dt in (np.int8, np.uint8, np.int64, np.float32, np.float64, np.complex128):
        a = np.array([1, 5, 2, 127, -3], dt) if dt != np.uint8 else np.array([1, 5, 2], dt)
        run(ed, a)
        run(ed, a[::-1])
    run(ed, np.arange(6.0).reshape(2, 3))
    run(ed, np.zeros(0))
    run(ed, np.array([np.inf, np.inf, -0.0, 0.0, np.nan]))
    run(ed_ends, np.array([1, 5, 2], np.int8), 300, np.array([1, 2]))
    run(ed_ends, np.array([1.0, 5, 2], np.float32), np.array([[1.5]]), 2.5)
    run(ed_ends, np.zeros(0), np.array([1.0]), np.array([]))
