"""``f.launch(...)`` on Vulkan: arguments to buffers and push constants, the
workgroup size, the dispatch, the error record.

The binding layout is core's (``hanajit/lowering/kernel_logical.py``): binding 0
is the error record (``ERR_BYTES``), binding ``k`` the ``k``-th array argument,
and every other flattened word (shapes, byte strides, scalars; float32 as a
double) is 8 bytes of the push-constant block, in order.  A NumPy argument is
copied into a buffer (C order) and, unless its type is read-only, copied back
when the launch completes; a :class:`~.devicearray.DeviceArray` stays on the
device.  The workgroup size is compiled into the shader, so each block size of a
kernel is one more SPIR-V module (``VulkanTarget.shader``) and pipeline.
"""
from __future__ import annotations

import struct

import numpy as np

from hanajit.ir import types as T
from hanajit.lowering.kernel_logical import ERR_BYTES

from . import codegen
from .devicearray import DeviceArray
from .runtime import Buffer, Runtime

_F64 = struct.Struct("<d")
_U64 = struct.Struct("<Q")


def geometry(value, name) -> tuple:
    """A launch dimension as (x, y, z); ValueError for anything out of range."""
    if isinstance(value, (int, np.integer)):
        value = (int(value),)
    value = tuple(int(v) for v in value)
    if not 1 <= len(value) <= 3 or any(v < 1 for v in value):
        raise ValueError(f"launch: {name} must be 1 to 3 positive integers, got {value}")
    return value + (1,) * (3 - len(value))


def device_typeof(value):
    """The IR type of a launch argument: a device array types as the NumPy array
    it holds; anything else as core types it."""
    from hanajit.typing_rules import typeof
    if isinstance(value, DeviceArray):
        return typeof(np.empty((0,) * len(value.shape), value.dtype))
    return typeof(value)


class Launcher:
    """Launches of one target instance, and the ones still in flight."""

    def __init__(self, rt: Runtime, target):
        self.rt, self.target = rt, target
        self.pending: list = []
        self.errors: list = []

    def launch(self, artifact, args, grid=None, block=None, sync=True):
        rt = self.rt
        size = codegen.local_size(block)
        threads = size[0] * size[1] * size[2]
        if threads > rt.max_invocations or any(s > m for s, m in zip(size, rt.max_size)):
            raise ValueError(f"launch: a workgroup of {size} exceeds the device's "
                             f"{rt.max_invocations} invocations / {rt.max_size}")
        if grid is None:
            n = max([a.size for a in args if isinstance(a, (np.ndarray, DeviceArray))]
                    + [1])
            grid = (max(1, -(-n // threads)),)
        grid = geometry(grid, "grid")
        if any(g > m for g, m in zip(grid, rt.max_groups)):
            raise ValueError(f"launch: grid {grid} exceeds the device's {rt.max_groups}")
        arg_types = artifact.metadata["arg_types"]
        err = Buffer(rt, ERR_BYTES)
        buffers, words, back = [err], [], []
        for value, t in zip(args, arg_types):
            if isinstance(t, T.ArrayType):
                buf, shape, strides = self._array(value, t, back)
                buffers.append(buf)
                words += [int(x) & 0xFFFFFFFFFFFFFFFF for x in shape + strides]
            else:
                words += [_bits(v, leaf) for v, leaf in _leaves(value, t)]
        push = struct.pack(f"<{len(words)}Q", *words)
        spirv = self.target.shader(artifact, size)
        pipe = rt.pipeline(spirv, len(buffers), len(push))
        name = artifact.metadata["name"]
        raises = artifact.metadata["raises"]

        def done():
            try:
                for host, buf in back:
                    host[...] = np.frombuffer(buf.read(), host.dtype).reshape(host.shape)
                check_error(err, raises, name)
            finally:
                for b in buffers:
                    if not getattr(b, "owned", False):
                        b.free()
        sub = rt.dispatch(pipe, buffers, push, grid, done)
        self.pending.append(sub)
        if sync:
            self.synchronize()

    def _array(self, value, t, back):
        if isinstance(value, DeviceArray):
            return value.buffer, list(value.shape), list(value.strides)
        a = np.ascontiguousarray(value)
        buf = Buffer(self.rt, max(a.nbytes, 1))
        buf.write(a.tobytes())
        if not t.readonly and isinstance(value, np.ndarray) and value.flags.writeable:
            back.append((value, buf))
        return buf, list(a.shape), list(a.strides)

    def synchronize(self):
        """Wait for every launch; raise the first exception a kernel recorded."""
        pending, self.pending = self.pending, []
        first = None
        for sub in pending:
            try:
                sub.wait()
            except Exception as exc:            # noqa: BLE001  (re-raised below)
                first = first or exc
        self.rt.check_validation("running kernels")
        if first is not None:
            raise first


def check_error(err: Buffer, raises, name: str) -> None:
    """Raise the exception a kernel thread recorded in ``err``."""
    code, *values = struct.unpack("<4q", err.read(32))
    if code == 0:
        return
    exc, message, deopt = raises[code - 1]
    if deopt or getattr(exc, "__name__", "") == "Deopt":
        raise OverflowError(f"{name}: a result in the kernel cannot be represented "
                            f"({message}); the GPU has no interpreter to fall back to")
    from hanajit.errors import kernel_message
    raise exc(kernel_message(message, values))


def _leaves(value, t):
    if isinstance(t, T.TupleType):
        return [x for v, it in zip(value, t.items) for x in _leaves(v, it)]
    if isinstance(t, T.NoneType):
        return []
    return [(value, t)]


def _bits(v, leaf: T.Scalar) -> int:
    if leaf.kind == "f":
        return _U64.unpack(_F64.pack(float(v)))[0]
    return int(v) & 0xFFFFFFFFFFFFFFFF
