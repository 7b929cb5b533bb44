"""``np.sum``/``np.mean`` of 1-D complex arrays are NumPy's bit for bit: its
complex pairwise sum (``statistics/complex_pairwise.py``: four accumulators per
part, from the identity) and its mean (the sum divided by an ``intp`` count, so
complex64 in complex128 and rounded back) -- any stride, reversed views, both
complex dtypes, sizes across the leaf and split boundaries."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing.jitted import jitted_for


def total(a):
    return a.sum()


def average(a):
    return np.mean(a)


def along(a):
    return np.sum(a, axis=0)


def _same(got, want):
    return type(got) is type(want) and np.asarray(got).tobytes() == np.asarray(want).tobytes()


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_sums_and_means_are_numpys(dtype):
    rng = np.random.default_rng(5)
    fs = [(f, jit(f, fallback=False)) for f in (total, average, along)]
    for n in [0, 1, 3, 4, 5, 7, 8, 63, 64, 65, 127, 128, 129, 200, 1000, 4099]:
        z = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
             + 1j * rng.standard_normal(n)).astype(dtype)
        for arr in (z, z[::3], z[::-1]):
            for f, jf in fs:
                if arr.size == 0 and f is average:
                    continue
                assert _same(jf(arr), f(arr)), (f.__name__, n)


def test_the_sum_starts_from_the_identity():
    f = jit(total, fallback=False)
    for z in (np.array([0, .1, .2, .3]) + 0j, np.array([complex(-0.0, -0.0)]),
              np.array([], complex)):
        assert _same(f(z), total(z))


def _views(c):
    views = [c[::2], c[::-1], c[..., ::-1], c.T, c[::-1, ..., ::2], np.swapaxes(c, 0, -1)[::-1]]
    if c.ndim >= 3:
        views.append(c.transpose(1, 0, *range(2, c.ndim)))
    return views


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_whole_sums_of_views_of_any_strides(dtype):
    """N-D views that are neither C- nor F-contiguous: NumPy's iterator lanes
    (strides never negated) and buffer fills, each summed pairwise, added on
    from the identity (``complex_pairwise.strided_parts_sum``)."""
    rng = np.random.default_rng(17)
    shapes = [(3, 5), (7, 1, 9), (4, 6, 2, 3), (70, 200), (2, 130, 3)]
    for shape in shapes:
        c = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
        for v in _views(c):
            for fn in (total, average):
                # (one compiled function per fn and view type: met again, not recompiled)
                assert _same(jitted_for(fn, (v,))(v), fn(v)), (shape, v.strides, fn.__name__)
