"""The float32 path: a sum over a float32 array computes in float32, as the
interpreter does under NumPy 2's promotion rules (the 0.0 is a weak Python float,
so `acc` becomes a float32 at the first `+=`), and `reduce_reassoc=True` lets the
loop vectorise as NumPy's own sums do.

    python examples/float32_total.py
"""
import numpy as np

from hanajit import jit


def total(x):
    acc = 0.0
    for i in range(len(x)):
        acc += x[i]
    return acc


exact = jit(total, fallback=False)                       # the interpreter's order
fast = jit(total, reduce_reassoc=True, fallback=False)   # reordered, vectorised

x = np.random.default_rng(0).random(1_000_000).astype(np.float32)
assert exact(x[:1000]) == total(x[:1000])                # bit for bit, float32 steps
print(f"left to right: {exact(x):.6g}")
print(f"reduce_reassoc: {fast(x):.6g}")
print(f"np.sum:         {np.sum(x):.6g}")
assert abs(fast(x) - float(np.sum(x))) <= 1e-5 * float(np.sum(x))
