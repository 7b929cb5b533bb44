"""Scalar kernels: hanajit vs ``numba.njit`` vs CPython, side by side in one process.

Each kernel is compiled by both JITs (compile time excluded: one warm-up call), the
results are checked equal to each other and to CPython's, then timed interleaved.
CPython runs a smaller size and its time is scaled by the ratio of work (calls for
``fib``, iterations for the loops, steps for ``collatz``), marked "(scaled)".

Ratios read "how many times faster hanajit is": ``numba / hanajit`` above 1 means
hanajit wins.

    python benchmarks/bench_scalar.py [--quick]
"""
from __future__ import annotations

import argparse
import math
import sys

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

njit = numba_njit()


# -- kernels ------------------------------------------------------------------------
# fib is recursive, so each implementation needs its own global name to recurse on.
def fib_py(n):
    if n < 2:
        return n
    return fib_py(n - 1) + fib_py(n - 2)


@jit
def fib_hj(n):
    if n < 2:
        return n
    return fib_hj(n - 1) + fib_hj(n - 2)


if njit is not None:
    @njit
    def fib_nb(n):
        if n < 2:
            return n
        return fib_nb(n - 1) + fib_nb(n - 2)
else:
    fib_nb = None


def sum_half(n):
    s = 0.0
    for i in range(n):
        s += i * 0.5
    return s


def leibniz_pi(n):
    s = 0.0
    sign = 1.0
    for k in range(n):
        s += sign / (2 * k + 1)
        sign = -sign
    return 4.0 * s


def collatz_steps(n):
    total = 0
    for start in range(1, n):
        k = start
        while k != 1:
            if k % 2 == 0:
                k = k // 2
            else:
                k = 3 * k + 1
            total += 1
    return total


def _fib_calls(n):
    # calls made by the naive recursion: 2 * fib(n + 1) - 1
    a, b = 0, 1
    for _ in range(n + 1):
        a, b = b, a + b
    return 2 * a - 1


# name, (python, hanajit, numba), full size, python size, quick sizes, work(n)
def _kernels():
    def pair(f):
        return f, jit(f), (njit(f) if njit is not None else None)
    return [
        ("fib (recursive)", (fib_py, fib_hj, fib_nb), 30, 24, (20, 15), _fib_calls),
        ("float loop `s += i * 0.5`", pair(sum_half), 10**7, 10**5, (10**5, 10**4),
         lambda n: n),
        ("Leibniz pi series", pair(leibniz_pi), 10**7, 10**5, (10**5, 10**4),
         lambda n: n),
        ("collatz steps (int loop)", pair(collatz_steps), 10**5, 10**4,
         (10**3, 10**2), collatz_steps),
    ]


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=0.0)
    return a == b


def main(quick: bool = False) -> int:
    repeats = 3 if quick else 9
    rows, notes, fallbacks, errors = [], [], [], []
    for name, (py, hj, nb), n, n_py, quick_sizes, work in _kernels():
        if quick:
            n, n_py = quick_sizes
        # compile (warm-up) and check: all three agree at the small size, the two
        # JITs agree at the timed size
        with recording_fallbacks(fallbacks):
            got_hj_small = hj(n_py)
            got_hj = hj(n)
        want_small = py(n_py)
        if not _same(got_hj_small, want_small):
            errors.append(f"{name}: hanajit({n_py}) = {got_hj_small!r}, "
                          f"CPython = {want_small!r}")
        if nb is not None:
            got_nb = nb(n)
            if not _same(nb(n_py), want_small) or not _same(got_hj, got_nb):
                errors.append(f"{name}: hanajit({n}) = {got_hj!r}, "
                              f"numba = {got_nb!r}")
        cands = {"hanajit": lambda: hj(n)}
        if nb is not None:
            cands["numba"] = lambda: nb(n)
        cands["python"] = lambda: py(n_py)
        times = interleaved(cands, repeats)
        t_hj = median(times["hanajit"])
        t_nb = median(times["numba"]) if nb is not None else None
        scale = work(n) / work(n_py)
        t_py = median(times["python"]) * scale
        rows.append([
            name, f"{n:,}", fmt_seconds(t_hj), fmt_seconds(t_nb),
            fmt_seconds(t_py) + (" (scaled)" if scale != 1 else ""),
            fmt_ratio(t_nb / t_hj if t_nb else None), fmt_ratio(t_py / t_hj),
        ])
    notes.append(f"Median of {repeats} interleaved repeats; compile time excluded. "
                 "Ratios above 1 mean hanajit is faster.")
    if njit is None:
        notes.append("numba is not installed: its column is empty.")
    for f in dict.fromkeys(fallbacks):
        notes.append(f"FALLBACK (timed in the interpreter, not compiled): {f}")
    for e in errors:
        notes.append(f"WRONG RESULT: {e}")
    print_table("Scalar kernels (run time)",
                ["kernel", "n", "hanajit", "numba", "python", "numba/hanajit",
                 "python/hanajit"], rows, notes)
    return 1 if errors or fallbacks else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    sys.exit(main(ap.parse_args().quick))
