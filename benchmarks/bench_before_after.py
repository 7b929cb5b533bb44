"""Compile time and run time of this checkout against an earlier commit, in one run.

For issue-sized refactorings ("behaviour unchanged, no slower"): checks out
``--base`` (default: the commit before the pipeline/target-contract work) into a
temporary git worktree, then runs ``before_after_probe.py`` in fresh processes,
alternating base and this checkout (``PYTHONPATH`` selects which hanajit is
imported; the installed plugins' entry points resolve to it by module name), and
prints medians and ratios: the first call of a small loop, the total first-call
(compile) time of the CPU corpus's kernels, and the total of their best run times.
Both sides compile the same kernels (this checkout's corpus).

    python benchmarks/bench_before_after.py [--base REV] [--repeats N]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

from common import BENCH_DIR, fmt_ratio, fmt_seconds, median, print_table

ROOT = os.path.dirname(BENCH_DIR)
PROBE = os.path.join(BENCH_DIR, "before_after_probe.py")
SRC = ("hanajit-core/src", "hanajit-cpu/src")
_STRIP_ENV = ("HANAJIT_VERIFY", "HANAJIT_DUMP", "PYTHONPROFILEIMPORTTIME")


def probe(checkout: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _STRIP_ENV}
    env["PYTHONPATH"] = os.pathsep.join(os.path.join(checkout, s) for s in SRC)
    out = subprocess.run([sys.executable, PROBE], env=env, capture_output=True,
                         text=True, check=True, cwd=ROOT)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    if not data["hanajit"].startswith(checkout):
        raise RuntimeError(f"the probe imported {data['hanajit']}, not {checkout}")
    return data


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="ff6431c")
    parser.add_argument("--repeats", type=int, default=5)
    opts = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="hanajit-base-")
    base = os.path.join(tmp, "base")
    subprocess.run(["git", "worktree", "add", "--detach", "-q", base, opts.base],
                   cwd=ROOT, check=True)
    try:
        sides = {"base": base, "now": ROOT}
        runs = {k: [] for k in sides}
        probe(base), probe(ROOT)          # warm-up: bytecode and file caches
        for i in range(opts.repeats):
            order = list(sides) if i % 2 == 0 else list(reversed(sides))
            for k in order:
                runs[k].append(probe(sides[k]))
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", base], cwd=ROOT)
        shutil.rmtree(tmp, ignore_errors=True)

    def figure(k, f):
        return median([f(r) for r in runs[k]])

    kernels = sorted(set(runs["base"][0]["compile"]) & set(runs["now"][0]["compile"]))
    measures = [
        ("first call of a small loop", lambda r: r["first_call"]),
        (f"compile, {len(kernels)} corpus kernels (sum)",
         lambda r: sum(r["compile"][n] for n in kernels)),
        (f"run, {len(kernels)} corpus kernels (sum of best)",
         lambda r: sum(r["run"][n] for n in kernels)),
    ]
    rows = []
    for label, f in measures:
        b, n = figure("base", f), figure("now", f)
        rows.append([label, fmt_seconds(b), fmt_seconds(n), fmt_ratio(n / b)])
    print_table(f"This checkout against {opts.base} (median of {opts.repeats} "
                "interleaved fresh processes)", ["measure", "base", "now", "now/base"],
                rows)
    slow = sorted(((median([r["run"][n] for r in runs["now"]])
                    / median([r["run"][n] for r in runs["base"]]), n) for n in kernels),
                  reverse=True)[:5]
    print("\nLargest run-time ratios now/base: "
          + ", ".join(f"{n} {fmt_ratio(x)}" for x, n in slow))
    return 0


if __name__ == "__main__":
    sys.exit(main())
