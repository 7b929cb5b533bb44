"""benchmarks/run.py --quick runs to the end and prints its tables (no timings
checked)."""
import importlib.util
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                    reason="numba is not installed (pip install numba)")
def test_benchmarks_quick_run():
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"),
                           "--quick", "--only", "compile,scalar,calls"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    for title in ("## Machine", "### Import and first-call latency",
                  "### Scalar kernels", "### Per-call overhead"):
        assert title in out, out
    assert "| fib (recursive)" in out
    assert "FALLBACK" not in out and "WRONG RESULT" not in out, out


@pytest.mark.skipif(importlib.util.find_spec("numba") is None,
                    reason="numba is not installed (pip install numba)")
@pytest.mark.parametrize("name, titles, row", [
    ("expr", ("### Whole-array expressions", "### Reductions",
              "### Fusion issue targets"), "| 5-op `np.sum"),
    ("kernels,user_kernels", ("### Classic NumPy kernels",
                              "### Kernels users write (`bench_user_kernels.py`)"),
     "| Mandelbrot"),
    ("products", ("### Vector and matrix products",), "| a @ b.T (syrk)"),
    ("parallel", ("### prange: parallel speedup",), "| reduction sum(x*x)"),
    ("random", ("### Random numbers (np.random.Generator, PCG64)",), "| Monte Carlo pi"),
    ("compile_library", ("### Compile time of callers of NumPy's algorithms",),
     "| `np.quantile(a, 0.3)`"),
    ("memory", ("### Resident memory per function (`bench_memory.py`)",),
     "| a loop kernel: per compiled function, kept"),
    ("narrow", ("### narrow: integer reductions vs the int64 baseline",
                "### narrow: block widths"), "| `np.sum(x)`, int8"),
])
def test_numpy_benchmarks_quick_run(name, titles, row):
    """The expression and kernel suites (NumPy, numexpr, Numba, hanajit) run in quick
    mode; no wrong result, no silent fallback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"),
                           "--quick", "--only", name], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    for title in titles:
        assert title in out, out
    assert row in out, out
    assert "FALLBACK" not in out and "WRONG RESULT" not in out, out
