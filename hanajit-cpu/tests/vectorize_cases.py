"""Functions calling vectorized functions (test_cpu_vectorize.py)."""
import numpy as np


def sq(v):
    return v * v if v > 2 else -v


def scaled(u, w):
    return u * 2 + w


def clipped(u, lo, hi):
    return min(max(u, lo), hi)


VSQ = np.vectorize(sq)
VTYPED = np.vectorize(sq, otypes=[np.float64])


def one(a):
    return np.vectorize(sq)(a)


def through_global(a):
    return VSQ(a) + 1


def two(a, b):
    return np.vectorize(scaled)(a, b)


def lambdas(a, b):
    return np.vectorize(lambda u, w: u > w)(a, b)


def three(a, lo, hi):
    return np.vectorize(clipped)(a, lo, hi)


def with_options(a):
    return VTYPED(a)
