"""Classic NumPy kernels, loop style and array style: NumPy vs Numba vs hanajit.

Each kernel is one Python function.  Numba (``@njit``) and hanajit (``@jit``)
compile the same function; the "NumPy" column runs the kernel's array-style
NumPy formulation (for array-style kernels: the function itself).  The table says
which JIT compiles each kernel, whether its result matches NumPy's (or, for kernels
without a NumPy formulation, CPython running the same function), and the speed
ratios (median of interleaved repeats, or with ``--min`` the fastest one; compile
time excluded).

    python benchmarks/bench_kernels.py [--quick] [--min]
"""
from __future__ import annotations

import argparse
import math
import sys
import warnings

import numpy as np
from common import (
    fmt_seconds,
    geomean_ratio,
    interleaved,
    median,
    numba_njit,
    print_table,
    ratio_cells,
)
from hanajit import HanaJitFallbackWarning, jit
from hanajit.api import HOT_CALLS
from hanajit.testing.loop_kernels import conv3

njit = numba_njit()


# -- kernels: all-pairs distances -------------------------------------------------------
def pairwise_loop(x):
    n, d = x.shape
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = x[i, k] - x[j, k]
                s += t * t
            out[i, j] = math.sqrt(s)
    return out


def pairwise_array(x):
    return np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=-1))


# -- 2-D Jacobi stencil ------------------------------------------------------------------
def jacobi_loop(u0, iters):
    u = u0.copy()
    v = u0.copy()
    n, m = u.shape
    for _ in range(iters):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        u, v = v, u
    return u


def jacobi_array(u0, iters):
    u = u0.copy()
    for _ in range(iters):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


# -- Mandelbrot --------------------------------------------------------------------------
def mandelbrot_loop(xs, ys, maxit):
    out = np.zeros((len(ys), len(xs)), dtype=np.int64)
    for i in range(len(ys)):
        for j in range(len(xs)):
            cr, ci = xs[j], ys[i]
            zr, zi = 0.0, 0.0
            k = 0
            while k < maxit and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            out[i, j] = k
    return out


def mandelbrot_array(xs, ys, maxit):
    cr = xs[None, :] + 0.0 * ys[:, None]
    ci = ys[:, None] + 0.0 * xs[None, :]
    zr = np.zeros_like(cr)
    zi = np.zeros_like(cr)
    out = np.zeros(cr.shape, dtype=np.int64)
    for _ in range(maxit):
        alive = zr * zr + zi * zi <= 4.0
        out += alive
        zr, zi = (np.where(alive, zr * zr - zi * zi + cr, zr),
                  np.where(alive, 2.0 * zr * zi + ci, zi))
    return out


# -- growcut (cellular automaton segmentation) --------------------------------------
def growcut_loop(image, state, strength, radius):
    h, w = image.shape
    new_state = state.copy()
    new_strength = strength.copy()
    for i in range(h):
        for j in range(w):
            best = strength[i, j]
            for di in range(-radius, radius + 1):
                for dj in range(-radius, radius + 1):
                    ii, jj = i + di, j + dj
                    if 0 <= ii < h and 0 <= jj < w:
                        g = 1.0 - abs(image[i, j] - image[ii, jj])
                        attack = g * strength[ii, jj]
                        if attack > best:
                            best = attack
                            new_state[i, j] = state[ii, jj]
                            new_strength[i, j] = attack
    return new_state, new_strength


# -- FDTD 1-D ------------------------------------------------------------------------
def fdtd_array(n, steps):
    ez = np.zeros(n)
    hy = np.zeros(n)
    for t in range(steps):
        ez[1:] += 0.5 * (hy[:-1] - hy[1:])
        ez[n // 2] = math.exp(-0.5 * ((t - 30.0) / 10.0) ** 2)
        hy[:-1] += 0.5 * (ez[:-1] - ez[1:])
    return ez


def fdtd_loop(n, steps):
    ez = np.zeros(n)
    hy = np.zeros(n)
    for t in range(steps):
        for k in range(1, n):
            ez[k] += 0.5 * (hy[k - 1] - hy[k])
        ez[n // 2] = math.exp(-0.5 * ((t - 30.0) / 10.0) ** 2)
        for k in range(n - 1):
            hy[k] += 0.5 * (ez[k] - ez[k + 1])
    return ez


# -- 2-D convolution (3x3, valid) ----------------------------------------------------
conv2d_loop = conv3      # (hanajit.testing.loop_kernels, shared with the tests)


def conv2d_array(img, k):
    h, w = img.shape
    out = np.zeros((h - 2, w - 2))
    for a in range(3):
        for b in range(3):
            out += k[a, b] * img[a:h - 2 + a, b:w - 2 + b]
    return out


# -- normalisation of rows -----------------------------------------------------------
def normalise_loop(m):
    r, c = m.shape
    out = np.empty_like(m)
    for i in range(r):
        s = 0.0
        for j in range(c):
            s += m[i, j]
        mean = s / c
        v = 0.0
        for j in range(c):
            v += (m[i, j] - mean) ** 2
        std = math.sqrt(v / c)
        for j in range(c):
            out[i, j] = (m[i, j] - mean) / std
    return out


def normalise_array(m):
    return (m - m.mean(axis=1, keepdims=True)) / m.std(axis=1, keepdims=True)


# -- Gaussian log-likelihood ---------------------------------------------------------
def loglik_loop(x, mu, sigma):
    s = 0.0
    for i in range(len(x)):
        z = (x[i] - mu) / sigma
        s += -0.5 * z * z - math.log(sigma) - 0.9189385332046727
    return s


def loglik_array(x, mu, sigma):
    return np.sum(-0.5 * ((x - mu) / sigma) ** 2 - np.log(sigma) - 0.9189385332046727)


# -- cumulative sums -----------------------------------------------------------------
def cumsum_loop(a):
    out = np.empty_like(a)
    s = 0.0
    for i in range(len(a)):
        s += a[i]
        out[i] = s
    return out


def cumsum_array(a):
    return np.cumsum(a)


# -- masks -----------------------------------------------------------------------------
def mask_loop(a, lo):
    out = a.copy()
    for i in range(len(out)):
        if out[i] < lo:
            out[i] = 0.0
    return out


def mask_array(a, lo):
    out = a.copy()
    out[out < lo] = 0.0
    return out


# -- matrix-vector -----------------------------------------------------------------
def matvec_loop(m, v):
    r, c = m.shape
    out = np.zeros(r)
    for i in range(r):
        s = 0.0
        for j in range(c):
            s += m[i, j] * v[j]
        out[i] = s
    return out


def matvec_array(m, v):
    return m @ v


# -- softmax -----------------------------------------------------------------------
def softmax_array(x):
    e = np.exp(x - np.max(x))
    return e / np.sum(e)


def softmax_loop(x):
    mx = x[0]
    for i in range(len(x)):
        if x[i] > mx:  # noqa: PLR1730 - a loop-style kernel on purpose
            mx = x[i]
    out = np.empty_like(x)
    s = 0.0
    for i in range(len(x)):
        out[i] = math.exp(x[i] - mx)
        s += out[i]
    for i in range(len(x)):
        out[i] /= s
    return out


# -- polyline length (np.diff) -------------------------------------------------------
def arclen_array(x, y):
    return np.sum(np.sqrt(np.diff(x) ** 2 + np.diff(y) ** 2))


def arclen_loop(x, y):
    s = 0.0
    for i in range(len(x) - 1):
        s += math.sqrt((x[i + 1] - x[i]) ** 2 + (y[i + 1] - y[i]) ** 2)
    return s


# -- bincount ----------------------------------------------------------------------
def bincount_loop(idx, nbins):
    out = np.zeros(nbins, dtype=np.int64)
    for i in range(len(idx)):
        out[idx[i]] += 1
    return out


def bincount_array(idx, nbins):
    return np.bincount(idx, minlength=nbins)


# -- the table ---------------------------------------------------------------------
def _rng(seed=0):
    return np.random.default_rng(seed)


def _cases(quick):
    """(name, style, kernel, numpy formulation or None, args)."""
    s = (lambda full, small: small) if quick else (lambda full, small: full)
    n1 = s(1_000_000, 2_000)
    pts = _rng(1).random((s(600, 30), 3))
    grid = _rng(2).random((s(300, 20), s(300, 20)))
    iters = s(50, 3)
    xs = np.linspace(-2.0, 0.6, s(200, 16))
    ys = np.linspace(-1.2, 1.2, s(150, 12))
    img = _rng(3).random((s(120, 12), s(120, 12)))
    state = (_rng(4).random(img.shape) > 0.9).astype(np.float64)
    strength = state.copy()
    kern = _rng(5).random((3, 3))
    rows_m = _rng(6).random((s(2000, 20), s(500, 10)))
    mat = _rng(7).random((s(2000, 30), s(2000, 40)))
    vec = _rng(8).random(mat.shape[1])
    x = _rng(9).standard_normal(n1)
    y = _rng(10).standard_normal(n1)
    idx = _rng(11).integers(0, 100, n1)
    fd = (s(20_000, 200), s(200, 40))
    return [
        ("all-pairs distances", "loop", pairwise_loop, pairwise_array, (pts,)),
        ("all-pairs distances", "array", pairwise_array, pairwise_array, (pts,)),
        ("Jacobi 2-D stencil", "loop", jacobi_loop, jacobi_array, (grid, iters)),
        ("Jacobi 2-D stencil", "array", jacobi_array, jacobi_array, (grid, iters)),
        ("Mandelbrot", "loop", mandelbrot_loop, mandelbrot_array, (xs, ys, 100)),
        ("Mandelbrot", "array", mandelbrot_array, mandelbrot_array, (xs, ys, 100)),
        ("growcut", "loop", growcut_loop, None, (img, state, strength, 1)),
        ("FDTD 1-D", "loop", fdtd_loop, fdtd_array, fd),
        ("FDTD 1-D", "array", fdtd_array, fdtd_array, fd),
        ("2-D convolution 3x3", "loop", conv2d_loop, conv2d_array, (img, kern)),
        ("2-D convolution 3x3", "array", conv2d_array, conv2d_array, (img, kern)),
        ("row normalisation", "loop", normalise_loop, normalise_array, (rows_m,)),
        ("row normalisation", "array", normalise_array, normalise_array, (rows_m,)),
        ("log-likelihood", "loop", loglik_loop, loglik_array, (x, 0.1, 1.3)),
        ("log-likelihood", "array", loglik_array, loglik_array, (x, 0.1, 1.3)),
        ("cumulative sum", "loop", cumsum_loop, cumsum_array, (x,)),
        ("cumulative sum", "array", cumsum_array, cumsum_array, (x,)),
        ("mask `a[a < lo] = 0`", "loop", mask_loop, mask_array, (x, 0.2)),
        ("mask `a[a < lo] = 0`", "array", mask_array, mask_array, (x, 0.2)),
        ("matrix-vector", "loop", matvec_loop, matvec_array, (mat, vec)),
        ("matrix-vector", "array", matvec_array, matvec_array, (mat, vec)),
        ("softmax", "loop", softmax_loop, softmax_array, (x,)),
        ("softmax", "array", softmax_array, softmax_array, (x,)),
        ("polyline length", "loop", arclen_loop, arclen_array, (x, y)),
        ("polyline length", "array", arclen_array, arclen_array, (x, y)),
        ("bincount", "loop", bincount_loop, bincount_array, (idx, 100)),
        ("bincount", "array", bincount_array, bincount_array, (idx, 100)),
    ]


def _same(got, want) -> bool:
    if isinstance(want, tuple):
        return (isinstance(got, tuple) and len(got) == len(want)
                and all(_same(g, w) for g, w in zip(got, want)))
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if want.dtype.kind in "iub":
        return bool(np.array_equal(got, want))
    return bool(np.allclose(got, want, rtol=1e-9, atol=1e-12, equal_nan=True))


def _compile(make, fn, args, warm: bool = True):
    """(compiled function or None, short reason it failed).  With ``warm`` the
    function is called until it runs as it will in a loop of calls: hanajit
    generates its native dispatcher once a function has been called
    ``HOT_CALLS`` times (before that each call goes through the Python
    dispatcher, some microseconds), Numba has its dispatcher from the start.
    Samples of one call each (this file's) would otherwise time the first."""
    if make is None:
        return None, "not installed"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            f = make(fn) if make is njit else make(fn, fallback=False)
            for _ in range(HOT_CALLS + 1 if warm else 1):
                f(*args)
        return f, ""
    except Exception as exc:  # noqa: BLE001 - any failure to compile is reported
        msg = str(exc).strip().splitlines()
        return None, f"{type(exc).__name__}: {msg[0][:140] if msg else ''}"


def main(quick: bool = False, use_min: bool = False) -> int:
    stat, stat_name = (min, "Minimum") if use_min else (median, "Median")
    repeats = 1 if quick else 7
    rows, failures, wrong = [], [], []
    counts = {"numba": 0, "hanajit": 0}
    speed = {"numba": [], "hanajit": []}
    loop_vs_numba = []
    cases = _cases(quick)
    for name, style, fn, ref, args in cases:
        want = (ref or fn)(*args)
        comp, marks = {}, {}
        for col, make in (("numba", njit), ("hanajit", jit)):
            f, why = _compile(make, fn, args, warm=not quick)
            if f is None:
                marks[col] = "no"
                failures.append(f"{col}, {name} ({style}): {why}")
                continue
            counts[col] += 1
            ok = _same(f(*args), want)
            marks[col] = "yes" if ok else "WRONG"
            if ok:
                comp[col] = f
            else:
                wrong.append(f"{col}, {name} ({style})")
        cands = {}
        if ref is not None:
            cands["numpy"] = ref
        cands.update(comp)
        times = interleaved({c: (lambda f=f, args=args: f(*args))
                             for c, f in cands.items()},
                            repeats) if cands else {}
        t = {c: stat(v) for c, v in times.items()}
        for col in ("numba", "hanajit"):
            if "numpy" in t and col in t:
                speed[col].append(t["numpy"] / t[col])
        if style == "loop" and "numba" in t and "hanajit" in t:
            loop_vs_numba.append(t["numba"] / t["hanajit"])
        rows.append([
            name, style, marks.get("numba", "--"), marks.get("hanajit", "--"),
            fmt_seconds(t.get("numpy")),
            *ratio_cells(t),
        ])

    gm = geomean_ratio
    notes = [
        (f"{stat_name} of {repeats} interleaved repeats, compile time excluded.  `numpy` "
         "is the kernel's array-style NumPy formulation (growcut has none: its result "
         "is checked against CPython running the same loops).  Ratios above 1: the "
         "second name is faster."),
        (f"Compile and match: numba {counts['numba']}/{len(cases)}, hanajit "
         f"{counts['hanajit']}/{len(cases)}.  Geometric mean vs NumPy: numba "
         f"{gm(speed['numba'])}, hanajit {gm(speed['hanajit'])}; loop-style kernels "
         f"hanajit vs numba: {gm(loop_vs_numba)}."),
    ]
    for f in failures:
        notes.append(f"does not compile: {f}")
    for w in wrong:
        notes.append(f"WRONG RESULT: {w}")
    print_table("Classic NumPy kernels", [
        "kernel", "style", "numba compiles", "hanajit compiles", "numpy",
        "numpy/numba", "numpy/hanajit", "numba/hanajit"], rows, notes)
    # wrong answers fail the run; constructs hanajit does not compile yet do not
    return 1 if wrong else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    ap.add_argument("--min", action="store_true",
                    help="report the fastest repeat instead of the median")
    args = ap.parse_args()
    sys.exit(main(args.quick, args.min))
