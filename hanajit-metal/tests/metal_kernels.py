"""Kernels of the Metal tests beyond the shared case list: the kernel model's
shared memory, barriers and atomics in float32/int32, which Metal has."""
import numpy as np

from hanajit.gpu import (atomic_add, atomic_cas, atomic_max, barrier, block_dim,
                         block_id, shared_f32, thread_id)


def tree_sum(out, x, n):
    s = shared_f32(64)
    t = thread_id()
    i = block_id() * block_dim() + t
    s[t] = x[i] if i < n else np.float32(0)
    barrier()
    k = 32
    while k > 0:
        if t < k:
            s[t] += s[t + k]
        barrier()
        k //= 2
    if t == 0:
        out[block_id()] = s[0]


def histogram(counts, x, n):
    i = block_id() * block_dim() + thread_id()
    if i < n:
        atomic_add(counts, x[i] % 8, np.int32(1))


def int_max(out, x, n):
    i = block_id() * block_dim() + thread_id()
    if i < n:
        atomic_max(out, 0, x[i])


def first_claim(owner, n):
    i = block_id() * block_dim() + thread_id()
    if i < n:
        atomic_cas(owner, 0, np.int32(-1), np.int32(i))


def out_of_bounds(out, n):
    i = block_id() * block_dim() + thread_id()
    out[i + n] = np.float32(1)
