"""Kernels of the kinds users write, where hanajit trailed NumPy or Numba (issue 22).

Whole-array kernels (a few operations on 3-element arrays with a NumPy scalar
argument, ``np.repeat``, ``np.tile`` with masked updates, ``.real.min()`` and
``.imag.min()`` of complex arrays, a Laplacian of slices, the column sums of a
small matrix, ``np.histogram``) are timed against NumPy running the same function;
loop kernels (a convolution whose indices come through a clamping helper, an
exponential-smoothing recurrence, a double loop summing an expression of columns
per element, a lookup in a global table) against Numba compiling the same source;
also ``@`` of a stack of small matrices and ``np.nansum`` along an axis.  Every kernel is written
here for this benchmark (the convolution in ``hanajit.testing.loop_kernels``,
which the tests share); each result is checked against NumPy's (or the
interpreter's) before anything is timed.

    python benchmarks/bench_user_kernels.py [--quick] [--min]
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
from hanajit.testing.loop_kernels import blur_clamped, calling  # noqa: E402


# -- whole-array kernels ------------------------------------------------------------
def orbit_step(p, v, dt):
    """One leapfrog step of a body around the origin: 3-element arrays."""
    r = np.sqrt(np.sum(p * p))
    a = -p / (r * r * r)
    v = v + a * dt
    p = p + v * dt
    return p, v


def upsample(x, k):
    return np.repeat(x, k) / k


def minimum_image(x, box):
    """Periodic displacements between all pairs of 1-D positions."""
    d = np.tile(x, (x.shape[0], 1)) - x[:, None]
    h = box / 2
    d[d > h] -= box
    d[d < -h] += box
    return d


def complex_rescale(z):
    re = z.real - z.real.min()
    im = z.imag - z.imag.min()
    return re / re.max(), im / im.max()


def laplacian(u):
    return u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4.0 * u[1:-1, 1:-1]


def centroid(pts):
    return pts.sum(axis=0) / pts.shape[0]


def histogram(x):
    return np.histogram(x, bins=64)


def stacked_products(a, b):
    return a @ b


def nan_column_sums(x):
    return np.nansum(x, axis=0)


# -- loop kernels ---------------------------------------------------------------------
WEIGHTS = np.linspace(0.5, 1.5, 256)       # a lookup table read through a global name


def table_lookup(idx):
    s = 0.0
    for i in idx:
        s += WEIGHTS[i]
    return s


def smooth(x, a):
    s = np.empty_like(x)
    s[0] = x[0]
    for i in range(1, x.shape[0]):
        s[i] = a * x[i] + (1 - a) * s[i - 1]
    return s


def weighted_distances(A, B, W):
    n, m = A.shape[1], B.shape[1]
    D = np.empty((n, m))
    for i in range(n):
        for j in range(m):
            D[i, j] = np.sqrt((((A[:, i] - B[:, j]) / W[:, i]) ** 2).sum())
    return D


def weighted_distances_numpy(A, B, W):
    return np.sqrt((((A[:, :, None] - B[:, None, :]) / W[:, :, None]) ** 2).sum(axis=0))


# -- the table ---------------------------------------------------------------------
def _cases(quick):
    """(name, style, kernel, numpy formulation or None, args)."""
    s = (lambda full, small: small) if quick else (lambda full, small: full)
    rng = np.random.default_rng(22)
    p, v = np.array([1.0, 0.1, 0.0]), np.array([0.0, 1.0, 0.2])
    x = rng.random(s(100_000, 500))
    pos = rng.random(s(400, 30)) * 10.0
    z = rng.standard_normal(s(1_000_000, 1000)) + 1j * rng.standard_normal(s(1_000_000, 1000))
    u = rng.random((s(500, 20), s(500, 20)))
    pts = rng.random((50, 3))
    normal = rng.standard_normal(s(1_000_000, 2000))
    img = rng.random((s(300, 16), s(300, 16)))
    kern = rng.random((5, 5))
    A, B = rng.random((16, s(200, 10))), rng.random((16, s(300, 12)))
    W = rng.random(A.shape) + 0.5
    stack = rng.random((s(1000, 10), 4, 4))
    holes = rng.standard_normal((s(1000, 30), s(1000, 20)))
    holes[holes > 1.5] = np.nan
    idx = rng.integers(0, 256, s(1_000_000, 1000))
    return [
        ("3-element arrays, NumPy-scalar dt", "array", orbit_step, orbit_step,
         (p, v, np.float64(0.01))),
        ("`np.repeat`", "array", upsample, upsample, (x, 4)),
        ("`np.tile`, masked updates", "array", minimum_image, minimum_image, (pos, 10.0)),
        ("`.real.min()`, `.imag.min()`", "array", complex_rescale, complex_rescale, (z,)),
        ("Laplacian of slices", "array", laplacian, laplacian, (u,)),
        ("column sums of a 50x3 matrix", "array", centroid, centroid, (pts,)),
        ("`np.histogram`, 64 bins", "array", histogram, histogram, (normal,)),
        ("convolution, clamping helper", "loop", blur_clamped, None, (img, kern)),
        ("`a @ b` of 1000 stacked 4x4 matrices", "array", stacked_products,
         stacked_products, (stack, stack)),
        ("`np.nansum(x, axis=0)`", "array", nan_column_sums, nan_column_sums, (holes,)),
        ("exponential smoothing", "loop", smooth, None, (x, 0.1)),
        ("global lookup table", "loop", table_lookup, None, (idx,)),
        ("double loop of column sums", "loop", weighted_distances,
         weighted_distances_numpy, (A, B, W)),
    ]


def main(quick: bool = False, use_min: bool = False) -> int:
    stat, stat_name = (min, "Minimum") if use_min else (median, "Median")
    repeats = 1 if quick else 9
    rows, failures, wrong = [], [], []
    vs_numpy, vs_numba = [], []
    for name, style, fn, ref, args in _cases(quick):
        want = (ref or fn)(*args)
        comp, marks = {}, {}
        for col, make in (("numba", njit), ("hanajit", jit)):
            f, why = _compile(make, calling(fn, make), args, warm=not quick)
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
            fmt_seconds(t.get("numpy")), fmt_seconds(t.get("hanajit")),
            *ratio_cells(t),
        ])

    gm = geomean_ratio
    notes = [
        (f"{stat_name} of {repeats} interleaved repeats, compile time excluded; `numpy` "
         "runs the kernel itself (array style) or an array formulation (loop style; "
         "none for the convolution and the recurrence).  Ratios above 1: the second "
         "name is faster."),
        (f"Whole-array kernels, hanajit vs NumPy: geometric mean {gm(vs_numpy)}.  Loop "
         f"kernels, hanajit (bounds checked) vs Numba: geometric mean {gm(vs_numba)}."),
    ]
    notes += [f"does not compile: {f}" for f in failures]
    notes += [f"WRONG RESULT: {w}" for w in wrong]
    print_table("Kernels users write (`bench_user_kernels.py`)", [
        "kernel", "style", "numba compiles", "hanajit compiles", "numpy", "hanajit",
        "numpy/numba", "numpy/hanajit", "numba/hanajit"], rows, notes)
    return 1 if wrong else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    ap.add_argument("--min", action="store_true",
                    help="report the fastest repeat instead of the median")
    args = ap.parse_args()
    sys.exit(main(args.quick, args.min))
