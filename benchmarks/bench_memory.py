"""Resident memory per compiled function and per dropped function: hanajit next to
Numba, each in a fresh process.

* **per specialisation**: a process compiles ``n`` small loop kernels (distinct
  functions from one generated module, one call each) after a first one that
  loads the compiler; the growth of its resident set (``/proc/self/statm``),
  divided by ``n``.
* **per dropped function**: ``n`` times, a kernel is made, compiled, called and
  dropped (``del`` and ``gc.collect()``); what stays resident, divided by ``n``.

    python benchmarks/bench_memory.py [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from common import print_table

_CHILD = r'''
import gc, json, os, sys
import numpy as np
mode, n, jitname, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
if jitname == "numba":
    from numba import njit as make
else:
    from hanajit import jit as make

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

SRC = {"loop": """
def kern_{k}(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * {k} + i
    return s
""", "numpy": """
import numpy as np
def kern_{k}(a):
    return np.sort(np.sqrt(a) * {k})[a.shape[0] // 2] + np.sum(a * a)
"""}[kind]

def fresh(k):
    ns = {}
    path = os.path.join(os.environ["BENCH_TMP"], f"kern_{k}.py")
    with open(path, "w") as f:
        f.write(SRC.format(k=k))
    code = compile(SRC.format(k=k), path, "exec")
    exec(code, ns)
    return ns[f"kern_{k}"]

a = np.arange(100.0)
make(fresh(0))(a)                 # the compiler loaded, its caches warm
for k in range(1, 4):
    f = make(fresh(k)); f(a); del f
gc.collect()
before = rss()
kept = []
for k in range(10, 10 + n):
    f = make(fresh(k))
    f(a)
    if mode == "kept":
        kept.append(f)
    del f
    if mode == "dropped":
        gc.collect()
gc.collect()
print(json.dumps({"per": (rss() - before) / n}))
'''


def _measure(mode: str, n: int, jit_name: str, tmp: str, kind: str) -> float | None:
    env = dict(os.environ, BENCH_TMP=tmp)
    env.pop("HANAJIT_VERIFY", None)
    proc = subprocess.run([sys.executable, "-c", _CHILD, mode, str(n), jit_name, kind],
                          capture_output=True, text=True, env=env, timeout=900)
    if proc.returncode != 0:
        print(f"{jit_name} {mode}: failed: {proc.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])["per"]


def main(quick: bool = False) -> int:
    import importlib.util
    import tempfile
    n = 6 if quick else 100
    jits = ["hanajit"] + (["numba"] if importlib.util.find_spec("numba") else [])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        kinds = (("loop", "a loop kernel"), ("numpy", "np.sort, np.sqrt, np.sum"))
        for kind, what in kinds[:1] if quick else kinds:
            for mode, label in (("kept", "per compiled function, kept"),
                                ("dropped", "per function compiled, then dropped")):
                per = {j: _measure(mode, n, j, tmp, kind) for j in jits}
                row = [f"{what}: {label}"] + [
                    f"{per[j] / 1024:.0f}" if per.get(j) is not None else "--"
                    for j in ("hanajit", "numba")]
                h, nb = per.get("hanajit"), per.get("numba")
                row.append(f"{h / nb:.2f}" if h and nb else "--")
                rows.append(row)
    print_table("Resident memory per function (`bench_memory.py`)",
                ["", "hanajit kB", "numba kB", "hanajit/numba"], rows,
                notes=[f"{n} small kernels per process, one call each, after four "
                       "that warm the compiler; growth of the resident set "
                       "(/proc/self/statm) divided by their number.  Below 1: hanajit "
                       "uses less."])
    return 0


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="6 functions instead of 100")
    sys.exit(main(quick=ap.parse_args().quick))
