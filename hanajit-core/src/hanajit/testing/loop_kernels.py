"""Loop kernels the CPU tests and the benchmarks share: the convolutions whose
inner loops ``passes/version_bounds.py`` proves in bounds and
``passes/jam_loops.py`` runs four pixels at a time.  Plain Python functions:
each user compiles them (``hanajit.jit``, ``numba.njit``) or runs them as the
reference."""
from __future__ import annotations

import types

import numpy as np


def clamp(i, n):
    return min(max(0, i), n - 1)


def blur_clamped(img, k):
    """A convolution whose indices come through a clamping helper (edges repeat)."""
    n, m = img.shape
    r = k.shape[0] // 2
    out = np.empty_like(img)
    for i in range(n):
        for j in range(m):
            s = 0.0
            for di in range(k.shape[0]):
                for dj in range(k.shape[1]):
                    s += k[di, dj] * img[clamp(i + di - r, n), clamp(j + dj - r, m)]
            out[i, j] = s
    return out


def conv3(img, k):
    """A 3x3 convolution over the valid region."""
    h, w = img.shape
    out = np.zeros((h - 2, w - 2))
    for i in range(h - 2):
        for j in range(w - 2):
            s = 0.0
            for a in range(3):
                for b in range(3):
                    s += k[a, b] * img[i + a, j + b]
            out[i, j] = s
    return out


def calling(fn, make):
    """``fn`` calling ``make``'s compilation of its helper ``clamp``, as a user of
    either compiler decorates a helper (``@jit``, ``@njit``); ``fn`` itself when
    ``make`` is None or ``fn`` calls no ``clamp``."""
    if make is None or "clamp" not in fn.__code__.co_names:
        return fn
    g = dict(fn.__globals__, clamp=make(clamp))
    return types.FunctionType(fn.__code__, g, fn.__name__)
