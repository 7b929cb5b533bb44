"""f.evolve() and f.evolve_hyper(): before/after on six kernels, with Numba beside.

Kernels: a float reduction (sum of x*1.5), a polynomial evaluated per element, a
transcendental loop (sin + exp per element), a dot product and a naive (i, j, k)
triple-loop matrix multiply in its two usual forms (a local dot-product sum stored
into C[i, j], and C[i, j] += ... in the innermost loop; evolve's nest genes may
interchange and tile both, passes/interchange.py).  For each: the plain
compilation ("before"), the same function after ``evolve()`` (safe: bit-identical results, installed only when
faster beyond the noise) and a third copy after ``evolve_hyper(confirmed=True)``
(reassociation allowed, results within 1e-6 relative).  The after-columns are timed
in a fresh interleaved run, not taken from the search.  Every result is checked:
safe against the plain build bit for bit, hyper to 1e-6 relative.

    python benchmarks/bench_evolve.py [--quick] [--kernels matmul,dot]
    python benchmarks/bench_evolve.py --prefetch [--quick]

``--prefetch`` times evolve's prefetch and alignment genes on their own instead:
each prefetch distance (``hanajit.evolve.genome.PREFETCH``), and the 64-byte
alignment version, forced on every innermost loop against the plain build, on
sequential, strided, column-wise and gathering loops over 64-byte-aligned arrays
(so the aligned copy is the one that runs), results checked bit for bit.
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
from hanajit import jit

njit = numba_njit()


def fsum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * 1.5
    return s


def poly(x, out):
    for i in range(x.shape[0]):
        v = x[i]
        out[i] = (((0.3 * v + 1.2) * v - 0.7) * v + 2.0) * v - 1.1


def trans(x, out):
    for i in range(x.shape[0]):
        out[i] = math.sin(x[i]) * math.exp(-0.5 * x[i])


def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def matmul(A, B, C):
    n, m = A.shape
    p = B.shape[1]
    for i in range(n):
        for j in range(p):
            s = 0.0
            for k in range(m):
                s += A[i, k] * B[k, j]
            C[i, j] = s


def matmul_acc(A, B, C):
    for i in range(A.shape[0]):
        for j in range(B.shape[1]):
            for k in range(A.shape[1]):
                C[i, j] += A[i, k] * B[k, j]


def _bits(r):
    return np.asarray(r).tobytes()


def main(quick: bool = False, kernels: str = "") -> int:
    rng = np.random.default_rng(0)
    n = 20_000 if quick else 1_000_000
    nm = 32 if quick else 192
    gens, pop = (1, 3) if quick else (6, 8)
    repeats = 3 if quick else 15
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    A, B = rng.standard_normal((nm, nm)), rng.standard_normal((nm, nm))
    cases = [
        ("float reduction sum(x*1.5)", fsum, (x,), None),
        ("polynomial (degree 4)", poly, (x, np.empty(n)), 1),
        ("transcendental sin*exp", trans, (x, np.empty(n)), 1),
        ("dot product", dot, (x, y), None),
        (f"naive matmul {nm}x{nm} (i, j, k)", matmul, (A, B, np.empty((nm, nm))), 2),
        (f"matmul C[i, j] += {nm}x{nm} (i, j, k)", matmul_acc,
         (A, B, np.zeros((nm, nm))), 2),
    ]
    if kernels:
        want = kernels.split(",")
        cases = [c for c in cases if any(w in c[1].__name__ for w in want)]
    load0 = os.getloadavg()
    rows, notes, fallbacks, errors = [], [], [], []
    for name, fn, args, out_at in cases:
        plain, safe, hyper = (jit(fn, fallback=False) for _ in range(3))

        def run(f, fresh_out=True, args=args, out_at=out_at):
            a = list(args)
            if out_at is not None and fresh_out:
                a[out_at] = args[out_at].copy()  # (zeros for C += ...)
            r = f(*a)
            return r if out_at is None else a[out_at]

        with recording_fallbacks(fallbacks):
            ref = run(plain)
            run(safe)
            run(hyper)
            rs = safe.evolve(*args, generations=gens, population=pop, progress=False)
            rh = hyper.evolve_hyper(
                *args, confirmed=True, generations=gens, population=pop, progress=False
            )
        if _bits(run(safe)) != _bits(ref):
            errors.append(f"{name}: evolve() changed the result")
        got, want = np.asarray(run(hyper)), np.asarray(ref)
        if not np.allclose(got, want, rtol=1e-6, atol=1e-9):
            errors.append(f"{name}: evolve_hyper() beyond 1e-6")
        impls = {"before": plain, "evolve": safe, "evolve_hyper": hyper}
        if njit is not None:
            nb = njit(fn)
            run(nb)
            impls["numba"] = nb
        times = interleaved(
            {k: (lambda f=f: run(f, False)) for k, f in impls.items()}, repeats
        )
        t = {k: median(v) for k, v in times.items()}
        rows.append(
            [
                name,
                fmt_seconds(t["before"]),
                fmt_seconds(t["evolve"]),
                fmt_ratio(t["before"] / t["evolve"]),
                "yes" if rs.installed else "no",
                fmt_seconds(t["evolve_hyper"]),
                fmt_ratio(t["before"] / t["evolve_hyper"]),
                "yes" if rh.installed else "no",
                fmt_seconds(t.get("numba")),
            ]
        )
        notes.append(f"{name}: evolve -> {rs.strategy}; hyper -> {rh.strategy}")
    notes.append(
        f"Search: {gens} generations x {pop} candidates; after-columns are medians "
        f"of {repeats} interleaved repeats, speedups against 'before'."
    )
    load1 = os.getloadavg()
    notes.append(
        f"Load average (1, 5, 15 min) at start {load0[0]:.1f} {load0[1]:.1f} "
        f"{load0[2]:.1f}, at end {load1[0]:.1f} {load1[1]:.1f} {load1[2]:.1f}, "
        f"on {os.cpu_count()} CPUs."
    )
    for f in dict.fromkeys(fallbacks):
        notes.append(f"FALLBACK (timed in the interpreter, not compiled): {f}")
    for e in errors:
        notes.append(f"WRONG RESULT: {e}")
    print_table(
        "evolve: before / after",
        ["kernel", "before", "evolve", "speedup", "installed", "evolve_hyper",
         "speedup", "installed", "numba"],
        rows,
        notes,
    )
    return 1 if errors or fallbacks else 0


def _stencil(x, out):
    for i in range(1, x.shape[0] - 1):
        out[i] = x[i - 1] + x[i + 1] - 2.0 * x[i]


def _isum(x):
    s = 0
    for i in range(x.shape[0]):
        s += x[i] * 3
    return s


def _rowsum(a, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
        out[i] = s


def _gather(x, idx):
    s = 0.0
    for i in range(idx.shape[0]):
        s += x[idx[i]]
    return s


def _aligned(a):
    """A copy of ``a`` (C or F order) whose data starts on 64 bytes."""
    buf = np.empty(a.size + 64 // a.itemsize, a.dtype)
    k = (-buf.ctypes.data % 64) // a.itemsize
    order = "F" if a.flags.f_contiguous and a.ndim > 1 else "C"
    out = buf[k:k + a.size].reshape(a.shape, order=order)
    out[...] = a
    return out


def prefetch_table(quick: bool = False) -> int:
    """Every prefetch distance, and the alignment version, forced on, against the
    plain build."""
    from hanajit.evolve import _Search
    from hanajit.evolve import genome as G
    from hanajit.evolve import verify as V

    n, m = (200_000, 400) if quick else (4_000_000, 3000)
    rng = np.random.default_rng(0)
    x = _aligned(rng.standard_normal(n))
    cases = [
        (f"float sum, {n} (no vector width)", fsum, (x,)),
        (f"int sum, {n} (vectorised)", _isum, (_aligned(rng.integers(-9, 9, n)),)),
        (f"float sum of x[::8], {n // 8}", fsum, (x[::8],)),
        (f"stencil, {n}", _stencil, (x, _aligned(np.zeros(n)))),
        (f"row sums of F-order {m}x{m}", _rowsum,
         (_aligned(np.asfortranarray(rng.standard_normal((m, m)))),
          _aligned(np.zeros(m)))),
        (f"gather x[idx[i]], {n}", _gather, (x, _aligned(rng.integers(0, n, n)))),
    ]
    rows, errors = [], []
    load0 = os.getloadavg()
    for name, fn, args in cases:
        s = _Search(jit(fallback=False)(fn), args, hyper=False, rtol=0, atol=0,
                    seed=0, checks=1)
        want = V.outcome(s.base_runner, V.copy_args(args))
        calls = {"plain": lambda r=s.base_runner, a=args: r(*a)}
        for d in G.PREFETCH[1:] + ("align",):
            gene = ({"align": (64,) * s.nloops} if d == "align"
                    else {"prefetch": (d,) * s.nloops})
            g = s.canonical(dict(G.baseline(s.nloops, len(s.nests)), **gene))
            r = s.build(g)
            if r is None or not V.same_bits(V.outcome(r, V.copy_args(args)), want):
                errors.append(f"{name}, prefetch {d}")
                continue
            calls[d] = lambda r=r, a=args: r(*a)
        times = interleaved(calls, 5 if quick else 15, 3)
        t = {k: median(v) for k, v in times.items()}
        rows.append([name, fmt_seconds(t["plain"])] + [
            fmt_ratio(t["plain"] / t[d]) if d in t else "--"
            for d in G.PREFETCH[1:] + ("align",)])
    load1 = os.getloadavg()
    notes = [(f"Speedup of each distance over the plain build (above 1: faster). "
              f"Load average (1 min) {load0[0]:.1f} at start, {load1[0]:.1f} at end, "
              f"on {os.cpu_count()} CPUs.")]
    notes += [f"WRONG RESULT: {e}" for e in errors]
    print_table("evolve: prefetch distances / alignment forced on",
                ["kernel", "plain"] + [f"prefetch {d}" for d in G.PREFETCH[1:]]
                + ["align 64"],
                rows, notes)
    return 1 if errors else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, tiny search")
    ap.add_argument("--kernels", default="", help="comma-separated function names "
                    "(fsum, poly, trans, dot, matmul, matmul_acc); default all")
    ap.add_argument("--prefetch", action="store_true",
                    help="time each prefetch distance and the alignment "
                    "version forced on, instead")
    a = ap.parse_args()
    sys.exit(prefetch_table(a.quick) if a.prefetch else main(a.quick, a.kernels))
