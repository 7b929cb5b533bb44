"""Disk cache: cold compile vs warm start, in fresh processes, next to Numba.

A module of three small functions (an integer loop, a float loop calling a jitted
helper, an array reduction) is written to a temporary folder and decorated with
``@jit(cache=True)`` (hanajit) or ``@njit(cache=True)`` (numba).  Each measurement
is one new interpreter that imports the JIT, imports the module and calls the
functions:

* *cold*: the cache folder is emptied first (compile, then write the entries);
* *warm*: the entries of the previous run are there (load them).

For hanajit, plugin discovery (importing every installed target plugin, done once
per process before the first compilation or cache load) is timed apart inside the
first call and shown on its own row.

Reported per JIT: ``import`` of the package, the first call of the first function
after import (everything one-time included: for hanajit plugin discovery, the
cache key, reading and checking the entry, loading the machine code), and all
three first calls; and, in processes of their own, the first call of a
vector-math kernel (``np.sum(np.exp(a))``) alone and with the import before it
(the whole warm start).  Processes alternate between the JITs; medians over the runs.
Probes run with a bytecode cache (``PYTHONPYCACHEPREFIX`` in a temporary folder,
``PYTHONDONTWRITEBYTECODE`` removed), as an installed package has.

    python benchmarks/bench_cache.py [--quick]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import fmt_ratio, fmt_seconds, median, numba_njit, print_table

KERNELS = '''
import numpy as np
from {module} import {decorator} as jit


@jit(cache=True)
def int_loop(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


@jit(cache=True)
def half(x):
    return x * 0.5


@jit(cache=True)
def float_loop(n, x):
    s = 0.0
    for i in range(n):
        s += half(i * x)
    return s


@jit(cache=True)
def total(a):
    return np.sum(a * a)


@jit(cache=True)
def exp_total(a):
    return np.sum(np.exp(a))
'''

PROBE = r'''
import json, sys, time
clock = time.perf_counter
t0 = clock()
import {module}
t1 = clock()
if "{first}" == "exp":     # the whole warm start of a vector-math kernel, alone
    import kernels_{which} as k
    import numpy as np
    a = np.linspace(-3.0, 3.0, 1000)
    t = clock()
    r = k.exp_total(a)
    t5 = clock()
    loaded = any(m.split(".")[0] == "llvmlite" for m in sys.modules)
    ok = abs(r - k.exp_total.py_func(a)) <= 1e-13 * abs(r)
    print(json.dumps({{"import": t1 - t0, "exp_call": t5 - t,
                      "exp_start": t5 - t0, "ok": bool(ok),
                      "llvmlite": loaded,
                      "llvmlite_binding": "llvmlite.binding" in sys.modules}}))
    sys.exit(0)
if "{which}" == "hanajit":
    import hanajit.plugins
import kernels_{which} as k
import numpy as np
a = np.arange(100.0)
discovery = 0.0
if "{which}" == "hanajit":           # timed apart: the plugins of every target load
    t = clock()
    {module}.plugins.get_target("cpu")
    discovery = clock() - t
t2 = clock() - discovery
r1 = k.int_loop(100)
t3 = clock()
r2 = k.float_loop(100, 0.5)
r3 = k.total(a)
t4 = clock()
r4 = k.exp_total(a)          # (untimed: so that cold runs write its entry)
binding = "llvmlite.binding" in sys.modules
loaded = any(m.split(".")[0] == "llvmlite" for m in sys.modules)
# (the references below call the jitted ``half`` from Python: once it is called
# on it builds the native dispatcher, which loads LLVM -- after the measurement)
ok = (r1 == k.int_loop.py_func(100) and r2 == k.float_loop.py_func(100, 0.5)
      and r3 == k.total.py_func(a))
stats = {{}}
if "{which}" == "hanajit":
    from hanajit import cache
    stats = dict(cache.stats)
print(json.dumps({{"import": t1 - t0, "first_call": t3 - t2, "all_calls": t4 - t2,
                  "discovery": discovery, "ok": bool(ok), "stats": stats,
                  "llvmlite_binding": binding,
                  "llvmlite": loaded}}))
'''

_STRIP_ENV = ("HANAJIT_VERIFY", "HANAJIT_DUMP", "PYTHONPROFILEIMPORTTIME",
              "PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX", "HANAJIT_CACHE_DIR",
              "NUMBA_CACHE_DIR", "HANAJIT_CACHE_COMPILER_ID")
_JITS = {"hanajit": ("hanajit", "jit"), "numba": ("numba", "njit")}


def probe(which: str, work: str, first: str = "int") -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _STRIP_ENV}
    env["PYTHONPYCACHEPREFIX"] = os.path.join(work, "pycache")
    env["HANAJIT_CACHE_DIR"] = os.path.join(work, "cache-hanajit")
    env["NUMBA_CACHE_DIR"] = os.path.join(work, "cache-numba")
    env["PYTHONPATH"] = os.pathsep.join([work, env.get("PYTHONPATH", "")])
    code = PROBE.format(module=_JITS[which][0], which=which, first=first)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=work, timeout=300)
    if proc.returncode != 0:
        raise RuntimeError(f"cache probe ({which}) failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def clear(which: str, work: str) -> None:
    """Remove the entries of the kernels (hanajit keeps ``_runtime/``: the objects
    of the runtimes compiled code calls are written once per host, by the first
    compilation that needs them)."""
    root = os.path.join(work, f"cache-{which}")
    for name in (os.listdir(root) if os.path.isdir(root) else ()):
        if name != "_runtime":
            path = os.path.join(root, name)
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)


def main(quick: bool = False) -> int:
    runs = 1 if quick else 5
    jits = ["hanajit"] + (["numba"] if numba_njit() is not None else [])
    work = tempfile.mkdtemp(prefix="hanajit-bench-cache-")
    status = 0
    problems = []
    try:
        for j in jits:
            module, decorator = _JITS[j]
            with open(os.path.join(work, f"kernels_{j}.py"), "w") as f:
                f.write(KERNELS.format(module=module, decorator=decorator))
            probe(j, work)                     # fill the bytecode and file caches
            probe(j, work, "exp")
            probe(j, work, "exp")
        cold: dict = {j: [] for j in jits}
        warm: dict = {j: [] for j in jits}
        exp: dict = {j: [] for j in jits}
        for r in range(runs):
            order = jits if r % 2 == 0 else jits[::-1]
            for j in order:
                clear(j, work)
                cold[j].append(probe(j, work))
                warm[j].append(probe(j, work))
                exp[j].append(probe(j, work, "exp"))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    for j in jits:
        for kind, results in (("cold", cold[j]), ("warm", warm[j]), ("exp", exp[j])):
            if not all(x["ok"] for x in results):
                problems.append(f"WRONG RESULT: {j} ({kind} cache)")
        if j == "hanajit":
            if any(x["stats"]["hits"] != 5 for x in warm[j]):
                problems.append(f"CACHE MISS on a warm start: {warm[j][0]['stats']}")
            if any(x["stats"]["writes"] != 5 for x in cold[j]):
                problems.append(f"cache not written on a cold start: {cold[j][0]['stats']}")
    status = 1 if problems else 0

    def med(results, j, key):
        return median([x[key] for x in results[j]]) if j in results else None

    rows = []
    for label, results, key in [
            ("`import` (package only)", warm, "import"),
            ("cold cache: first call, `int_loop(100)`", cold, "first_call"),
            ("cold cache: first calls of all three functions", cold, "all_calls"),
            ("warm cache: first call, `int_loop(100)`", warm, "first_call"),
            ("  of which plugin discovery (every target's plugin)", warm, "discovery"),
            ("warm cache: first calls of all three functions", warm, "all_calls"),
            ("warm cache: first call, `exp_total(a)` (vector exp), alone", exp,
             "exp_call"),
            ("  with the imports before it (JIT, module, NumPy)", exp, "exp_start")]:
        hj = med(results, "hanajit", key)
        nb = med(results, "numba", key) if key != "discovery" else None
        rows.append([label, fmt_seconds(hj), fmt_seconds(nb),
                     fmt_ratio(hj / nb) if hj and nb else "--"])
    binding = sum(x["llvmlite_binding"] for x in warm["hanajit"] + exp["hanajit"])
    loaded = sum(x["llvmlite"] for x in warm["hanajit"] + exp["hanajit"])
    fastest = min(x["first_call"] - x["discovery"] for x in warm["hanajit"])
    notes = [f"Median over {runs} fresh processes per JIT and case, interleaved; "
             "calls are timed after the module import.  Ratio = hanajit / numba.  "
             "A first call includes everything one-time: for hanajit plugin "
             "discovery, the cache key, reading and checking the entry, linking.",
             "hanajit warm first call without plugin discovery: fastest "
             f"{fmt_seconds(fastest)}.",
             f"hanajit warm starts that imported llvmlite.binding during these "
             f"calls: {binding} of {2 * len(warm['hanajit'])}; any llvmlite module: "
             f"{loaded}."] + problems
    print_table("Disk cache: cold compile vs warm start (fresh processes)",
                ["measure", "hanajit", "numba", "hanajit/numba"], rows, notes)
    return status


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    sys.exit(main(quick=ap.parse_args().quick))
