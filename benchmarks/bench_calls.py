"""Per-call overhead: calling a compiled trivial function from Python.

The bodies do next to nothing, so the figures are the dispatch cost: argument
type lookup, unboxing, the native call, boxing the result.  hanajit, ``numba.njit``
and the plain Python function are timed interleaved with ``timeit`` (many calls per
sample); the table gives nanoseconds per call, the median and the minimum over the
samples, and the ratio of medians.

    python benchmarks/bench_calls.py [--quick]
"""
from __future__ import annotations

import argparse
import sys
import timeit

from common import fmt_ratio, median, numba_njit, print_table, recording_fallbacks

from hanajit import jit

njit = numba_njit()


def zero_args():
    return 1


def one_int(x):
    return x + 1


def two_scalars(x, y):
    return x * y


# label, function, call statement (``f`` is the function under test)
CASES = [
    ("`f()`", zero_args, "f()"),
    ("`f(1)` (int)", one_int, "f(1)"),
    ("`f(2, 0.5)` (int, float)", two_scalars, "f(2, 0.5)"),
    ("`f(x=2, y=0.5)` (keywords)", two_scalars, "f(x=2, y=0.5)"),
]


def main(quick: bool = False) -> int:
    sample_s = 0.005 if quick else 0.05        # seconds per sample, per implementation
    repeats = 3 if quick else 9
    rows, fallbacks = [], []
    for label, py, stmt in CASES:
        impls = {"hanajit": jit(py), "python": py}
        if njit is not None:
            impls["numba"] = njit(py)
        timers = {}
        for name, f in impls.items():
            with recording_fallbacks(fallbacks):
                expected = eval(stmt, {"f": py})
                got = eval(stmt, {"f": f})          # compiles
            if got != expected:
                raise SystemExit(f"{label}: {name} returned {got!r}, want {expected!r}")
            timer = timeit.Timer(stmt, globals={"f": f})
            per_call = min(timer.repeat(3, 100)) / 100
            timers[name] = (timer, max(100, int(sample_s / per_call)))
        samples = {n: [] for n in timers}
        names = list(timers)
        for r in range(repeats):
            k = r % len(names)
            for n in names[k:] + names[:k]:
                timer, number = timers[n]
                samples[n].append(timer.timeit(number) / number * 1e9)
        med = {n: median(s) for n, s in samples.items()}
        mn = {n: min(s) for n, s in samples.items()}

        def cell(n):
            return f"{med[n]:.0f} ({mn[n]:.0f})" if n in med else "--"
        rows.append([label, cell("hanajit"), cell("numba"), cell("python"),
                     fmt_ratio(med["hanajit"] / med["numba"] if "numba" in med
                               else None),
                     fmt_ratio(med["hanajit"] / med["python"])])
    notes = [f"ns per call, median (min) of {repeats} interleaved samples of about "
             f"{sample_s * 1e3:.0f} ms each.  Ratios of medians: below 1 means "
             "hanajit is faster."]
    for f in dict.fromkeys(fallbacks):
        notes.append(f"FALLBACK (timed in the interpreter, not compiled): {f}")
    print_table("Per-call overhead",
                ["call", "hanajit ns", "numba ns", "python ns", "hanajit/numba",
                 "hanajit/python"], rows, notes)
    return 1 if fallbacks else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer calls and repeats")
    sys.exit(main(ap.parse_args().quick))
