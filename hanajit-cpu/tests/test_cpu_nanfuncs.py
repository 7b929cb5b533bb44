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


def _sums(a):
    return np.nansum(a), np.nanmean(a)


def _extremes(a):
    return np.nanmax(a), np.nanmin(a)


def test_nansum_and_nanmean_are_numpys_pairwise_sums():
    """NumPy sums a copy with the NaNs replaced by 0, pairwise in the copy's
    memory order: every bit of it, for 1-D arrays of any step and C- or
    Fortran-ordered ones (an in-order sum differed in the last bit on most
    arrays of a few thousand values)."""
    import warnings

    from hanajit import jit
    from hanajit.testing.compare import assert_same_bits
    f = jit(_sums, fallback=False)
    rng = np.random.default_rng(5)
    for n in (1, 7, 127, 128, 129, 1000, 4099):
        a = rng.standard_normal(n)
        a[rng.random(n) < 0.1] = np.nan
        m = a[: n - n % 3].reshape(-1, 3) if n >= 3 else a.reshape(1, -1)
        for x in (a, a.astype(np.float32), a[::-2], m, np.asfortranarray(m)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                assert_same_bits(f(x), _sums(x))


def test_nanmax_of_long_arrays_in_lanes():
    """np.nanmax/np.nanmin of long contiguous arrays run as vector lanes that
    skip NaNs; no value but NaNs, an infinity and zeros are decided in order."""
    import warnings

    from hanajit import jit
    from hanajit.testing.compare import assert_same_bits
    f = jit(_extremes, fallback=False)
    rng = np.random.default_rng(6)
    for n in (31, 32, 33, 100, 1001):
        base = rng.standard_normal(n)
        for fill in (None, np.nan, np.inf, -np.inf):
            a = base.copy()
            if fill is not None:
                a[rng.random(n) < 0.5] = fill
            for x in (a, a.astype(np.float32), a.reshape(1, -1), np.full(n, np.nan)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    assert_same_bits(f(x), _extremes(x))
