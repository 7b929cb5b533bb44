"""GPU programs every GPU target runs: kernels with barriers, shared memory,
atomics, 2-D and 3-D grids, early returns and a raise, each launched with the
geometry it was written for and checked against a NumPy reference -- bit for bit
(every result here is exact or rounded once, in the order the reference rounds).

A program whose needs (``needs``: :class:`~hanajit.target.Capabilities` fields)
the target lacks must be refused when it is compiled, with a message naming
what is missing -- never computed differently.  Without a usable device a
program compiles and, where the target has a check, its assembly is validated.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

from hanajit.gpu import (atomic_add, atomic_max, atomic_min, barrier, block_dim,
                         block_dim_y, block_dim_z, block_id, block_id_y, block_id_z,
                         shared_array, thread_id, thread_id_y, thread_id_z)
from hanajit.philox import (philox_random, philox_random_float32, philox_stream,
                            philox_uint32, philox_uint64)

BLOCK = 64


def tree_sum(partials, a, n):
    """One partial sum per block: a tree reduction in shared memory."""
    t = thread_id()
    i = block_id() * block_dim() + t
    s = shared_array(64, np.float64)
    acc = 0.0
    if i < n:
        acc = a[i]
    s[t] = acc
    barrier()
    step = 32
    while step > 0:
        if t < step:
            s[t] = s[t] + s[t + step]
        barrier()
        step = step // 2
    if t == 0:
        partials[block_id()] = s[0]


def tree_sum_f32(partials, a, n):
    """:func:`tree_sum` in float32."""
    t = thread_id()
    i = block_id() * block_dim() + t
    s = shared_array(64, np.float32)
    acc = np.float32(0.0)
    if i < n:
        acc = a[i]
    s[t] = acc
    barrier()
    step = 32
    while step > 0:
        if t < step:
            s[t] = s[t] + s[t + step]
        barrier()
        step = step // 2
    if t == 0:
        partials[block_id()] = s[0]


def histogram(hist, data, n):
    """Counts of ``data % 16`` per block in shared memory, then added atomically."""
    s = shared_array(16, np.int32)
    t = thread_id()
    if t < 16:
        s[t] = 0
    barrier()
    i = block_id() * block_dim() + t
    if i < n:
        atomic_add(s, data[i] % 16, 1)
    barrier()
    if t < 16:
        atomic_add(hist, t, s[t])


def int32_extremes(out, data, n):
    """Atomic minimum and maximum of int32 values into ``out[0]`` and ``out[1]``."""
    i = block_id() * block_dim() + thread_id()
    if i < n:
        atomic_min(out, 0, data[i])
        atomic_max(out, 1, data[i])


def stencil_2d(out, a):
    i = block_id_y() * block_dim_y() + thread_id_y()
    j = block_id() * block_dim() + thread_id()
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) * 0.25


def scale_3d(out, a, f):
    i = block_id_z() * block_dim_z() + thread_id_z()
    j = block_id_y() * block_dim_y() + thread_id_y()
    k = block_id() * block_dim() + thread_id()
    if i < a.shape[0] and j < a.shape[1] and k < a.shape[2]:
        out[i, j, k] = a[i, j, k] * f + a[i, j, k]


def int32_arith(out, a, b, n):
    i = block_id() * block_dim() + thread_id()
    if i >= n:
        return                                   # an early return
    out[i] = a[i] * 3 + b[i] // 7 - (a[i] & 255) + abs(b[i]) % 5


def shift_right(out, a, n):
    """Thread ``i`` writes ``out[i + 1]``: the last one is out of bounds."""
    i = block_id() * block_dim() + thread_id()
    if i < n:
        out[i + 1] = a[i]


def philox_bits(words, floats, key, offset, n):
    """Thread ``i`` draws from Philox stream ``i``: uint64, two uint32 halves,
    float32 uniforms, across a block boundary and a counter carry."""
    i = block_id() * block_dim() + thread_id()
    if i < n:
        s = philox_stream(key, i, offset)
        w, s = philox_uint64(s)
        words[i, 0] = w
        a, s = philox_uint32(s)
        words[i, 1] = a
        b, s = philox_uint32(s)
        words[i, 2] = b
        f, s = philox_random_float32(s)
        floats[i, 0] = f
        w, s = philox_uint64(s)
        words[i, 3] = w
        w, s = philox_uint64(s)               # a new block: the counter carries
        words[i, 4] = w
        f, s = philox_random_float32(s)       # the half saved two draws ago
        floats[i, 1] = f


def philox_doubles(out, key, n):
    """Thread ``i``'s ``Generator.random()`` five times (the fifth from a second
    block)."""
    i = block_id() * block_dim() + thread_id()
    if i < n:
        s = philox_stream(key, i)
        x, s = philox_random(s)
        out[i, 0] = x
        x, s = philox_random(s)
        out[i, 1] = x
        x, s = philox_random(s)
        out[i, 2] = x
        x, s = philox_random(s)
        out[i, 3] = x
        x, s = philox_random(s)
        out[i, 4] = x


def _rng(seed):
    return np.random.default_rng(seed)


def _tree_reference(a, block, dtype):
    nblocks = -(-a.size // block)
    s = np.zeros(nblocks * block, dtype)
    s[:a.size] = a
    s = s.reshape(nblocks, block)
    step = block // 2
    while step > 0:                              # the kernel's order of additions
        s[:, :step] = s[:, :step] + s[:, step:2 * step]
        step //= 2
    return s[:, 0]


def _tree(dtype):
    n = BLOCK * 5 + 11
    a = _rng(11).normal(0, 1, n).astype(dtype)
    partials = np.zeros(-(-n // BLOCK), dtype)
    return (partials, a, n), lambda: [(partials, _tree_reference(a, BLOCK, dtype))]


def _histogram():
    n = BLOCK * 7 + 5
    data = _rng(12).integers(0, 10**6, n).astype(np.int32)
    hist = np.zeros(16, np.int32)
    return (hist, data, n), lambda: [
        (hist, np.bincount(data % 16, minlength=16).astype(np.int32))]


def _extremes():
    n = BLOCK * 3 + 1
    data = _rng(13).integers(-2**31, 2**31, n).astype(np.int32)
    out = np.array([2**31 - 1, -2**31], np.int32)
    return (out, data, n), lambda: [(out, np.array([data.min(), data.max()], np.int32))]


def _stencil():
    a = _rng(14).random((37, 53)).astype(np.float32)
    out = np.zeros_like(a)

    def want():
        w = np.zeros_like(a)
        w[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]) * 0.25
        return [(out, w)]
    return (out, a), want


def _scale():
    a = _rng(15).random((5, 7, 19)).astype(np.float32)
    out = np.zeros_like(a)
    return (out, a, np.float32(1.75)), lambda: [(out, a * np.float32(1.75) + a)]


def _int32():
    n = BLOCK * 2 + 3
    a = _rng(16).integers(-10**6, 10**6, n).astype(np.int32)
    b = _rng(17).integers(-10**6, 10**6, n).astype(np.int32)
    out = np.zeros(n, np.int32)
    return (out, a, b, n), lambda: [(out, a * 3 + b // 7 - (a & 255) + np.abs(b) % 5)]


PHILOX_N = BLOCK * 2 + 22
PHILOX_KEY = 0x9E3779B97F4A7C15
PHILOX_OFFSET = 2**64 - 2           # the second block of each thread carries


def _philox(i, offset=0):
    bits = np.random.Philox(key=PHILOX_KEY, counter=(i << 128) + offset)
    return bits, np.random.Generator(bits)


def _philox_bits():
    import ctypes
    words = np.zeros((PHILOX_N, 5), np.uint64)
    floats = np.zeros((PHILOX_N, 2), np.float32)

    def want():
        w, f = np.zeros_like(words), np.zeros_like(floats)
        for i in range(PHILOX_N):
            bits, g = _philox(i, PHILOX_OFFSET)
            c = bits.ctypes
            next32 = ctypes.CFUNCTYPE(ctypes.c_uint32, ctypes.c_void_p)(
                ctypes.cast(c.next_uint32, ctypes.c_void_p).value)
            w[i, 0] = bits.random_raw()
            w[i, 1] = next32(c.state_address)
            w[i, 2] = next32(c.state_address)
            f[i, 0] = g.random(dtype=np.float32)
            w[i, 3:5] = bits.random_raw(2)
            f[i, 1] = g.random(dtype=np.float32)
        return [(words, w), (floats, f)]
    return (words, floats, np.uint64(PHILOX_KEY), np.uint64(PHILOX_OFFSET),
            PHILOX_N), want


def _philox_doubles():
    out = np.zeros((PHILOX_N, 5))

    def want():
        return [(out, np.array([_philox(i)[1].random(5) for i in range(PHILOX_N)]))]
    return (out, np.uint64(PHILOX_KEY), PHILOX_N), want


def _shift():
    n = BLOCK + 5
    out = np.zeros(n)
    return (out, np.arange(1.0, n + 1), n), None


@dataclass
class Program:
    kernel: object
    signature: str
    make: object                 # () -> (arguments, reference or None)
    grid: object
    block: object
    needs: tuple = ()            # Capabilities fields
    raises: tuple = field(default=())   # (exception, message pattern)


PROGRAMS = {
    "tree_sum": Program(tree_sum, "f64[:], f64[:], i64", lambda: _tree(np.float64),
                        6, BLOCK, ("shared_memory", "float64")),
    "tree_sum_f32": Program(tree_sum_f32, "f32[:], f32[:], i64",
                            lambda: _tree(np.float32), 6, BLOCK, ("shared_memory",)),
    "histogram": Program(histogram, "i32[:], i32[:], i64", _histogram, 8, BLOCK,
                         ("shared_memory", "atomics")),
    "int32_extremes": Program(int32_extremes, "i32[:], i32[:], i64", _extremes, 4, BLOCK,
                              ("atomics",)),
    "stencil_2d": Program(stencil_2d, "f32[:, :], f32[:, :]", _stencil, (4, 3), (16, 16)),
    "scale_3d": Program(scale_3d, "f32[:, :, :], f32[:, :, :], f32", _scale, (3, 2, 2),
                        (8, 4, 4)),
    "int32_arith": Program(int32_arith, "i32[:], i32[:], i32[:], i64", _int32, 3, BLOCK),
    "philox_bits": Program(philox_bits, "u64[:, :], f32[:, :], u64, u64, i64",
                           _philox_bits, 3, BLOCK, ("int64",)),
    "philox_doubles": Program(philox_doubles, "f64[:, :], u64, i64", _philox_doubles,
                              3, BLOCK, ("int64", "float64")),
    "index_error": Program(shift_right, "f64[:], f64[:], i64", _shift, 2, BLOCK,
                           ("float64",),
                           (IndexError, "index 69 is out of bounds for axis 0 with "
                                        "size 69")),
}


class KernelProgramCases:
    """Mixed into :class:`~.cases_kernels.KernelConformance`."""

    @pytest.mark.parametrize("name", sorted(PROGRAMS))
    def test_program(self, name):
        from .base import capabilities_of
        p = PROGRAMS[name]
        missing = [c for c in p.needs if not getattr(capabilities_of(self.target), c)]
        jf = self.jit(p.kernel)
        if missing:
            with pytest.raises(Exception) as info:
                jf.compile_signature(p.signature)
            assert any(c.replace("_", " ") in str(info.value).replace("_", " ")
                       or c in str(info.value) for c in missing), (
                f"{name}: refused without naming {missing}: {info.value}")
            return
        if not self.device:
            jf.compile_signature(p.signature)
            if not self.validate(jf.inspect_gpu()):
                pytest.skip(f"target {self.target!r} cannot launch: {self.device_reason}")
            return
        args, reference = p.make()
        if p.raises:
            exc, message = p.raises
            with pytest.raises(exc, match=message):
                jf.launch(*args, grid=p.grid, block=p.block)
            return
        jf.launch(*args, grid=p.grid, block=p.block)
        for got, want in reference():
            assert got.dtype == want.dtype, name
            bad = np.flatnonzero(~_same(got, want))
            assert not bad.size, (f"{name}: {bad.size} elements differ, first: "
                                  + ", ".join(f"[{i}] {got.flat[i]!r} != {want.flat[i]!r}"
                                              for i in bad[:5]))


def _same(got, want):
    """Element-wise: equal bits for floats (NaN payloads aside), equal for ints."""
    g, w = got.ravel(), want.ravel()
    if g.dtype.kind == "f":
        return (g == w) & (np.signbit(g) == np.signbit(w)) | (np.isnan(g) & np.isnan(w))
    return g == w

