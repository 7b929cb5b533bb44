"""Which of 85 everyday kernels compile, with Numba and with hanajit.

The kernels and their arguments are the CPU corpus test's
(``hanajit-cpu/tests/corpus_kernels.py``, ``test_cpu_corpus.py``): small
functions of the kinds users write -- simulations, statistics, image and signal
processing, geometry, linear algebra, string-free data wrangling.  Each is
compiled by ``numba.njit`` and by ``hanajit.jit`` and run once on the test's
arguments; the result is compared with CPython running the same function:
``exact`` (bit for bit), ``near`` (within 1e-12 relative: documented differences
such as vector math or sums in another order), or ``WRONG``.  hanajit's kernels
that fall back to the interpreter count as not compiled.  Timing is not the
point here (``bench_kernels.py`` times the classic kernels at full size).

    python benchmarks/bench_corpus.py
"""
from __future__ import annotations

import importlib.util
import os
import sys
import warnings

import numpy as np
from common import BENCH_DIR, numba_njit, print_table

TESTS = os.path.join(os.path.dirname(BENCH_DIR), "hanajit-cpu", "tests")


def _corpus():
    path = os.path.join(TESTS, "test_cpu_corpus.py")
    spec = importlib.util.spec_from_file_location("hanajit_corpus_test", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _copy(a):
    return a.copy() if isinstance(a, np.ndarray) else a


def _verdict(got, want) -> str:
    if isinstance(want, tuple):
        if not isinstance(got, tuple) or len(got) != len(want):
            return "WRONG"
        parts = [_verdict(g, w) for g, w in zip(got, want)]
        return "WRONG" if "WRONG" in parts else "near" if "near" in parts else "exact"
    try:
        g, w = np.asarray(got), np.asarray(want)
    except Exception:          # noqa: BLE001  (anything unlike an array)
        return "WRONG"
    if g.shape != w.shape:
        return "WRONG"
    if np.array_equal(g, w, equal_nan=True):
        return "exact"
    try:
        if np.allclose(g, w, rtol=1e-12, atol=0, equal_nan=True):
            return "near"
    except TypeError:
        pass
    return "WRONG"


def run_numba(njit, f, args, want) -> str:
    try:
        got = njit(f)(*map(_copy, args))
    except Exception as exc:   # noqa: BLE001  (whatever Numba refuses with)
        return "no: " + type(exc).__name__
    return _verdict(got, want)


def run_hanajit(f, args, want) -> str:
    from hanajit import jit
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = jit(f)(*map(_copy, args))
        except Exception as exc:   # noqa: BLE001  (reported in the table)
            return "error: " + type(exc).__name__
    if any("runs in the interpreter" in str(w.message) for w in caught):
        return "no: falls back"
    return _verdict(got, want)


def main(quick: bool = False) -> int:
    corpus = _corpus()
    njit = numba_njit()
    rows, counts = [], {"numba": [0, 0], "hanajit": [0, 0]}
    for name in sorted(corpus.ARGS):
        f = getattr(corpus.K, name)
        args = corpus.ARGS[name]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = f(*map(_copy, args))
            nb = run_numba(njit, f, args, want) if njit else "not installed"
        hj = run_hanajit(f, args, want)
        for who, v in (("numba", nb), ("hanajit", hj)):
            if v in ("exact", "near"):
                counts[who][0] += 1
            if v == "WRONG":
                counts[who][1] += 1
        rows.append([name, nb, hj])
    print_table("Everyday kernels: compiled and checked against CPython",
                ["kernel", "numba", "hanajit"], rows)
    total = len(rows)
    print(f"\nCompile and match CPython (exact or near): numba {counts['numba'][0]}/{total}, "
          f"hanajit {counts['hanajit'][0]}/{total}.  Wrong results: numba "
          f"{counts['numba'][1]}, hanajit {counts['hanajit'][1]}.")
    return 1 if counts["hanajit"][1] else 0


if __name__ == "__main__":
    sys.exit(main())
