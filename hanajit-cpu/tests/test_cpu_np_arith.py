"""NumPy's operator ufuncs called by name (``np.add``, ``np.power``,
``np.negative``, ``np.logical_and`` ... ``lib/numeric/operator_ufuncs.py``) against NumPy: arrays
of several dtypes and layouts, Python numbers and NumPy scalars, special values.
Each call gives NumPy's value and dtype (float ``np.power`` with a varying
exponent within a few ulp: vector pow, docs/vector-math.md), NumPy's exception
class, or falls back naming the call -- never an internal error.

Each run pairs the operands anew: every binary ufunc meets every operand kind as
either operand (``covering_pairs``; ``HANAJIT_PROBE_SEED=<seed>`` repeats a run's
pairs, a failure names its seed); ``HANAJIT_PROBE_ALL=1`` runs every pair.
"""
from __future__ import annotations

import itertools
import os
import random

import numpy as np
import pytest
from hanajit.testing.probe import check, covering_pairs, params, probe_module, run_seed

BINARY = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "power",
          "remainder", "mod", "less", "less_equal", "greater", "greater_equal", "equal",
          "not_equal", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
          "right_shift", "logical_and", "logical_or", "logical_xor"]
UNARY = ["negative", "positive", "square", "reciprocal", "logical_not", "conjugate",
         "conj", "invert", "bitwise_not"]

VALUES = {
    "i": "3", "i0": "0", "ineg": "-2", "f": "2.5", "f0": "0.0", "fneg0": "-0.0",
    "half": "0.5", "m1": "-1", "two": "2", "b": "True", "c": "(1+2j)",
    "a_f": "np.array([1.5, -0.0, 0.0, np.inf, -np.inf, -2.0, np.nan, 0.5])",
    "a_i": "np.array([3, 0, -2, 7, 1, -1, 2, 5])",
    "a_u8": "np.array([3, 0, 200, 7, 1, 255, 2, 9], np.uint8)",
    "a_b": "np.array([True, False, True, False, True, True, False, False])",
    "a_f32": "np.array([1.5, -0.0, 0.0, np.inf, -np.inf, -2.0, np.nan, 0.5], np.float32)",
    "a_c": "np.array([1+2j, -0.0j, 0j, complex(np.inf, 1), -2.0, complex(np.nan, 0), 0.5j, 3])",
    "a_rev": "np.linspace(-3.0, 4.0, 16)[::-2]",
    "m": "np.arange(16.0).reshape(2, 8) - 5", "a0": "np.array(0.5)",
    "s_i8": "np.int8(-5)", "s_f32": "np.float32(1.5)", "s_f": "np.float64(-0.0)",
    "s_u64": "np.uint64(7)",
}
SEED = run_seed()
_RNG = random.Random(SEED)
CASES = ([(name, (x,)) for name in UNARY for x in VALUES]
         + [(name, pair) for name in BINARY
            for pair in (itertools.product(VALUES, repeat=2) if os.environ.get("HANAJIT_PROBE_ALL")
                         else covering_pairs(VALUES, VALUES, _RNG))])


@pytest.fixture(scope="module")
def module():
    return probe_module([(f"np.{name}({params(len(c))})", len(c)) for name, c in CASES],
                        "operator_ufuncs")


def _same(got, want, power):
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        return False
    if w.ndim and g.dtype != w.dtype:
        return False
    if w.ndim == 0:     # (NumPy scalars come back as Python numbers: the kind)
        kinds = "iub" if w.dtype.kind in "iub" else w.dtype.kind
        if g.dtype.kind not in kinds:
            return False
    if w.dtype.kind not in "fc":
        return bool(np.all(g == w))
    g = g.astype(w.dtype)
    nan = np.isnan(g) & np.isnan(w)
    if power and not np.all(np.isnan(g) == np.isnan(w)):
        return False
    if power:           # a varying exponent: vector pow against NumPy's pow
        return bool(np.all(nan | np.isclose(g, w, rtol=1e-6, atol=0)))
    exact = (g == w) & (np.signbit(g.real) == np.signbit(w.real))
    return bool(np.all(nan | exact))


@pytest.mark.parametrize("k", range(len(CASES)),
                         ids=[f"{n}-{'-'.join(c)}" for n, c in CASES])
def test_matches_numpy(module, k):
    name, combo = CASES[k]
    # (exponents 0, 1, -1, 0.5 and 2 are exact; any other is pow within ulps)
    power = name == "power" and combo[1] not in ("i0", "f0", "half", "m1", "two", "b",
                                                 "a0", "s_f")
    try:
        check(getattr(module, f"f{k}"), lambda: [eval(VALUES[c]) for c in combo],
              lambda g, w: _same(g, w, power))
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n(this run's pairs: HANAJIT_PROBE_SEED={SEED})") from exc


def power_one_exponent(a, k):
    return np.power(a, k), a ** k


def test_power_with_one_exponent_takes_numpys_fast_paths():
    # NumPy's power loop tests a scalar exponent: -1 is 1/x, 0.5 sqrt, 2 x*x --
    # so -0.0 ** 0.5 is -0.0 and -inf ** 0.5 NaN (pow gives 0.0 and inf)
    from hanajit import jit
    f = jit(power_one_exponent)
    rng = np.random.default_rng(3)
    for dtype in (np.float64, np.float32):
        a = np.concatenate([[-0.0, 0.0, -np.inf, np.inf, np.nan, -4.0, 1e-310],
                            rng.random(3000) * 10]).astype(dtype)
        for k in (0.5, -1, -1.0, 2, 2.0, 0, 1.0, np.float64(0.5), np.float32(2.0)):
            with np.errstate(all="ignore"):
                want = power_one_exponent(a, k)
                got = f(a, k)
            for g, w in zip(got, want):
                assert g.dtype == w.dtype
                np.testing.assert_array_equal(g, w)
                assert np.array_equal(np.signbit(g), np.signbit(w)), k
