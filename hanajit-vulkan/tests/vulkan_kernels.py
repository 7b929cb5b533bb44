"""Kernels the Vulkan tests share (module level: hanajit compiles module functions)."""
from __future__ import annotations

import math

import numpy as np

from hanajit.philox import philox_normal, philox_stream


def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        y[i] = a * x[i] + y[i]


def histogram(h, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        atomic_add(h, x[i] % 16, 1)  # noqa: F821


def histogram64(h, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        atomic_add(h, x[i] % 16, 1)  # noqa: F821


def cas(a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        atomic_cas(a, 0, 0, i)  # noqa: F821


def exp64(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.exp(x[i])


def exp32(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = np.exp(x[i])


def stencil(out, a):
    i = block_id_x() * block_dim_x() + thread_id_x()  # noqa: F821
    j = block_id_y() * block_dim_y() + thread_id_y()  # noqa: F821
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1] - 4.0 * a[i, j]


def ids(out):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    out[i, 0] = thread_id()  # noqa: F821
    out[i, 1] = block_id()  # noqa: F821
    out[i, 2] = block_dim()  # noqa: F821
    out[i, 3] = grid_dim()  # noqa: F821


def out_of_range(out, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i + 5] = 1.0


def tree_sum(out, x, n):
    sh = shared_f64(64)  # noqa: F821
    t = thread_id()  # noqa: F821
    i = block_id() * block_dim() + t  # noqa: F821
    sh[t] = x[i] if i < n else 0.0
    barrier()  # noqa: F821
    s = 32
    while s > 0:
        if t < s:
            sh[t] += sh[t + s]
        barrier()  # noqa: F821
        s //= 2
    if t == 0:
        out[block_id()] = sh[0]  # noqa: F821


def shared_atomics(out, x, n):
    sh = shared_i32(2)  # noqa: F821
    t = thread_id()  # noqa: F821
    if t < 2:
        sh[t] = 0
    barrier()  # noqa: F821
    i = block_id() * block_dim() + t  # noqa: F821
    if i < n:
        atomic_add(sh, 0, 1)  # noqa: F821
        atomic_max(sh, 1, x[i])  # noqa: F821
    barrier()  # noqa: F821
    if t == 0:
        out[block_id(), 0] = sh[0]  # noqa: F821
        out[block_id(), 1] = sh[1]  # noqa: F821


def float_atomics(acc, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        atomic_add(acc, 0, x[i])  # noqa: F821
        atomic_min(acc, 1, x[i])  # noqa: F821
        atomic_max(acc, 2, x[i])  # noqa: F821


def shared_histogram(out, x, n):
    sh = shared_i32(16)  # noqa: F821
    t = thread_id()  # noqa: F821
    if t < 16:
        sh[t] = 0
    barrier()  # noqa: F821
    i = block_id() * block_dim() + t  # noqa: F821
    if i < n:
        atomic_add(sh, x[i] % 16, 1)  # noqa: F821
    barrier()  # noqa: F821
    if t < 16:
        atomic_add(out, t, sh[t])  # noqa: F821


def mask_scale(out, x, keep, k, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = x[i] * k if keep[i] else np.float32(-1.0)


# float64 math on the device: core's software library (``hanajit.lowering.softmath``)
def log64(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.log(x[i])


def sin64(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.sin(x[i])


def cos64(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.cos(x[i])


def tan64(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.tan(x[i])


def tanh64(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.tanh(x[i])


def pow64(out, x, y, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.pow(x[i], y[i])


def atan2_64(out, x, y, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.atan2(x[i], y[i])


def store_in_loop(out, n):
    # a loop storing to an array every iteration, its bounds check raising from
    # inside the loop: valid once CodeGenPrepare no longer deletes the merge
    # blocks before LLVM's structuriser runs (--disable-cgp, docs/gpu.md)
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        for k in range(3):
            out[i] += 1.5 * k


def normals(out, key, n):
    # hanajit.philox's ziggurat (one rejection loop with if/elif/else inside,
    # philox_stream raising before it): valid with the returns meeting at the
    # if's merge ("early_returns", codegen.py) and --disable-cgp (docs/gpu.md)
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        s = philox_stream(key, i)
        x, s = philox_normal(s)
        out[i] = x


def normals_per_row(out, key, n):
    # the ziggurat's loop inside a loop over a row (as the Level Zero test draws)
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        s = philox_stream(key, i)
        for k in range(out.shape[1]):
            x, s = philox_normal(s)
            out[i, k] = x
