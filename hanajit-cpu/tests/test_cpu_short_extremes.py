"""Rows of 4 to 255 floats along the last axis (``lib/arrays/short_extremes.py``):
``np.max``/``np.min`` in eight accumulators (blocks of eight, the last one moved
back), ``np.argmax``/``np.argmin`` as that extreme and then its first position
(positions in lanes below 64 values, a search that stops above).  Every row
length, against NumPy: ties (the first of equal values), signed zeros (NumPy's
zero for max/min, the first of ``-0.0 == 0.0`` for the positions), NaNs at every
position (the first one for the positions), infinities, float32 and views."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]


def argmax_rows(a):
    return np.argmax(a, axis=1)


def argmin_rows(a):
    return a.argmin(axis=-1)


def max_rows(a):
    return np.max(a, axis=1)


def min_rows(a):
    return a.min(axis=-1)


KERNELS = [argmax_rows, argmin_rows, max_rows, min_rows]
JIT = {f: jit(f, fallback=False) for f in KERNELS}
LENGTHS = list(range(1, 80)) + [95, 96, 97, 127, 128, 129, 200, 254, 255, 256, 257]


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if got.dtype.kind == "f":
        assert np.array_equal(np.isnan(got), np.isnan(want))
        ok = ~np.isnan(want)
        assert got[ok].tobytes() == want[ok].tobytes()      # (signed zeros too)
    else:
        assert got.tobytes() == want.tobytes()


def _cases(m, rng):
    special = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, 1.0, -1.0])
    yield rng.standard_normal((9, m))
    yield rng.integers(-2, 3, (9, m)).astype(np.float64)        # many ties
    yield rng.choice(special, (9, m))
    yield rng.choice(np.array([0.0, -0.0]), (9, m))
    yield rng.standard_normal((9, m)).astype(np.float32)
    yield rng.standard_normal((9, m + 3))[:, 1:m + 1]           # a view: copied rows
    a = rng.standard_normal((m, m))
    a[np.arange(m), np.arange(m)] = np.nan                      # a NaN at every place
    yield a
    b = rng.standard_normal((m, m))
    b[np.arange(m), np.arange(m)] = 50.0                        # the extreme at every place
    b[np.arange(m), (np.arange(m) * 7) % m] = 50.0              # and a tie after it
    yield b
    yield -b


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda f: f.__name__)
def test_every_row_length_is_numpys(kernel):
    rng = np.random.default_rng(11)
    f = JIT[kernel]
    for m in LENGTHS:
        for a in _cases(m, rng):
            _same(f(a), kernel(a))


def test_positions_search_stays_a_scalar_loop():
    """The lanes of positions must not be vectorised across their blocks of
    eight (each value read on its own into vectors): the helper asks for
    scalar loops."""
    from hanajit.lib.arrays import short_extremes
    assert short_extremes._first_of_lanes.hj_short_loops
    assert short_extremes.SHORT <= 8 <= short_extremes.NEAR <= short_extremes.LONG
