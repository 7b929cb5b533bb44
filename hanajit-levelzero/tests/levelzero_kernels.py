"""The test kernels: core's shared GPU test kernels (``hanajit.testing.gpu_kernels``)
and a few of the Level Zero tests' own, shared by the SPIR-V tests and the launch
tests; not jitted here."""
import math

import numpy as np
from hanajit.testing.gpu_kernels import *
from hanajit.testing.gpu_kernels import KERNELS as SHARED


def transcendentals32(out, x):
    i = block_id() * block_dim() + thread_id()
    if i < x.shape[0]:
        v = x[i]
        out[0, i] = math.exp(v)
        out[1, i] = math.atan2(v, np.float32(2.0))
        out[2, i] = math.log1p(v)
        out[3, i] = v ** np.float32(1.5)


def square32(out, x):
    """float32 arrays and no float scalar (a float32 scalar is passed as a double)."""
    i = block_id() * block_dim() + thread_id()
    if i < x.shape[0]:
        out[i] = x[i] * x[i]


MATH = ("exp", "log", "sin", "cos", "tan", "atan2", "pow", "tanh", "log1p", "expm1",
        "erf", "asinh")


def math_functions(out, x, n):
    """One row of ``out`` per function of :data:`MATH` (OpenCL builtins)."""
    i = block_id() * block_dim() + thread_id()
    if i < n:
        v = x[i]
        out[0, i] = math.exp(v)
        out[1, i] = math.log(abs(v) + 1e-300)
        out[2, i] = math.sin(v)
        out[3, i] = math.cos(v)
        out[4, i] = math.tan(v)
        out[5, i] = math.atan2(v, 1.5)
        out[6, i] = math.pow(abs(v), 1.37)
        out[7, i] = math.tanh(v)
        out[8, i] = math.log1p(abs(v))
        out[9, i] = math.expm1(v)
        out[10, i] = math.erf(v)
        out[11, i] = math.asinh(v)


def raises(out, a):
    i = block_id() * block_dim() + thread_id()
    out[i] = a[i + 1]          # out of bounds for the last thread: IndexError


# name -> (function, signature)
KERNELS = {
    **SHARED,
    "transcendentals32": (transcendentals32, "f32[:, :], f32[:]"),
    "square32": (square32, "f32[:], f32[:]"),
    "raises": (raises, "f64[:], f64[:]"),
}
