"""Random numbers: hanajit vs ``numba.njit`` vs NumPy (vectorised), in one process.

Each kernel takes a ``np.random.Generator`` (PCG64).  hanajit draws from it
through NumPy's bit generator and NumPy's algorithms, so its result equals the
interpreter's for the same seed (checked here on a small size); numba draws
from the same bit generator with its own distribution code; NumPy draws a whole
array of samples at once and reduces it.  Figures are per draw (a pi sample is
two uniforms; a walk step one normal; a Brownian path ``steps`` normals).

The parallel Monte Carlo pi runs a ``prange`` loop: hanajit gives each chunk
its own stream derived from the generator (``hanajit.parallel_streams``; its
result is checked against that interpreter equivalent), numba
(``parallel=True``) draws with ``np.random.random()`` from its own per-thread
states (a ``Generator`` shared by numba's threads would race).  Both on all the
threads this process may use.

Ratios read "how many times faster hanajit is".

    python benchmarks/bench_random.py [--quick]
"""
from __future__ import annotations

import argparse
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

from hanajit import get_num_threads, jit, prange
from hanajit import parallel_streams as ps
from hanajit.philox import philox_random, philox_stream

njit = numba_njit()
if njit is not None:
    from numba import prange as numba_prange


# -- kernels ------------------------------------------------------------------------
def mc_pi(rng, n):
    inside = 0
    for _ in range(n):
        x = rng.random()
        y = rng.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def mc_pi_numpy(rng, n):
    x = rng.random(n)
    y = rng.random(n)
    return 4.0 * np.count_nonzero(x * x + y * y < 1.0) / n


def mc_pi_parallel(rng, n):
    inside = 0
    for _ in prange(n):
        x = rng.random()
        y = rng.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def mc_pi_parallel_interpreted(rng, n):
    """``mc_pi_parallel`` as hanajit runs it, in plain NumPy (its documented
    interpreter equivalent)."""
    chunks = ps.num_chunks(n, get_num_threads())
    inside = 0
    for k, g in enumerate(ps.parallel_streams(rng, chunks)):
        lo, hi = ps.chunk_bounds(k, chunks, n)
        u = g.random(2 * (hi - lo))       # x, y, x, y ... as the loop draws them
        inside += int(np.count_nonzero(u[0::2] * u[0::2] + u[1::2] * u[1::2] < 1.0))
    ps.advance(rng, chunks)
    return 4.0 * inside / n


def mc_pi_numba_parallel(n):
    inside = 0
    for _ in numba_prange(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def _parallel_row(quick, repeats, errors, fallbacks):
    n = 10**5 if quick else 4 * 10**7
    hj = jit(mc_pi_parallel)
    with recording_fallbacks(fallbacks):
        got = hj(np.random.default_rng(1), n // 100)
    if got != mc_pi_parallel_interpreted(np.random.default_rng(1), n // 100):
        errors.append("parallel pi: hanajit differs from its interpreter equivalent")
    rng = np.random.default_rng(2)
    cands = {"hanajit": lambda: hj(rng, n), "numpy": lambda: mc_pi_numpy(rng, n)}
    if njit is not None:
        nb = njit(parallel=True)(mc_pi_numba_parallel)
        nb(n // 100)
        cands["numba"] = lambda: nb(n)
    times = interleaved(cands, repeats)
    t_hj, t_np = median(times["hanajit"]), median(times["numpy"])
    t_nb = median(times["numba"]) if njit is not None else None
    draws = 2 * n
    return [f"Monte Carlo pi, prange on {get_num_threads()} threads", f"{draws:,}",
            fmt_seconds(t_hj / draws), fmt_seconds(t_nb / draws if t_nb else None),
            fmt_seconds(t_np / draws), fmt_ratio(t_nb / t_hj if t_nb else None),
            fmt_ratio(t_np / t_hj)]


def walk(rng, n):
    x = 0.0
    far = 0.0
    for _ in range(n):
        x += rng.standard_normal()
        far = max(far, abs(x))
    return far


def walk_numpy(rng, n):
    return float(np.max(np.abs(np.cumsum(rng.standard_normal(n)))))


def brownian(rng, paths, steps):
    """Geometric Brownian motion: the mean final value of ``paths`` paths."""
    dt = 1.0 / steps
    total = 0.0
    for _ in range(paths):
        s = 1.0
        for _ in range(steps):
            s *= 1.0 + 0.05 * dt + 0.2 * np.sqrt(dt) * rng.standard_normal()
        total += s
    return total / paths


def brownian_numpy(rng, paths, steps):
    dt = 1.0 / steps
    z = rng.standard_normal((paths, steps))
    return float(np.mean(np.prod(1.0 + 0.05 * dt + 0.2 * np.sqrt(dt) * z, axis=1)))


def mc_pi_philox(key, stream, n):
    """Monte Carlo pi on one ``hanajit.philox`` stream (what a GPU thread runs)."""
    s = philox_stream(key, stream)
    inside = 0
    for _ in range(n):
        x, s = philox_random(s)
        y, s = philox_random(s)
        if x * x + y * y < 1.0:
            inside += 1
    return 4.0 * inside / n


def _philox_generator(key, stream):
    return np.random.Generator(np.random.Philox(key=key, counter=stream << 128))


def philox_table(quick: bool) -> tuple:
    """Monte Carlo pi on a Philox stream: ``hanajit.philox`` compiled vs the same
    stream drawn through ``np.random.Generator(np.random.Philox)`` (hanajit's
    Generator path, and NumPy vectorised); the estimates must be equal."""
    repeats = 3 if quick else 7
    n = 10**5 if quick else 4 * 10**6
    hj_stream, hj_gen = jit(mc_pi_philox), jit(mc_pi)
    errors = []
    small = max(1, n // 100)
    want = mc_pi(_philox_generator(7, 3), small)        # the interpreter, NumPy's draws
    for who, got in (("hanajit.philox", hj_stream(np.uint64(7), np.uint64(3), small)),
                     ("hanajit.philox interpreted", mc_pi_philox(7, 3, small))):
        if got != want:
            errors.append(f"Monte Carlo pi on Philox: {who} {got!r} != NumPy {want!r}")
    cands = {"stream": lambda: hj_stream(np.uint64(7), np.uint64(3), n),
             "generator": lambda: hj_gen(_philox_generator(7, 3), n),
             "numpy": lambda: mc_pi_numpy(_philox_generator(7, 3), n)}
    times = {k: median(v) for k, v in interleaved(cands, repeats).items()}
    draws = 2 * n
    rows = [["Monte Carlo pi (2 uniforms / sample)", f"{draws:,}",
             fmt_seconds(times["stream"] / draws), fmt_seconds(times["generator"] / draws),
             fmt_seconds(times["numpy"] / draws),
             fmt_ratio(times["generator"] / times["stream"]),
             fmt_ratio(times["numpy"] / times["stream"])]]
    notes = [f"Per draw; median of {repeats} interleaved repeats; compile time "
             "excluded. The same Philox stream (key 7, stream 3) in every column "
             "(NumPy draws all x, then all y); ratios above 1 mean hanajit.philox "
             "is faster."]
    notes += [f"WRONG RESULT: {e}" for e in errors]
    return rows, notes, errors


# -- whole arrays of NumPy's own draws: the same call compiled and in NumPy -----------
def ints_uint16(rng, n):
    return rng.integers(0, 1000, n, dtype=np.uint16)


def ints_uint16_full(rng, n):
    return rng.integers(0, 2**16, n, dtype=np.uint16)


def ints_int32(rng, n):
    return rng.integers(-5, 10**6, n, dtype=np.int32)


def ints_uint8(rng, n):
    return rng.integers(0, 100, n, dtype=np.uint8)


def ints_bool(rng, n):
    return rng.integers(0, 2, n, dtype=bool)


def randint_uint8(rng, n):
    return np.random.randint(0, 100, n, dtype=np.uint8)


def randint_uint16(rng, n):
    return np.random.randint(0, 1000, n, dtype=np.uint16)


def binomial_inversion(rng, n):
    return rng.binomial(100, 0.3, n)


def binomial_btpe(rng, n):
    return rng.binomial(1000, 0.3, n)


ARRAY_CASES = (("rng.integers(0, 1000, n, dtype=np.uint16)", ints_uint16),
               ("rng.integers(0, 2**16, n, dtype=np.uint16)", ints_uint16_full),
               ("rng.integers(-5, 10**6, n, dtype=np.int32)", ints_int32),
               ("rng.integers(0, 100, n, dtype=np.uint8)", ints_uint8),
               ("rng.integers(0, 2, n, dtype=bool)", ints_bool),
               ("np.random.randint(0, 100, n, dtype=np.uint8)", randint_uint8),
               ("np.random.randint(0, 1000, n, dtype=np.uint16)", randint_uint16),
               ("rng.binomial(100, 0.3, n) (inversion)", binomial_inversion),
               ("rng.binomial(1000, 0.3, n) (BTPE)", binomial_btpe))


def array_table(quick: bool) -> tuple:
    """NumPy's draws of a whole array, compiled (hanajit calls NumPy's
    algorithms on the generator's bit generator) and in NumPy itself: the same
    values (checked), so the ratio is the loops' cost alone."""
    repeats = 3 if quick else 9
    n = 10**5 if quick else 10**6
    rows, errors, fallbacks = [], [], []
    for name, py in ARRAY_CASES:
        hj = jit(py)
        with recording_fallbacks(fallbacks):
            np.random.seed(3)
            got = hj(np.random.default_rng(1), 1000)
        np.random.seed(3)
        if got.tobytes() != py(np.random.default_rng(1), 1000).tobytes():
            errors.append(f"{name}: hanajit differs from NumPy for the same seed")
        cands = {"hanajit": lambda: hj(np.random.default_rng(1), n),
                 "numpy": lambda: py(np.random.default_rng(1), n)}
        times = {k: min(v) for k, v in interleaved(cands, repeats).items()}
        rows.append([name, f"{n:,}", fmt_seconds(times["hanajit"] / n),
                     fmt_seconds(times["numpy"] / n),
                     fmt_ratio(times["hanajit"] / times["numpy"])])
    notes = [f"Per value; best of {repeats} interleaved calls, a fresh generator each "
             "(default_rng(1)); compile time excluded. The last column is hanajit's "
             "time over NumPy's: below 1 hanajit is faster."]
    notes += [f"FALLBACK (timed in the interpreter, not compiled): {f}"
              for f in dict.fromkeys(fallbacks)]
    notes += [f"WRONG RESULT: {e}" for e in errors]
    return rows, notes, errors + fallbacks


def _cases(quick):
    n = 10**5 if quick else 4 * 10**6
    paths, steps = (100, 100) if quick else (2000, 1000)
    return [
        ("Monte Carlo pi (2 uniforms / sample)", mc_pi, mc_pi_numpy, (n,), 2 * n),
        ("random walk, max |x| (1 normal / step)", walk, walk_numpy, (n,), n),
        ("Brownian paths (1 normal / step)", brownian, brownian_numpy, (paths, steps),
         paths * steps),
    ]


def main(quick: bool = False) -> int:
    repeats = 3 if quick else 7
    rows, notes, fallbacks, errors = [], [], [], []
    for name, py, vec, args, draws in _cases(quick):
        hj = jit(py)
        nb = njit(py) if njit is not None else None
        small = tuple(max(1, a // 100) for a in args)
        with recording_fallbacks(fallbacks):
            got = hj(np.random.default_rng(1), *small)
        if got != py(np.random.default_rng(1), *small):
            errors.append(f"{name}: hanajit differs from the interpreter "
                          "for the same seed")
        if nb is not None:
            nb(np.random.default_rng(1), *small)
        rng = np.random.default_rng(2)
        cands = {"hanajit": lambda: hj(rng, *args), "numpy": lambda: vec(rng, *args)}
        if nb is not None:
            cands["numba"] = lambda: nb(rng, *args)
        times = interleaved(cands, repeats)
        t_hj, t_np = median(times["hanajit"]), median(times["numpy"])
        t_nb = median(times["numba"]) if nb is not None else None
        rows.append([name, f"{draws:,}", fmt_seconds(t_hj / draws),
                     fmt_seconds(t_nb / draws if t_nb else None),
                     fmt_seconds(t_np / draws), fmt_ratio(t_nb / t_hj if t_nb else None),
                     fmt_ratio(t_np / t_hj)])
    rows.append(_parallel_row(quick, repeats, errors, fallbacks))
    notes.append(f"Per draw; median of {repeats} interleaved repeats; compile time "
                 "excluded. Ratios above 1 mean hanajit is faster. NumPy's column "
                 "allocates the samples (vectorised), the loops do not.")
    if njit is None:
        notes.append("numba is not installed: its column is empty.")
    for f in dict.fromkeys(fallbacks):
        notes.append(f"FALLBACK (timed in the interpreter, not compiled): {f}")
    for e in errors:
        notes.append(f"WRONG RESULT: {e}")
    print_table("Random numbers (np.random.Generator, PCG64)",
                ["kernel", "draws", "hanajit", "numba", "numpy (vectorised)",
                 "numba/hanajit", "numpy/hanajit"], rows, notes)
    rows, notes, wrong_arrays = array_table(quick)
    print_table("Whole arrays of NumPy's draws (the same call compiled and in NumPy)",
                ["call", "values", "hanajit", "numpy", "hanajit/numpy"], rows, notes)
    rows, notes, wrong = philox_table(quick)
    print_table("Counter-based streams (hanajit.philox vs np.random.Philox)",
                ["kernel", "draws", "hanajit.philox", "hanajit, Generator(Philox)",
                 "numpy (vectorised)", "Generator/philox", "numpy/philox"], rows, notes)
    return 1 if errors or fallbacks or wrong or wrong_arrays else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes, few repeats")
    sys.exit(main(ap.parse_args().quick))
