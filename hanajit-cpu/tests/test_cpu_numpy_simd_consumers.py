"""Library functions that copy the values of an expression first
(``CallTemplate.copies_elements``: ``np.sort``, ``np.median``, ``np.roll`` ...)
call NumPy's own SIMD functions for its elements as an elementwise loop does
(``lowering/numpy_loops.py``), so ``np.sort(np.tan(a))`` is NumPy's bit for bit on
hosts where NumPy's ``tan`` is SVML's; ``np.diff`` and ``np.tile``, which read
each element more than once, compute such a costly expression whole first
(``elementwise.once``).  A sum of one keeps vector math (within 4 ulp:
docs/vector-math.md)."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.testing.jitted import strict


def _svml(name) -> bool:
    from hanajit_cpu.engine import get_engine
    from hanajit_cpu.numpy_simd import Table
    return Table(get_engine()).get((name, "float64")) is not None


pytestmark = [
    pytest.mark.skipif(not (_svml("tan") and _svml("pow") and _svml("asin")),
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


def copied(a):
    out = np.empty_like(a)
    np.copyto(out, np.arcsin(a))
    return out


KERNELS = [sorted_tan, partitioned, median_of, quantiles, rolled, repeated, outer_of,
           uniques, tiled, differences, copied]


def _same(got, want):
    for g, w in zip(got, want) if isinstance(want, tuple) else [(got, want)]:
        assert type(g) is type(w)
        assert np.asarray(g).tobytes() == np.asarray(w).tobytes()


@pytest.mark.parametrize("kernel", KERNELS, ids=lambda k: k.__name__)
@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 300), seed=st.integers(0, 2 ** 32 - 1), step=st.sampled_from([1, 2]))
def test_numpys_bits(kernel, n, seed, step):
    a = (np.random.default_rng(seed).random(n * step) * 0.98)[::step]
    _same(strict(kernel)(a), kernel(a))
