"""A GPU kernel, written once, run on the first GPU target this machine can launch
(cuda, hip, levelzero, vulkan -- lavapipe counts -- or metal, whose simulation
runs wherever g++ exists), and checked against NumPy.

    python examples/gpu_saxpy.py
"""
import numpy as np

from hanajit import jit, plugins


def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821  (the kernel model)
    if i < n:
        y[i] = a * x[i] + y[i]


for name in ("cuda", "hip", "levelzero", "vulkan", "metal"):
    try:
        ok, why = plugins.get_target(name).status()
    except Exception as exc:           # not installed
        ok, why = False, str(exc)
    if ok:
        break
else:
    print("no GPU target can launch here; hanajit doctor says why")
    raise SystemExit(0)

x = np.arange(1000, dtype=np.float32)
y = np.ones(1000, dtype=np.float32)
jit(saxpy, target=name, fallback=False).launch(y, x, np.float32(2.0), x.size)
assert np.array_equal(y, np.float32(2.0) * np.arange(1000, dtype=np.float32) + 1)
print(f"saxpy on {name} ({why}): equal to NumPy")
