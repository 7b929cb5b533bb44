"""Metal.framework through PyObjC (``pyobjc-framework-Metal``), for
``hanajit.launch.Launcher``; imported at the first launch, on macOS only.

* memory: ``MTLBuffer``\\ s with shared storage; a handle is the address of the
  buffer's contents (host-visible), so ``handle + k`` is byte ``k`` and copies
  are ``memmove`` -- after waiting for kernels in flight;
* ``load``: ``newLibraryWithSource`` with fast math off (Metal's default is fast
  math, under which NaN, infinities and ``pow`` stop following the IR), one
  compute pipeline per kernel source, cached;
* ``launch``: buffers bound as ``binding.plan`` says (the scalar slots with
  ``setBytes``), threadgroup memory per shared array, ``dispatchThreadgroups``,
  ``commit``; ``synchronize`` waits (``waitUntilCompleted``) and reports a
  command buffer's error.
"""
from __future__ import annotations

import bisect
import ctypes
import hashlib

import numpy as np

from hanajit.errors import TargetError

from . import binding

KERNEL = "hj_kernel"


def _metal():
    try:
        import Metal
    except ImportError as exc:
        raise TargetError("launching Metal kernels needs pyobjc-framework-Metal on "
                          "macOS: pip install 'hanajit-metal[launch]'") from exc
    return Metal


class MetalKernel:
    def __init__(self, pipeline, metadata):
        self.pipeline = pipeline
        self.metadata = metadata
        self.max_threads = int(pipeline.maxTotalThreadsPerThreadgroup())


class MetalDriver:
    max_block = 1024

    def __init__(self, Metal=None):
        self.Metal = Metal = Metal or _metal()
        self.device = Metal.MTLCreateSystemDefaultDevice()
        if self.device is None:
            raise TargetError("Metal: no device (MTLCreateSystemDefaultDevice "
                              "returned nil)")
        self.name = f"{self.device.name()} (Metal)"
        self.queue = self.device.newCommandQueue()
        self.bases: list = []            # sorted contents addresses
        self.buffers: dict = {}          # address -> (MTLBuffer, length)
        self.pipelines: dict = {}        # source hash -> pipeline
        self.inflight: list = []         # (command buffer, demoted copies)

    # -- memory ----------------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        n = max(int(nbytes), 16)
        buf = self.device.newBufferWithLength_options_(
            n, self.Metal.MTLResourceStorageModeShared)
        if buf is None:
            raise MemoryError(f"Metal: cannot allocate {n} bytes")
        view = buf.contents().as_buffer(n)
        address = ctypes.addressof(ctypes.c_char.from_buffer(view))
        self.buffers[address] = (buf, n)
        bisect.insort(self.bases, address)
        return address

    def free(self, handle: int) -> None:
        if self.buffers.pop(handle, None) is not None:
            self.bases.remove(handle)

    def locate(self, handle: int):
        """``(MTLBuffer, offset)`` of a handle (an address inside a buffer)."""
        i = bisect.bisect_right(self.bases, handle) - 1
        if i >= 0:
            base = self.bases[i]
            buf, n = self.buffers[base]
            if handle - base < n:
                return buf, handle - base
        raise ValueError(f"Metal: {handle:#x} is not in a buffer of this driver")

    def memset(self, handle, nbytes):
        self.synchronize()
        ctypes.memset(handle, 0, nbytes)

    def htod(self, handle, host_address, nbytes, stream=None):
        self.synchronize()
        ctypes.memmove(handle, host_address, nbytes)

    def dtoh(self, host_address, handle, nbytes, stream=None):
        self.synchronize()
        ctypes.memmove(host_address, handle, nbytes)

    # -- kernels -----------------------------------------------------------------------
    def load(self, artifact) -> MetalKernel:
        source = artifact.stages["msl"]
        key = hashlib.sha256(source.encode()).hexdigest()
        pipeline = self.pipelines.get(key)
        if pipeline is None:
            Metal = self.Metal
            options = Metal.MTLCompileOptions.new()
            if hasattr(options, "setMathMode_") and hasattr(Metal, "MTLMathModeSafe"):
                options.setMathMode_(Metal.MTLMathModeSafe)
            else:
                options.setFastMathEnabled_(False)
            library, error = self.device.newLibraryWithSource_options_error_(
                source, options, None)
            if library is None:
                raise TargetError(f"Metal could not compile the kernel of "
                                  f"{artifact.metadata['name']}: {error}")
            function = library.newFunctionWithName_(KERNEL)
            pipeline, error = self.device.newComputePipelineStateWithFunction_error_(
                function, None)
            if pipeline is None:
                raise TargetError(f"Metal: no pipeline for {artifact.metadata['name']}: "
                                  f"{error}")
            self.pipelines[key] = pipeline
        return MetalKernel(pipeline, artifact.metadata)

    def launch(self, kernel: MetalKernel, grid, block, stream, params) -> None:
        threads = block[0] * block[1] * block[2]
        if threads > kernel.max_threads:
            raise ValueError(f"launch: this kernel takes at most {kernel.max_threads} "
                             f"threads per threadgroup on {self.name}, got {threads}")
        Metal = self.Metal
        err, arrays, slots = binding.plan(kernel.metadata, params.values)
        if any(a.demote for a in arrays):
            self.synchronize()          # the float64 data is read on the host now
        cb = self.queue.commandBuffer()
        enc = cb.computeCommandEncoder()
        enc.setComputePipelineState_(kernel.pipeline)
        enc.setBuffer_offset_atIndex_(*self.locate(err), 0)
        demoted = []
        index = 1
        for a in arrays:
            if a.demote:
                n = (a.hi - a.lo) // 8
                wide = np.ctypeslib.as_array((ctypes.c_double * n).from_address(a.lo)) \
                    if n else np.empty(0)
                tmp = self.alloc(max(4 * n, 4))
                narrow = np.ctypeslib.as_array((ctypes.c_float * n).from_address(tmp)) \
                    if n else np.empty(0, np.float32)
                narrow[...] = binding.demote_out(wide)
                demoted.append((wide, narrow, tmp))
                buf, offset = self.locate(tmp)
                offset += (a.ptr - a.lo) // 2
            else:
                buf, offset = self.locate(a.ptr)
            enc.setBuffer_offset_atIndex_(buf, offset, index)
            index += 1
        enc.setBytes_length_atIndex_(slots.tobytes(), slots.nbytes, index)
        for i, (_, size) in enumerate(kernel.metadata["shared"]):
            enc.setThreadgroupMemoryLength_atIndex_(-(-size // 16) * 16, i)
        enc.dispatchThreadgroups_threadsPerThreadgroup_(Metal.MTLSizeMake(*grid),
                                                        Metal.MTLSizeMake(*block))
        enc.endEncoding()
        cb.commit()
        self.inflight.append((cb, demoted))

    def synchronize(self, stream=None) -> None:
        inflight, self.inflight = self.inflight, []
        failed = None
        for cb, demoted in inflight:
            cb.waitUntilCompleted()
            if cb.error() is not None and failed is None:
                failed = cb.error()
            for wide, narrow, tmp in demoted:
                wide[...] = narrow
                self.free(tmp)
        if failed is not None:
            raise TargetError(f"Metal: a kernel failed: {failed}")


_driver = None


def get_driver() -> MetalDriver:
    global _driver
    if _driver is None:
        _driver = MetalDriver()
    return _driver
