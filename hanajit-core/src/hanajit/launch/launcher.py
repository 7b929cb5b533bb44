"""Running a compiled kernel: arguments, launch, errors -- for every GPU target.

:meth:`Launcher.launch` loads an artifact once per driver, turns each argument
into the kernel entry's parameters, launches, and -- with ``sync=True`` -- waits
and copies NumPy arrays back.  Errors raised in the kernel (an index out of
bounds ...) are recorded by the first failing thread in a 32-byte error record in
device memory (``lowering/kernel_lower.py``; an artifact's ``error_bytes`` metadata
asks for more, the first 32 laid out the same); after the kernel has finished
(``sync=True``, or at ``synchronize()``) the launcher reads it, clears it and
raises the exception the CPU target would.

The parameters (:class:`Params`) are 8-byte slots: slot 0 the error record, then
per argument in order -- an array: its data pointer, its shape, its byte strides;
a scalar: its bits (integers sign-extended to 64 bits, floats as float64 bits,
as the kernel entry takes them); a complex number or a tuple: its leaves.

A *driver* is what a target supplies.  It has:

* ``alloc(nbytes) -> handle``, ``free(handle)``, ``memset(handle, nbytes)``
  (zeroes), ``htod(handle, host_address, nbytes, stream=None)``,
  ``dtoh(host_address, handle, nbytes, stream=None)`` -- device memory; a handle
  is an int, and ``handle + k`` must name byte ``k`` of the allocation (arguments
  sharing host memory become views into one block);
* ``load(artifact) -> function`` -- the kernel, ready to launch;
* ``launch(function, grid, block, stream, params)`` -- start it; ``grid`` and
  ``block`` are (x, y, z), ``params`` a :class:`Params`;
* ``synchronize(stream=None)`` -- wait for launched work.

and optionally ``make_current()`` (called once per host thread before its first
launch), ``stream(obj)`` (a native stream from the ``stream=`` argument; without
it only ``None`` is accepted), ``max_block``, ``max_grid``, ``default_block``
(see :mod:`.geometry`), ``array_type`` (its :class:`~.device_array.DeviceArray`
class) and ``interface(obj)`` (foreign device arrays; see
:mod:`.array_interface`).
"""
from __future__ import annotations

import ctypes
import struct
import threading

import numpy as np

from hanajit.errors import CLEAN
from hanajit.ir import types as T
from hanajit.lowering.cabi import flat_kinds
from hanajit.typing_rules import typeof

from .array_interface import no_interface
from .device_array import DeviceArray
from .geometry import DEFAULT_BLOCK, MAX_BLOCK, MAX_GRID, default_geometry

ERROR_RECORD = 32           # bytes: code, then up to three integers for the message


class Params:
    """A kernel's parameter slots: ``values`` (``count`` uint64s, slot 0 the error
    record) and ``address``, the address of an array of ``count`` pointers, one to
    each slot -- the ``kernelParams`` form CUDA and HIP launch with."""

    def __init__(self, count: int):
        self.count = count
        self.values = (ctypes.c_uint64 * count)()
        base = ctypes.addressof(self.values)
        self.pointers = (ctypes.c_void_p * count)(*[base + 8 * i for i in range(count)])
        self.address = ctypes.addressof(self.pointers)

    def as_bytes(self) -> bytes:
        """The slots as one little-endian buffer (push constants, kernel arguments
        passed as a block)."""
        return bytes(self.values)


def make_typeof(array_type=DeviceArray, interface=no_interface):
    """The IR type of a launch argument -- device arrays by their interface, the
    rest as the CPU target types them -- as a plain function, which a launch keeps
    and calls once per argument."""

    def device_typeof(value):
        kind = type(value)
        if kind is array_type:
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
        return T.ArrayType(dtype, len(shape), "C" if contiguous else "A",
                           info["readonly"])

    return device_typeof


_SCALARS = frozenset((int, float, bool, complex))


class LoadedKernel:
    """An artifact loaded by a driver, with its error record and parameters."""

    def __init__(self, driver, artifact):
        self.driver = driver
        self.function = driver.load(artifact)
        self.raises = artifact.metadata["raises"]
        self.name = artifact.metadata["name"]
        # a row may need more than the 32 bytes (logical addressing: a claim word
        # and scratch after them, ``kernel_logical.ERR_BYTES``)
        self.err_bytes = artifact.metadata.get("error_bytes", ERROR_RECORD)
        self.err = driver.alloc(self.err_bytes)
        driver.memset(self.err, self.err_bytes)
        self.arg_types = artifact.metadata["arg_types"]
        # per argument: None for an array, else its scalar leaves' types
        self.plan = [None if isinstance(t, T.ArrayType) else flat_kinds(t)
                     for t in self.arg_types]
        self.arrays = sum(leaves is None for leaves in self.plan)
        self.params = Params(1 + len(artifact.metadata["params"]))

    def check_error(self):
        """Raise the exception a kernel thread recorded (and clear the record)."""
        rec = (ctypes.c_int64 * 4)()
        self.driver.dtoh(ctypes.addressof(rec), self.err, ERROR_RECORD)
        code = rec[0]
        if code == 0:
            return
        self.driver.memset(self.err, self.err_bytes)
        exc, message, deopt = self.raises[code - 1]
        if deopt in (True, CLEAN) or getattr(exc, "__name__", "") == "Deopt":
            raise OverflowError(f"{self.name}: a result in the kernel cannot be "
                                f"represented ({message}); the GPU has no interpreter "
                                "to fall back to")
        from hanajit.errors import kernel_exception
        raise kernel_exception(exc, message, rec[1:4])


class Launcher:
    """Launches through one driver: loaded kernels, pending error checks."""

    def __init__(self, driver):
        self.driver = driver
        self.array_type = getattr(driver, "array_type", DeviceArray)
        self.interface = getattr(driver, "interface", no_interface)
        self.max_block = getattr(driver, "max_block", MAX_BLOCK)
        self.max_grid = tuple(getattr(driver, "max_grid", MAX_GRID))
        self.default_block = getattr(driver, "default_block", DEFAULT_BLOCK)
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

    def stream(self, stream):
        """The driver's native stream for a launch's ``stream=`` argument."""
        if stream is None:
            return None
        convert = getattr(self.driver, "stream", None)
        if convert is None:
            raise ValueError(f"launch: {getattr(self.driver, 'name', 'this target')} "
                             "takes no stream= argument")
        return convert(stream)

    def to_device(self, array, stream=None) -> DeviceArray:
        """``array`` (a NumPy array) copied into a new device array."""
        if not isinstance(array, np.ndarray):
            raise TypeError(f"to_device takes a NumPy array, not "
                            f"{type(array).__name__}")
        return self.array_type.from_host(self.driver, array, stream=self.stream(stream),
                                         sync=self.synchronize)

    def launch(self, artifact, args, grid=None, block=None, stream=None, sync=True):
        if type(grid) is int and type(block) is int and 1 <= block <= self.max_block \
                and 1 <= grid <= self.max_grid[0]:     # the common case, checked quickly
            grid, block = (grid, 1, 1), (block, 1, 1)
        else:
            grid, block = default_geometry(args, grid, block, self.max_block,
                                           self.max_grid, self.default_block)
        with self.lock:
            return self._launch(artifact, args, grid, block, stream, sync)

    def _launch(self, artifact, args, grid, block, stream, sync):
        driver = self.driver
        if not getattr(self.current, "ok", False):    # once per thread
            make_current = getattr(driver, "make_current", None)
            if make_current is not None:
                make_current()
            self.current.ok = True
        k = self.kernel(artifact)
        native_stream = self.stream(stream)
        values = k.params.values
        values[0] = k.err
        slot = 1
        copies = []                      # (device array, original)
        keep = []
        shared, spans = (shared_host_memory(driver, args, k.arg_types, k.plan)
                         if k.arrays > 1 else _NONE_SHARED)
        array_type = self.array_type
        for index, (value, t, leaves) in enumerate(zip(args, k.arg_types, k.plan)):
            if leaves is not None:           # a scalar, a complex number, a tuple
                if len(leaves) == 1:
                    values[slot] = scalar_bits(value, leaves[0])
                    slot += 1
                else:
                    for leaf, v in zip(leaves, _leaves(value, t)):
                        values[slot] = scalar_bits(v, leaf)
                        slot += 1
            elif type(value) is array_type:   # the fast path: parameters cached
                params = value._params
                if params is None:
                    raise ValueError("launch: a device array argument has been freed")
                for v in params:
                    values[slot] = v
                    slot += 1
            elif index in shared:        # NumPy arrays sharing memory: one copy
                values[slot] = shared[index]
                slot += 1
                for n in value.shape:
                    values[slot] = n
                    slot += 1
                for s in value.strides:
                    values[slot] = s & 0xFFFFFFFFFFFFFFFF
                    slot += 1
            else:
                info = (value.interface() if isinstance(value, DeviceArray)
                        else self.interface(value))
                if info is None:         # a NumPy array: copy over (and back)
                    d = array_type.from_host(driver, value, sync=self.synchronize)
                    keep.append(d)
                    if not t.readonly and value.flags.writeable:
                        copies.append((d, value))
                    info = d.interface()
                values[slot] = info["ptr"]
                slot += 1
                for n in info["shape"]:
                    values[slot] = n & 0xFFFFFFFFFFFFFFFF
                    slot += 1
                for s in info["strides"]:
                    values[slot] = s & 0xFFFFFFFFFFFFFFFF
                    slot += 1
        driver.launch(k.function, grid, block, native_stream, k.params)
        if copies or keep or spans:
            sync = True                  # host arrays come back now
        if not sync:
            self.pending.add(k)
            return None
        driver.synchronize(native_stream)
        for d, original in copies:
            if original.flags.c_contiguous:
                driver.dtoh(original.ctypes.data, d.ptr, d.nbytes)
            else:
                host = np.empty(d.shape, d.dtype)
                driver.dtoh(host.ctypes.data, d.ptr, d.nbytes)
                original[...] = host
        for span in spans:
            span.back(driver)
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


def scalar_bits(v, leaf: T.Scalar) -> int:
    """The 8-byte slot of a scalar parameter: float64 bits for floats, else the
    integer's two's complement in 64 bits."""
    if leaf.kind == "f":
        return _U64.unpack(_F64.pack(v))[0]
    return int(v) & 0xFFFFFFFFFFFFFFFF

