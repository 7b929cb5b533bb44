"""Compile time of functions that call NumPy's algorithms (sort, median, quantile,
sum): the first such function of a process and the ones after it, hanajit with
its large callees compiled once per process and linked (``HANAJIT_SHARE_HELPERS``,
the default), hanajit compiling them into every caller (``=0``), and Numba.

Each probe is written ``count + 1`` times to a temporary module, so each copy is a
new function with its own source; all run in this one process.  "first" is the
first copy's compile (for hanajit after a warm-up compile of the probe at float32:
LLVM, the compiler and the library's modules are loaded), "later" the median of
the other copies'.  Each result is
checked against NumPy's.  These compile every piece: the library cache
(``HANAJIT_LIBRARY_CACHE``, docs/cache.md) is off for them.

A second table times the first library call of a fresh process
(``library_probe.py``, one process per probe): Numba, hanajit with an empty
library cache, and hanajit in a later process, which links the pieces the first
one left in the cache instead of compiling them.

    python benchmarks/bench_compile_library.py [--quick]
"""
from __future__ import annotations

import argparse
import importlib
import os
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from common import fmt_ratio, fmt_seconds, numba_njit, print_table

PROBES = {
    "np.sort(a)": "def {name}(a):\n    return np.sort(a)\n",
    "np.median(a, axis=0)": "def {name}(a):\n    return np.median(a, axis=0)\n",
    "np.quantile(a, 0.3)": "def {name}(a):\n    return np.quantile(a, 0.3)\n",
    "np.sum(a)": "def {name}(a):\n    return np.sum(a)\n",
    # sums of expressions, fused: NumPy's pairwise order without the temporary
    "np.sum(np.sqrt(a * 3.0 + a))": "def {name}(a):\n    return np.sum(np.sqrt(a * 3.0 + a))\n",
    "np.mean(a[:, 0] * a[:, 1])": "def {name}(a):\n    return np.mean(a[:, 0] * a[:, 1])\n",
}
_MODES = ("shared", "whole")


def _module(count: int):
    folder = tempfile.mkdtemp(prefix="hanajit-bench-lib-")
    src = ["import numpy as np\n"]
    for k, template in enumerate(PROBES.values()):
        for mode in (*_MODES, "numba"):
            src += [template.format(name=f"p{k}_{mode}_{i}") for i in range(count + 1)]
    with open(os.path.join(folder, "library_probes.py"), "w") as fh:
        fh.write("".join(src))
    sys.path.insert(0, folder)
    return importlib.import_module("library_probes")


def _compile_seconds(make, args, want, exact=True) -> float:
    import numpy as np
    f = make()
    t0 = time.perf_counter()
    got = f(*args)
    spent = time.perf_counter() - t0
    same = np.array_equal if exact else np.allclose   # (Numba sums in index order)
    if not same(np.asarray(got), np.asarray(want)):
        raise AssertionError(f"WRONG RESULT: {got!r} != {want!r}")
    return spent


def main(quick: bool = False) -> int:
    import warnings

    import numpy as np

    from hanajit import jit
    from hanajit.errors import HanaJitFallbackWarning
    count = 0 if quick else 8       # (quick: one compile per mode, no 'later')
    njit = numba_njit()
    mod = _module(count)
    a = np.random.default_rng(0).random((64, 9))
    os.environ.pop("HANAJIT_VERIFY", None)          # what a user gets
    os.environ["HANAJIT_LIBRARY_CACHE"] = "0"       # (compiled here, not linked)
    jit(lambda x: x + 1.0)(1.0)                     # LLVM and the compiler loaded
    rows, status = [], 0
    with warnings.catch_warnings():
        warnings.simplefilter("error", HanaJitFallbackWarning)
        for k, (label, template) in enumerate(PROBES.items()):
            want = getattr(mod, f"p{k}_whole_0")(a)
            # the library's Python modules imported and compiled, at another dtype
            if not quick:
                os.environ["HANAJIT_SHARE_HELPERS"] = "0"
                jit(getattr(mod, f"p{k}_whole_0"))(a.astype(np.float32))
            times = {}
            for mode in (*_MODES, "numba"):
                if mode == "numba" and (njit is None or quick):    # (quick: ours only)
                    continue
                if mode != "numba":
                    os.environ["HANAJIT_SHARE_HELPERS"] = "1" if mode == "shared" else "0"
                wrap = njit if mode == "numba" else jit
                try:
                    spent = [_compile_seconds(lambda i=i: wrap(getattr(
                        mod, f"p{k}_{mode}_{i}")), (a,), want, mode != "numba")
                        for i in range(count + 1)]
                except Exception as exc:
                    if mode == "numba":         # (Numba: no np.median(axis=), say)
                        continue
                    print(f"{label} ({mode}): {'FALLBACK' if isinstance(exc, Warning) else ''}"
                          f" {exc}")
                    status = 1
                    continue
                times[mode] = (spent[0], statistics.median(spent[1:]) if count else None)
            os.environ.pop("HANAJIT_SHARE_HELPERS", None)
            sh, wh, nb = times.get("shared"), times.get("whole"), times.get("numba")
            rows.append([f"`{label}`",
                         fmt_seconds(sh and sh[0]), fmt_seconds(sh and sh[1]),
                         fmt_seconds(wh and wh[0]), fmt_seconds(wh and wh[1]),
                         fmt_seconds(nb and nb[0]), fmt_seconds(nb and nb[1]),
                         fmt_ratio(wh[1] / sh[1] if sh and wh and count else None),
                         fmt_ratio(nb[1] / sh[1] if sh and nb and count else None)])
    print_table("Compile time of callers of NumPy's algorithms (`bench_compile_library.py`)",
                ["function", "shared first", "shared later", "whole first", "whole later",
                 "numba first", "numba later", "whole/shared later",
                 "numba/shared later"], rows,
                notes=[f"{count} later copies per probe; one process; `shared` is the "
                       "default (large callees compiled once per process and linked), "
                       "`whole` is `HANAJIT_SHARE_HELPERS=0`."])
    os.environ.pop("HANAJIT_LIBRARY_CACHE", None)
    return status | _first_in_a_process(quick, njit is not None)


def _probe(which: str, name: str, cache_dir: str) -> float | None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    env["HANAJIT_CACHE_DIR"] = cache_dir
    proc = subprocess.run([sys.executable, os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "library_probe.py"), which, name],
        capture_output=True, text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"library_probe.py {which} {name!r} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])[name]


def _first_in_a_process(quick: bool, numba: bool) -> int:
    from library_probe import PROBES
    names = list(PROBES)[:1] if quick else list(PROBES)
    rows, status = [], 0
    for name in names:
        cache_dir = tempfile.mkdtemp(prefix="hanajit-bench-libcache-")
        try:
            cold = _probe("hanajit", name, cache_dir)
            warm = _probe("hanajit", name, cache_dir)
            nb = _probe("numba", name, cache_dir) if numba and not quick else None
        except RuntimeError as exc:
            print(exc)
            status = 1
            continue
        finally:
            shutil.rmtree(cache_dir, ignore_errors=True)
        rows.append([f"`{name}`", fmt_seconds(nb), fmt_seconds(cold), fmt_seconds(warm),
                     fmt_ratio(nb / cold if nb else None),
                     fmt_ratio(nb / warm if nb else None)])
    print_table("First library call of a process (`library_probe.py`)",
                ["function", "numba", "hanajit, cache empty", "hanajit, pieces cached",
                 "numba/empty", "numba/cached"], rows,
                notes=["One fresh process per cell, after a warm-up compile of a scalar "
                       "function; compile and first call of the probe.  `pieces cached`: "
                       "the second hanajit process, which links the library pieces the "
                       "first wrote to the library cache (docs/cache.md) instead of "
                       "compiling them; its own function still compiles."])
    return status


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    sys.exit(main(quick=ap.parse_args().quick))
