"""prange speedups: hanajit and ``numba.njit(parallel=True)`` against their own
serial builds of the same source, side by side in one process.

Three kernels: compute-bound (a transcendental per element, 64 terms), memory-bound
(a triad over 1e7 float64) and a reduction (sum of squares over 1e7); plus the
same reduction over 1,000 elements, where the cost of starting a parallel loop
shows.  Each JIT's
parallel build is compared with its serial build (hanajit ``workers=1``; numba
without ``parallel=True``, where ``prange`` is ``range``) and the results are
checked equal (exactly for the elementwise kernels, to 1e-9 relative for the float
reduction, whose chunks are summed in a different order).  The speedup column is
what the issue asks for; the machine's core count bounds it.

    python benchmarks/bench_parallel.py [--quick]
"""
from __future__ import annotations

import argparse
import math
import os
import sys

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

from hanajit import jit, prange

njit = numba_njit()
try:
    from numba import prange as nb_prange
except Exception:             # numba missing
    nb_prange = None


def _kernels(pr):
    """The three kernels, written against ``pr`` (hanajit's or numba's prange)."""
    def compute(x, out):
        for i in pr(x.shape[0]):
            v = x[i]
            acc = 0.0
            for k in range(64):
                acc += math.sin(v * k + 0.5) * 0.25
            out[i] = acc

    def triad(a, b, c, s):
        for i in pr(a.shape[0]):
            a[i] = b[i] + s * c[i]

    def sumsq(x):
        t = 0.0
        for i in pr(x.shape[0]):
            t += x[i] * x[i]
        return t
    return compute, triad, sumsq


def main(quick: bool = False, settle: float = 0.005) -> int:
    n_compute = 20_000 if quick else 400_000
    n_mem = 100_000 if quick else 10_000_000
    repeats = 3 if quick else 9
    rng = np.random.default_rng(0)
    x = rng.standard_normal(n_compute)
    xs = rng.standard_normal(n_mem)
    xsmall = rng.standard_normal(1000)
    b, c = rng.standard_normal(n_mem), rng.standard_normal(n_mem)
    hj_src = _kernels(prange)
    hj_par = [jit(f) for f in hj_src]
    hj_ser = [jit(f, workers=1) for f in hj_src]
    nb_par = nb_ser = None
    if njit is not None and nb_prange is not None:
        nb_src = _kernels(nb_prange)
        nb_par = [njit(parallel=True)(f) for f in nb_src]
        nb_ser = [njit(f) for f in nb_src]
    rows, notes, fallbacks, errors = [], [], [], []
    cases = [
        ("compute-bound (64 sin per element)", 0, lambda f, o: f(x, o),
         lambda: np.empty(n_compute), n_compute),
        ("memory-bound triad a = b + s*c", 1, lambda f, o: f(o, b, c, 1.5),
         lambda: np.empty(n_mem), n_mem),
        ("reduction sum(x*x)", 2, lambda f, o: f(xs), lambda: None, n_mem),
        ("overhead: sum(x*x), 1,000 elements", 2, lambda f, o: f(xsmall), lambda: None,
         1000),
    ]
    for name, k, call, out, n in cases:
        outs = {key: out() for key in ("hp", "hs", "np", "ns")}
        impls = {"hanajit parallel": (hj_par[k], "hp"), "hanajit serial": (hj_ser[k], "hs")}
        if nb_par is not None:
            impls["numba parallel"] = (nb_par[k], "np")
            impls["numba serial"] = (nb_ser[k], "ns")
        results = {}
        with recording_fallbacks(fallbacks):
            for label, (f, o) in impls.items():
                r = call(f, outs[o])
                results[label] = r if r is not None else outs[o]
        ref = results["hanajit serial"]
        for label, r in results.items():
            ok = (math.isclose(r, ref, rel_tol=1e-9) if isinstance(r, float)
                  else np.array_equal(r, ref))
            if not ok:
                errors.append(f"{name}: {label} differs from hanajit serial")
        times = interleaved({label: (lambda f=f, o=o: call(f, outs[o]))
                             for label, (f, o) in impls.items()}, repeats,
                            number=1 if n > 1000 else 200, settle=settle)
        t = {label: median(v) for label, v in times.items()}
        hj_speed = t["hanajit serial"] / t["hanajit parallel"]
        nb_speed = (t["numba serial"] / t["numba parallel"]) if nb_par else None
        rows.append([name, f"{n:,}", fmt_seconds(t["hanajit parallel"]),
                     fmt_seconds(t.get("numba parallel")), fmt_ratio(hj_speed),
                     fmt_ratio(nb_speed),
                     fmt_ratio(t["numba parallel"] / t["hanajit parallel"]
                               if nb_par else None)])
    notes.append(f"Median of {repeats} interleaved repeats on {os.cpu_count()} CPUs, "
                 f"{settle * 1e3:g} ms apart (--settle); speedup = serial build / "
                 "parallel build of the same JIT.  Pool threads poll for a while "
                 "after a loop (libgomp, under Numba: ~10 ms; hanajit: tens of us) "
                 "and then sleep: a short gap lets one JIT's polling threads slow "
                 "the next candidate, a long one measures waking sleeping threads "
                 "(on a VM whose idle CPU the host has descheduled, milliseconds).")
    for f in dict.fromkeys(fallbacks):
        notes.append(f"FALLBACK (timed in the interpreter, not compiled): {f}")
    for e in errors:
        notes.append(f"WRONG RESULT: {e}")
    print_table("prange: parallel speedup", ["kernel", "n", "hanajit", "numba",
                                             "hanajit speedup", "numba speedup",
                                             "numba/hanajit"], rows, notes)
    return 1 if errors or fallbacks else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    ap.add_argument("--settle", type=float, default=0.005,
                    help="seconds of sleep before each timed sample")
    args = ap.parse_args()
    sys.exit(main(args.quick, args.settle))
