"""Test kernels every GPU target's tests compile and launch: saxpy, a
shared-memory tree reduction, an atomic histogram, a 2-D stencil, 3-D indexing,
float64 math, shared-memory atomics, a constant table.  Not jitted here: each test
compiles them for its target and architecture.  :data:`KERNELS` maps a name to
(function, signature).  (The conformance suite's own lists are
:mod:`.cases_kernels` and :mod:`.cases_kernel_programs`.)"""
import math

import numpy as np

from hanajit.gpu import atomic_add, barrier, shared_array

BLOCK = 256


def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821  (unqualified on purpose)
    if i < n:
        y[i] = a * x[i] + y[i]


def block_sums(partials, a, n):
    """Tree reduction in shared memory: one partial sum per block of 256 threads."""
    tid = thread_id()  # noqa: F821
    i = block_id() * block_dim() + tid  # noqa: F821
    s = shared_f64(256)  # noqa: F821
    acc = 0.0
    if i < n:
        acc = a[i]
    s[tid] = acc
    barrier()
    step = 128
    while step > 0:
        if tid < step:
            s[tid] = s[tid] + s[tid + step]
        barrier()
        step = step // 2
    if tid == 0:
        partials[block_id()] = s[0]  # noqa: F821


def histogram(hist, data, n):
    """Atomic histogram of ``data % 64``: per-block counts in shared memory, then
    atomically added to the global histogram."""
    s = shared_array(64, np.int32)
    t = thread_id()  # noqa: F821
    if t < 64:
        s[t] = 0
    barrier()
    i = block_id() * block_dim() + t  # noqa: F821
    if i < n:
        atomic_add(s, data[i] % 64, 1)
    barrier()
    if t < 64:
        atomic_add(hist, t, s[t])


def stencil2d(out, a):
    i = block_id_y() * block_dim_y() + thread_id_y()  # noqa: F821
    j = block_id_x() * block_dim_x() + thread_id_x()  # noqa: F821
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


def scale3d(out, a, f):
    i = block_id_z() * block_dim_z() + thread_id_z()  # noqa: F821
    j = block_id_y() * block_dim_y() + thread_id_y()  # noqa: F821
    k = block_id_x() * block_dim_x() + thread_id_x()  # noqa: F821
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        out[i, j, k] = a[i, j, k] * f + a[i, j, k]


def transcendentals(out, x):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < x.shape[0]:
        v = x[i]
        out[0, i] = math.exp(v)
        out[1, i] = math.sin(v)
        out[2, i] = np.log(v)
        out[3, i] = math.pow(v, 1.5)


def shared_atomics(out, ints):
    """Atomics on shared memory: min, max, cas and add of every thread's index."""
    f = shared_array(4, np.float64)
    k = shared_array(4, np.int64)
    t = thread_id()  # noqa: F821
    if t == 0:
        f[0] = 1e300
        f[1] = -1e300
        f[2] = 0.0
        f[3] = 0.0
        k[0] = 1 << 40
        k[1] = -(1 << 40)
        k[2] = -1
        k[3] = 0
    barrier()
    atomic_min(f, 0, 1.0 * t)  # noqa: F821
    atomic_max(f, 1, 1.0 * t)  # noqa: F821
    atomic_cas(f, 2, 0.0, 1.0 + t)  # noqa: F821
    atomic_add(f, 3, 0.5)
    atomic_min(k, 0, t)  # noqa: F821
    atomic_max(k, 1, t)  # noqa: F821
    atomic_cas(k, 2, -1, t)  # noqa: F821
    atomic_add(k, 3, t)
    atomic_add(ints, (t % 2, 0), 1)
    barrier()
    if t < 4:
        out[t] = f[t]
        out[4 + t] = k[t]


WEIGHTS = tuple(0.5 * k for k in range(16))


def const_table(out, idx):
    """A constant tuple indexed at run time (a TableLoad: a constant global, or
    selects where the row has logical addressing)."""
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < idx.shape[0]:
        out[i] = WEIGHTS[idx[i] % 16]


# name -> (function, signature)
KERNELS = {
    "saxpy": (saxpy, "f64[:], f64[:], f64, i64"),
    "block_sums": (block_sums, "f64[:], f64[:], i64"),
    "histogram": (histogram, "i32[:], i64[:], i64"),
    "stencil2d": (stencil2d, "f64[:, :], f64[:, :]"),
    "scale3d": (scale3d, "f32[:, :, :], f32[:, :, :], f32"),
    "transcendentals": (transcendentals, "f64[:, :], f64[:]"),
    "shared_atomics": (shared_atomics, "f64[:], i64[:, :]"),
    "const_table": (const_table, "f64[:], i64[:]"),
}
