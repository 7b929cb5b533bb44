"""Whole-array expressions: NumPy vs numexpr vs Numba vs hanajit, one thread, one process.

Every expression is written once as a NumPy function.  NumPy runs it as written,
Numba compiles it with ``@njit``, hanajit with ``@jit`` (and again with
``reduce_reassoc=True`` where the expression reduces), and numexpr evaluates the
same expression from a string (``numexpr.set_num_threads(1)``; reductions other
than a final ``sum`` and the slicing are done by NumPy around it).  Results are
checked against NumPy's; repeats are interleaved; figures are medians (``--min``:
the fastest repeat, for a machine shared with other jobs).

Ratios read "how many times faster than NumPy": ``numpy / X`` above 1 means X wins.

    python benchmarks/bench_expr.py [--quick] [--min]
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
    recording_fallbacks,
)
from hanajit import jit

njit = numba_njit()
try:
    import numexpr as ne
    ne.set_num_threads(1)
except ImportError:           # not installed
    ne = None


# -- the expressions ----------------------------------------------------------------
def five_op(a, b):
    return np.sum(np.exp(-a * a) * b + np.where(a > 0, a, 2 * a) - np.clip(b, 0.2, 1.5))


def norm2(a):
    return np.sqrt(np.sum(a * a))


def distances(x, y, px, py):
    return np.sqrt((x - px) ** 2 + (y - py) ** 2)


def loglik(x, mu, sigma):
    return np.sum(-0.5 * ((x - mu) / sigma) ** 2 - np.log(sigma) - 0.9189385332046727)


def stencil(a):
    return 0.25 * a[:-2] + 0.5 * a[1:-1] + 0.25 * a[2:]


def normalise(a):
    return (a - np.mean(a)) / np.std(a)


def sigmoid(a):
    return 1.0 / (1.0 + np.exp(-a))


def haversine(lat, lon, lat0, lon0):
    s1 = np.sin((lat - lat0) * 0.5)
    s2 = np.sin((lon - lon0) * 0.5)
    h = s1 * s1 + np.cos(lat) * np.cos(lat0) * s2 * s2
    return 12742.0 * np.arcsin(np.sqrt(h))


def total(a):
    return np.sum(a)


def dot_self(a, b):
    return np.sum(a * b)


# numexpr spelling of each expression (None: not expressible in one evaluate call)
def _ne_five(a, b):
    return ne.evaluate("sum(exp(-a*a)*b + where(a > 0, a, 2*a)"
                       " - where(b < 0.2, 0.2, where(b > 1.5, 1.5, b)))")


def _ne_norm(a):
    return math.sqrt(ne.evaluate("sum(a*a)"))


def _ne_dist(x, y, px, py):
    return ne.evaluate("sqrt((x - px)**2 + (y - py)**2)")


def _ne_loglik(x, mu, sigma):
    return ne.evaluate("sum(-0.5*((x - mu)/sigma)**2 - log(sigma) - 0.9189385332046727)")


def _ne_stencil(a):
    l, m, r = a[:-2], a[1:-1], a[2:]  # noqa: F841 - numexpr reads the locals
    return ne.evaluate("0.25*l + 0.5*m + 0.25*r")


def _ne_normalise(a):
    mean, std = a.mean(), a.std()  # noqa: F841 - numexpr reads the locals
    return ne.evaluate("(a - mean) / std")


def _ne_sigmoid(a):
    return ne.evaluate("1.0 / (1.0 + exp(-a))")


def _ne_haversine(lat, lon, lat0, lon0):
    return ne.evaluate("12742.0*arcsin(sqrt(sin((lat - lat0)*0.5)**2"
                       " + cos(lat)*cos(lat0)*sin((lon - lon0)*0.5)**2))")


def _ne_total(a):
    return ne.evaluate("sum(a)")


def _ne_dot(a, b):
    return ne.evaluate("sum(a*b)")


# -- inputs ---------------------------------------------------------------------------
def _vec(n, dtype=np.float64, seed=0):
    return np.random.default_rng(seed).standard_normal(n).astype(dtype)


def _pos(n, seed=1):
    return np.random.default_rng(seed).random(n) + 0.5


def _expr_cases(n):
    """name, function, numexpr spelling, args, reduces?"""
    a, b = _vec(n), _vec(n, seed=1)
    lat, lon = _vec(n, seed=2) * 0.5, _vec(n, seed=3)
    return [
        ("5-op `np.sum(np.exp(-a*a)*b + np.where(...) - np.clip(...))`", five_op,
         _ne_five, (a, b), True),
        ("L2 norm `np.sqrt(np.sum(a*a))`", norm2, _ne_norm, (a,), True),
        ("distances to a point", distances, _ne_dist, (a, b, 0.3, -0.2), False),
        ("Gaussian log-likelihood", loglik, _ne_loglik, (a, 0.1, 1.3), True),
        ("1-D stencil `0.25*a[:-2] + 0.5*a[1:-1] + 0.25*a[2:]`", stencil, _ne_stencil,
         (a,), False),
        ("normalisation `(a - mean) / std`", normalise, _ne_normalise, (a,), True),
        ("sigmoid `1 / (1 + exp(-a))`", sigmoid, _ne_sigmoid, (a,), False),
        ("haversine distances (sin, cos, arcsin, sqrt)", haversine, _ne_haversine,
         (lat, lon, 0.2, 0.1), False),
        ("reversed copy `np.flip(a).copy()`", flip_copy, None, (a,), False),
        ("reversed operand `a[::-1] * b`", reversed_times, None, (a, b), False),
    ]


def flip_copy(a):
    return np.flip(a).copy()


def reversed_times(a, b):
    return a[::-1] * b


def _reduction_cases(sizes):
    out = []
    for n in sizes:
        for dtype in (np.float64, np.float32):
            a, b = _vec(n, dtype), _vec(n, dtype, seed=1)
            tag = f"{np.dtype(dtype).name}, n={n:.0e}"
            out.append((f"`np.sum(a)` ({tag})", total, _ne_total, (a,), True))
            out.append((f"`np.sum(a*b)` ({tag})", dot_self, _ne_dot, (a, b), True))
            out.append((f"`np.max(a)` ({tag})", a_max, None, (a,), False))
            out.append((f"`np.argmax(a)` ({tag})", arg_max, None, (a,), False))
            # a zero extreme (ReLU outputs, distances): NumPy's pick among zeros
            relu = np.maximum(a, 0)
            out.append((f"`np.min(a)`, a >= 0 with zeros ({tag})", a_min, None, (relu,),
                        False))
            out.append((f"`np.max(a)`, a <= 0 with zeros -0.0 ({tag})", a_max, None,
                        (-relu,), False))
    rng = np.random.default_rng(11)
    for dtype in (np.int8, np.uint16, np.int32, np.int64):
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, sizes[0], dtype=dtype, endpoint=True)
        tag = f"{np.dtype(dtype).name}, n={sizes[0]:.0e}"
        out.append((f"`np.argmax(a)` ({tag})", arg_max, None, (a,), False))
    return out


def _axis_cases():
    """Reductions along one axis of a 1000x1000 matrix, and over a tuple of axes
    (lib/arrays/axis_reduce.py)."""
    rng = np.random.default_rng(7)
    m = rng.standard_normal((1000, 1000))
    k = rng.integers(0, 1000, (1000, 1000))
    tall = rng.standard_normal((100_000, 10))
    img = rng.random((1000, 1000, 3))
    cube = rng.standard_normal((100, 100, 100))
    rows = rng.standard_normal((10_000, 100))
    return [("`np.max(m, axis=0)`", max0, None, (m,), False),
            ("`np.max(m, axis=1)`", max1, None, (m,), False),
            ("`np.max(m, axis=1)`, 100000x10", max1, None, (tall,), False),
            ("`np.min(m.astype(float32), axis=0)`", min0, None, (m.astype(np.float32),),
             False),
            ("`np.argmax(m, axis=0)`", argmax0, None, (m,), False),
            ("`np.argmax(m, axis=1)`", argmax1, None, (m,), False),
            ("`np.argmax(m, axis=1)`, float32", argmax1, None, (m.astype(np.float32),), False),
            ("`np.argmax(m, axis=1)`, 10000x100", argmax1, None, (rows,), False),
            ("`np.argmax(m, axis=1)`, 10000x100 float32", argmax1, None,
             (rows.astype(np.float32),), False),
            ("`np.argmax(k, axis=1)`, int64", argmax1, None, (k,), False),
            ("`np.argmax(k, axis=1)`, int32 10000x100", argmax1, None,
             (k[:, :100].astype(np.int32).repeat(10, axis=0),), False),
            ("`np.sum(k, axis=0)`, int64", sum0, None, (k,), False),
            ("`np.any(m > 2, axis=0)`", any0, None, (m,), False),
            ("`(m * 2).max(axis=0)`", expr_max0, None, (m,), False),
            ("`img.mean(axis=(0, 1))`, 1000x1000x3", mean01, None, (img,), False),
            ("`c.sum(axis=(0, 2))`, 100x100x100", sum02, None, (cube,), False),
            ("`c.max(axis=(0, 1))`, 100x100x100", max01, None, (cube,), False),
            ("`c.max(axis=(0, 2))`, 100x100x100", max02, None, (cube,), False),
            ("`np.asfortranarray(c).max(axis=(0, 2))`, 100x100x100", max02, None,
             (np.asfortranarray(cube),), False),
            ("`c[::2].sum(axis=(0, 2))`, 100x100x100", sum02, None, (cube[::2],), False),
            ("`c[:, :, ::2].max(axis=(0, 1))`, 100x100x100", max01, None, (cube[:, :, ::2],),
             False),
            ("`c.transpose(1, 0, 2).sum(axis=(0, 2))`, 100x100x100", sum02, None,
             (cube.transpose(1, 0, 2),), False)]


def a_max(a):
    return np.max(a)


def a_min(a):
    return np.min(a)


def max0(m):
    return np.max(m, axis=0)


def max1(m):
    return np.max(m, axis=1)


def min0(m):
    return np.min(m, axis=0)


def argmax0(m):
    return np.argmax(m, axis=0)


def argmax1(m):
    return np.argmax(m, axis=1)


def sum0(m):
    return np.sum(m, axis=0)


def any0(m):
    return np.any(m > 2, axis=0)


def expr_max0(m):
    return (m * 2).max(axis=0)


def mean01(img):
    return img.mean(axis=(0, 1))


def sum02(c):
    return c.sum(axis=(0, 2))


def max02(c):
    return c.max(axis=(0, 2))


def max01(c):
    return c.max(axis=(0, 1))


def arg_max(a):
    return np.argmax(a)


def sort(a):
    return np.sort(a)


def argsort(a):
    return np.argsort(a)


def unique(a):
    return np.unique(a)


def _sort_cases(n):
    """NumPy's own sort functions, called from compiled code (numpy_sorts.py)."""
    a = _vec(n, seed=4)
    r = np.random.default_rng(5).integers(0, n // 10 + 1, n)
    few = np.random.default_rng(6).integers(0, 1000, n)
    digits = np.random.default_rng(7).integers(0, 10, n).astype(np.float64)
    return [("`np.sort(a)`", sort, None, (a,), False),
            ("`np.argsort(a)`", argsort, None, (a,), False),
            ("`np.unique(r)`, int64, a tenth distinct", unique, None, (r,), False),
            ("`np.unique(r)`, int64, 1000 distinct", unique, None, (few,), False),
            ("`np.percentile(a, 30)`", percentile30, None, (a,), False),
            ("`np.percentile(a, [25, 50, 75])`", quartiles, None, (a,), False),
            ("`np.median(a)`", median_of, None, (a,), False),
            ("`np.median(d)`, ten distinct values", median_of, None, (digits,), False),
            ("`np.percentile(s, 30)`, sorted", percentile30, None, (np.sort(a),), False),
            ("`np.percentile(a, 30)`, n=1e4", percentile30, None, (a[:10_000].copy(),), False),
            ("`np.median(m, axis=1)`, 20x2000", median_rows, None,
             (np.random.default_rng(8).standard_normal((20, 2000)),), False)]


def median_rows(m):
    return np.median(m, axis=1)


def percentile30(a):
    return np.percentile(a, 30.0)


def quartiles(a):
    return np.percentile(a, [25.0, 50.0, 75.0])


def median_of(a):
    return np.median(a)


# -- single math functions: libmvec against scalar libm ----------------------------------
def v_exp(a):
    return np.exp(a)


def v_log(a):
    return np.log(a)


def v_sin(a):
    return np.sin(a)


def v_cos(a):
    return np.cos(a)


def v_tanh(a):
    return np.tanh(a)


def v_pow(a, b):
    """pow `a ** b`"""
    return a ** b


def v_sum_exp(a):
    """`np.sum(np.exp(a))`"""
    return np.sum(np.exp(a))


def vecmath_table(n, repeats, fallbacks, errors):
    """Each function over n elements, float64 and float32: NumPy, Numba, hanajit with
    scalar libm calls (``HANAJIT_VECMATH=0`` while compiling) and vectorised."""
    import os
    rows = []
    for fn in (v_exp, v_log, v_sin, v_cos, v_tanh, v_pow, v_sum_exp):
        for dtype in (np.float64, np.float32):
            a = (_pos(n) * 4.0).astype(dtype)
            args = (a, (_pos(n, 2)).astype(dtype)) if fn is v_pow else (a,)
            old = os.environ.get("HANAJIT_VECMATH")
            os.environ["HANAJIT_VECMATH"] = "0"
            try:
                scalar = jit(fn)
                with recording_fallbacks(fallbacks):
                    scalar(*args)
            finally:
                if old is None:
                    del os.environ["HANAJIT_VECMATH"]
                else:
                    os.environ["HANAJIT_VECMATH"] = old
            cands = {"numpy": fn}
            if njit is not None:
                cands["numba"] = njit(fn)
            cands["scalar libm"] = scalar
            cands["vector"] = jit(fn)
            want = fn(*args)
            for col, f in list(cands.items())[1:]:
                with recording_fallbacks(fallbacks):
                    got = f(*args)
                if not _close(got, want, dtype):
                    errors.append(f"{fn.__name__}: {col}")
            times = interleaved({c: (lambda f=f, args=args: f(*args))
                             for c, f in cands.items()},
                                repeats)
            t = {c: STAT[0](v) for c, v in times.items()}
            label = fn.__doc__ or fn.__name__.removeprefix("v_")
            rows.append([f"{label} ({np.dtype(dtype).name})", fmt_seconds(t["numpy"])] + [
                fmt_ratio(t["numpy"] / t[c]) if c in t else "--"
                for c in ("numba", "scalar libm", "vector")] + [
                fmt_ratio(t["scalar libm"] / t["vector"])])
    return rows


# -- running --------------------------------------------------------------------------
def _close(got, want, dtype) -> bool:
    rtol = 1e-4 if dtype == np.float32 else 1e-9
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape:
        return False
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    return bool(np.allclose(got, want, rtol=rtol, atol=rtol * scale * 1e-3,
                            equal_nan=True))


def run_cases(cases, repeats, fallbacks, errors):
    """Time every case; return rows of (name, numpy seconds, {column: seconds})."""
    results = []
    for name, fn, ne_fn, args, reduces in cases:
        dtype = next(a.dtype for a in args if isinstance(a, np.ndarray))
        cands = {"numpy": fn}
        if ne is not None and ne_fn is not None:
            cands["numexpr"] = ne_fn
        if njit is not None:
            cands["numba"] = njit(fn)
        cands["hanajit"] = jit(fn)
        if reduces:
            cands["hanajit reassoc"] = jit(fn, reduce_reassoc=True)
        want = fn(*args)
        for col, f in list(cands.items())[1:]:
            try:
                with recording_fallbacks(fallbacks):
                    got = f(*args)                     # compile, and check
            except Exception:                          # noqa: BLE001
                if col != "numba":
                    raise
                del cands[col]             # Numba does not compile it: "--"
                continue
            if not _close(got, want, dtype):
                errors.append(f"{name}: {col} gives {np.ravel(got)[:3]}, "
                              f"NumPy {np.ravel(want)[:3]}")
        times = interleaved({c: (lambda f=f, args=args: f(*args))
                             for c, f in cands.items()},
                            repeats)
        results.append((name, {c: STAT[0](t) for c, t in times.items()}))
    return results


STAT = [median, "median"]          # main(use_min=True): [min, "minimum"]
COLUMNS = ("numexpr", "numba", "hanajit", "hanajit reassoc")


def _rows(results):
    rows = []
    for name, t in results:
        rows.append([name, fmt_seconds(t["numpy"])] +
                    [fmt_ratio(t["numpy"] / t[c]) if c in t else "--" for c in COLUMNS])
    return rows


def _geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main(quick: bool = False, use_min: bool = False) -> int:
    STAT[:] = [min, "minimum"] if use_min else [median, "median"]
    n = 10_000 if quick else 1_000_000
    sizes = (10_000,) if quick else (1_000_000, 10_000_000)
    repeats = 1 if quick else 11
    fallbacks, errors = [], []
    headers = ["expression", "numpy", "numpy/numexpr", "numpy/numba", "numpy/hanajit",
               "numpy/hanajit reassoc"]
    expr = run_cases(_expr_cases(n), repeats, fallbacks, errors)
    red = run_cases(_reduction_cases(sizes) + _axis_cases(), repeats, fallbacks, errors)
    srt = run_cases(_sort_cases(n), repeats, fallbacks, errors)
    note = (f"float64 unless stated, n = {n:,}; {STAT[1]} of {repeats} interleaved "
            "repeats, "
            "one thread (numexpr set to 1), compile time excluded.  Ratios above 1 "
            "mean faster than NumPy.  `reassoc` is `@jit(reduce_reassoc=True)` "
            "(only for expressions that reduce).")
    notes = [note]
    for f in dict.fromkeys(fallbacks):
        notes.append(f"FALLBACK (timed in the interpreter, not compiled): {f}")
    for e in errors:
        notes.append(f"WRONG RESULT: {e}")
    print_table("Whole-array expressions", headers, _rows(expr), notes)
    print_table("Reductions", headers, _rows(red),
                [f"{STAT[1]} of {repeats} interleaved repeats, one thread; `m`: 1000x1000 "
                 "float64 unless stated."])
    print_table("Sorting", headers, _rows(srt),
                [f"n = {n:,} float64 values (`r`: int64); {STAT[1]} of {repeats} "
                 "interleaved repeats.  hanajit calls NumPy's own sort functions "
                 "(`lib/sorting/numpy_sorts.py`): NumPy's order of equal values.  "
                 "`np.unique` of integers finds the distinct values with a hash "
                 "table, as NumPy 2 does, up to 65,536 of them "
                 "(`sort_algorithms.unique_ints`), then sorts them."])
    vrows = vecmath_table(n, repeats, fallbacks, errors)
    print_table("Vector math", ["function", "numpy", "numpy/numba",
                                "numpy/hanajit scalar libm", "numpy/hanajit vector",
                                "vector speed-up"], vrows,
                [(f"n = {n:,} (inputs in (2, 6); pow: exponents in (0.5, 1.5)); "
                  "`scalar libm` is hanajit compiled with HANAJIT_VECMATH=0; `vector` "
                  "is the default: libmvec, and hanajit's own exp (vexp.py).")])

    # the fusion issue's targets, computed from the tables above
    t5 = expr[0][1]
    kernels = [t["numpy"] / min(t["hanajit"], t.get("hanajit reassoc", math.inf))
               for _, t in expr]
    by = {name: t for name, t in red}
    trows = [["5-op expression vs NumPy (>= 3x)",
              fmt_ratio(t5["numpy"] / t5["hanajit"]),
              fmt_ratio(t5["numpy"] / t5["hanajit reassoc"]) + " (reassoc)"]]
    if "numba" in t5:
        trows.append(["5-op expression vs Numba (>= 4x)",
                      fmt_ratio(t5["numba"] / t5["hanajit"]),
                      fmt_ratio(t5["numba"] / t5["hanajit reassoc"]) + " (reassoc)"])
    trows.append(["expression kernels, geometric mean vs NumPy (>= 1.5x)",
                  fmt_ratio(_geomean([t["numpy"] / t["hanajit"] for _, t in expr])),
                  "default mode"])
    trows.append(["expression kernels, geometric mean vs NumPy (>= 1.5x)",
                  fmt_ratio(_geomean(kernels)), "reduce_reassoc where it applies"])
    for size in sizes:
        k64 = f"`np.sum(a)` (float64, n={size:.0e})"
        k32 = f"`np.sum(a)` (float32, n={size:.0e})"
        t64, t32 = by[k64], by[k32]
        trows.append([f"reassoc `np.sum` vs NumPy, n={size:.0e} (>= 0.9x)",
                      fmt_ratio(t64["numpy"] / t64["hanajit reassoc"]),
                      "float64"])
        trows.append([f"float32 vs float64 sum, reassoc, n={size:.0e} (>= 1.8x)",
                      fmt_ratio(t64["hanajit reassoc"] / t32["hanajit reassoc"]),
                      "memory-bound"])
    print_table("Fusion issue targets (from the tables above)",
                ["target", "measured", "note"], trows)
    return 1 if errors or fallbacks else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    ap.add_argument("--min", action="store_true",
                    help="report the fastest repeat instead of the median")
    args = ap.parse_args()
    sys.exit(main(args.quick, args.min))
