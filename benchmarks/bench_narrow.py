"""``f.narrow()``: integer reductions over int8/int16/int32 arrays against the int64
baseline, with NumPy and Numba side by side, one thread, one process.

The same values (uniform in [-100, 100)) are stored as int8, int16, int32 and int64.
The baseline is the ordinary compiled reduction over the int64 array; every other
column is ``baseline / X`` (above 1: faster than the baseline).  ``numpy`` is
``np.sum(a, dtype=np.int64)`` over the narrow array, ``numba`` the ``@njit`` kernel
over it, ``hanajit`` the ordinary compiled kernel over it and ``narrow`` the same
kernel called as ``f.narrow(a, confirmed=True)``.  A second table compares the block
widths ``narrow`` may choose (16-bit blocks, 32-bit blocks, or the 64-bit lanes of the
ordinary code).  Every result is checked equal to the baseline's.

    python benchmarks/bench_narrow.py [--quick]
"""
from __future__ import annotations

import argparse
import os
import sys
import warnings

import numpy as np
from common import (
    fmt_ratio,
    fmt_seconds,
    interleaved,
    median,
    numba_njit,
    print_table,
    recording_fallbacks,
)

from hanajit import jit
from hanajit.errors import HanaJitNarrowWarning
from hanajit.typing_rules import typeof
from hanajit.narrow import build

njit = numba_njit()


# -- the kernels ---------------------------------------------------------------------
def loop_sum(x):
    acc = np.int64(0)       # 0 would add in int8 as NumPy 2 does: nothing to narrow
    for i in range(len(x)):
        acc += x[i]
    return acc


def array_sum(x):
    return np.sum(x)


def count_positive(x):
    acc = np.int64(0)
    for i in range(len(x)):
        acc += x[i] > 0
    return acc


KERNELS = [("`acc += x[i]` loop", loop_sum, lambda a: np.sum(a, dtype=np.int64)),
           ("`np.sum(x)`", array_sum, lambda a: np.sum(a, dtype=np.int64)),
           ("`acc += x[i] > 0`", count_positive, lambda a: np.count_nonzero(a > 0))]
DTYPES = (np.int8, np.int16, np.int32)


def _check(name, col, got, want, errors):
    if got != want:
        errors.append(f"{name}: {col} gives {got}, the int64 baseline {want}")


def main_table(n, repeats, fallbacks, errors):
    values = np.random.default_rng(0).integers(-100, 100, n)
    wide = values.astype(np.int64)
    rows, ratios = [], {}
    for label, kernel, np_fn in KERNELS:
        base = jit(kernel)
        with recording_fallbacks(fallbacks):
            want = base(wide)
        for dtype in DTYPES:
            a = values.astype(dtype)
            f = jit(kernel)
            cands = {"int64 baseline": lambda base=base: base(wide),
                     "numpy": lambda a=a, np_fn=np_fn: np_fn(a)}
            if njit is not None:
                nb = njit(kernel)
                cands["numba"] = lambda nb=nb, a=a: nb(a)
            cands["hanajit"] = lambda f=f, a=a: f(a)
            cands["narrow"] = lambda f=f, a=a: f.narrow(a, confirmed=True)
            with recording_fallbacks(fallbacks), warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always", HanaJitNarrowWarning)
                for col, c in cands.items():
                    _check(f"{label} {dtype.__name__}", col, int(c()), int(want), errors)
            fallbacks += [str(x.message) for x in w]
            t = {c: median(ts) for c, ts in interleaved(cands, repeats).items()}
            b = t["int64 baseline"]
            ratio_cols = [fmt_ratio(b / t[c]) if c in t else "--"
                          for c in ("numpy", "numba", "hanajit", "narrow")]
            rows.append([f"{label}, {dtype.__name__}", fmt_seconds(b), *ratio_cols,
                         fmt_ratio(t["hanajit"] / t["narrow"])])
            ratios[(kernel, dtype)] = b / t["narrow"]
    return rows, ratios


def widths_table(n, repeats, errors):
    """16-bit blocks vs 32-bit blocks vs the ordinary 64-bit lanes."""
    values = np.random.default_rng(1).integers(-100, 100, n)
    rows = []
    for label, kernel, _ in KERNELS[:2]:
        for dtype in (np.int8, np.uint8, np.int16):
            a = (values + 100 if dtype == np.uint8 else values).astype(dtype)
            f = jit(kernel)
            key = (typeof(a),)
            f(a)
            # all three through the same (ctypes) call path
            cands = {"64-bit lanes": f._compiled[key].runner}
            notes = {}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", HanaJitNarrowWarning)
                for widths in ((16,), (32,)):
                    spec = build(f, key, widths)
                    if spec.artifact is not None:
                        cands[f"{widths[0]}-bit blocks"] = spec.runner
                        notes[widths] = spec.report[0].blocks
            want = f(a)
            for col, g in cands.items():
                _check(f"{label} {dtype.__name__}", col, int(g(a)), int(want), errors)
            t = {c: median(ts) for c, ts in interleaved(
                {c: (lambda g=g, a=a: g(a)) for c, g in cands.items()}, repeats).items()}
            lanes = t["64-bit lanes"]
            rows.append([f"{label}, {dtype.__name__}", fmt_seconds(lanes)] + [
                f"{fmt_ratio(lanes / t[c])} ({notes[(w,)]})" if c in t else "--"
                for w, c in ((16, "16-bit blocks"), (32, "32-bit blocks"))])
    return rows


def main(quick: bool = False) -> int:
    n = 10_000 if quick else 10_000_000
    repeats = 3 if quick else 15
    fallbacks, errors = [], []
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rows, ratios = main_table(n, repeats, fallbacks, errors)
    notes = [f"n = {n:,}; median of {repeats} interleaved repeats, one thread; load "
             f"average before the run {load}.  Columns after the first are `int64 "
             "baseline / X` (above 1: faster than the ordinary compiled int64 "
             "reduction); `narrow/hanajit` is the gain of `f.narrow()` over the same "
             "kernel compiled as usual on the same narrow array."]
    notes += [f"FALLBACK: {f}" for f in dict.fromkeys(fallbacks)]
    notes += [f"WRONG RESULT: {e}" for e in errors]
    print_table("narrow: integer reductions vs the int64 baseline",
                ["kernel, dtype", "int64 baseline", "numpy", "numba", "hanajit",
                 "narrow", "narrow/hanajit"], rows, notes)
    wrows = widths_table(n, repeats, errors)
    print_table("narrow: block widths", ["kernel, dtype", "64-bit lanes (ordinary)",
                                         "16-bit blocks", "32-bit blocks"], wrows,
                ["Ratios are `64-bit lanes / X` (the ordinary compiled code over the "
                 "same narrow array, called like the others through ctypes, so small "
                 "sizes show the call overhead); in parentheses the block type and length "
                 "chosen.  `--`: that width cannot hold enough terms.  uint8 values "
                 "are the int8 values + 100."])
    trow = [["`narrow` on int8 >= 2x the int64 baseline",
             fmt_ratio(min(ratios[(k, np.int8)] for _, k, _ in KERNELS)),
             "the slowest of the three kernels"]]
    print_table("narrow issue target", ["target", "measured", "note"], trow)
    return 1 if errors or fallbacks else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    sys.exit(main(ap.parse_args().quick))
