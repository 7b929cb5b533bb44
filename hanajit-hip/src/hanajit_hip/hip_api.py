"""The HIP runtime's C API through ctypes: ``libamdhip64``, loaded on first use.

Only the calls hanajit needs, declared with their C prototypes (ROCm 5 and 6
agree on every one of them): initialisation and devices, modules and
``hipModuleLaunchKernel``, memory, streams, errors.  A failing ``hipError_t``
becomes :class:`HipError` with the runtime's name and message.
"""
from __future__ import annotations

import ctypes
import re
from ctypes import POINTER, c_char_p, c_int, c_size_t, c_uint, c_void_p

from hanajit.errors import TargetError

# hipModuleLaunchKernel's ``extra``: the kernel arguments as one packed buffer
HIP_LAUNCH_PARAM_BUFFER_POINTER = 0x01
HIP_LAUNCH_PARAM_BUFFER_SIZE = 0x02
HIP_LAUNCH_PARAM_END = 0x03
HIP_ERROR_NO_DEVICE = 100

_PROTOTYPES = {
    "hipInit": [c_uint],
    "hipGetDeviceCount": [POINTER(c_int)],
    "hipSetDevice": [c_int],
    "hipDeviceGetName": [c_char_p, c_int, c_int],
    "hipModuleLoadData": [POINTER(c_void_p), c_void_p],
    "hipModuleGetFunction": [POINTER(c_void_p), c_void_p, c_char_p],
    "hipModuleUnload": [c_void_p],
    "hipModuleLaunchKernel": [c_void_p, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint,
                              c_uint, c_void_p, POINTER(c_void_p), POINTER(c_void_p)],
    "hipMalloc": [POINTER(c_void_p), c_size_t],
    "hipFree": [c_void_p],
    "hipMemcpyHtoD": [c_void_p, c_void_p, c_size_t],
    "hipMemcpyDtoH": [c_void_p, c_void_p, c_size_t],
    "hipMemset": [c_void_p, c_int, c_size_t],
    "hipMemcpyHtoDAsync": [c_void_p, c_void_p, c_size_t, c_void_p],
    "hipMemcpyDtoHAsync": [c_void_p, c_void_p, c_size_t, c_void_p],
    "hipMemcpyDtoDAsync": [c_void_p, c_void_p, c_size_t, c_void_p],
    "hipMemsetAsync": [c_void_p, c_int, c_size_t, c_void_p],
    "hipStreamCreate": [POINTER(c_void_p)],
    "hipStreamSynchronize": [c_void_p],
    "hipDeviceSynchronize": [],
}


class HipError(RuntimeError):
    """A HIP runtime call failed; the message has the runtime's error name and text."""

    def __init__(self, call: str, code: int, name: str, text: str):
        super().__init__(f"{call} failed: {name} ({code}): {text}")
        self.call, self.code, self.name = call, code, name


class HipAPI:
    """``libamdhip64`` at ``path`` with the prototypes above; calling
    ``api.call("hipMalloc", ...)`` checks the result."""

    def __init__(self, path: str):
        try:
            self.lib = lib = ctypes.CDLL(path)
        except OSError as exc:
            raise TargetError(f"cannot load the HIP runtime {path}: {exc}") from None
        for name, args in _PROTOTYPES.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, c_int
        for name in ("hipGetErrorName", "hipGetErrorString"):
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = [c_int], c_char_p
        # ROCm 6 renamed it (the header maps the name to the R0600 layout)
        self.properties_call = next(
            (n for n in ("hipGetDevicePropertiesR0600", "hipGetDeviceProperties")
             if hasattr(lib, n)), None)
        if self.properties_call is not None:
            fn = getattr(lib, self.properties_call)
            fn.argtypes, fn.restype = [c_void_p, c_int], c_int

    def call(self, name: str, *args) -> None:
        code = getattr(self.lib, name)(*args)
        if code != 0:
            raise HipError(name, code, self._text("hipGetErrorName", code),
                           self._text("hipGetErrorString", code))

    def _text(self, fn: str, code: int) -> str:
        raw = getattr(self.lib, fn)(code)
        return raw.decode(errors="replace") if raw else "?"

    def arch_name(self, device: int) -> str:
        """The device's ``gcnArchName`` (``gfx90a:sramecc+:xnack-``), read from
        ``hipGetDeviceProperties`` (``...R0600`` on ROCm 6) without its struct
        layout, which differs between ROCm releases: the property block is
        scanned for the name."""
        if self.properties_call is None:
            return "unknown"
        block = ctypes.create_string_buffer(16384)
        self.call(self.properties_call, block, device)
        m = re.search(rb"(gfx[0-9a-f]{3,4}(?::[\w-]+[+-])*)\0", block.raw)
        return m.group(1).decode() if m else "unknown"

    def device_name(self, device: int) -> str:
        buf = ctypes.create_string_buffer(256)
        self.call("hipDeviceGetName", buf, 256, device)
        return buf.value.decode(errors="replace")


def pack_extra(slots) -> tuple:
    """hipModuleLaunchKernel's ``extra`` for 8-byte argument ``slots`` (a ctypes
    ``c_uint64`` array, used in place, or ints): ``(extra array, keepalive)`` --
    the buffer, its size and the end marker."""
    buf = slots if isinstance(slots, ctypes.Array) else \
        (ctypes.c_uint64 * max(1, len(slots)))(*slots)
    size = ctypes.c_size_t(8 * len(slots))
    extra = (c_void_p * 5)(HIP_LAUNCH_PARAM_BUFFER_POINTER, ctypes.addressof(buf),
                           HIP_LAUNCH_PARAM_BUFFER_SIZE, ctypes.addressof(size),
                           HIP_LAUNCH_PARAM_END)
    return extra, (buf, size)
