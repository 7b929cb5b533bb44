"""The launcher's host side without a GPU: a fake driver whose "device memory" is
host memory and whose kernel is a Python emulation reading the packed parameters.
Checks parameter packing (pointers, shapes, strides, scalar bits), copies to and
from the device, default geometry, and turning the error record into exceptions."""
from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit_cuda.devicearray import DeviceArray, interface
from hanajit.launch.geometry import default_geometry
from hanajit.launch.launcher import Launcher
from hanajit_cuda.launch import device_typeof
from hanajit.ir import types as T


class FakeDriver:
    """Driver methods over host memory; ``kernel(params, grid, block)`` emulates."""

    array_type = DeviceArray                # CUDA's: with __cuda_array_interface__
    interface = staticmethod(interface)

    def __init__(self, kernel):
        self.kernel = kernel
        self.buffers: dict = {}
        self.launches: list = []
        self.syncs = 0

    def make_current(self):
        pass

    def alloc(self, nbytes):
        buf = ctypes.create_string_buffer(max(1, nbytes))
        self.buffers[ctypes.addressof(buf)] = buf
        return ctypes.addressof(buf)

    def free(self, ptr):
        del self.buffers[ptr]

    def htod(self, dst, src, nbytes, stream=None):
        ctypes.memmove(dst, src, nbytes)

    dtoh = dtod = htod

    def memset(self, ptr, nbytes):
        ctypes.memset(ptr, 0, nbytes)

    def load(self, artifact):
        ptx = artifact.stages["ptx"]
        assert ".entry hj_kernel" in ptx
        entry = ptx[ptx.index(".entry hj_kernel"):]
        return entry[:entry.index(")")].count(".param")   # the "function"

    def launch(self, fn, grid, block, stream, params):
        n = fn
        ptrs = (ctypes.c_void_p * n).from_address(params.address)
        values = [ctypes.c_uint64.from_address(p).value for p in ptrs]
        self.launches.append((grid, block, values))
        self.kernel(values, grid, block)

    def synchronize(self, stream=None):
        self.syncs += 1


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def view(ptr, n, stride, dtype=np.float64):
    itemsize = np.dtype(dtype).itemsize
    buf = (ctypes.c_char * max(1, (n - 1) * stride + itemsize)).from_address(ptr)
    return np.ndarray((n,), dtype, buffer=buf, strides=(stride,))


def saxpy(y, x, a, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        y[i] = a * x[i] + y[i]


def emulate_saxpy(values, grid, block):
    err, yp, yn, ys, xp, xn, xs, a, n = values
    y, x = view(yp, yn, ys), view(xp, xn, xs)
    m = min(n, grid[0] * block[0])
    y[:m] = f64(a) * x[:m] + y[:m]


def make(kernel_fn, emulator, sig=None):
    f = jit(kernel_fn, target="cuda", fallback=False,
            **({"signature": sig} if sig else {}))
    drv = FakeDriver(emulator)
    lau = Launcher(drv)
    return f, drv, lau


def run(f, drv, lau, *args, **kw):
    key = tuple(device_typeof(a) for a in args)
    art = f._kernel(key).artifact
    return lau.launch(art, args, **kw)


def test_host_arrays_are_copied_over_and_back():
    f, drv, lau = make(saxpy, emulate_saxpy, "f64[:], f64[:], f64, i64")
    x = np.arange(1000.0)
    y = np.ones(1000)
    run(f, drv, lau, y, x, 2.5, 1000)
    assert np.array_equal(y, 2.5 * np.arange(1000.0) + 1)
    grid, block, values = drv.launches[0]
    assert block == (256, 1, 1) and grid == (4, 1, 1)   # one thread per element
    assert values[2] == 1000 and values[3] == 8 and f64(values[7]) == 2.5
    assert len(drv.buffers) == 1            # temporaries freed; the error record left


def test_strided_host_arrays_round_trip_through_contiguous_copies():
    f, drv, lau = make(saxpy, emulate_saxpy)
    base = np.zeros(20)
    y = base[::2]
    x = np.arange(30.0)[::3]
    x.flags.writeable = False
    run(f, drv, lau, y, x, 1.0, 10, grid=1, block=32)
    assert np.array_equal(y, x) and np.array_equal(base[1::2], np.zeros(10))
    assert drv.launches[0][2][3] == 8                     # the copy's stride


def test_device_arrays_are_used_in_place_and_async_queues():
    f, drv, lau = make(saxpy, emulate_saxpy, "f64[:], f64[:], f64, i64")
    yd = DeviceArray.from_host(drv, np.ones(64), sync=lau.synchronize)
    xd = DeviceArray.from_host(drv, np.full(64, 2.0), sync=lau.synchronize)
    run(f, drv, lau, yd, xd, 3.0, 64, grid=1, block=64, sync=False)
    assert drv.syncs == 0 and lau.pending
    assert drv.launches[0][2][1] == yd.ptr and drv.launches[0][2][4] == xd.ptr
    assert yd.to_host().tolist() == [7.0] * 64          # to_host waits first
    assert drv.syncs == 1 and not lau.pending
    with pytest.raises(ValueError, match="copy_from_host"):
        yd.copy_from_host(np.ones(3))
    yd.free()
    with pytest.raises(ValueError, match="freed"):
        yd.to_host()


def test_kernel_errors_become_python_exceptions_once():
    def oob(y, n):
        y[thread_id() + n] = 1.0  # noqa: F821

    def emulate(values, grid, block):
        err, yp, yn, ys, n = values
        if block[0] + n > yn:        # what the bounds check does on the device
            rec = (ctypes.c_int64 * 4).from_address(err)
            rec[0], rec[1], rec[2] = code, yn, yn

    f, drv, lau = make(oob, emulate, "f64[:], i64")
    # (thread_id() + n is checked for overflow first: the IndexError's own code)
    raises = f._kernel((device_typeof(np.zeros(1)), device_typeof(5))).artifact \
        .metadata["raises"]
    code = 1 + next(k for k, r in enumerate(raises) if r[0] is IndexError)
    y = np.zeros(10)
    with pytest.raises(IndexError,
                       match="index 10 is out of bounds for axis 0 with size 10"):
        run(f, drv, lau, y, 5, grid=1, block=32)
    run(f, drv, lau, y, 0, grid=1, block=10)             # the record was cleared
    yd = DeviceArray.from_host(drv, y, sync=lau.synchronize)
    run(f, drv, lau, yd, 5, grid=1, block=32, sync=False)
    with pytest.raises(IndexError):
        lau.synchronize()
    lau.synchronize()                                    # reported once


def test_scalar_parameter_bits():
    def k(out, a, b, c, d, z):
        out[0] = a + b + c + z.imag + (1.0 if d else 0.0)

    seen = []
    f, drv, lau = make(k, lambda v, g, b: seen.append(v),
                       "f64[:], f32, i32, u8, bool, c128")
    run(f, drv, lau, np.zeros(1), np.float32(1.5), -3, 255, True, 2 - 0.5j,
        grid=1, block=1)
    v = seen[0]
    assert f64(v[4]) == 1.5 and v[5] == (-3) & (2**64 - 1) and v[6] == 255 and v[7] == 1
    assert f64(v[8]) == 2.0 and f64(v[9]) == -0.5


def test_default_and_explicit_geometry():
    assert default_geometry([np.zeros(1000)], None, None) == ((4, 1, 1), (256, 1, 1))
    assert default_geometry([np.zeros(0)], None, 64) == ((1, 1, 1), (64, 1, 1))
    assert default_geometry([], (3, 2), (8, 8)) == ((3, 2, 1), (8, 8, 1))
    with pytest.raises(ValueError, match="at most 1024"):
        default_geometry([], 1, (32, 64))
    with pytest.raises(ValueError, match="exceeds"):
        default_geometry([], (1, 70000), 1)
    with pytest.raises(ValueError, match="positive"):
        default_geometry([], (1, 2, 3, 4), 1)


def test_cuda_array_interface_typing():
    class Foreign:
        def __init__(self, shape, strides, typestr="<f4", ro=False):
            self.__cuda_array_interface__ = {"shape": shape, "strides": strides,
                                             "typestr": typestr, "data": (1234, ro),
                                             "version": 3}

    assert device_typeof(Foreign((4, 5), None)) == T.ArrayType(T.FLOAT32, 2, "C")
    assert device_typeof(Foreign((4, 5), (40, 8))) == T.ArrayType(T.FLOAT32, 2, "A")
    assert device_typeof(Foreign((4,), None, "<i8", True)) == T.ArrayType(
        T.INT64, 1, "C", True)
    assert device_typeof(2.0) == T.FLOAT64


@settings(max_examples=200, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from([-0.0, 0.0]),
       st.integers(-2**63, 2**63 - 1), st.integers(0, 2**64 - 1))
def test_scalar_packing_keeps_every_bit(x, i, u):
    from hanajit.launch.launcher import scalar_bits as _bits
    got = struct.unpack("<d", struct.pack("<Q", _bits(x, T.FLOAT64)))[0]
    assert struct.pack("<d", got) == struct.pack("<d", x)          # nan, -0.0, inf
    assert _bits(i, T.INT64) == i & (2**64 - 1)
    assert _bits(u, T.UINT64) == u
    assert _bits(np.float32(1.1), T.FLOAT32) == _bits(float(np.float32(1.1)), T.FLOAT64)


def test_freed_device_array_argument_is_refused():
    f, drv, lau = make(saxpy, emulate_saxpy, "f64[:], f64[:], f64, i64")
    yd = DeviceArray.from_host(drv, np.ones(4), sync=lau.synchronize)
    xd = DeviceArray.from_host(drv, np.ones(4), sync=lau.synchronize)
    xd.free()
    with pytest.raises(ValueError, match="freed"):
        run(f, drv, lau, yd, xd, 1.0, 4, grid=1, block=4)


def test_empty_arrays_launch():
    f, drv, lau = make(saxpy, emulate_saxpy, "f64[:], f64[:], f64, i64")
    y = np.zeros(0)
    run(f, drv, lau, y, np.zeros(0), 1.0, 0)
    assert drv.launches[0][0] == (1, 1, 1) and drv.launches[0][2][2] == 0


def test_the_user_api_through_the_target(monkeypatch):
    """f.launch / f.to_device / f.synchronize / DeviceArray through the registered
    cuda target, whose launcher runs on the fake driver."""
    from hanajit import plugins
    target = plugins.get_target("cuda")
    drv = FakeDriver(emulate_saxpy)
    monkeypatch.setattr(target, "_launcher", Launcher(drv))
    f = jit(saxpy, target="cuda", fallback=False)           # lazy: first launch
    x = np.arange(10.0)
    yd = f.to_device(np.ones(10))
    assert isinstance(yd, DeviceArray) and yd.shape == (10,) and yd.dtype == np.float64
    f.launch(yd, f.to_device(x), 2.0, 10, sync=False)
    assert drv.launches[-1][:2] == ((1, 1, 1), (256, 1, 1))
    f.synchronize()
    assert yd.to_host().tolist() == (2.0 * x + 1).tolist()
    y = np.zeros(10)
    f.launch(y, x, 1.0, 10, grid=2, block=8)                # NumPy: copied back
    assert y.tolist() == x.tolist()
    assert len(f.signatures) == 1     # device and C-contiguous host arrays: one kernel
    with pytest.raises(TypeError, match="argument 1: values of type list"):
        f.launch([1.0], x, 1.0, 1)


def test_host_arrays_sharing_memory_are_one_device_block():
    # launch(y, y, ...) must see one array, as the CPU target does: copying each
    # argument separately copied x back last, undoing the kernel's writes to y
    f, drv, lau = make(saxpy, emulate_saxpy, "f64[:], f64[:], f64, i64")
    y = np.arange(6.0)
    run(f, drv, lau, y, y, 1.0, 6)
    assert y.tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    assert len(drv.buffers) == 1
    base = np.arange(12.0)                  # interleaved views of one buffer
    y, x = base[::2], base[1::2]
    run(f, drv, lau, y, x, 10.0, 6)
    assert base.tolist() == [10.0 * (i + 1) + i if i % 2 == 0 else float(i)
                             for i in range(12)]
    base = np.arange(8.0)                   # a read-only view is not copied back
    x = base[4:]
    x.flags.writeable = False
    y = base[2:6]
    run(f, drv, lau, y, x, 1.0, 4)
    assert base.tolist() == [0, 1, 2 + 4, 3 + 5, 4 + 6, 5 + 7, 6, 7]
    assert len(drv.buffers) == 2            # two kernels' error records, no blocks
