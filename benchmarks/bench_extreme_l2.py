"""Whole-array ``x.min()`` of float64/float32 in and beyond L2 (10**4, 10**5,
10**6 values) and ``np.prod(m, axis=0)`` of complex 1000x1000: NumPy, hanajit
and Numba (``x.min()`` only: Numba does not compile ``np.prod`` with ``axis``)
side by side in one process, the results checked bit for bit first; each
figure the fastest of three runs of the 10th percentile of many repeats.

    python benchmarks/bench_extreme_l2.py [min] [prod]
"""
from __future__ import annotations

import sys
import time

import numpy as np

from hanajit import jit


def x_min(x):
    return x.min()


def prod0(m):
    return np.prod(m, axis=0)


def _time(f, *a, reps=201):
    f(*a)
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f(*a)
        ts.append(time.perf_counter() - t0)
    ts.sort()
    return ts[len(ts) // 10]


def _best(cands, args, reps):
    out = {}
    for _ in range(3):
        for name, f in cands:
            out.setdefault(name, []).append(_time(f, *args, reps=reps))
    return {k: min(v) for k, v in out.items()}


def main(which):
    rng = np.random.default_rng(0)
    if "min" in which:
        import numba
        hj, nb = jit(x_min, fallback=False), numba.njit(x_min)
        for dt in (np.float64, np.float32):
            for n in (10**4, 10**5, 10**6):
                x = rng.random(n).astype(dt) + 1
                assert np.asarray(hj(x)).tobytes() == np.asarray(x_min(x)).tobytes()
                r = _best((("np", x_min), ("hj", hj), ("nb", nb)), (x,),
                          2001 if n < 10**6 else 201)
                print(f"x.min() {np.dtype(dt).name} {n:>8}: NumPy {r['np'] * 1e6:8.2f} us"
                      f"  hanajit {r['hj'] * 1e6:8.2f} us  Numba {r['nb'] * 1e6:8.2f} us"
                      f"  NumPy/hanajit {r['np'] / r['hj']:.2f}x"
                      f"  Numba/hanajit {r['nb'] / r['hj']:.2f}x")
    if "prod" in which:
        hj = jit(prod0, fallback=False)
        for dt in (np.complex128, np.complex64):
            m = (rng.random((1000, 1000)) + 1j * rng.random((1000, 1000))).astype(dt)
            m = m / np.abs(m)
            assert hj(m).tobytes() == prod0(m).tobytes()
            r = _best((("np", prod0), ("hj", hj)), (m,), 31)
            print(f"np.prod(m, axis=0) {np.dtype(dt).name}: NumPy {r['np'] * 1e6:8.1f} us"
                  f"  hanajit {r['hj'] * 1e6:8.1f} us  NumPy/hanajit {r['np'] / r['hj']:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:] or ["min", "prod"])
