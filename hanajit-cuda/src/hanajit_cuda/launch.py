"""Running a compiled kernel: arguments, launch geometry, errors.

``Launcher.launch`` loads the artifact's PTX once (the driver JIT-compiles it for
the device), turns each argument into the kernel's flattened parameters (see
``codegen``), launches, and -- with ``sync=True`` -- waits and copies NumPy arrays
back.  Errors raised in the kernel (an index out of bounds ...) are recorded by
the first failing thread in a small per-kernel device buffer; after the kernel
has finished (``sync=True``, or at ``synchronize()``) the launcher reads it and
raises the same Python exception the CPU target would, then clears it.
"""
from __future__ import annotations

import ctypes
import struct
import threading

import numpy as np

from hanajit.typing_rules import typeof
from hanajit.ir import types as T
from hanajit.lowering.cabi import flat_kinds

from .devicearray import DeviceArray, interface

DEFAULT_BLOCK = 256
MAX_BLOCK = 1024


def geometry(value, name) -> tuple:
    """A launch dimension as (x, y, z); ValueError for anything out of range."""
    if type(value) is int and value >= 1:
        return (value, 1, 1)
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    value = tuple(int(v) for v in value)
    if not 1 <= len(value) <= 3 or any(v < 1 for v in value):
        raise ValueError(f"launch: {name} must be 1 to 3 positive integers, got "
                         f"{value}")
    return value + (1,) * (3 - len(value))


def default_geometry(args, grid, block):
    """Without ``grid``: one thread per element of the largest array argument (at
    least one block); without ``block``: 256 threads."""
    block = geometry(block if block is not None else DEFAULT_BLOCK, "block")
    if block[0] * block[1] * block[2] > MAX_BLOCK:
        raise ValueError(f"launch: a block has at most {MAX_BLOCK} threads, got "
                         f"{block[0]}x{block[1]}x{block[2]}")
    if grid is None:
        n = max([_size(a) for a in args] + [1])
        grid = (max(1, -(-n // (block[0] * block[1] * block[2]))),)
    grid = geometry(grid, "grid")
    if grid[0] > 2**31 - 1 or grid[1] > 65535 or grid[2] > 65535:
        raise ValueError(f"launch: grid {grid} exceeds (2**31-1, 65535, 65535)")
    return grid, block


def _size(a) -> int:
    if isinstance(a, np.ndarray):
        return a.size
    cai = getattr(a, "__cuda_array_interface__", None)
    if cai is not None:
        return int(np.prod(cai["shape"], dtype=np.int64))
    return 0


def device_typeof(value):
    """The IR type of a launch argument: device arrays by their interface, the rest
    as the CPU target types them."""
    kind = type(value)
    if kind is DeviceArray:
        return value.ir_type
    if kind in _SCALARS:
        return typeof(value)
    info = interface(value)
    if info is None:
        return typeof(value)
    dtype = T.from_numpy_dtype(info["dtype"])
    if dtype is None:
        return None
    shape, strides = info["shape"], info["strides"]
    contiguous, step = True, info["dtype"].itemsize
    for n, s in zip(reversed(shape), reversed(strides)):
        if n > 1 and s != step:
            contiguous = False
        step *= n
    return T.ArrayType(dtype, len(shape), "C" if contiguous else "A", info["readonly"])


_SCALARS = frozenset((int, float, bool, complex))


class LoadedKernel:
    """An artifact loaded into the current context, with its error buffer."""

    def __init__(self, driver, artifact):
        self.driver = driver
        self.module, self.function = driver.load_ptx(artifact.stages["ptx"])
        self.raises = artifact.metadata["raises"]
        self.name = artifact.metadata["name"]
        self.err = driver.alloc(32)
        driver.memset(self.err, 32)
        self.params = artifact.metadata["params"]
        self.arg_types = artifact.metadata["arg_types"]
        # per argument: None for an array, else its scalar leaves' types
        self.plan = [None if isinstance(t, T.ArrayType) else flat_kinds(t)
                     for t in self.arg_types]
        self.arrays = sum(leaves is None for leaves in self.plan)
        n = 1 + len(self.params)
        self.values = (ctypes.c_uint64 * n)()
        base = ctypes.addressof(self.values)
        self.pointers = (ctypes.c_void_p * n)(*[base + 8 * i for i in range(n)])
        self.address = ctypes.addressof(self.pointers)

    def check_error(self):
        """Raise the exception a kernel thread recorded (and clear the record)."""
        rec = (ctypes.c_int64 * 4)()
        self.driver.dtoh(ctypes.addressof(rec), self.err, 32)
        code = rec[0]
        if code == 0:
            return
        self.driver.memset(self.err, 32)
        exc, message, deopt = self.raises[code - 1]
        if deopt or getattr(exc, "__name__", "") == "Deopt":
            raise OverflowError(f"{self.name}: a result in the kernel cannot be "
                                f"represented ({message}); the GPU has no interpreter "
                                "to fall back to")
        from hanajit.errors import kernel_message
        raise exc(kernel_message(message, rec[1:4]))


class Launcher:
    """Launches for one target instance: loaded kernels, pending error checks."""

    def __init__(self, driver):
        self.driver = driver
        self.kernels: dict = {}          # id(artifact) -> (artifact, LoadedKernel)
        self.pending: set = set()        # kernels launched without waiting
        self.lock = threading.RLock()    # one launch at a time fills the parameters
        self.current = threading.local()  # has this thread made the context current

    def kernel(self, artifact) -> LoadedKernel:
        hit = self.kernels.get(id(artifact))
        if hit is None or hit[0] is not artifact:
            hit = (artifact, LoadedKernel(self.driver, artifact))
            self.kernels[id(artifact)] = hit
        return hit[1]

    def launch(self, artifact, args, grid=None, block=None, stream=None, sync=True):
        if type(grid) is int and type(block) is int and 1 <= block <= MAX_BLOCK \
                and 1 <= grid < 2**31:           # the common case, checked quickly
            grid, block = (grid, 1, 1), (block, 1, 1)
        else:
            grid, block = default_geometry(args, grid, block)
        with self.lock:
            return self._launch(artifact, args, grid, block, stream, sync)

    def _launch(self, artifact, args, grid, block, stream, sync):
        if not getattr(self.current, "ok", False):    # once per thread
            self.driver.make_current()
            self.current.ok = True
        k = self.kernel(artifact)
        cu_stream = to_stream(self.driver, stream)
        values = k.values
        values[0] = k.err
        slot = 1
        copies = []                      # (device array, original)
        keep = []
        shared, spans = (shared_host_memory(self.driver, args, k.arg_types, k.plan)
                         if k.arrays > 1 else _NONE_SHARED)
        for index, (value, t, leaves) in enumerate(zip(args, k.arg_types, k.plan)):
            if leaves is not None:           # a scalar, a complex number, a tuple
                if len(leaves) == 1:
                    values[slot] = _bits(value, leaves[0])
                    slot += 1
                else:
                    for leaf, v in zip(leaves, _leaves(value, t)):
                        values[slot] = _bits(v, leaf)
                        slot += 1
            elif type(value) is DeviceArray:   # the fast path: parameters cached
                params = value._params
                if params is None:
                    raise ValueError("launch: a device array argument has been freed")
                for v in params:
                    values[slot] = v
                    slot += 1
            elif index in shared:        # NumPy arrays sharing memory: one copy
                ptr = shared[index]
                values[slot] = ptr
                slot += 1
                for n in value.shape:
                    values[slot] = n
                    slot += 1
                for s in value.strides:
                    values[slot] = s & 0xFFFFFFFFFFFFFFFF
                    slot += 1
            else:
                info = interface(value)
                if info is None:         # a NumPy array: copy over (and back)
                    d = DeviceArray.from_host(self.driver, value, sync=self.synchronize)
                    keep.append(d)
                    if not t.readonly and value.flags.writeable:
                        copies.append((d, value))
                    info = interface(d)
                values[slot] = info["ptr"]
                slot += 1
                for n in info["shape"]:
                    values[slot] = n & 0xFFFFFFFFFFFFFFFF
                    slot += 1
                for s in info["strides"]:
                    values[slot] = s & 0xFFFFFFFFFFFFFFFF
                    slot += 1
        self.driver.launch(k.function, grid, block, cu_stream, k.address)
        if copies or keep or spans:
            sync = True                  # host arrays come back now
        if not sync:
            self.pending.add(k)
            return None
        self.driver.synchronize(cu_stream)
        for d, original in copies:
            if original.flags.c_contiguous:
                self.driver.dtoh(original.ctypes.data, d.ptr, d.nbytes)
            else:
                host = np.empty(d.shape, d.dtype)
                self.driver.dtoh(host.ctypes.data, d.ptr, d.nbytes)
                original[...] = host
        for span in spans:
            span.back(self.driver)
        for d in keep:
            d.free()
        self.pending.discard(k)
        k.check_error()
        return None

    def synchronize(self):
        self.driver.synchronize()
        pending, self.pending = self.pending, set()
        for k in pending:
            k.check_error()


_NONE_SHARED = ({}, ())


def _extent(a: np.ndarray) -> tuple[int, int]:
    """The bytes [lo, hi) that the elements of ``a`` (not empty) lie in."""
    lo = hi = a.ctypes.data
    for n, s in zip(a.shape, a.strides):
        if s < 0:
            lo += (n - 1) * s
        else:
            hi += (n - 1) * s
    return lo, hi + a.itemsize


class _Span:
    """Host bytes [lo, hi) copied to the device as one block, for NumPy arguments
    that share memory: each becomes a view into the block, so a kernel sees their
    aliasing as the CPU target does; ``back`` copies the written arguments' bytes
    home and frees the block."""

    def __init__(self, driver, lo, hi):
        self.lo, self.hi, self.back_ranges = lo, hi, []
        self.ptr = driver.alloc(hi - lo)
        driver.htod(self.ptr, lo, hi - lo)

    def back(self, driver):
        for lo, hi in self.back_ranges:
            driver.dtoh(lo, self.ptr + (lo - self.lo), hi - lo)
        driver.free(self.ptr)
        self.ptr = None


def shared_host_memory(driver, args, arg_types, plan):
    """``({argument index: device pointer}, [_Span])`` for the NumPy array
    arguments whose bytes overlap another's (``launch(y, y, ...)``, ``a[1:]`` with
    ``a[:-1]``); the other arrays are copied one by one."""
    found = [(*_extent(v), i) for i, (v, leaves) in enumerate(zip(args, plan))
             if leaves is None and type(v) is np.ndarray and v.size]
    if len(found) < 2:
        return {}, []
    found.sort()
    groups, current = [], [found[0]]
    for item in found[1:]:
        if item[0] < max(hi for _, hi, _ in current):
            current.append(item)
        else:
            groups.append(current)
            current = [item]
    groups.append(current)
    pointers, spans = {}, []
    for group in groups:
        if len(group) < 2:
            continue
        span = _Span(driver, group[0][0], max(hi for _, hi, _ in group))
        spans.append(span)
        for lo, hi, i in group:
            v = args[i]
            pointers[i] = span.ptr + (v.ctypes.data - span.lo)
            if not arg_types[i].readonly and v.flags.writeable:
                span.back_ranges.append((lo, hi))
    return pointers, spans


def _leaves(value, t):
    if isinstance(t, T.TupleType):
        return [x for v, it in zip(value, t.items) for x in _leaves(v, it)]
    if isinstance(t, T.Scalar) and t.is_complex:
        return [complex(value).real, complex(value).imag]
    if isinstance(t, T.NoneType):
        return []
    return [value]


_F64 = struct.Struct("<d")
_U64 = struct.Struct("<Q")


def _bits(v, leaf: T.Scalar) -> int:
    if leaf.kind == "f":
        return _U64.unpack(_F64.pack(v))[0]
    return int(v) & 0xFFFFFFFFFFFFFFFF


def to_stream(driver, stream):
    """A ``CUstream`` from None, an int handle, a cuda-bindings stream, or a CuPy /
    PyTorch / Numba stream object."""
    if stream is None:
        return None
    cu = driver.cu
    if isinstance(stream, cu.CUstream):
        return stream
    for attr in ("ptr", "cuda_stream", "handle"):
        h = getattr(stream, attr, None)
        if h is not None:
            stream = getattr(h, "value", h) or 0
            break
    return cu.CUstream(int(stream))
