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
@pytest.mark.parametrize("name, titles, rows", [
    # three processes (each imports NumPy, numexpr and Numba once)
    ("expr,kernels,user_kernels",
     ("### Whole-array expressions", "### Reductions", "### Fusion issue targets",
      "### Classic NumPy kernels", "### Kernels users write (`bench_user_kernels.py`)"),
     ("| 5-op `np.sum", "| Mandelbrot", "| Laplacian of slices")),
    ("products,parallel,random",
     ("### Vector and matrix products", "### prange: parallel speedup",
      "### Random numbers (np.random.Generator, PCG64)"),
     ("| a @ b.T (syrk)", "| reduction sum(x*x)", "| Monte Carlo pi")),
    ("compile_library,memory,narrow",
     ("### Compile time of callers of NumPy's algorithms",
      "### First library call of a process",
      "### Resident memory per function (`bench_memory.py`)",
      "### narrow: integer reductions vs the int64 baseline", "### narrow: block widths"),
     ("| `np.quantile(a, 0.3)`", "| a loop kernel: per compiled function, kept",
      "| `np.sum(x)`, int8")),
])
def test_numpy_benchmarks_quick_run(name, titles, rows):
    """The expression and kernel suites (NumPy, numexpr, Numba, hanajit) run in quick
    mode; no wrong result, no silent fallback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_")}
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"),
                           "--quick", "--only", name], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    for text in titles + rows:
        assert text in out, out
    assert "FALLBACK" not in out and "WRONG RESULT" not in out, out
