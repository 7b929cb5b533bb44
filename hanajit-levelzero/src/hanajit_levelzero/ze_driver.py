"""Level Zero through ctypes over ``libze_loader.so.1``, loaded on the first launch.

One :class:`ZeDriver` per process: ``zeInit``, the devices of every driver the
loader finds (``HANAJIT_LEVELZERO_DEVICE`` picks one by index, default 0), a
context and one asynchronous command queue on the device's first queue group.
Device memory comes from ``zeMemAllocDevice``; copies and fills are command
lists executed on the queue.  A kernel is a module built from SPIR-V
(``zeModuleCreate`` with ``ZE_MODULE_FORMAT_IL_SPIRV`` and the build flag
``-cl-fp32-correctly-rounded-divide-sqrt``, so float32 ``/`` and ``sqrt`` are the
IEEE ones) and ``zeKernelCreate``; a launch sets the group size, each 8-byte
parameter slot with ``zeKernelSetArgumentValue`` and appends the launch to a
command list that ends with a barrier; :meth:`synchronize` is
``zeCommandQueueSynchronize``.

``HANAJIT_LEVELZERO_LOADER`` names another loader library (the tests use a fake
one that records the calls).
"""
from __future__ import annotations

import ctypes
import os
import threading

from hanajit.errors import TargetError

LOADER = "libze_loader.so.1"
BUILD_FLAGS = b"-cl-fp32-correctly-rounded-divide-sqrt"

# ze_structure_type_t
_DEVICE_PROPERTIES, _MODULE_PROPERTIES = 0x3, 0x5
_CONTEXT_DESC, _QUEUE_DESC, _LIST_DESC = 0xD, 0xE, 0xF
_DEVICE_MEM_DESC, _MODULE_DESC, _KERNEL_DESC = 0x15, 0x1B, 0x1D
_FORMAT_IL_SPIRV = 0
_QUEUE_MODE_ASYNCHRONOUS = 2
_FLAG_FP64, _FLAG_INT64_ATOMICS = 1 << 1, 1 << 2
_FOREVER = 2**64 - 1

RESULTS = {
    0x1: "ZE_RESULT_NOT_READY", 0x70000001: "ZE_RESULT_ERROR_DEVICE_LOST",
    0x70000002: "ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY",
    0x70000003: "ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY",
    0x70000004: "ZE_RESULT_ERROR_MODULE_BUILD_FAILURE",
    0x70000005: "ZE_RESULT_ERROR_MODULE_LINK_FAILURE",
    0x70010001: "ZE_RESULT_ERROR_NOT_AVAILABLE",
    0x78000001: "ZE_RESULT_ERROR_UNINITIALIZED",
    0x78000002: "ZE_RESULT_ERROR_UNSUPPORTED_VERSION",
    0x78000003: "ZE_RESULT_ERROR_UNSUPPORTED_FEATURE",
    0x78000004: "ZE_RESULT_ERROR_INVALID_ARGUMENT",
    0x78000008: "ZE_RESULT_ERROR_INVALID_SIZE",
    0x78000011: "ZE_RESULT_ERROR_INVALID_KERNEL_NAME",
    0x78000013: "ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION",
    0x78000015: "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX",
    0x78000016: "ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE",
    0x7FFFFFFE: "ZE_RESULT_ERROR_UNKNOWN",
}

_H = ctypes.c_void_p          # every handle
_U32, _U64, _SIZE = ctypes.c_uint32, ctypes.c_uint64, ctypes.c_size_t


class DeviceProperties(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("type", _U32), ("vendorId", _U32),
                ("deviceId", _U32), ("flags", _U32), ("subdeviceId", _U32),
                ("coreClockRate", _U32), ("maxMemAllocSize", _U64),
                ("maxHardwareContexts", _U32), ("maxCommandQueuePriority", _U32),
                ("numThreadsPerEU", _U32), ("physicalEUSimdWidth", _U32),
                ("numEUsPerSubslice", _U32), ("numSubslicesPerSlice", _U32),
                ("numSlices", _U32), ("timerResolution", _U64),
                ("timestampValidBits", _U32), ("kernelTimestampValidBits", _U32),
                ("uuid", ctypes.c_uint8 * 16), ("name", ctypes.c_char * 256)]


class ModuleProperties(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("spirvVersionSupported", _U32),
                ("flags", _U32), ("fp16flags", _U32), ("fp32flags", _U32),
                ("fp64flags", _U32), ("maxArgumentsSize", _U32),
                ("printfBufferSize", _U32),
                ("nativeKernelSupported", ctypes.c_uint8 * 16)]


class ContextDesc(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("flags", _U32)]


class QueueDesc(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("ordinal", _U32), ("index", _U32),
                ("flags", _U32), ("mode", _U32), ("priority", _U32)]


class ListDesc(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("commandQueueGroupOrdinal", _U32),
                ("flags", _U32)]


class DeviceMemDesc(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("flags", _U32), ("ordinal", _U32)]


class ModuleDesc(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("format", _U32), ("inputSize", _SIZE),
                ("pInputModule", _H), ("pBuildFlags", ctypes.c_char_p),
                ("pConstants", _H)]


class KernelDesc(ctypes.Structure):
    _fields_ = [("stype", _U32), ("pNext", _H), ("flags", _U32),
                ("pKernelName", ctypes.c_char_p)]


class GroupCount(ctypes.Structure):
    _fields_ = [("groupCountX", _U32), ("groupCountY", _U32), ("groupCountZ", _U32)]


_P = ctypes.POINTER
_SIGNATURES = {
    "zeInit": [_U32],
    "zeDriverGet": [_P(_U32), _P(_H)],
    "zeDeviceGet": [_H, _P(_U32), _P(_H)],
    "zeDeviceGetProperties": [_H, _P(DeviceProperties)],
    "zeDeviceGetModuleProperties": [_H, _P(ModuleProperties)],
    "zeContextCreate": [_H, _P(ContextDesc), _P(_H)],
    "zeCommandQueueCreate": [_H, _H, _P(QueueDesc), _P(_H)],
    "zeCommandQueueExecuteCommandLists": [_H, _U32, _P(_H), _H],
    "zeCommandQueueSynchronize": [_H, _U64],
    "zeCommandListCreate": [_H, _H, _P(ListDesc), _P(_H)],
    "zeCommandListClose": [_H],
    "zeCommandListDestroy": [_H],
    "zeCommandListAppendBarrier": [_H, _H, _U32, _H],
    "zeCommandListAppendMemoryCopy": [_H, _H, _H, _SIZE, _H, _U32, _H],
    "zeCommandListAppendMemoryFill": [_H, _H, _H, _SIZE, _SIZE, _H, _U32, _H],
    "zeCommandListAppendLaunchKernel": [_H, _H, _P(GroupCount), _H, _U32, _H],
    "zeMemAllocDevice": [_H, _P(DeviceMemDesc), _SIZE, _SIZE, _H, _P(_H)],
    "zeMemFree": [_H, _H],
    "zeModuleCreate": [_H, _H, _P(ModuleDesc), _P(_H), _P(_H)],
    "zeModuleBuildLogGetString": [_H, _P(_SIZE), ctypes.c_char_p],
    "zeModuleBuildLogDestroy": [_H],
    "zeKernelCreate": [_H, _P(KernelDesc), _P(_H)],
    "zeKernelSetGroupSize": [_H, _U32, _U32, _U32],
    "zeKernelSetArgumentValue": [_H, _U32, _SIZE, _H],
}


class ZeError(RuntimeError):
    """A Level Zero call failed: the call, the result's name and code."""

    def __init__(self, call: str, code: int, detail: str = ""):
        self.call, self.code = call, code
        name = RESULTS.get(code, "ZE_RESULT_ERROR")
        super().__init__(f"{call} failed: {name} (0x{code:08x})"
                         + (f": {detail}" if detail else ""))


def load_library(path: str | None = None):
    """The loader with every function this module calls typed (OSError if absent)."""
    lib = ctypes.CDLL(path or os.environ.get("HANAJIT_LEVELZERO_LOADER") or LOADER)
    for name, argtypes in _SIGNATURES.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = argtypes, _U32
    return lib


def device_index() -> int:
    value = os.environ.get("HANAJIT_LEVELZERO_DEVICE", "").strip() or "0"
    if not value.isdigit():
        raise TargetError(f"HANAJIT_LEVELZERO_DEVICE={value!r}: give a device index "
                          "(0, 1 ...) as listed by `hanajit doctor`")
    return int(value)


class ZeKernel:
    """A module and its ``hj_kernel`` (kept alive together)."""

    def __init__(self, module, kernel, nargs: int):
        self.module, self.kernel, self.nargs = module, kernel, nargs


class ZeDriver:
    """The Level Zero device this process launches on (see the module docstring)."""

    name_of_runtime = "Level Zero"

    def __init__(self, lib=None):
        self.lib = lib = lib if lib is not None else load_library()
        self.check("zeInit", lib.zeInit(0))
        found = []
        for drv in self._list("zeDriverGet", lambda n, out: lib.zeDriverGet(n, out)):
            found += [(drv, dev) for dev in self._list(
                "zeDeviceGet", lambda n, out, drv=drv: lib.zeDeviceGet(drv, n, out))]
        if not found:
            raise TargetError("Level Zero: the loader found no driver with a device "
                              "(install Intel's compute runtime, intel-level-zero-gpu)")
        index = device_index()
        if index >= len(found):
            raise TargetError(f"HANAJIT_LEVELZERO_DEVICE={index}, but Level Zero has "
                              f"{len(found)} device(s)")
        self.count = len(found)
        self.driver, self.device = found[index]
        props = DeviceProperties(stype=_DEVICE_PROPERTIES)
        self.check("zeDeviceGetProperties",
                   lib.zeDeviceGetProperties(self.device, props))
        self.name = props.name.decode(errors="replace") or f"device {index}"
        mprops = ModuleProperties(stype=_MODULE_PROPERTIES)
        self.check("zeDeviceGetModuleProperties",
                   lib.zeDeviceGetModuleProperties(self.device, mprops))
        self.module_flags = mprops.flags
        self.context = self._create("zeContextCreate", lib.zeContextCreate, self.driver,
                                    ContextDesc(stype=_CONTEXT_DESC))
        self.queue = self._create("zeCommandQueueCreate", lib.zeCommandQueueCreate,
                                  self.context, self.device,
                                  QueueDesc(stype=_QUEUE_DESC,
                                            mode=_QUEUE_MODE_ASYNCHRONOUS))
        self.lock = threading.Lock()
        self.submitted: list = []          # command lists until the next synchronize

    # -- plumbing ----------------------------------------------------------------------
    def check(self, call: str, result: int, detail: str = "") -> None:
        if result != 0:
            raise ZeError(call, result, detail)

    def _list(self, call, fn):
        n = _U32(0)
        self.check(call, fn(ctypes.byref(n), None))
        out = (_H * n.value)()
        if n.value:
            self.check(call, fn(ctypes.byref(n), out))
        return [out[i] for i in range(n.value)]

    def _create(self, call, fn, *args):
        handle = _H()
        self.check(call, fn(*args, ctypes.byref(handle)))
        return handle.value

    def describe(self) -> str:
        return f"{self.name} (Level Zero device {device_index()} of {self.count})"

    def make_current(self) -> None:
        """Level Zero has no current context: nothing to do."""

    # -- command lists -----------------------------------------------------------------
    def _submit(self, append, wait: bool) -> None:
        lib = self.lib
        with self.lock:
            cl = self._create("zeCommandListCreate", lib.zeCommandListCreate,
                              self.context, self.device, ListDesc(stype=_LIST_DESC))
            try:
                append(cl)
                self.check("zeCommandListAppendBarrier",
                           lib.zeCommandListAppendBarrier(cl, None, 0, None))
                self.check("zeCommandListClose", lib.zeCommandListClose(cl))
                self.check("zeCommandQueueExecuteCommandLists",
                           lib.zeCommandQueueExecuteCommandLists(
                               self.queue, 1, (_H * 1)(cl), None))
            except BaseException:
                lib.zeCommandListDestroy(cl)
                raise
            self.submitted.append(cl)
        if wait:
            self.synchronize()

    def synchronize(self, stream=None) -> None:
        """Wait for everything submitted, then free its command lists."""
        with self.lock:
            self.check("zeCommandQueueSynchronize",
                       self.lib.zeCommandQueueSynchronize(self.queue, _FOREVER))
            done, self.submitted = self.submitted, []
        for cl in done:
            self.lib.zeCommandListDestroy(cl)

    # -- memory ------------------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        ptr = _H()
        self.check("zeMemAllocDevice", self.lib.zeMemAllocDevice(
            self.context, DeviceMemDesc(stype=_DEVICE_MEM_DESC), max(1, nbytes), 64,
            self.device, ctypes.byref(ptr)))
        return ptr.value

    def free(self, ptr: int) -> None:
        """``zeMemFree`` does not wait for the queue: queued work that may still use
        the memory is waited for first."""
        if self.submitted:
            self.synchronize()
        self.check("zeMemFree", self.lib.zeMemFree(self.context, ptr))

    def _copy(self, dst: int, src: int, nbytes: int) -> None:
        if nbytes:
            self._submit(lambda cl: self.check(
                "zeCommandListAppendMemoryCopy", self.lib.zeCommandListAppendMemoryCopy(
                    cl, dst, src, nbytes, None, 0, None)), wait=True)

    def htod(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        self._copy(dst, src, nbytes)

    def dtoh(self, dst: int, src: int, nbytes: int, stream=None) -> None:
        self._copy(dst, src, nbytes)

    def dtod(self, dst: int, src: int, nbytes: int) -> None:
        self._copy(dst, src, nbytes)

    def memset(self, ptr: int, nbytes: int) -> None:
        zero = ctypes.c_uint8(0)
        self._submit(lambda cl: self.check(
            "zeCommandListAppendMemoryFill", self.lib.zeCommandListAppendMemoryFill(
                cl, ptr, ctypes.byref(zero), 1, nbytes, None, 0, None)), wait=True)

    # -- kernels -----------------------------------------------------------------------
    def load(self, artifact) -> ZeKernel:
        """Build the artifact's SPIR-V into a module and create ``hj_kernel``."""
        lib = self.lib
        spirv = artifact.stages["spirv"]
        self._refuse(artifact)
        code = ctypes.create_string_buffer(spirv, len(spirv))
        desc = ModuleDesc(stype=_MODULE_DESC, format=_FORMAT_IL_SPIRV,
                          inputSize=len(spirv), pInputModule=ctypes.addressof(code),
                          pBuildFlags=BUILD_FLAGS)
        module, log = _H(), _H()
        result = lib.zeModuleCreate(self.context, self.device, desc,
                                    ctypes.byref(module), ctypes.byref(log))
        detail = self._build_log(log) if result else ""
        if log.value:
            lib.zeModuleBuildLogDestroy(log)
        self.check("zeModuleCreate", result, detail)
        kernel = self._create("zeKernelCreate", lib.zeKernelCreate, module,
                              KernelDesc(stype=_KERNEL_DESC,
                                         pKernelName=artifact.entry.encode()))
        return ZeKernel(module.value, kernel, 1 + len(artifact.metadata["params"]))

    def _refuse(self, artifact) -> None:
        """What the SPIR-V module declares and the device lacks, by capability."""
        from hanajit.errors import UnsupportedError

        from .spirv_tools import capabilities
        declared = capabilities(artifact.stages["spirv"])
        for cap, flag, what in (("Float64", _FLAG_FP64, "float64"),
                                ("Int64Atomics", _FLAG_INT64_ATOMICS, "int64 atomics")):
            if cap in declared and not self.module_flags & flag:
                raise UnsupportedError(
                    f"{artifact.metadata['name']}: {self.name} has no {what} "
                    f"(capability {cap} of the SPIR-V module)", construct=what)

    def _build_log(self, log) -> str:
        if not log.value:
            return ""
        size = _SIZE(0)
        if self.lib.zeModuleBuildLogGetString(log, ctypes.byref(size), None) != 0:
            return ""
        text = ctypes.create_string_buffer(size.value)
        self.lib.zeModuleBuildLogGetString(log, ctypes.byref(size), text)
        return text.value.decode(errors="replace").strip()

    def launch(self, kernel: ZeKernel, grid, block, stream, params) -> None:
        """Queue ``kernel`` on ``grid`` groups of ``block`` items; ``params`` (core's
        ``Params``) holds its parameters, one 8-byte slot each."""
        lib, k = self.lib, kernel.kernel
        base = ctypes.addressof(params.values)

        def append(cl):
            self.check("zeKernelSetGroupSize", lib.zeKernelSetGroupSize(k, *block))
            for i in range(kernel.nargs):
                self.check("zeKernelSetArgumentValue",
                           lib.zeKernelSetArgumentValue(k, i, 8, base + 8 * i))
            self.check("zeCommandListAppendLaunchKernel",
                       lib.zeCommandListAppendLaunchKernel(cl, k, GroupCount(*grid),
                                                           None, 0, None))
        self._submit(append, wait=False)


_driver = None
_lock = threading.Lock()


def get_driver() -> ZeDriver:
    """The process's Level Zero device (TargetError when there is none)."""
    global _driver
    with _lock:
        if _driver is None:
            try:
                _driver = ZeDriver()
            except OSError as exc:
                raise TargetError(f"Level Zero: cannot load {LOADER} ({exc}); install "
                                  "the loader (libze1) and Intel's compute runtime")
            except ZeError as exc:
                raise TargetError(f"Level Zero: {exc}; no usable driver") from exc
        return _driver


def forget() -> None:
    """Forget the process's driver (tests that swap the loader or the device)."""
    global _driver
    with _lock:
        _driver = None
