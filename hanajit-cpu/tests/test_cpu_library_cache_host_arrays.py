"""A shared helper piece that reads a global NumPy array (``math.lgamma``'s
Lanczos coefficients) has that array's address in its code: it is linked again
in the process that compiled it, never kept on disk for another process (where
the address would be stale: a crash)."""
import os
import subprocess
import sys

SCRIPT = """
import math
from hanajit import jit

def f(x):
    return math.lgamma(x) + math.gamma(x)

print(jit(f, fallback=False)(5.5).hex() == f(5.5).hex())
"""


def test_second_process_recompiles_host_array_piece(tmp_path):
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"))
    script = tmp_path / "kernel.py"
    script.write_text(SCRIPT)
    for _ in range(2):
        out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr[-2000:]
        assert out.stdout.strip() == "True"
