"""Import time and first-call latency, each measured in a fresh process.

For hanajit and numba alternately, ``compile_probe.py`` runs in a new interpreter
and reports: the ``import`` of the package, the first call of a small loop function
(``int_loop(100)``: every one-time set-up after import included -- LLVM
initialisation, plugin discovery, the compiler's own lazy imports, codegen), and the
first call of a second, different function (``float_loop(100, 0.5)``) in the same
process.  One discarded warm-up process per JIT fills the OS file cache and the
bytecode cache; the table gives medians over the remaining processes.

Bytecode: the probes always run with a bytecode cache (``PYTHONPYCACHEPREFIX`` in a
temporary folder, ``PYTHONDONTWRITEBYTECODE`` removed), as an installed package
has.  Without one, every module is compiled from source in every process, which
costs hanajit (a source checkout in development) tens of milliseconds that no user
pays, while numba's wheel ships its bytecode.  ``--no-bytecode-cache`` measures that
case instead.

    python benchmarks/bench_compile.py [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import BENCH_DIR, fmt_ratio, fmt_seconds, median, numba_njit, print_table

PROBE = os.path.join(BENCH_DIR, "compile_probe.py")
# measure what a user gets: no IR verifier, no dumps, no tracing
_STRIP_ENV = ("HANAJIT_VERIFY", "HANAJIT_DUMP", "PYTHONPROFILEIMPORTTIME",
              "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")


def probe(which: str, pycache: str | None) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _STRIP_ENV}
    if pycache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = pycache
    proc = subprocess.run([sys.executable, PROBE, which], capture_output=True,
                          text=True, env=env, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"compile_probe.py {which} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(quick: bool = False, bytecode_cache: bool = True) -> int:
    runs = 1 if quick else 7
    jits = ["hanajit"] + (["numba"] if numba_njit() is not None else [])
    results: dict[str, list[dict]] = {j: [] for j in jits}
    pycache = tempfile.mkdtemp(prefix="hanajit-bench-pycache-") if bytecode_cache \
        else None
    try:
        for j in jits:          # warm the file and bytecode caches; discarded
            probe(j, pycache)
        for r in range(runs):
            order = jits if r % 2 == 0 else jits[::-1]
            for j in order:
                results[j].append(probe(j, pycache))
    finally:
        if pycache is not None:
            shutil.rmtree(pycache, ignore_errors=True)

    def med(j, key):
        if j not in results:
            return None
        return median([x[key] for x in results[j]])

    rows = []
    for label, key in [("`import` (package only)", "import"),
                       ("import + `from ... import jit`", "import_jit"),
                       ("first call, `int_loop(100)`, one-time set-up included",
                        "first_call"),
                       ("first call of a second function, `float_loop(100, 0.5)`",
                        "second_function")]:
        hj, nb = med("hanajit", key), med("numba", key)
        rows.append([label, fmt_seconds(hj), fmt_seconds(nb),
                     fmt_ratio(hj / nb if nb else None)])
    tot_hj = med("hanajit", "import_jit") + med("hanajit", "first_call")
    tot_nb = (med("numba", "import_jit") + med("numba", "first_call")
              if "numba" in results else None)
    rows.append(["import + first call (sum of medians)", fmt_seconds(tot_hj),
                 fmt_seconds(tot_nb), fmt_ratio(tot_hj / tot_nb if tot_nb else None)])
    notes = [f"Median over {runs} fresh process(es) per JIT, interleaved, "
             + ("with a warm bytecode cache. " if bytecode_cache else
                "WITHOUT a bytecode cache (every module compiled from source). ")
             + "Ratio = hanajit / numba: below 1 means hanajit is faster."]
    fallbacks = {f for x in results["hanajit"] for f in x["fallback"]}
    for f in sorted(fallbacks):
        notes.append(f"FALLBACK (the probe ran in the interpreter): {f}")
    print_table("Import and first-call latency (fresh processes)",
                ["measure", "hanajit", "numba", "hanajit/numba"], rows, notes)
    return 1 if fallbacks else 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one process per JIT")
    ap.add_argument("--no-bytecode-cache", action="store_true",
                    help="compile every module from source in every process")
    args = ap.parse_args()
    sys.exit(main(args.quick, bytecode_cache=not args.no_bytecode_cache))
