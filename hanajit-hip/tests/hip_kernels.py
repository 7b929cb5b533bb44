"""Test kernels beyond the GPU case list (shared memory, barriers, atomics, 2-D
and 3-D indices, a raise, float32 math), shared by the code-object tests and the
launch tests (not jitted here: each test compiles them as it needs)."""
import math

import numpy as np
from hanajit.testing.gpu_kernels import block_sums, saxpy, shared_atomics


def scale3d(out, a, f):
    i = block_id_z() * block_dim_z() + thread_id_z()  # noqa: F821
    j = block_id_y() * block_dim_y() + thread_id_y()  # noqa: F821
    k = block_id_x() * block_dim_x() + thread_id_x()  # noqa: F821
    inside = i < grid_dim_z() * block_dim_z()  # noqa: F821
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2] and inside:
        out[i, j, k] = a[i, j, k] * f + a[i, j, k]


def float32_math(out, x):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < x.shape[0]:
        out[i] = np.exp(x[i]) + np.sin(x[i]) + np.float32(math.pow(x[i], 1.5))


def raises(out, a):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    out[i] = a[i + 1]          # out of bounds for the last thread: IndexError


# name -> (function, signature)
KERNELS = {
    "saxpy": (saxpy, "f64[:], f64[:], f64, i64"),
    "block_sums": (block_sums, "f64[:], f64[:], i64"),
    "shared_atomics": (shared_atomics, "f64[:], i64[:, :]"),
    "scale3d": (scale3d, "f32[:, :, :], f32[:, :, :], f32"),
    "float32_math": (float32_math, "f32[:], f32[:]"),
    "raises": (raises, "f64[:], f64[:]"),
}
