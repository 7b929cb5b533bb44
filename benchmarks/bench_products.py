"""Vector and matrix products (np.dot, @, np.vdot, np.einsum): NumPy vs Numba vs hanajit.

hanajit makes the same calls of NumPy's own OpenBLAS that NumPy makes
(``hanajit/lib/linalg/dot_algorithms.py``), so every result is checked bit for bit
against NumPy's; Numba's are checked to 1e-12 relative (it calls BLAS too, with
its own choices).  The last rows are products inside a loop (a dot of 3-vectors
per row), where call overhead is what counts.  Median of interleaved repeats,
each after a pause that lets the BLAS worker threads of the previous one go
idle; compile time excluded.

    python benchmarks/bench_products.py [--quick]
"""
from __future__ import annotations

import argparse
import math
import sys

import numpy as np
from common import (
    fmt_ratio,
    fmt_seconds,
    interleaved,
    median,
    numba_njit,
    print_table,
    time_call,
)
from hanajit import jit


def k_dot(a, b):
    return np.dot(a, b)


def k_matmul(a, b):
    return a @ b


def k_vdot(a, b):
    return np.vdot(a, b)


def k_einsum_mm(a, b):
    return np.einsum("ij,jk->ik", a, b)


def k_einsum_mv(a, x):
    return np.einsum("ij,j->i", a, x)


def k_einsum_rows(a, b):
    return np.einsum("ij,ij->i", a, b)


def k_einsum_batched(a, b):
    return np.einsum("bij,bjk->bik", a, b)


def k_einsum_bilinear(x, a, y):
    return np.einsum("i,ij,j->", x, a, y)


def k_einsum_chain(a, b, c):
    return np.einsum("ij,jk,kl->il", a, b, c)


def k_einsum_outer3(x, y, z):
    return np.einsum("i,j,k->ijk", x, y, z)


def k_einsum_total(a):
    return np.einsum("ijkl->", a)


def k_einsum_columns(a):
    return np.einsum("ij->j", a)


def k_row_dots(m, v):
    s = 0.0
    for i in range(m.shape[0]):
        s += np.dot(m[i], v)
    return s


def _cases(quick: bool):
    rng = np.random.default_rng(0)
    n1 = 100_000 if quick else 1_000_000
    sizes = (8, 64) if quick else (4, 64, 300)
    x, y = rng.random(n1), rng.random(n1)
    out = [("np.dot, 1-D", f"{n1}", k_dot, (x, y)),
           ("np.vdot, complex", f"{n1 // 10}",
            k_vdot, (x[: n1 // 10] + 1j * y[: n1 // 10], y[: n1 // 10] - 1j * x[: n1 // 10]))]
    for n in sizes:
        a, b = rng.random((n, n)), rng.random((n, n))
        out.append(("a @ b", f"{n}x{n}", k_matmul, (a, b)))
        out.append(("a @ b.T (syrk)", f"{n}x{n}", k_matmul, (a, a.T)))
        out.append(("np.dot(matrix, vector)", f"{n}x{n}", k_dot, (a, b[0])))
    f32 = rng.random((64, 64)).astype(np.float32)
    out.append(("a @ b, float32", "64x64", k_matmul, (f32, f32[::-1].copy())))
    # np.einsum (optimize=False) runs its own loops, not BLAS: hanajit follows them
    e = rng.random((200, 200))
    big = rng.random((1000, 1000))
    out.append(("np.einsum('ij,jk->ik')", "200x200", k_einsum_mm, (e, e[::-1].copy())))
    out.append(("np.einsum('ij,j->i')", "1000x1000", k_einsum_mv, (big, big[0].copy())))
    out.append(("np.einsum('ij,ij->i')", "1000x1000", k_einsum_rows, (big, big[::-1].copy())))
    t = rng.random((64, 16, 16))
    out.append(("np.einsum('bij,bjk->bik')", "64x16x16", k_einsum_batched, (t, t[::-1].copy())))
    # three operands (NumPy's buffered iterator), several dtypes, complex
    v = big[1].copy()
    out.append(("np.einsum('i,ij,j->')", "1000x1000", k_einsum_bilinear, (v, big, v[::-1].copy())))
    c = rng.random((40, 40))
    out.append(("np.einsum('ij,jk,kl->il')", "40x40", k_einsum_chain,
                (c, c.T.copy(), c[::-1].copy())))
    s = rng.random(100)
    out.append(("np.einsum('i,j,k->ijk')", "100", k_einsum_outer3, (s, s[::-1].copy(), s)))
    out.append(("np.einsum('ij,j->i'), float64 and float32", "1000x1000", k_einsum_mv,
                (big, big[0].astype(np.float32))))
    w = rng.random((10, 10, 100, 100)).astype(np.float32)
    out.append(("np.einsum('ijkl->'), float32", "10x10x100x100", k_einsum_total, (w,)))
    z = e + 1j * e[::-1]
    out.append(("np.einsum('ij,jk->ik'), complex", "200x200", k_einsum_mm, (z, z.T.copy())))
    out.append(("np.einsum('ij->j'), complex64", "200x200", k_einsum_columns,
                (z.astype(np.complex64),)))
    m = rng.random((n1 // 10, 3))
    out.append(("np.dot of rows in a loop", f"{n1 // 10} x 3", k_row_dots, (m, m[0].copy())))
    return out


def main(quick: bool = False) -> int:
    njit = numba_njit()
    repeats = 1 if quick else 9
    rows, wrong, vs_numba, vs_numpy = [], [], [], []
    for name, size, fn, args in _cases(quick):
        want = fn(*args)
        cands = {"numpy": fn} if fn is not k_row_dots else {}
        h = jit(fn, fallback=False)
        got = h(*args)
        same = np.array_equal(np.asarray(got), np.asarray(want))
        if not same:
            wrong.append(f"hanajit, {name} {size}")
        cands["hanajit"] = h
        if njit is not None:
            nb = njit(fn)
            try:
                ok = np.allclose(nb(*args), want, rtol=1e-12, atol=0)
            except Exception:       # Numba does not compile np.einsum
                ok = False
            if ok:
                cands["numba"] = nb
        # NumPy's and Numba's (SciPy's) OpenBLAS keep their worker threads spinning
        # for a while after a call; on a small machine the next library's call
        # would share the cores with them, so each sample waits for them first
        def call_h(h=h, args=args):
            return h(*args)
        time_call(call_h, 1 if quick else 20)           # warm
        one = time_call(call_h, 1 if quick else 20)
        # samples of about 10 ms (a smoke run: one call; its timings mean nothing)
        number = 1 if quick else max(1, int(10e-3 / max(one, 1e-9)))
        times = interleaved({c: (lambda f=f, args=args: f(*args))
                             for c, f in cands.items()}, repeats,
                            number=number, settle=0.0 if quick else 0.2)
        t = {c: median(v) for c, v in times.items()}
        if "numba" in t:
            vs_numba.append(t["numba"] / t["hanajit"])
        if "numpy" in t:
            vs_numpy.append(t["numpy"] / t["hanajit"])
        rows.append([name, size, "yes" if same else "NO",
                     fmt_seconds(t.get("numpy")), fmt_seconds(t.get("numba")),
                     fmt_seconds(t["hanajit"]),
                     fmt_ratio(t["numpy"] / t["hanajit"]) if "numpy" in t else "--",
                     fmt_ratio(t["numba"] / t["hanajit"]) if "numba" in t else "--"])

    def gm(xs):
        return fmt_ratio(math.exp(sum(map(math.log, xs)) / len(xs))) if xs else "--"
    notes = [(f"Median of {repeats} interleaved repeats (each about 10 ms of back-to-back "
              "calls, after a 0.2 s pause for BLAS threads), compile time excluded.  "
              "Ratios above 1: hanajit is faster.  `bits = NumPy` compares hanajit's "
              "result with NumPy's bit for bit."),
             f"Geometric mean: hanajit vs NumPy {gm(vs_numpy)}, vs Numba {gm(vs_numba)}."]
    notes += [f"WRONG RESULT: {w}" for w in wrong]
    print_table("Vector and matrix products", [
        "product", "size", "bits = NumPy", "numpy", "numba", "hanajit", "numpy/hanajit",
        "numba/hanajit"], rows, notes)
    return 1 if wrong else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    sys.exit(main(ap.parse_args().quick))
