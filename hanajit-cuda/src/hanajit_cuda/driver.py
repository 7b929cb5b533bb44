"""The CUDA driver, through NVIDIA's ``cuda-bindings`` (imported on first use).

One :class:`Driver` per process: it initialises the driver, retains the primary
context of device ``HANAJIT_CUDA_DEVICE`` (default 0) -- the context CuPy, PyTorch
and Numba use, so their device pointers work here -- and wraps the calls hanajit
needs, turning each failing ``CUresult`` into :class:`CudaError` with the driver's
name and message.  No toolkit is needed: the driver JIT-compiles PTX.
"""
from __future__ import annotations

import os
import threading

from hanajit.errors import TargetError

_lock = threading.Lock()
_driver = None


# Errors after which the driver refuses every further call in the process ("sticky"):
# on the H200 (driver 580) even resetting the primary context and retaining a new
# one fails with the same error, so the only recovery is a new process.
STICKY = frozenset({
    "CUDA_ERROR_ECC_UNCORRECTABLE", "CUDA_ERROR_ILLEGAL_ADDRESS",
    "CUDA_ERROR_LAUNCH_TIMEOUT", "CUDA_ERROR_ASSERT", "CUDA_ERROR_HARDWARE_STACK_ERROR",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION", "CUDA_ERROR_MISALIGNED_ADDRESS",
    "CUDA_ERROR_INVALID_ADDRESS_SPACE", "CUDA_ERROR_INVALID_PC",
    "CUDA_ERROR_LAUNCH_FAILED"})


class CudaError(RuntimeError):
    """A CUDA driver call failed; the message has the driver's error name and text."""

    def __init__(self, call: str, name: str, text: str):
        super().__init__(f"{call} failed: {name}: {text}")
        self.call, self.name = call, name


def bindings():
    """The ``cuda.bindings.driver`` module; TargetError when it is not installed."""
    try:
        from cuda.bindings import driver
    except ImportError:
        try:
            from cuda import cuda as driver       # cuda-python < 12.6
        except ImportError:
            raise TargetError("the cuda target needs NVIDIA's cuda-bindings to launch "
                              "kernels: pip install 'hanajit-cuda[launch]' "
                              "(or pip install cuda-bindings)") from None
    return driver


def get_driver() -> "Driver":
    """The process's driver (initialised on the first call)."""
    global _driver
    if _driver is None:
        with _lock:
            if _driver is None:
                _driver = Driver()
    return _driver


class Driver:
    """The CUDA driver behind core's launcher (``hanajit.launch.launcher`` has the
    protocol): memory, modules, launches, streams."""

    from hanajit.launch.geometry import MAX_GRID as max_grid  # noqa: N811
    max_block = 1024

    def __init__(self):
        from .devicearray import DeviceArray, interface
        self.array_type, self.interface = DeviceArray, interface
        self.cu = cu = bindings()
        try:
            self.check("cuInit", cu.cuInit(0))
        except CudaError:
            raise
        except Exception as exc:       # no libcuda.so: cuda-bindings' own error
            raise TargetError(f"no CUDA driver: {type(exc).__name__}: {exc}") from None
        count = self.check("cuDeviceGetCount", cu.cuDeviceGetCount())
        if count == 0:
            raise TargetError("the CUDA driver reports no device")
        ordinal = int(os.environ.get("HANAJIT_CUDA_DEVICE", "0"))
        self.device = self.check("cuDeviceGet", cu.cuDeviceGet(ordinal))
        self.context = self.check("cuDevicePrimaryCtxRetain",
                                  cu.cuDevicePrimaryCtxRetain(self.device))
        self.make_current()
        name = self.check("cuDeviceGetName", cu.cuDeviceGetName(256, self.device))
        if isinstance(name, bytes):
            name = name.split(b"\0", 1)[0].decode()
        self.name = str(name)
        A = cu.CUdevice_attribute
        self.capability = (
            self.check("cuDeviceGetAttribute", cu.cuDeviceGetAttribute(
                A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, self.device)),
            self.check("cuDeviceGetAttribute", cu.cuDeviceGetAttribute(
                A.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, self.device)))
        self.count = count
        self.lost = None                 # the sticky error that ended CUDA here

    def make_current(self):
        self.check("cuCtxSetCurrent", self.cu.cuCtxSetCurrent(self.context))

    def check(self, call, result):
        """Unpack ``(CUresult, *values)``; raise :class:`CudaError` on failure."""
        if not isinstance(result, tuple):
            result = (result,)
        err, values = result[0], result[1:]
        if int(err) != 0:
            raise self.error(call, err)
        if not values:
            return None
        return values[0] if len(values) == 1 else values

    def error(self, call, err) -> CudaError:
        cu = self.cu
        try:
            _, name = cu.cuGetErrorName(err)
            _, text = cu.cuGetErrorString(err)
            name = name.decode() if isinstance(name, bytes) else str(name)
            text = text.decode() if isinstance(text, bytes) else str(text)
        except Exception:                 # pragma: no cover - unknown code
            name, text = str(err), ""
        if self.lost is None and name in STICKY:
            self.lost = name
            text += ("; this error is sticky: the CUDA driver refuses every further "
                     "call in this process, so restart it to use the GPU again")
        elif self.lost is not None:
            text += (f"; CUDA stopped working in this process after {self.lost}: "
                     "restart it to use the GPU again")
        return CudaError(call, name, text)

    # -- memory ------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        return int(self.check("cuMemAlloc", self.cu.cuMemAlloc(max(1, int(nbytes)))))

    def free(self, ptr: int) -> None:
        self.check("cuMemFree", self.cu.cuMemFree(ptr))

    def htod(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        if nbytes:
            if stream is None:
                self.check("cuMemcpyHtoD", self.cu.cuMemcpyHtoD(dst, src, nbytes))
            else:
                self.check("cuMemcpyHtoDAsync",
                           self.cu.cuMemcpyHtoDAsync(dst, src, nbytes, stream))

    def dtoh(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        if nbytes:
            if stream is None:
                self.check("cuMemcpyDtoH", self.cu.cuMemcpyDtoH(dst, src, nbytes))
            else:
                self.check("cuMemcpyDtoHAsync",
                           self.cu.cuMemcpyDtoHAsync(dst, src, nbytes, stream))

    def dtod(self, dst: int, src: int, nbytes: int) -> None:
        if nbytes:
            self.check("cuMemcpyDtoD", self.cu.cuMemcpyDtoD(dst, src, nbytes))

    def memset(self, ptr: int, nbytes: int) -> None:
        self.check("cuMemsetD8", self.cu.cuMemsetD8(ptr, 0, nbytes))

    # -- modules and launches ------------------------------------------------------
    def load_ptx(self, ptx: str):
        """(module, function ``hj_kernel``) from PTX text (driver JIT)."""
        module = self.check("cuModuleLoadData",
                            self.cu.cuModuleLoadData(ptx.encode() + b"\0"))
        fn = self.check("cuModuleGetFunction",
                        self.cu.cuModuleGetFunction(module, b"hj_kernel"))
        return module, fn

    def load(self, artifact):
        """The kernel ``hj_kernel`` of an artifact (its module stays loaded)."""
        return self.load_ptx(artifact.stages["ptx"])[1]

    def launch(self, fn, grid, block, stream, params) -> None:
        """Start ``fn``; ``params`` is core's ``hanajit.launch.launcher.Params``."""
        self.check("cuLaunchKernel", self.cu.cuLaunchKernel(
            fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0,
            stream if stream is not None else 0, params.address, 0))

    def stream(self, stream):
        """A ``CUstream`` from a launch's ``stream=`` argument."""
        from .launch import to_stream
        return to_stream(self, stream)

    def synchronize(self, stream=None) -> None:
        if stream is None:
            self.check("cuCtxSynchronize", self.cu.cuCtxSynchronize())
        else:
            self.check("cuStreamSynchronize", self.cu.cuStreamSynchronize(stream))
