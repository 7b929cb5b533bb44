"""np.interp against NumPy, value for value: NumPy's C loop and its search with a
guess (so repeated sample points give NumPy's answer), left/right, NaN and
infinite x and fp, one sample point, integer inputs, x of any shape or a number;
NumPy's ValueErrors for empty or mismatched samples."""
from __future__ import annotations

import itertools

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.probe import check, probe_module

VALUES = {
    "x": "np.linspace(-1, 12, 57)", "xs": "2.5",
    "xn": "np.array([np.nan, 1.0, np.inf, -np.inf, 3.0, 10.0, 0.0])",
    "x2": "np.linspace(0, 10, 12).reshape(3, 4)",
    "xr": "np.random.default_rng(1).uniform(-2, 12, 300)", "xe": "np.zeros(0)",
    "xp": "np.array([0.0, 1.0, 2.0, 3.5, 4.0, 7.0, 9.0, 10.0])",
    "fp": "np.array([1.0, -1.0, 2.0, np.inf, 0.5, 3.0, np.nan, 4.0])",
    "xpd": "np.array([0.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 5.0, 5.0, 8.0, 9.0, 10.0])",
    "fpd": "np.arange(12.0) ** 2", "xp1": "np.array([3.0])", "fp1": "np.array([7.0])",
    "xpi": "np.array([0, 2, 4, 6, 8, 10])", "fpi": "np.array([1, 5, 2, 8, 0, 3])",
    "xpl": "np.sort(np.random.default_rng(2).uniform(0, 10, 40))",
    "fpl": "np.random.default_rng(3).standard_normal(40)"}
SAMPLES = [("xp", "fp"), ("xpd", "fpd"), ("xp1", "fp1"), ("xpi", "fpi"), ("xpl", "fpl")]
FORMS = ["np.interp(x0, x1, x2)", "np.interp(x0, x1, x2, left=-5.0, right=99.0)",
         "np.interp(x0, x1, x2, 0.5)"]
CASES = [(form, (x, xp, fp)) for form in FORMS
         for x, (xp, fp) in itertools.product(("x", "xs", "xn", "x2", "xr", "xe"), SAMPLES)]


@pytest.fixture(scope="module")
def module():
    return probe_module([(e, 3) for e, _ in CASES], "interp")


def _same(got, want):
    g, w = np.asarray(got), np.asarray(want)
    return g.shape == w.shape and np.array_equal(g, w, equal_nan=True)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{'-'.join(c)}" for e, c in CASES])
def test_matches_numpy(module, k):
    check(getattr(module, f"f{k}"), lambda: [eval(VALUES[v]) for v in CASES[k][1]], _same)


def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def test_compiles_and_raises_numpys_errors():
    f = jit(interp, fallback=False)
    assert f(2.5, np.array([2.0, 3.0]), np.array([0.0, 1.0])) == 0.5
    with pytest.raises(ValueError, match="empty"):
        f(1.0, np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="same length"):
        f(1.0, np.arange(3.0), np.arange(2.0))


def interp_plain(x, xp, fp):
    return np.interp(x, xp, fp)


@pytest.mark.parametrize("nx, nxp", [(1000, 7), (7, 1000), (1, 2), (2, 1), (500, 500)])
def test_samples_of_any_layout_and_precomputed_slopes(nx, nxp):
    """float64 samples are read where they are (strided views included), others
    converted; NumPy's slopes are computed first when there are no more of them
    than values (``n - 1 <= len(x)``), per value otherwise: the same values."""
    rng = np.random.default_rng(nx + 7 * nxp)
    g = jit(interp_plain, fallback=False)
    xp = np.sort(rng.uniform(-1, 1, 2 * nxp))
    xp[1::7] = xp[::7][: len(xp[1::7])]                # repeated sample points
    xp = np.sort(xp)
    fp = rng.standard_normal(2 * nxp)
    fp[::11] = np.inf
    x = np.concatenate([rng.uniform(-1.2, 1.2, nx - 1), [np.nan]])
    for p, q in ((xp[::2], fp[::2]), (xp[:nxp], fp[:nxp]),
                 (xp[::2].astype(np.float32), fp[::2].astype(np.float32)),
                 (np.ascontiguousarray(xp[::2]), fp[::-2][::-1])):
        np.testing.assert_array_equal(g(x, p, q), np.interp(x, p, q))
        np.testing.assert_array_equal(g(np.sort(x), p, q), np.interp(np.sort(x), p, q))
