"""Export a jitted function as a standalone program, run it, and compare its
output with the function's.

    python examples/export_executable.py
"""
import subprocess
import tempfile
from pathlib import Path

from hanajit import jit


@jit
def collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


with tempfile.TemporaryDirectory() as tmp:
    out = collatz_steps.export_executable(Path(tmp) / "collatz", sig="i64")
    if out.executable is None:
        print("no C compiler here: the kit is written, not built")
        raise SystemExit(0)
    printed = subprocess.run([str(out.executable), "27"], capture_output=True,
                             text=True, check=True).stdout.strip()
assert printed == str(collatz_steps(27)) == "111"
print(f"./collatz 27 prints {printed}, as collatz_steps(27) returns")
