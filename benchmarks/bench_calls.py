"""Per-call overhead: calling a compiled trivial function from Python.

The bodies do next to nothing, so the figures are the dispatch cost: argument
type lookup, unboxing, the native call, boxing the result.  Array arguments are
small float64 arrays (contiguous, and one strided view); NumPy scalar rows
(``np.float64`` ... ``np.complex128``, which hanajit returns as the interpreter
does: ``np.float32(1.5) + 1`` is ``np.float32(2.5)``; Numba returns Python
numbers) sit next to the Python-number rows; the last two rows
return an array: a new one (allocating and boxing it) and a view of the argument.  hanajit, ``numba.njit``
and the plain Python function are timed interleaved with ``timeit`` (many calls per
sample); the table gives nanoseconds per call, the median and the minimum over the
samples, and the ratio of medians.

    python benchmarks/bench_calls.py [--quick]
"""
from __future__ import annotations

import argparse
import sys
import timeit

import numpy as np
from common import fmt_ratio, median, numba_njit, print_table, recording_fallbacks

from hanajit import jit
from hanajit.api import HOT_CALLS

njit = numba_njit()


def zero_args():
    return 1


def one_int(x):
    return x + 1


def two_scalars(x, y):
    return x * y


def with_default(x, y=0.5):
    return x * y


def one_array(a):
    return a[0]


def two_arrays(a, b):
    return a[0] + b[0]


def array_scalar(a, x):
    return a[0] * x


def new_array(a):
    return a + 1.0


def view_of(a):
    return a[1:]


# arguments the call statements use
ARGS = {"a": np.arange(1.0, 9.0), "b": np.ones(8), "s": np.arange(16.0)[::2],
        "f64": np.float64(1.5), "f32": np.float32(1.5), "i64": np.int64(3),
        "i32": np.int32(3), "u8": np.uint8(3), "b_": np.bool_(True),
        "c128": np.complex128(1 + 2j)}

# label, function, call statement (``f`` is the function under test)
CASES = [
    ("`f()`", zero_args, "f()"),
    ("`f(1)` (int)", one_int, "f(1)"),
    ("`f(1.5)` (float)", one_int, "f(1.5)"),
    ("`f(np.float64(1.5))`", one_int, "f(f64)"),
    ("`f(np.float32(1.5))`", one_int, "f(f32)"),
    ("`f(np.int64(3))`", one_int, "f(i64)"),
    ("`f(np.int32(3))`", one_int, "f(i32)"),
    ("`f(np.uint8(3))`", one_int, "f(u8)"),
    ("`f(np.bool_(True))`", one_int, "f(b_)"),
    ("`f(np.complex128(1+2j))`", one_int, "f(c128)"),
    ("`f(2, 0.5)` (int, float)", two_scalars, "f(2, 0.5)"),
    ("`f(np.float32(1.5), 0.5)`", two_scalars, "f(f32, 0.5)"),
    ("`f(x=2, y=0.5)` (keywords)", two_scalars, "f(x=2, y=0.5)"),
    ("`f(2)`, `y=0.5` by default", with_default, "f(2)"),
    ("`f(a)` (1 array)", one_array, "f(a)"),
    ("`f(s)` (1 strided array)", one_array, "f(s)"),
    ("`f(a, b)` (2 arrays)", two_arrays, "f(a, b)"),
    ("`f(a, 0.5)` (array, float)", array_scalar, "f(a, 0.5)"),
    ("`f(a=a, b=b)` (array keywords)", two_arrays, "f(a=a, b=b)"),
    ("`f(a)` returns a new 8-element array", new_array, "f(a)"),
    ("`f(a)` returns the view `a[1:]`", view_of, "f(a)"),
]


def _same(got, expected) -> bool:
    if isinstance(expected, np.ndarray):
        return isinstance(got, np.ndarray) and np.array_equal(got, expected)
    return got == expected


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
                expected = eval(stmt, {"f": py, **ARGS})
                for _ in range(1 + HOT_CALLS):      # compiles; then builds the dispatcher
                    got = eval(stmt, {"f": f, **ARGS})
            if not _same(got, expected) or (name == "hanajit"
                                             and type(got) is not type(expected)):
                raise SystemExit(f"{label}: {name} returned {got!r}, want {expected!r}")
            timer = timeit.Timer(stmt, globals={"f": f, **ARGS})
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
