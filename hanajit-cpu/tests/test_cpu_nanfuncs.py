"""np.nansum/nanprod/nanmean/nanmax/nanmin/nanargmax/nanargmin over whole arrays
against NumPy: NaNs anywhere, all-NaN (NaN results; ValueError for the arg
forms), empty arrays (NumPy's ValueErrors), -inf next to NaN (nanargmax picks
the first, as NumPy's -inf replacement does), float32, ints."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit.testing.probe import check, probe_module

VALUES = {
    "f": "np.array([1.5, np.nan, -2.0, 3.25, np.nan])",
    "f32": "np.array([0.1, np.nan, 0.7, 1e30], np.float32)",
    "allnan": "np.array([np.nan, np.nan])", "e": "np.zeros(0)",
    "i": "np.array([3, -1, 7, 7])", "m": "np.array([[1.0, np.nan], [np.nan, -np.inf]])",
    "neg": "np.array([np.nan, -np.inf, -np.inf])", "ei": "np.zeros(0, int)",
    "z": "np.array([0.0, -0.0, np.nan])", "t": "np.arange(12.0).reshape(3, 4).T"}
FUNCS = ["nansum", "nanprod", "nanmean", "nanmax", "nanmin", "nanargmax", "nanargmin"]
CASES = [(f"np.{fn}(x0)", v) for fn in FUNCS for v in VALUES]


@pytest.fixture(scope="module")
def module():
    return probe_module([(e, 1) for e, _ in CASES], "nanfuncs")


def _same(got, want):
    g, w = np.asarray(got), np.asarray(want)
    return np.array_equal(g, w, equal_nan=True) and g.dtype.kind == w.dtype.kind


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{v}" for e, v in CASES])
def test_matches_numpy(module, k):
    check(getattr(module, f"f{k}"), lambda: [eval(VALUES[CASES[k][1]])], _same)


def test_they_compile():
    import warnings

    from hanajit import jit
    mod = probe_module([(f"np.{fn}(x0)", 1) for fn in FUNCS], "nanfuncs_compile")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for k in range(len(FUNCS)):
            jit(getattr(mod, f"f{k}"), fallback=False)(np.array([1.0, np.nan, 2.0]))
