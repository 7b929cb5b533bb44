"""NumPy functions with keyword arguments and axes they may or may not take
(``axis=2`` of a 2-D array, ``axis=(0, 1)``, ``axis=None``, ``keepdims``, ``ddof``,
``dtype=``, ``out=None``, ``kind=``, ``ord=`` ...), compared with NumPy: the same
result, the same exception class, or a fallback naming the call -- never an
internal error, never a result where NumPy raises.  A run takes one tenth of the
5,060 combinations, another tenth each run (``HANAJIT_PROBE_SEED=<seed>`` repeats a
run's share, a failure names its seed; ``HANAJIT_PROBE_ALL=1``: all); the first run
found ``np.clip`` ignoring keywords it does not take and an internal error for
``np.diff(axis=None)``."""
from __future__ import annotations

import os

import numpy as np
import pytest
from hanajit.testing.probe import check, probe_module, run_seed, turn

FUNCS = ["sum", "prod", "mean", "min", "max", "argmin", "argmax", "any", "all", "cumsum",
         "cumprod", "var", "std", "sort", "argsort", "diff", "roll", "take", "repeat",
         "tile", "unique", "searchsorted", "concatenate", "stack", "nonzero",
         "count_nonzero", "median", "average", "ptp", "flip", "squeeze", "expand_dims",
         "swapaxes", "transpose", "moveaxis", "linalg.norm", "trace", "cross", "outer",
         "dot", "histogram", "clip", "round", "where"]
KEYWORDS = ["axis=0", "axis=1", "axis=-1", "axis=2", "axis=-3", "axis=(0, 1)",
            "axis=None", "keepdims=True", "axis=1, keepdims=True", "ddof=1", "out=None",
            "dtype=np.float32", "axis=0, dtype=np.int8", "n=2", "shift=1",
            "shift=-7, axis=0", "decimals=1", "kind='stable'", "side='right'", "ord=1",
            "ord=2, axis=1", "return_counts=True", "bins=3"]
ARRAYS = {"a2": "np.arange(6.0).reshape(2, 3)", "ai": "np.arange(6).reshape(3, 2)[::-1]",
          "a1": "np.array([3.0, 1.0, np.nan, 2.0])", "e2": "np.zeros((0, 3))",
          "ab": "np.array([[True, False], [False, False]])"}
SECOND = {"take": "[0, 1]", "searchsorted": "1.5", "repeat": "2", "tile": "2", "roll": "1",
          "clip": "0, 2", "cross": "x0", "outer": "x0", "dot": "x0.T"}


def _call(f, kw):
    if f in ("concatenate", "stack"):
        return f"np.{f}((x0, x0), {kw})"
    if f == "where":
        return f"np.where(x0 > 1, 0.0, x0, {kw})"
    if f in SECOND:
        return f"np.{f}(x0, {SECOND[f]}, {kw})"
    return f"np.{f}(x0, {kw})"


# a run takes every other (function, keyword) pair, each with one of the five
# arrays, in rotation: every function meets half the keywords, every keyword half
# the functions, every array every keyword across the functions; the half and the
# arrays turn from run to run (ten turns run them all); HANAJIT_PROBE_ALL=1: all
SEED = run_seed()
_TURN = turn(SEED, 10)
CASES = [(_call(f, kw), a) for i, f in enumerate(FUNCS) for j, kw in enumerate(KEYWORDS)
         for k, a in enumerate(ARRAYS)
         if os.environ.get("HANAJIT_PROBE_ALL") or (i + j + k + _TURN) % 10 == 0]


@pytest.fixture(scope="module")
def module():
    return probe_module([(e, 1) for e, _ in CASES], "keyword_probe")


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return (isinstance(got, tuple) and len(got) == len(want)
                and all(_same(g, w) for g, w in zip(got, want)))
    if isinstance(want, (np.generic, np.ndarray)) and np.ndim(want) == 0 and type(got) in (
            bool, int, float, complex):       # (NumPy scalars come back as numbers)
        got, want = want.dtype.type(got), want.dtype.type(want)
    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape or g.dtype != w.dtype:
        return False
    if g.dtype.kind in "fc":          # (sums in another order: rounding)
        with np.errstate(all="ignore"):
            return bool(np.all((g == w) | (np.isnan(g) & np.isnan(w))
                               | (np.abs(g - w) <= 1e-12 * np.maximum(1, np.abs(w)))))
    return bool(np.array_equal(g, w))


@pytest.mark.parametrize("k", range(len(CASES)), ids=[f"{e}-{a}" for e, a in CASES])
def test_keywords(module, k):
    _, a = CASES[k]
    try:
        check(getattr(module, f"f{k}"), lambda: [eval(ARRAYS[a])], _same)
    except AssertionError as exc:
        raise AssertionError(f"{exc}\n(this run's share: HANAJIT_PROBE_SEED={SEED})") from exc
