"""The simulation's driver for ``hanajit.launch.Launcher``: device memory is host
memory (a handle is an address), ``load`` builds the kernel with g++, ``launch``
runs the whole grid before returning (so ``synchronize`` has nothing to wait for).
"""
from __future__ import annotations

import ctypes

import numpy as np

from .. import binding
from . import build

# Metal's limits on Apple GPUs: 1024 threads per threadgroup
MAX_BLOCK = 1024


class SimKernel:
    def __init__(self, artifact):
        meta = artifact.metadata
        self.metadata = meta
        self.shared = [size for _, size in meta["shared"]]
        self.run = build(artifact.stages["msl"], len(meta["buffers"]),
                         len(self.shared), meta["barriers"])


class SimDriver:
    name = "the Metal simulation (g++)"
    max_block = MAX_BLOCK

    def __init__(self):
        self.memory: dict = {}           # handle -> numpy buffer

    # -- memory: host memory -------------------------------------------------------------
    def alloc(self, nbytes: int) -> int:
        buf = np.empty(max(int(nbytes), 1), np.uint8)
        handle = buf.ctypes.data
        self.memory[handle] = buf
        return handle

    def free(self, handle: int) -> None:
        self.memory.pop(handle, None)

    def memset(self, handle: int, nbytes: int) -> None:
        ctypes.memset(handle, 0, nbytes)

    def htod(self, handle, host_address, nbytes, stream=None):
        ctypes.memmove(handle, host_address, nbytes)

    def dtoh(self, host_address, handle, nbytes, stream=None):
        ctypes.memmove(host_address, handle, nbytes)

    # -- kernels -------------------------------------------------------------------------
    def load(self, artifact) -> SimKernel:
        return SimKernel(artifact)

    def launch(self, kernel: SimKernel, grid, block, stream, params) -> None:
        err, arrays, slots = binding.plan(kernel.metadata, params.values)
        pointers = [err]
        demoted = []
        for a in arrays:
            if not a.demote:
                pointers.append(a.ptr)
                continue
            n = (a.hi - a.lo) // 8
            wide = np.ctypeslib.as_array((ctypes.c_double * n).from_address(a.lo)) \
                if n else np.empty(0)
            narrow = binding.demote_out(wide)
            demoted.append((wide, narrow))
            pointers.append(narrow.ctypes.data + (a.ptr - a.lo) // 2)
        pointers.append(slots.ctypes.data)
        bufs = (ctypes.c_void_p * len(pointers))(*pointers)
        dims = (ctypes.c_uint * 6)(*grid, *block)
        tg = (ctypes.c_size_t * max(1, len(kernel.shared)))(*kernel.shared)
        kernel.run(bufs, dims, tg)
        for wide, narrow in demoted:
            wide[...] = narrow

    def synchronize(self, stream=None) -> None:
        return None


_driver = None


def get_driver() -> SimDriver:
    global _driver
    if _driver is None:
        from . import find_compiler
        from hanajit.errors import TargetError
        if find_compiler() is None:
            raise TargetError("no Metal device (not macOS) and no g++ for the Metal "
                              "simulation")
        _driver = SimDriver()
    return _driver
