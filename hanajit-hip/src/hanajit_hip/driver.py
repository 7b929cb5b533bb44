"""The HIP runtime as the launcher's driver: ``libamdhip64`` through ctypes.

Core's :class:`hanajit.launch.launcher.Launcher` does everything a launch does
(geometry, parameters, copies, shared memory between arguments, the error
record); :class:`Driver` is the protocol it documents, over the HIP runtime.
One :class:`Driver` per process, made on the first launch: it loads the runtime
(``toolchain.find_libamdhip64``), initialises it, selects device
``HANAJIT_HIP_DEVICE`` (default 0) and reads its name and ``gcnArchName``.
Kernels are loaded from the artifact's code object for that architecture
(``hipModuleLoadData``) and launched with ``hipModuleLaunchKernel``, their
arguments passed as one buffer -- the launcher's 8-byte slots -- through
``extra`` (``HIP_LAUNCH_PARAM_BUFFER_POINTER``): the kernel-argument segment
the code object's metadata describes, every argument 8 bytes at offset 8 * i.
Foreign device arrays come in through ``__cuda_array_interface__``, which
CuPy and PyTorch publish for HIP memory on ROCm too.
"""
from __future__ import annotations

import ctypes
import os
import threading

from hanajit.errors import TargetError, UnsupportedError
from hanajit.launch.array_interface import cuda_array_interface
from hanajit.launch.launcher import make_typeof

from . import toolchain
from .hip_api import HipAPI, HipError, pack_extra

_lock = threading.Lock()
_driver = None
# core's DeviceArray; foreign arrays by __cuda_array_interface__
device_typeof = make_typeof(interface=cuda_array_interface)


def get_driver() -> "Driver":
    """The process's driver (made on the first call); TargetError without the
    runtime or a device."""
    global _driver
    if _driver is None:
        with _lock:
            if _driver is None:
                _driver = Driver()
    return _driver


class Driver:
    # foreign device arrays (CuPy, PyTorch on ROCm)
    interface = staticmethod(cuda_array_interface)

    def __init__(self, path: str | None = None):
        path = path or toolchain.find_libamdhip64()
        if path is None:
            raise TargetError("the hip target needs the HIP runtime (libamdhip64) to "
                              "launch kernels: install ROCm or Debian's libamdhip64-5, "
                              "or set HANAJIT_HIP_LIBRARY")
        self.api = api = HipAPI(path)
        self.path = path
        count = ctypes.c_int(0)
        try:
            api.call("hipInit", 0)
            api.call("hipGetDeviceCount", ctypes.byref(count))
        except HipError as exc:
            raise TargetError(f"the HIP runtime has no usable device: {exc}") from None
        if count.value == 0:
            raise TargetError("the HIP runtime reports no device")
        self.count = count.value
        self.device = int(os.environ.get("HANAJIT_HIP_DEVICE", "0"))
        self.make_current()
        self.name = api.device_name(self.device)
        self.arch = api.arch_name(self.device)
        self.modules: list = []          # loaded modules stay loaded

    def make_current(self) -> None:
        self.api.call("hipSetDevice", self.device)

    # -- memory ------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        p = ctypes.c_void_p()
        self.api.call("hipMalloc", ctypes.byref(p), max(1, int(nbytes)))
        return int(p.value)

    def free(self, ptr: int) -> None:
        self.api.call("hipFree", ptr)

    # without a stream, HIP's blocking copies (they wait for the null stream)
    def htod(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        if nbytes and stream is None:
            self.api.call("hipMemcpyHtoD", dst, src, nbytes)
        elif nbytes:
            self.api.call("hipMemcpyHtoDAsync", dst, src, nbytes, stream)

    def dtoh(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        if nbytes and stream is None:
            self.api.call("hipMemcpyDtoH", dst, src, nbytes)
        elif nbytes:
            self.api.call("hipMemcpyDtoHAsync", dst, src, nbytes, stream)

    def dtod(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        if nbytes:
            self.api.call("hipMemcpyDtoDAsync", dst, src, nbytes, stream)

    def memset(self, ptr: int, nbytes: int, stream=None) -> None:
        if stream is None:
            self.api.call("hipMemset", ptr, 0, nbytes)
        else:
            self.api.call("hipMemsetAsync", ptr, 0, nbytes, stream)

    def new_stream(self) -> int:
        """A new stream (``hipStreamCreate``), as an int handle."""
        s = ctypes.c_void_p()
        self.api.call("hipStreamCreate", ctypes.byref(s))
        return int(s.value)

    def stream(self, stream):
        """A ``hipStream_t`` from a launch's ``stream=`` argument: None (the null
        stream), an int handle, or an object holding one in ``ptr``,
        ``cuda_stream`` (PyTorch, CuPy) or ``handle``."""
        if stream is None:
            return None
        for attr in ("ptr", "cuda_stream", "handle"):
            h = getattr(stream, attr, None)
            if h is not None:
                stream = getattr(h, "value", h) or 0
                break
        return int(stream) or None

    # -- modules and launches ------------------------------------------------------
    def code_object(self, artifact) -> bytes:
        """The artifact's code object for this device's architecture; an error
        naming both lists when it was not compiled for it."""
        want = self.arch.split(":")[0]
        objects = artifact.stages["hsaco"]
        if want not in objects:
            raise UnsupportedError(
                f"{artifact.metadata.get('name', 'the kernel')} was compiled for "
                f"{', '.join(objects)}, not for this device's {want} ({self.name}): "
                f"compile with gpu_arch='{want}' or HANAJIT_HIP_ARCH={want}",
                construct="gpu_arch")
        return objects[want]

    def load(self, artifact):
        """The kernel ``hj_kernel`` of the artifact's code object for this device
        (its module stays loaded)."""
        image = self.code_object(artifact)
        module, fn = ctypes.c_void_p(), ctypes.c_void_p()
        self.api.call("hipModuleLoadData", ctypes.byref(module), image)
        self.modules.append(module.value)
        self.api.call("hipModuleGetFunction", ctypes.byref(fn), module,
                      artifact.entry.encode())
        return fn.value

    def launch(self, fn, grid, block, stream, params) -> None:
        """Start ``fn`` over ``grid`` x ``block``; ``params`` is core's
        ``hanajit.launch.launcher.Params``, whose slots are passed in place as
        the kernel-argument buffer."""
        extra, keep = pack_extra(params.values)
        self.api.call("hipModuleLaunchKernel", fn, grid[0], grid[1], grid[2],
                      block[0], block[1], block[2], 0, stream, None, extra)
        del keep

    def synchronize(self, stream=None) -> None:
        if stream is None:
            self.api.call("hipDeviceSynchronize")
        else:
            self.api.call("hipStreamSynchronize", stream)
