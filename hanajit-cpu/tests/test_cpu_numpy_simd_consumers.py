"""Library functions that copy the values of an expression first
(``CallTemplate.copies_elements``: ``np.sort``, ``np.median``, ``np.roll`` ...)
call NumPy's own SIMD functions for its elements as an elementwise loop does
(``lowering/numpy_loops.py``), so ``np.sort(np.tan(a))`` is NumPy's bit for bit on
hosts where NumPy's ``tan`` is SVML's; ``np.diff`` and ``np.tile``, which read
each element more than once, and the functions that read an expression's values
where they need them (sums, extremes, ``argmin``, ``np.dot``, ``np.cumsum`` ...)
compute such a costly expression whole first, as NumPy (``elementwise.once``,
``elementwise.whole_first``)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.jitted import strict
from hanajit_cpu.numpy_simd import offered

pytestmark = [
    pytest.mark.skipif(not (offered("tan") and offered("pow") and offered("asin")),
                       reason="NumPy's tan, power and arcsin loops are not SVML's on "
                              "this host (no AVX-512): vector math stands there"),
    pytest.mark.filterwarnings("ignore::RuntimeWarning")]


def sorted_tan(a):
    return np.sort(np.tan(a))


def partitioned(a):
    return np.partition(np.arcsin(a), len(a) // 2)


def median_of(a):
    return np.median(np.tan(a) * 2.0)


def quantiles(a):
    return np.quantile(a ** a, 0.3), np.percentile(np.arcsin(a), 90.0)


def rolled(a):
    return np.roll(np.tan(a), 3)


def repeated(a):
    return np.repeat(a ** 1.7, 2)


def outer_of(a):
    return np.outer(np.tan(a[:40]), a[:40])


def uniques(a):
    return np.unique(np.tan(np.round(a, 2)))


def tiled(a):
    return np.tile(np.tan(a), 2)


def differences(a):
    return np.diff(np.arcsin(a)), np.diff(a ** 1.5)


def readers(a):
    """Functions that read an expression's elements where they need them: a
    costly one is computed whole first (``elementwise.whole_first``)."""
    t = np.tan(a)
    return (np.sum(np.arcsin(a)), np.mean(a ** a), np.tan(a).max(), np.argmin(t),
            np.prod(np.tan(a) * 0.01 + 1.0), np.std(np.arcsin(a)), np.ptp(np.tan(a)),
            np.dot(np.tan(a), a))


def running(a):
    return np.cumsum(np.tan(a)), np.maximum.accumulate(np.arcsin(a))


def along_rows(a):
    m = a[: len(a) // 4 * 4].reshape(4, -1)
    return np.tan(m).sum(axis=1), np.tan(m).argmax(axis=1), np.arcsin(m).sum(axis=0)


def copied(a):
    out = np.empty_like(a)
    np.copyto(out, np.arcsin(a))
    return out


KERNELS = [sorted_tan, partitioned, median_of, quantiles, rolled, repeated, outer_of,
           uniques, tiled, differences, copied, readers, running, along_rows]


def _same(got, want):
    for g, w in zip(got, want) if isinstance(want, tuple) else [(got, want)]:
        assert type(g) is type(w)
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes()


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.__name__)
@settings(max_examples=25, deadline=None)
@given(n=st.integers(4, 300), seed=st.integers(0, 2 ** 32 - 1), step=st.sampled_from([1, 2]))
def test_numpys_bits(kernel, n, seed, step):
    a = (np.random.default_rng(seed).random(n * step) * 0.98)[::step]
    _same(strict(kernel)(a), kernel(a))
