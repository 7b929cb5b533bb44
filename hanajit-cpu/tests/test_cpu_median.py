"""np.median of whole arrays against NumPy: odd and even sizes, NaN anywhere
(NaN), empty (NaN), float32 (the mean of the middle two in float32), integers
beyond 2**53 (float64 mean), booleans, strided views, expressions."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.probe import check, probe_module

VALUES = {
    "f": "np.array([1.5, -2.0, 3.25, 7.0])", "odd": "np.array([3.0, 1.0, 2.0])",
    "nan": "np.array([1.0, np.nan, 0.0])", "f32": "np.array([0.1, 0.7, 0.3, 1e30], np.float32)",
    "i": "np.array([3, -1, 7, 8])", "big": "np.array([2**62, 2**62 + 1])",
    "e": "np.zeros(0)", "ei": "np.zeros(0, int)", "m": "np.arange(12.0).reshape(3, 4).T",
    "b": "np.array([True, False, True])", "u8": "np.array([200, 100], np.uint8)",
    "one": "np.array([5.0])", "z": "np.array([-0.0, 0.0])", "inf": "np.array([np.inf, -np.inf])",
    "rand": "np.random.default_rng(3).standard_normal(1001)"}
CASES = [("np.median(x0)", v) for v in VALUES] + [("np.median(x0 * 2)", v) for v in ("f", "i")]


@pytest.fixture(scope="module")
def module():
    return probe_module([(e, 1) for e, _ in CASES], "median")


def _same(got, want):
    w = np.asarray(want)
    g = np.asarray(got, w.dtype)
    return bool(np.array_equal(g, w, equal_nan=True))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{v}" for e, v in CASES])
def test_matches_numpy(module, k):
    check(getattr(module, f"f{k}"), lambda: [eval(VALUES[CASES[k][1]])], _same)


def test_it_compiles():
    from hanajit import jit
    assert jit(probe_module([("np.median(x0)", 1)], "median_c").f0,
               fallback=False)(np.array([3.0, 1.0, 2.0])) == 2.0


def test_selection_indexes_without_checks():
    """NumPy's selection (``quantile_algorithms.select`` and its helpers) indexes
    only inside the lane it is given, as NumPy's C: no index check is left in
    it (they cost a quarter of np.median's time in the partition loop), and a
    lane of every size up to 40, every kth, still matches NumPy."""
    from hanajit import jit
    from hanajit.ir import nodes as N
    g = jit(probe_module([("np.median(x0)", 1)], "median_u").f0, fallback=False)
    g(np.arange(7.0))
    selection = {"hj_select", "hj__dumb_select", "hj__swap", "hj__store_pivot",
                 "hj__median3_swap", "hj__median_of_median5", "hj__median5"}
    functions = g.ir_module().functions
    assert selection <= set(functions)
    for name in selection:
        assert not [s for s in N.walk_stmts(functions[name].body)
                    if isinstance(s, N.Raise) and s.exc is IndexError], name
    part = jit(probe_module([("np.partition(x0, x1)", 2)], "partition_u").f0,
               fallback=False)
    rng = np.random.default_rng(5)
    for n in range(1, 41):
        a = rng.integers(-3, 4, n).astype(np.float64)
        a[rng.random(n) < 0.1] = np.nan
        for k in range(n):
            want = np.partition(a, [k, n - 1])
            assert np.array_equal(part(a, np.array([k, n - 1])), want, equal_nan=True)
        assert _same(g(a), np.median(a))
