"""``np.partition(a, k)`` and ``np.argpartition(a, k)`` at a single kth (``k =
n // 2``, and 50 for n = 100) of float64, int64 and float32 arrays of 100, 10**4
and 10**6 values: NumPy, hanajit and Numba side by side in one process.

hanajit's results are checked bit for bit against NumPy's first (values and
positions: NumPy's own selection function).  "callback" is hanajit with NumPy's
selection function reached through the Python callback instead (what compiled
code did before ``lib/sorting/numpy_select.py``; still used where NumPy's symbol
table is missing).  Numba runs its own introselect, whose order differs from
NumPy's (not checked).  Each figure is the best of ``--rounds`` samples of many
back-to-back calls (10**6 values: of 3 x ``--rounds`` single calls), the
candidates interleaved, with the samples' median in parentheses; ratios are
time / NumPy's time (below 1: faster).

    python benchmarks/bench_partition.py [--rounds 7] [--quick]
"""
from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
from common import numba_njit

from hanajit import jit
from hanajit.api import HOT_CALLS


def partition(a, k):
    return np.partition(a, k)


def argpartition(a, k):
    return np.argpartition(a, k)


def _sample(f, a, k, number):
    t0 = time.perf_counter()
    for _ in range(number):
        f(a, k)
    return (time.perf_counter() - t0) / number


def _callback_versions():
    """hanajit's functions compiled with the Python callback (no direct call)."""
    from hanajit.lib.sorting import numpy_select
    saved = numpy_select.checked
    numpy_select.checked = lambda name: None
    try:
        out = {}
        for fn in (partition, argpartition):
            j = jit(fn, fallback=False)
            for dt in ("float64", "int64", "float32"):
                j(np.arange(3, dtype=dt), 1)            # compiled now
            out[fn.__name__] = j
        return out
    finally:
        numpy_select.checked = saved


def main(quick: bool = False, rounds: int = 7) -> int:
    """Print the table (``run.py`` calls it); 0."""
    njit = numba_njit()
    callback = _callback_versions()
    rng = np.random.default_rng(0)
    rows = []
    sizes = (100, 10**4) if quick else (100, 10**4, 10**6)
    for fn in (partition, argpartition):
        hj = jit(fn, fallback=False)
        nb = None
        if njit is not None:
            try:
                nb = njit(fn)
                nb(np.arange(3.0), 1)
            except Exception:           # noqa: BLE001 - Numba lacks it
                nb = None
        for dt in ("float64", "int64", "float32"):
            for n in sizes:
                a = (rng.standard_normal(n) * 1000).astype(dt)
                k = 50 if n == 100 else n // 2
                want = fn(a, k)
                assert hj(a, k).tobytes() == want.tobytes()
                assert callback[fn.__name__](a, k).tobytes() == want.tobytes()
                cands = {"NumPy": fn, "hanajit": hj, "callback": callback[fn.__name__]}
                if nb is not None:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        nb(a, k)
                    cands["Numba"] = nb
                for f in cands.values():      # (hanajit's native dispatch: HOT_CALLS)
                    for _ in range(HOT_CALLS + 1):
                        f(a, k)
                # (single calls of the long arrays, three times as many rounds: a
                # loaded machine spoils fewer short samples)
                number = max(1, 300_000 // n)
                if quick:
                    number = max(1, number // 100)
                samples = {name: [] for name in cands}
                names = list(cands)
                for r in range(rounds if number > 1 else 3 * rounds):
                    for name in names[r % len(names):] + names[:r % len(names)]:
                        samples[name].append(_sample(cands[name], a, k, number))
                rows.append((f"np.{fn.__name__}(a, {k})", dt, n,
                             {name: (min(v), statistics.median(v))
                              for name, v in samples.items()}))
    print("| call | dtype | n | NumPy | hanajit | ratio | callback (before) | ratio "
          "| Numba | ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")

    def us(t):
        return f"{t * 1e6:,.2f} us" if t < 1e-4 else f"{t * 1e3:,.3f} ms"
    for call, dt, n, best in rows:
        base, base_median = best["NumPy"]
        cells = [f"{us(base)} ({us(base_median)})"]
        for name in ("hanajit", "callback", "Numba"):
            if name not in best:
                cells += ["n/a", ""]
                continue
            t, median = best[name]
            cells += [f"{us(t)} ({us(median)})",
                      f"{t / base:.2f}x ({median / base_median:.2f}x)"]
        print(f"| `{call}` | {dt} | {n:,} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--quick", action="store_true")
    opts = ap.parse_args()
    main(opts.quick, opts.rounds)
