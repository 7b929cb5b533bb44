"""The Vulkan driver behind core's launcher (``hanajit.launch.launcher`` has the
protocol): device memory as host-visible storage buffers, a launch as one
compute dispatch.

A device address is ``allocation << 40 | byte offset`` (``handle + k`` is byte
``k``, as the protocol asks).  At a launch, the error record and every array
slot's allocation are bound at set 0, bindings 0, 1, 2 ... in order, and all the
parameter slots are pushed as constants; the kernel takes each array's byte
offset from its address (``lowering/kernel_logical.py``).  The workgroup size is
compiled into the shader, so ``block`` picks the SPIR-V (``VulkanTarget.shader``).
"""
from __future__ import annotations

from hanajit.lowering.kernel_logical import SHIFT

from . import codegen
from .runtime import Buffer, Runtime

_OFFSET = (1 << SHIFT) - 1


class Function:
    """A loaded kernel: the artifact, compiled per workgroup size on demand."""

    def __init__(self, artifact):
        self.artifact = artifact
        self.kinds = artifact.metadata["params"]


class VulkanDriver:
    name = "vulkan"

    def __init__(self, rt: Runtime, target):
        self.rt, self.target = rt, target
        self.buffers: dict[int, Buffer] = {}
        self.next_id = 1
        self.pending: list = []
        self.max_block = rt.max_invocations
        self.max_grid = rt.max_groups

    @property
    def default_block(self):
        return codegen.local_size()          # HANAJIT_VULKAN_LOCAL_SIZE, else 64

    # -- memory ------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        with self.rt.lock:
            handle, self.next_id = self.next_id, self.next_id + 1
        self.buffers[handle] = Buffer(self.rt, max(int(nbytes), 1))
        return handle << SHIFT

    def buffer(self, address: int) -> tuple[Buffer, int]:
        try:
            return self.buffers[address >> SHIFT], address & _OFFSET
        except KeyError:
            raise ValueError(f"vulkan: {address:#x} is no live device allocation") from None

    def free(self, address: int) -> None:
        buf = self.buffers.pop(address >> SHIFT, None)
        if buf is not None:
            buf.free()

    def memset(self, address: int, nbytes: int) -> None:
        buf, off = self.buffer(address)
        buf.write(bytes(nbytes), off)

    def htod(self, address: int, host_address: int, nbytes: int, stream=None) -> None:
        buf, off = self.buffer(address)
        buf.copy_in(host_address, nbytes, off)

    def dtoh(self, host_address: int, address: int, nbytes: int, stream=None) -> None:
        buf, off = self.buffer(address)
        buf.copy_out(host_address, nbytes, off)

    # -- kernels -----------------------------------------------------------------------
    def load(self, artifact) -> Function:
        return Function(artifact)

    def launch(self, function: Function, grid, block, stream, params) -> None:
        rt = self.rt
        if any(b > m for b, m in zip(block, rt.max_size)):
            raise ValueError(f"launch: a block of {block} exceeds the device's "
                             f"workgroup size limits {rt.max_size}")
        values = params.values
        bound = [self.buffer(values[0])[0]]
        for slot, kind in enumerate(function.kinds, 1):
            if kind == "ptr":
                bound.append(self.buffer(values[slot])[0])
        spirv = self.target.shader(function.artifact, tuple(block))
        push = params.as_bytes()
        pipe = rt.pipeline(spirv, len(bound), len(push))
        self.pending.append(rt.dispatch(pipe, bound, push, grid, lambda: None))

    def synchronize(self, stream=None) -> None:
        pending, self.pending = self.pending, []
        for sub in pending:
            sub.wait()
        self.rt.check_validation("running kernels")
