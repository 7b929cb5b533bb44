"""A stand-in for PyObjC's ``Metal`` module: the calls ``pyobjc_driver`` makes,
recorded, with "GPU" execution by the C++ simulation (``hanajit_metal.sim``), so
the driver's buffers, offsets, scalar bytes and threadgroup memory are checked
end to end without a Mac."""
from __future__ import annotations

import ctypes

from hanajit_metal import sim

MTLResourceStorageModeShared = 0
MTLMathModeSafe = 0
calls: list = []


def MTLSizeMake(x, y, z):
    return (x, y, z)


class _Contents:
    def __init__(self, raw):
        self.raw = raw

    def as_buffer(self, n):
        return memoryview(self.raw).cast("B")[:n]


class Buffer:
    def __init__(self, n):
        self.raw = (ctypes.c_char * n)()
        self.address = ctypes.addressof(self.raw)

    def contents(self):
        return _Contents(self.raw)


class CompileOptions:
    @classmethod
    def new(cls):
        return cls()

    def setMathMode_(self, mode):
        calls.append(("mathMode", mode))


MTLCompileOptions = CompileOptions


class Function:
    def __init__(self, source, name):
        self.source, self.name = source, name


class Library:
    def __init__(self, source):
        self.source = source

    def newFunctionWithName_(self, name):
        return Function(self.source, name)


class Pipeline:
    def __init__(self, function):
        self.function = function

    def maxTotalThreadsPerThreadgroup(self):
        return 1024


class Encoder:
    def __init__(self, cb):
        self.cb = cb
        self.buffers, self.bytes, self.tg = {}, {}, {}

    def setComputePipelineState_(self, p):
        self.pipeline = p

    def setBuffer_offset_atIndex_(self, buf, offset, index):
        self.buffers[index] = buf.address + offset

    def setBytes_length_atIndex_(self, data, n, index):
        self.bytes[index] = (ctypes.c_char * n).from_buffer_copy(data)

    def setThreadgroupMemoryLength_atIndex_(self, n, index):
        assert n % 16 == 0
        self.tg[index] = n

    def dispatchThreadgroups_threadsPerThreadgroup_(self, grid, block):
        calls.append(("dispatch", grid, block))
        self.cb.work = (self, grid, block)

    def endEncoding(self):
        pass


class CommandBuffer:
    def __init__(self):
        self.work = None
        self.done = False

    def computeCommandEncoder(self):
        return Encoder(self)

    def commit(self):
        calls.append(("commit",))

    def waitUntilCompleted(self):
        if self.done or self.work is None:
            return
        enc, grid, block = self.work
        pointers = {**enc.buffers, **{i: ctypes.addressof(b) for i, b in enc.bytes.items()}}
        n = max(pointers) + 1
        bufs = (ctypes.c_void_p * n)(*[pointers[i] for i in range(n)])
        tg = (ctypes.c_size_t * max(1, len(enc.tg)))(*[enc.tg[i] for i in range(len(enc.tg))])
        run = sim.build(enc.pipeline.function.source, n, len(enc.tg), True)
        run(bufs, (ctypes.c_uint * 6)(*grid, *block), tg)
        self.done = True

    def error(self):
        return None


class Queue:
    def commandBuffer(self):
        return CommandBuffer()


class Device:
    def name(self):
        return "Fake Apple GPU"

    def newCommandQueue(self):
        return Queue()

    def newBufferWithLength_options_(self, n, options):
        return Buffer(n)

    def newLibraryWithSource_options_error_(self, source, options, error):
        calls.append(("library", len(source)))
        return Library(source), None

    def newComputePipelineStateWithFunction_error_(self, function, error):
        assert function.name == "hj_kernel"
        return Pipeline(function), None


def MTLCreateSystemDefaultDevice():
    return Device()
