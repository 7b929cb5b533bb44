"""np.isclose / np.allclose against NumPy: float64, float32, int, complex and bool
operands, Python and NumPy scalars, NaN and infinities, equal_nan, rtol/atol --
every step in NumPy's NEP 50 types (a Python ``b`` keeps the bound a Python
float; a float32 array compares with it in float32)."""
from __future__ import annotations

import itertools
import os
import random

import numpy as np
import pytest
from hanajit.testing.probe import check, covering_pairs, probe_module, run_seed

VALUES = {
    "a64": "np.array([1.0, 1.0 + 1e-9, np.nan, np.inf, -np.inf, 0.0, 1e-8, 100.0])",
    "b64": "np.array([1.0, 1.0, np.nan, np.inf, np.inf, -0.0, 0.0, 100.001])",
    "a32": "np.array([0.1, 1.0, np.nan, np.inf, 16777216.0, 0.0, 1e-8, 1.00001], np.float32)",
    "ai": "np.array([1, 2, 3, 0, -5, 7, 100, 9])",
    "ac": "np.array([1+1j, 1, np.nan, 2j, 0, 1e-9j, 3, 1+1e-9j])",
    "m": "np.arange(16.0).reshape(2, 8) / 3",
    "pf": "0.1", "pi": "1", "pc": "(1+1e-9j)", "s32": "np.float32(0.1)", "s64": "np.float64(1.0)",
    "pb": "True"}
EXTRAS = ["", ", equal_nan=True", ", 1e-3, 1e-12", ", rtol=0.0, atol=0.0"]
# np.isclose: every pair of operand kinds without extra arguments; with them, one
# value of each kind (float64, float32, int, complex arrays; Python and NumPy
# scalars).  np.allclose is bool(all(isclose(...))) (lib/numeric/isclose.py: the
# same typing and steps): with equal_nan every pair of those six, without it a
# pairing of all kinds that changes from run to run, each kind once on either
# side (``covering_pairs``; ``HANAJIT_PROBE_SEED=<seed>`` repeats a run's pairs,
# ``HANAJIT_PROBE_ALL=1`` runs every pair)
SOME = ("a64", "a32", "ai", "ac", "pf", "s32")
SEED = run_seed()
ALL_PAIRS = list(itertools.product(VALUES, repeat=2))
CASES = [(f"np.isclose(x0, x1{extra})", (a, b)) for extra in EXTRAS
         for a, b in (ALL_PAIRS if not extra else itertools.product(SOME, repeat=2))]
CASES += [(f"np.allclose(x0, x1{extra})", (a, b)) for extra in EXTRAS[:2]
          for a, b in (itertools.product(SOME, repeat=2) if extra
                       else ALL_PAIRS if os.environ.get("HANAJIT_PROBE_ALL")
                       else covering_pairs(VALUES, VALUES, random.Random(SEED)))]


@pytest.fixture(scope="module")
def module():
    return probe_module([(e, 2) for e, _ in CASES], "isclose")


def _same(got, want):
    g, w = np.asarray(got), np.asarray(want)
    return g.shape == w.shape and np.array_equal(g, w)


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{'-'.join(c)}" for e, c in CASES])
def test_matches_numpy(module, k):
    # every case compiles (none may fall back), and gives NumPy's result
    _, combo = CASES[k]
    try:
        check(getattr(module, f"f{k}"), lambda: [eval(VALUES[c]) for c in combo], _same,
              compiles=True)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n(this run's pairs: HANAJIT_PROBE_SEED={SEED})") from exc
