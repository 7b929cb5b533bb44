"""The OpenCL route's driver (``HANAJIT_LEVELZERO_RUNTIME=opencl``): the target's
SPIR-V run on an OpenCL device through pyopencl, after ``llvm-spirv-15 -r``
(:mod:`.opencl_route` has every workaround and refusal of the route).

It offers the same methods as :class:`.ze_driver.ZeDriver`.  Device memory is
fine-grained SVM (``clSVMAlloc``), so a device pointer is an address the host
can read after the queue has finished, as the launcher's 8-byte parameter slots
expect; pointer slots are set with ``clSetKernelArgSVMPointer``.
``HANAJIT_LEVELZERO_DEVICE`` picks the device by index across every platform.
"""
from __future__ import annotations

import bisect
import ctypes
import threading

import numpy as np
from hanajit.errors import TargetError, UnsupportedError

from . import opencl_route


class OpenCLKernel:
    def __init__(self, program, kernel, kinds):
        self.program, self.kernel, self.kinds = program, kernel, kinds


class OpenCLDriver:
    """One OpenCL device, context and in-order queue (see the module docstring)."""

    def __init__(self):
        from .ze_driver import device_index
        try:
            import pyopencl as cl
        except ImportError as exc:
            raise TargetError("the OpenCL route needs pyopencl: pip install "
                              "'hanajit-levelzero[opencl]'") from exc
        if opencl_route.translator() is None:
            raise TargetError("the OpenCL route needs llvm-spirv-15 (apt-get install "
                              "llvm-spirv-15)")
        self.cl = cl
        try:
            devices = [d for p in cl.get_platforms() for d in p.get_devices()]
        except cl.Error as exc:
            raise TargetError(f"OpenCL: no platform ({exc})") from exc
        index = device_index()
        if index >= len(devices):
            raise TargetError(f"HANAJIT_LEVELZERO_DEVICE={index}, but OpenCL has "
                              f"{len(devices)} device(s)")
        self.count, self.index = len(devices), index
        self.device = dev = devices[index]
        if not dev.svm_capabilities & cl.device_svm_capabilities.FINE_GRAIN_BUFFER:
            raise TargetError(f"OpenCL device {dev.name!r} has no fine-grained SVM")
        self.name = dev.name.strip()
        self.max_block = dev.max_work_group_size      # core's launcher checks blocks
        self.context = cl.Context([dev])
        self.queue = cl.CommandQueue(self.context, dev)
        self.flags = (cl.svm_mem_flags.READ_WRITE
                      | cl.svm_mem_flags.SVM_FINE_GRAIN_BUFFER)
        self.bases: list = []              # sorted allocation addresses
        self.arrays: dict = {}             # address -> the SVM-backed uint8 array
        self.lock = threading.Lock()

    def describe(self) -> str:
        return (f"{self.name} (OpenCL device {self.index} of {self.count}, "
                f"{self.device.platform.name.strip()}; SPIR-V through llvm-spirv-15)")

    def make_current(self) -> None:
        """OpenCL has no current context: nothing to do."""

    # -- memory: fine-grained SVM ------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        a = self.cl.svm_empty(self.context, self.flags, max(1, nbytes), np.uint8)
        ptr = a.ctypes.data
        with self.lock:
            bisect.insort(self.bases, ptr)
            self.arrays[ptr] = a
        return ptr

    def free(self, ptr: int) -> None:
        self.synchronize()
        with self.lock:
            self.bases.remove(ptr)
            del self.arrays[ptr]

    def _svm(self, ptr: int):
        """The ``cl.SVM`` argument for an address inside an allocation."""
        i = bisect.bisect_right(self.bases, ptr) - 1
        base = self.bases[i] if i >= 0 else None
        a = self.arrays.get(base) if base is not None else None
        if a is None or ptr - base >= max(a.size, 1):
            raise ValueError(f"OpenCL route: 0x{ptr:x} is not device memory")
        return self.cl.SVM(a[ptr - base:])

    def htod(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        self.synchronize()
        ctypes.memmove(dst, src, nbytes)

    def dtoh(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        self.synchronize()
        ctypes.memmove(dst, src, nbytes)

    def dtod(self, dst: int, src: int, nbytes: int) -> None:
        self.synchronize()
        ctypes.memmove(dst, src, nbytes)

    def memset(self, ptr: int, nbytes: int) -> None:
        self.synchronize()
        ctypes.memset(ptr, 0, nbytes)

    # -- kernels -----------------------------------------------------------------------
    def load(self, artifact) -> OpenCLKernel:
        cpu = bool(self.device.type & self.cl.device_type.CPU)
        why = opencl_route.refusal(artifact, cpu)
        if why is not None:
            raise UnsupportedError(f"{artifact.metadata['name']}: {why}",
                                   construct="OpenCL route")
        bitcode = opencl_route.spir_bitcode(artifact.stages["spirv"])
        cl = self.cl
        try:
            program = cl.Program(self.context, [self.device], [bitcode]).build(
                options=list(opencl_route.BUILD_OPTIONS))
        except cl.Error as exc:
            name = artifact.metadata["name"]
            raise opencl_route.RouteError(f"OpenCL build of {name} failed: "
                                          f"{exc}") from exc
        kernel = getattr(program, artifact.entry)
        return OpenCLKernel(program, kernel, ["ptr", *artifact.metadata["params"]])

    def launch(self, kernel: OpenCLKernel, grid, block, stream, params) -> None:
        """Queue ``kernel`` on ``grid`` groups of ``block`` items; ``params`` (core's
        ``Params``) holds its parameters, one 8-byte slot each."""
        k, slots = kernel.kernel, params.values
        for i, kind in enumerate(kernel.kinds):
            k.set_arg(i, self._svm(slots[i]) if kind == "ptr" else np.uint64(slots[i]))
        size = tuple(g * b for g, b in zip(grid, block))
        self.cl.enqueue_nd_range_kernel(self.queue, k, size, tuple(block))

    def synchronize(self, stream=None) -> None:
        self.queue.finish()


_driver = None
_lock = threading.Lock()


def get_driver() -> OpenCLDriver:
    global _driver
    with _lock:
        if _driver is None:
            _driver = OpenCLDriver()
        return _driver


def forget() -> None:
    """Forget the process's driver (tests that swap the loader or the device)."""
    global _driver
    with _lock:
        _driver = None
