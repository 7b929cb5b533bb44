"""One step of an N-body simulation: pairwise forces in a double loop, then a
fused update of positions and velocities.  Compiled and interpreted results are
the same, bit for bit.

    python examples/nbody_step.py
"""
import numpy as np

from hanajit import jit


def step(pos, vel, mass, dt):
    n = pos.shape[0]
    acc = np.zeros_like(pos)
    for i in range(n):
        for j in range(n):
            if i != j:
                d = pos[j] - pos[i]
                r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + 1e-9
                acc[i] += mass[j] * d / (r2 * np.sqrt(r2))
    vel += acc * dt
    pos += vel * dt
    return pos, vel


rng = np.random.default_rng(1)
pos, vel, mass = rng.normal(size=(64, 3)), np.zeros((64, 3)), rng.random(64)
p1, v1 = jit(step, fallback=False)(pos.copy(), vel.copy(), mass, 0.01)
p2, v2 = step(pos.copy(), vel.copy(), mass, 0.01)
assert np.array_equal(p1, p2) and np.array_equal(v1, v2)
print("64 bodies, one step: compiled == interpreted")
