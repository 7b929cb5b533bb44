"""np.sum/np.mean of complex expressions are NumPy's sums of its temporary: the
temporary's memory order (C, or F for F-compatible operands) decides which axis
NumPy sums pairwise, so the bits match NumPy's along every axis and as a whole
(``sum_order.numpy_temporary``, ``complex_sums.complex_temporary``)."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit


def sums(x, y):
    return (np.sum(x * y), np.sum(x * y, axis=0), np.sum(x * y, axis=-1),
            np.mean(x * x), (x * y).sum(axis=1, keepdims=True), np.mean(x + y, axis=0))


def sums_3d(x):
    return np.sum(x * x), np.sum(x * x, axis=0), np.sum(x * 2.0, axis=1), np.sum(x - 1j, axis=2)


def broadcast_rows(x, r):
    return np.sum(x * r, axis=1), np.sum(x * r, axis=0), np.sum(x * r)


def one_d(v):
    return np.sum(v * v), np.mean(v * 1j), np.sum(v[::-1] * v)


_SUMS, _SUMS_3D = jit(sums, fallback=False), jit(sums_3d, fallback=False)
_ROWS, _ONE_D = jit(broadcast_rows, fallback=False), jit(one_d, fallback=False)


def _same(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert type(g) is type(w)
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape
        assert g.tobytes() == w.tobytes()


def _complex(rng, shape, dtype):
    scale = 10.0 ** rng.uniform(-4, 4, shape)
    return ((rng.standard_normal(shape) + 1j * rng.standard_normal(shape)) * scale).astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_along_every_axis_and_whole_in_any_layout(dtype):
    rng = np.random.default_rng(11)
    for shape in ((5, 3), (40, 9), (7, 300), (300, 7)):
        x, y = _complex(rng, shape, dtype), _complex(rng, shape, dtype)
        pairs = [(x, y), (np.asfortranarray(x), np.asfortranarray(y))]
        if dtype == np.complex128:  # (complex64 takes the same code at another width)
            pairs += [(x, np.asfortranarray(y)), (x[::-1], y[:, ::-1]),
                      (np.asfortranarray(x)[::-1], np.asfortranarray(y)[::-1])]
        for a, b in pairs:
            _same(_SUMS(a, b), sums(a, b))


def test_three_dimensions_and_broadcast_operands():
    rng = np.random.default_rng(12)
    x = _complex(rng, (6, 20, 11), np.complex128)
    # (axes permuted some other way -- x.transpose(2, 0, 1) -- or an F matrix
    # times a broadcast row: NumPy's temporary takes yet another order, which
    # these sums, as float ones, do not follow: docs/semantics.md)
    for a in (x, np.asfortranarray(x), x[:, ::-2]):
        _same(_SUMS_3D(a), sums_3d(a))
    m = _complex(rng, (30, 17), np.complex128)
    r = _complex(rng, (17,), np.complex128)
    for a in (m, m[::2], m[:, ::-1]):
        _same(_ROWS(a, r), broadcast_rows(a, r))


def test_one_dimension():
    rng = np.random.default_rng(13)
    for n in (0, 1, 7, 8, 9, 130, 1000):
        v = _complex(rng, (n,), np.complex128)
        _same(_ONE_D(v), one_d(v))
