"""Comparisons where NumPy 2 (NEP 50) casts first: a Python float or int meeting
float32 is cast to float32 (``np.float32(0.1) == 0.1`` holds), an int64 meeting
float64 is rounded to it (``np.float64(2**53) == 2**53 + 1`` holds), a Python
complex meeting float32 becomes complex64 -- on arrays, NumPy scalars and the
comparison ufuncs, against CPython running the same code.  Integer pairs stay
exact (``uint8_array == 1000`` is False, ``np.uint64(2**64-1) == np.int64(-1)``
False).  Every operand pair runs with two of the six operators (and one of the two
reflected ones), which two turning from run to run: each operator meets every left
and every right operand in each run (``HANAJIT_PROBE_SEED=<seed>`` repeats a run's
share, a failure names its seed; ``HANAJIT_PROBE_ALL=1``: all)."""
from __future__ import annotations

import itertools
import os

import numpy as np
import pytest
from hanajit.testing.probe import check, probe_module, run_seed, turn

OPS = ["==", "!=", "<", "<=", ">", ">="]
LEFT = {"f32": "np.float32(0.1)", "f32big": "np.float32(16777216)",
        "f64": "np.float64(2.0**53)", "i64": "np.int64(2**53 + 1)",
        "u64": "np.uint64(2**64 - 1)", "i8": "np.int8(-5)",
        "a32": "np.array([0.1, 16777216.0, -0.0, np.inf, np.nan], np.float32)",
        "a64": "np.array([2.0**53, 0.1, -0.0, 1e300])",
        "ai": "np.array([2**53 + 1, -5, 0])", "au8": "np.array([3, 200], np.uint8)"}
RIGHT = {"py_f": "0.1", "py_big": "16777217", "py_53": "2**53 + 1", "py_huge": "1e300",
         "py_c": "(0.1+0j)", "py_neg": "-1", "py_1000": "1000", "np_f64": "np.float64(0.1)",
         "np_i64": "np.int64(-1)", "np_f32": "np.float32(0.1)", "py_nz": "-0.0"}
SEED = run_seed()
_TURN = turn(SEED, 6)
_ALL = bool(os.environ.get("HANAJIT_PROBE_ALL"))
# pair p meets OPS[r] and OPS[r + 3], r = (p + turn) % 3 (== and <=, != and >, <
# and >=), and one reflected operator by (p + turn) % 2: 11 right operands (prime
# to 2 and 3) make every operator meet every left and every right operand
CASES = [(f"x0 {op} x1", (l, r)) for p, (l, r) in enumerate(itertools.product(LEFT, RIGHT))
         for q, op in enumerate(OPS) if _ALL or (p + _TURN - q) % 3 == 0]
CASES += [(f"x1 {op} x0", (l, r)) for p, (l, r) in enumerate(itertools.product(LEFT, RIGHT))
          for q, op in enumerate(("==", "<")) if _ALL or (p + _TURN - q) % 2 == 0]
CASES += [(f"np.{fn}(x0, x1)", (l, r)) for fn in ("equal", "less", "greater_equal")
          for l, r in itertools.product(LEFT, ["py_f", "py_big", "py_53", "np_f64"])]
CASES += [(f"x0 {op} (x1, 2.5, -3)", (l, r)) for op in ("in", "not in")
          for l, r in itertools.product(LEFT, ["py_f", "py_big", "py_53", "np_f64", "np_f32"])
          if not l.startswith("a")]
# min/max compare the items themselves: which one wins follows NumPy's comparison
CASES += [(f"{fn}({args})", (l, r)) for fn in ("min", "max")
          for args in ("x0, x1", "x1, x0", "x1, x0, x1", "(x0, x1, 0.5)")
          for l, r in itertools.product(["f32", "f32big", "f64", "i64", "i8"],
                                        ["py_f", "py_big", "py_53", "np_f64", "np_f32"])]
VALUES = {**LEFT, **RIGHT}


@pytest.fixture(scope="module")
def module():
    return probe_module([(expr, 2) for expr, _ in CASES], "nep50_compare")


def _same(got, want):
    # (min/max mixing an int and a float give a float: docs/semantics.md)
    return np.array_equal(np.asarray(got, float), np.asarray(want, float))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{'-'.join(c)}" for e, c in CASES])
def test_comparisons_match_cpython(module, k):
    expr, combo = CASES[k]
    try:
        check(getattr(module, f"f{k}"), lambda: [eval(VALUES[c]) for c in combo], _same)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n(this run's share: HANAJIT_PROBE_SEED={SEED})") from exc
