"""Where the compile of a small function goes: a wall-clock breakdown by stage.

Compiles ``--count`` distinct copies of each probe function (written to a
temporary module, so each is a new function with its own source) in one process
after one warm-up compile, and reports the median milliseconds per compile of
every stage, from ``f(...)`` to its result:

- compile_ir: frontend, inference and the passes (``pipeline.compile_ir``);
- IR build: lowering to ``llvmlite.ir`` and the entry/C wrappers;
- IR print: ``str()`` of the ``llvmlite.ir`` module;
- LLVM parse, verify, pass-builder set-up, optimise (``-O3`` pipeline), print
  (the optimised IR text kept in the artifact), bitcode round trip (write and
  re-parse before codegen: ``hanajit.toolkit.llvm_toolchain``), codegen
  (``emit_object``);
- link (JITLink into its own library) and the rest of ``load`` (runner set-up);
- rest: dispatch, cache lookups, boxing and the call itself.

Stages are timed by wrapping the functions that do them, so the figures include
a few microseconds of wrapper each; the total is timed without them.

    python benchmarks/bench_compile_stages.py [--count N]
"""
from __future__ import annotations

import argparse
import importlib
import os
import statistics
import sys
import tempfile
import time

PROBES = {
    "add": ("def {name}(a, b):\n    return a + b\n", lambda np: (1.5, 2.25)),
    "sum2x": ("def {name}(a):\n    return np.sum(a * 2.0)\n",
              lambda np: (np.arange(10.0),)),
}
STAGES = ["total", "compile_ir", "IR build", "IR print", "LLVM parse", "LLVM verify",
          "pass builder", "LLVM optimise", "LLVM print", "bitcode round trip",
          "LLVM codegen", "link", "load (rest)", "rest"]


class _Clock:
    """Sums the seconds spent in wrapped functions (outermost call only)."""

    def __init__(self):
        self.spent: dict[str, float] = {}
        self._depth: dict[str, int] = {}

    def wrap(self, owner, attr: str, key: str) -> None:
        inner = getattr(owner, attr)
        clock = self

        def timed(*args, **kwargs):
            depth = clock._depth.get(key, 0)
            clock._depth[key] = depth + 1
            t0 = time.perf_counter()
            try:
                return inner(*args, **kwargs)
            finally:
                clock._depth[key] = depth
                if depth == 0:
                    clock.spent[key] = clock.spent.get(key, 0.0) + time.perf_counter() - t0
        setattr(owner, attr, timed)


def _instrument() -> _Clock:
    import llvmlite.binding as llvm
    import llvmlite.ir as ir
    from llvmlite.binding import module as llmodule
    from llvmlite.binding import newpassmanagers

    from hanajit import pipeline
    from hanajit_cpu import engine, target
    c = _Clock()
    c.wrap(pipeline, "compile_ir", "compile_ir")
    c.wrap(target.CpuTarget, "compile", "target.compile")
    c.wrap(target.CpuTarget, "load", "target.load")
    c.wrap(engine.Engine, "compile_object", "compile_object")
    c.wrap(engine.Engine, "link", "link")
    c.wrap(ir.Module, "__repr__", "IR print")
    c.wrap(llvm, "parse_assembly", "LLVM parse")
    c.wrap(llvm, "parse_bitcode", "bitcode parse")
    c.wrap(llmodule.ModuleRef, "as_bitcode", "bitcode write")
    c.wrap(llmodule.ModuleRef, "verify", "LLVM verify")
    c.wrap(llmodule.ModuleRef, "__str__", "LLVM print")
    c.wrap(llvm, "create_pass_builder", "pb create")
    c.wrap(newpassmanagers.PassBuilder, "getModulePassManager", "pb pipeline")
    c.wrap(newpassmanagers.NewPassManager, "run", "LLVM optimise")
    c.wrap(llvm.TargetMachine, "emit_object", "LLVM codegen")
    return c


def _stages(spent: dict, total: float) -> dict:
    g = spent.get
    out = {"total": total, "compile_ir": g("compile_ir", 0.0)}
    for k in ("IR print", "LLVM parse", "LLVM verify", "LLVM optimise", "LLVM print",
              "LLVM codegen", "link"):
        out[k] = g(k, 0.0)
    out["pass builder"] = g("pb create", 0.0) + g("pb pipeline", 0.0)
    out["bitcode round trip"] = g("bitcode write", 0.0) + g("bitcode parse", 0.0)
    out["IR build"] = g("target.compile", 0.0) - g("compile_object", 0.0) - out["IR print"]
    out["load (rest)"] = g("target.load", 0.0) - out["link"]
    out["rest"] = total - out["compile_ir"] - g("target.compile", 0.0) - g("target.load", 0.0)
    return out


def main(count: int) -> dict:
    import numpy as np
    clock = _instrument()
    from hanajit import jit
    folder = tempfile.mkdtemp(prefix="hanajit-stages-")
    src = ["import numpy as np\n"]
    for probe, (template, _) in PROBES.items():
        src += [template.format(name=f"{probe}_{i}") for i in range(count + 1)]
    with open(os.path.join(folder, "stage_probes.py"), "w") as fh:
        fh.write("".join(src))
    sys.path.insert(0, folder)
    mod = importlib.import_module("stage_probes")
    results = {}
    for probe, (_, make_args) in PROBES.items():
        args = make_args(np)
        jit(getattr(mod, f"{probe}_0"))(*args)      # one-time set-up, not counted
        rows = []
        for i in range(1, count + 1):
            f = jit(getattr(mod, f"{probe}_{i}"))
            clock.spent.clear()
            t0 = time.perf_counter()
            f(*args)
            rows.append(_stages(clock.spent, time.perf_counter() - t0))
        results[probe] = {k: statistics.median(r[k] for r in rows) * 1e3 for k in STAGES}
    return results


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=40, help="compiles per probe")
    res = main(ap.parse_args().count)
    print(f"{'stage (median ms per compile)':32}" + "".join(f"{p:>10}" for p in res))
    for k in STAGES:
        print(f"{k:32}" + "".join(f"{res[p][k]:10.2f}" for p in res))
    print(f"(load average {os.getloadavg()[0]:.1f}; medians of each stage, so the "
          "stages need not add up to the total)")
