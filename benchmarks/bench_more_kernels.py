"""More real-world kernels: whole-array NumPy code against NumPy, loops against Numba.

Twenty-one kernels none of which appear in ``bench_kernels.py`` or
``bench_user_kernels.py``, written from memory of public collections (npbench's
``arc_distance``, ``azimint_hist``, ``nbody``, ``heat_3d``, ``softmax``,
``covariance``, ``crc16``, ``spmv``; PolyBench's ``floyd_warshall``, ``cholesky``,
``durbin``, ``seidel_2d``; Numba's ``go_fast``; and the usual blog-post kernels:
``logsumexp``, a cosine-similarity matrix, k-means assignment by broadcasting,
a hand-written 2-D histogram, linear interpolation, the maximum drawdown, a
rolling mean from a cumulative sum, Horner's rule over arrays), each in the
style people write it in.  Whole-array kernels are timed against NumPy running
the same function; loop kernels against Numba compiling the same source (hanajit
keeps its bounds checks).  Every result is checked against the interpreter's
(or NumPy's) before anything is timed.

    python benchmarks/bench_more_kernels.py [--quick] [--min] [--only NAME,...]
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bench_kernels import _compile, _same, njit  # noqa: E402
from common import (fmt_seconds, geomean_ratio, interleaved, median,  # noqa: E402
                    print_table, ratio_cells)
from hanajit import jit  # noqa: E402


# -- whole-array kernels ------------------------------------------------------------
def arc_distance(theta_1, phi_1, theta_2, phi_2):
    """npbench: great-circle distances between pairs of points."""
    temp = np.sin((theta_2 - theta_1) / 2) ** 2 + np.cos(theta_1) * np.cos(
        theta_2) * np.sin((phi_2 - phi_1) / 2) ** 2
    distance_matrix = 2 * (np.arctan2(np.sqrt(temp), np.sqrt(1 - temp)))
    return distance_matrix


def azimint_hist(data, radius, npt):
    """npbench: azimuthal integration, mean intensity per radius bin."""
    histu = np.histogram(radius, npt)[0]
    histw = np.histogram(radius, npt, weights=data)[0]
    return histw / histu


def nbody_acc(pos, mass, G, softening):
    """npbench nbody's getAcc: pairwise accelerations, masked inverse cube."""
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r3 = (dx ** 2 + dy ** 2 + dz ** 2 + softening ** 2)
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0] ** (-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    return np.hstack((ax, ay, az))


def heat_3d(tsteps, A, B):
    """npbench/PolyBench heat-3d: an explicit 3-D stencil on slices."""
    A = A.copy()
    B = B.copy()
    for _t in range(1, tsteps):
        B[1:-1, 1:-1, 1:-1] = (
            0.125 * (A[2:, 1:-1, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[:-2, 1:-1, 1:-1])
            + 0.125 * (A[1:-1, 2:, 1:-1] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, :-2, 1:-1])
            + 0.125 * (A[1:-1, 1:-1, 2:] - 2.0 * A[1:-1, 1:-1, 1:-1] + A[1:-1, 1:-1, 0:-2])
            + A[1:-1, 1:-1, 1:-1])
        A[1:-1, 1:-1, 1:-1] = (
            0.125 * (B[2:, 1:-1, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[:-2, 1:-1, 1:-1])
            + 0.125 * (B[1:-1, 2:, 1:-1] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, :-2, 1:-1])
            + 0.125 * (B[1:-1, 1:-1, 2:] - 2.0 * B[1:-1, 1:-1, 1:-1] + B[1:-1, 1:-1, 0:-2])
            + B[1:-1, 1:-1, 1:-1])
    return A, B


def softmax_axis(x):
    """npbench softmax: along the last axis of a 4-D array."""
    tmp_max = np.max(x, axis=-1, keepdims=True)
    tmp_out = np.exp(x - tmp_max)
    tmp_sum = np.sum(tmp_out, axis=-1, keepdims=True)
    return tmp_out / tmp_sum


def logsumexp_rows(x):
    m = x.max(axis=1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=1, keepdims=True)))[:, 0]


def covariance(float_n, data):
    """npbench covariance."""
    mean = np.mean(data, axis=0)
    data = data - mean
    cov = data.T @ data / (float_n - 1.0)
    return cov


def cosine_similarity(X):
    norms = np.linalg.norm(X, axis=1, keepdims=True)
    Xn = X / norms
    return Xn @ Xn.T


def kmeans_assign(X, C):
    d = ((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2)
    return np.argmin(d, axis=1)


def max_drawdown(prices):
    peak = np.maximum.accumulate(prices)
    return ((prices - peak) / peak).min()


def rolling_mean(x, w):
    c = np.cumsum(np.insert(x, 0, 0.0))
    return (c[w:] - c[:-w]) / w


def horner(coeffs, x):
    y = np.zeros_like(x)
    for c in coeffs:
        y = y * x + c
    return y


# -- loop kernels ---------------------------------------------------------------------
def crc16(data, poly=0x8408):
    """npbench crc16 (CRC-16/X.25 over bytes)."""
    crc = 0xFFFF
    for b in data:
        cur_byte = 0xFF & b
        for _ in range(0, 8):
            if (crc & 0x0001) ^ (cur_byte & 0x0001):
                crc = (crc >> 1) ^ poly
            else:
                crc >>= 1
            cur_byte >>= 1
    crc = (~crc & 0xFFFF)
    crc = (crc << 8) | ((crc >> 8) & 0xFF)
    return crc & 0xFFFF


def go_fast(a):
    """Numba's five-minute guide."""
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


def spmv(A_row, A_col, A_val, x):
    """Sparse matrix-vector product, CSR."""
    n = A_row.shape[0] - 1
    y = np.zeros(n, dtype=A_val.dtype)
    for i in range(n):
        s = 0.0
        for k in range(A_row[i], A_row[i + 1]):
            s += A_val[k] * x[A_col[k]]
        y[i] = s
    return y


def spmv_array(A_row, A_col, A_val, x):
    y = np.empty(A_row.size - 1, A_val.dtype)
    for i in range(A_row.size - 1):
        y[i] = A_val[A_row[i]:A_row[i + 1]] @ x[A_col[A_row[i]:A_row[i + 1]]]
    return y


def floyd_warshall(path):
    """PolyBench floyd-warshall."""
    path = path.copy()
    n = path.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                path[i, j] = min(path[i, j], path[i, k] + path[k, j])
    return path


def floyd_warshall_array(path):
    path = path.copy()
    for k in range(path.shape[0]):
        path[:] = np.minimum(path, np.add.outer(path[:, k], path[k, :]))
    return path


def cholesky(A):
    """PolyBench cholesky (lower triangle in place)."""
    A = A.copy()
    n = A.shape[0]
    for i in range(n):
        for j in range(i):
            for k in range(j):
                A[i, j] -= A[i, k] * A[j, k]
            A[i, j] /= A[j, j]
        for k in range(i):
            A[i, i] -= A[i, k] * A[i, k]
        A[i, i] = np.sqrt(A[i, i])
    return A


def durbin(r):
    """PolyBench durbin (Levinson-Durbin recursion)."""
    n = r.shape[0]
    y = np.empty_like(r)
    z = np.empty_like(r)
    y[0] = -r[0]
    beta = 1.0
    alpha = -r[0]
    for k in range(1, n):
        beta = (1 - alpha * alpha) * beta
        s = 0.0
        for i in range(k):
            s += r[k - i - 1] * y[i]
        alpha = -(r[k] + s) / beta
        for i in range(k):
            z[i] = y[i] + alpha * y[k - i - 1]
        for i in range(k):
            y[i] = z[i]
        y[k] = alpha
    return y


def seidel_2d(tsteps, A):
    """PolyBench seidel-2d: Gauss-Seidel sweeps, nine points."""
    A = A.copy()
    n = A.shape[0]
    for _t in range(tsteps):
        for i in range(1, n - 1):
            for j in range(1, n - 1):
                A[i, j] = (A[i - 1, j - 1] + A[i - 1, j] + A[i - 1, j + 1]
                           + A[i, j - 1] + A[i, j] + A[i, j + 1]
                           + A[i + 1, j - 1] + A[i + 1, j] + A[i + 1, j + 1]) / 9.0
    return A


def histogram2d_loop(x, y, nx, ny):
    """A 2-D histogram of points in the unit square, by hand."""
    H = np.zeros((nx, ny), dtype=np.int64)
    for i in range(x.shape[0]):
        ix = int(x[i] * nx)
        iy = int(y[i] * ny)
        if 0 <= ix < nx and 0 <= iy < ny:
            H[ix, iy] += 1
    return H


def histogram2d_array(x, y, nx, ny):
    return np.histogram2d(x, y, bins=(nx, ny), range=((0, 1), (0, 1)))[0].astype(np.int64)


def interp_loop(xp, fp, x):
    """Linear interpolation of sorted points (a resampling loop)."""
    out = np.empty_like(x)
    j = 0
    n = xp.shape[0]
    for i in range(x.shape[0]):
        xi = x[i]
        while j < n - 2 and xp[j + 1] < xi:
            j += 1
        t = (xi - xp[j]) / (xp[j + 1] - xp[j])
        out[i] = fp[j] + t * (fp[j + 1] - fp[j])
    return out


def interp_array(xp, fp, x):
    return np.interp(x, xp, fp)


# -- the table ---------------------------------------------------------------------
def _spd(n, rng):
    m = rng.random((n, n))
    return m @ m.T + n * np.eye(n)


def _csr(n, per_row, rng):
    row = np.arange(0, n * per_row + 1, per_row, dtype=np.int64)
    col = np.sort(rng.integers(0, n, (n, per_row)), axis=1).ravel()
    return row, col, rng.random(n * per_row), rng.random(n)


def _cases(quick):
    """(name, style, kernel, numpy formulation or None, args)."""
    s = (lambda full, small: small) if quick else (lambda full, small: full)
    rng = np.random.default_rng(8)
    n1 = s(1_000_000, 1000)
    t1, p1, t2, p2 = (rng.random(n1) for _ in range(4))
    radius = rng.random(s(1_000_000, 1000)) * 100.0
    intensity = rng.random(radius.shape[0])
    pos, mass = rng.standard_normal((s(500, 20), 3)), rng.random((s(500, 20), 1))
    heat = rng.random((s(40, 6),) * 3)
    sm = rng.random((s(16, 2), s(16, 2), s(64, 4), s(64, 4)))
    rows = rng.standard_normal((s(2000, 20), s(500, 10)))
    data = rng.random((s(1000, 20), s(200, 8)))
    X, C = rng.random((s(20000, 50), 8)), rng.random((s(16, 4), 8))
    prices = np.cumprod(1.0 + 0.01 * rng.standard_normal(s(1_000_000, 1000)))
    coeffs = rng.random(8)
    xs = rng.random(s(1_000_000, 1000))
    raw = rng.integers(0, 256, s(100_000, 100), dtype=np.uint8)
    sq = rng.random((s(1000, 10), s(1000, 10)))
    csr = _csr(s(100_000, 50), 16, rng)
    dist = rng.random((s(200, 12), s(200, 12))) * 10.0
    spd = _spd(s(300, 12), rng)
    toeplitz = rng.random(s(2000, 20)) * (0.5 / s(2000, 20))
    seid = rng.random((s(200, 10), s(200, 10)))
    hx, hy = rng.random(s(1_000_000, 1000)), rng.random(s(1_000_000, 1000))
    xp = np.sort(rng.random(s(10_000, 50)))
    fp = np.sin(xp * 6.0)
    xq = np.sort(rng.uniform(xp[0], xp[-1], s(1_000_000, 1000)))
    return [
        ("arc_distance", "array", arc_distance, arc_distance, (t1, p1, t2, p2)),
        ("azimint_hist (`np.histogram`, weights)", "array", azimint_hist, azimint_hist,
         (intensity, radius, 1000)),
        ("nbody accelerations (masks, `@`)", "array", nbody_acc, nbody_acc,
         (pos, mass, 1.0, 0.1)),
        ("heat_3d (3-D slices)", "array", heat_3d, heat_3d, (s(10, 2), heat, heat.copy())),
        ("softmax along the last axis (4-D)", "array", softmax_axis, softmax_axis, (sm,)),
        ("logsumexp of rows", "array", logsumexp_rows, logsumexp_rows, (rows,)),
        ("covariance", "array", covariance, covariance, (float(data.shape[0]), data)),
        ("cosine similarity matrix", "array", cosine_similarity, cosine_similarity,
         (data,)),
        ("k-means assignment (broadcast, argmin)", "array", kmeans_assign, kmeans_assign,
         (X, C)),
        ("maximum drawdown (`np.maximum.accumulate`)", "array", max_drawdown,
         max_drawdown, (prices,)),
        ("rolling mean via `np.cumsum`", "array", rolling_mean, rolling_mean, (xs, 50)),
        ("Horner's rule over an array", "array", horner, horner, (coeffs, xs)),
        ("crc16 over bytes", "loop", crc16, None, (raw,)),
        ("go_fast (trace of tanh)", "loop", go_fast, go_fast, (sq,)),
        ("spmv (CSR)", "loop", spmv, spmv_array, csr),
        ("floyd_warshall", "loop", floyd_warshall, floyd_warshall_array, (dist,)),
        ("cholesky", "loop", cholesky, None, (spd,)),
        ("durbin (Levinson)", "loop", durbin, None, (toeplitz,)),
        ("seidel_2d", "loop", seidel_2d, None, (s(10, 2), seid)),
        ("2-D histogram by hand", "loop", histogram2d_loop, histogram2d_array,
         (hx, hy, 64, 64)),
        ("linear interpolation", "loop", interp_loop, interp_array, (xp, fp, xq)),
    ]


def main(quick: bool = False, use_min: bool = False, only: str = "") -> int:
    stat, stat_name = (min, "Minimum") if use_min else (median, "Median")
    repeats = 1 if quick else 9
    rows, failures, wrong = [], [], []
    vs_numpy, vs_numba = [], []
    keep = [w for w in only.split(",") if w]
    for name, style, fn, ref, args in _cases(quick):
        if keep and not any(w in name for w in keep):
            continue
        want = fn(*args)
        comp, marks = {}, {}
        for col, make in (("numba", njit), ("hanajit", jit)):
            f, why = _compile(make, fn, args, warm=not quick)
            if f is None:
                marks[col] = "no"
                failures.append(f"{col}, {name}: {why}")
                continue
            ok = _same(f(*args), want)
            marks[col] = "yes" if ok else "WRONG"
            if ok:
                comp[col] = f
            else:
                wrong.append(f"{col}, {name}")
        cands = {"numpy": ref} if ref is not None else {}
        cands.update(comp)
        calls = {c: (lambda f=f: f(*args)) for c, f in cands.items()}
        t = {}
        if calls:
            # calls of microseconds are timed in batches of about 2 ms
            # (a smoke run: one call each; its timings mean nothing)
            once = min(ts[0] for ts in interleaved(calls, 1).values())
            number = 1 if quick else max(1, int(2e-3 / max(once, 1e-7)))
            t = {c: stat(ts) for c, ts in interleaved(calls, repeats, number).items()}
        if "numpy" in t and "hanajit" in t and style == "array":
            vs_numpy.append(t["numpy"] / t["hanajit"])
        if "numba" in t and "hanajit" in t and style == "loop":
            vs_numba.append(t["numba"] / t["hanajit"])
        rows.append([
            name, style, marks.get("numba", "--"), marks.get("hanajit", "--"),
            fmt_seconds(t.get("numpy")), fmt_seconds(t.get("numba")),
            fmt_seconds(t.get("hanajit")), *ratio_cells(t),
        ])

    gm = geomean_ratio
    notes = [
        (f"{stat_name} of {repeats} interleaved repeats, compile time excluded; `numpy` "
         "runs the kernel itself (array style) or an array formulation (loop style; "
         "none for crc16, cholesky, durbin and seidel_2d).  Ratios above 1: the second "
         "name is faster."),
        (f"Whole-array kernels, hanajit vs NumPy: geometric mean {gm(vs_numpy)}.  Loop "
         f"kernels, hanajit (bounds checked) vs Numba: geometric mean {gm(vs_numba)}."),
    ]
    notes += [f"does not compile: {f}" for f in failures]
    notes += [f"WRONG RESULT: {w}" for w in wrong]
    print_table("More real-world kernels (`bench_more_kernels.py`)", [
        "kernel", "style", "numba compiles", "hanajit compiles", "numpy", "numba",
        "hanajit", "numpy/numba", "numpy/hanajit", "numba/hanajit"], rows, notes)
    return 1 if wrong else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    ap.add_argument("--min", action="store_true",
                    help="report the fastest repeat instead of the median")
    ap.add_argument("--only", default="", help="comma-separated parts of kernel names")
    args = ap.parse_args()
    sys.exit(main(args.quick, args.min, args.only))
