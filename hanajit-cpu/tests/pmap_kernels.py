"""Jitted functions for the pmap tests: importable by worker processes."""
import numpy as np

from hanajit import jit, prange


@jit(nogil=True)
def norm2(x):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * x[i]
    return s


@jit
def checked_div(a, b):
    return a // b


@jit
def psum(x):
    s = 0
    for i in prange(len(x)):
        s += x[i]
    return s


def batch(n, size=1000, seed=0):
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(size),) for _ in range(n)]
