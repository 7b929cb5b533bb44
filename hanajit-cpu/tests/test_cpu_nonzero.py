"""np.nonzero, a.nonzero(), one-argument np.where, np.flatnonzero, np.argwhere
against NumPy: C order of indices (transposed views too), NaN and -0.0 (NaN is
true, -0.0 false), complex, empty and 3-D arrays; int64 results."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.probe import check, probe_module
from hanajit.testing.jitted import jitted

VALUES = {
    "f": "np.array([1.5, 0.0, -2.0, np.nan, -0.0])", "m": "np.array([[1, 0, 2], [0, 0, 3]])",
    "b": "np.array([True, False, True])", "e": "np.zeros(0)",
    "t": "(np.arange(12).reshape(3, 4) % 3).T", "c": "np.array([0j, 1j, 0.0 + 0j])",
    "z3": "np.ones((2, 2, 2))", "r": "np.arange(10.0)[::-3] - 3"}
CASES = [(f"{fn}(x0)", v) for fn in ("np.nonzero", "np.flatnonzero", "np.argwhere",
                                     "np.where") for v in VALUES]
CASES += [("x0.nonzero()", v) for v in VALUES]


@pytest.fixture(scope="module")
def module():
    return probe_module([(e, 1) for e, _ in CASES], "nonzero")


def _same(got, want):
    if isinstance(want, tuple):
        return (isinstance(got, tuple) and len(got) == len(want)
                and all(_same(g, w) for g, w in zip(got, want)))
    g, w = np.asarray(got), np.asarray(want)
    return g.shape == w.shape and g.dtype == w.dtype and np.array_equal(g, w)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{v}" for e, v in CASES])
def test_matches_numpy(module, k):
    check(getattr(module, f"f{k}"), lambda: [eval(VALUES[CASES[k][1]])], _same)


def test_compiles():
    mod = probe_module([("np.where(x0 > 1)", 1)], "nonzero_c")
    (idx,) = jitted(mod.f0, fallback=False)(np.arange(4.0))
    assert idx.tolist() == [2, 3]
