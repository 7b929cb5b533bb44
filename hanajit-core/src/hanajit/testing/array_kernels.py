"""Kernels the exporters' tests share (executable, its CUDA modes, WebAssembly):
each export must give these the CPU JIT's results bit for bit."""
from __future__ import annotations

import numpy as np

from ..api import jit


@jit
def cumsum(a):
    out = np.empty(a.shape[0])
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s
    return out


@jit
def scale(a, k):
    for i in range(a.shape[0]):
        a[i] *= k


@jit
def rowsum(m):
    out = np.zeros(m.shape[0])
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            out[i] += m[i, j]
    return out


@jit
def floordiv_all(a, k):
    out = np.empty(a.shape[0], dtype=np.int64)
    for i in range(a.shape[0]):
        out[i] = a[i] // k
    return out


@jit
def stats(a):
    pos = np.empty(a.shape[0], dtype=np.bool_)
    total = 0
    for i in range(a.shape[0]):
        pos[i] = a[i] > 0
        total += a[i]
    return pos, total, a[::2]


@jit
def halves(a):
    lo = np.empty(a.shape[0], dtype=np.float32)
    hi = np.empty(a.shape[0], dtype=np.uint8)
    for i in range(a.shape[0]):
        lo[i] = a[i] * np.float32(0.5)
        hi[i] = np.uint8(i * 37)
    return lo, hi


@jit
def compound(x, years):
    for _ in range(years):
        x *= 1.05
    return x


@jit
def pick(a, i):
    return a[i] * 2.0


@jit
def smooth(m, k):
    total = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = m[i, j] * k + i - j
            total += m[i, j]
    return total, m.shape[0] > 1


@jit
def product_sum(a, b):
    # fused, summed in NumPy's pairwise order (docs/semantics.md): an export
    # gives the interpreter's bits
    return np.sum(a * b)
