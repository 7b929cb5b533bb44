"""``f.launch`` through the Level Zero driver over the fake loader (built with gcc):
the kernel is emulated in Python from the argument slots the launcher packed, when
the fake queue is synchronised.  NumPy arrays copied over and back, device arrays
(``to_device``/``to_host``) used in place, ``sync=False`` with
``f.synchronize()``, and a recorded error raised as the CPU target raises it."""
from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest
from hanajit import jit, plugins
from hanajit.testing.sourcefile import load_sibling

K = load_sibling(__file__, "levelzero_kernels.py", "hanajit_levelzero_test_kernels")
F = load_sibling(__file__, "fake_loader.py", "hanajit_levelzero_fake_loader")


@pytest.fixture(scope="module")
def fake(tmp_path_factory):
    path = F.build(tmp_path_factory.mktemp("fake_ze_launch"))
    if path is None:
        pytest.skip("gcc not found: the fake loader cannot be built")
    mp = pytest.MonkeyPatch()
    mp.setenv("HANAJIT_LEVELZERO_LOADER", str(path))
    mp.setenv("HANAJIT_LEVELZERO_RUNTIME", "levelzero")
    mp.delenv("HANAJIT_LEVELZERO_DEVICE", raising=False)
    loader = F.FakeLoader(path)
    loader.configure()
    target = plugins.get_target("levelzero")
    target.forget_launchers()          # a fresh driver over the fake loader
    yield loader
    target.forget_launchers()
    mp.undo()


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def view(ptr, n, dtype):
    dtype = np.dtype(dtype)
    raw = (ctypes.c_char * (n * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(raw, dtype)


def emulate_saxpy(name, grid, block, args):
    """hj_kernel(err, y, ny, sy, x, nx, sx, a, n): y = a * x + y on the host."""
    _, y, ny, _, x, nx, _, a, n = args
    threads = grid[0] * block[0]
    yv, xv = view(y, ny, np.float64), view(x, nx, np.float64)
    m = min(threads, n)
    yv[:m] = f64(a) * xv[:m] + yv[:m]


def emulate_raises(name, grid, block, args):
    """The last thread's ``a[i + 1]`` is out of bounds: record IndexError (raise
    code 1) with the index and the size, as the kernel does."""
    err, _, _, _, _, n_a, _ = args
    view(err, 4, np.int64)[:] = (1, n_a, n_a, 0)


SAXPY = K.KERNELS["saxpy"]


def test_numpy_arrays_are_copied_over_and_back(fake):
    fake.emulate = emulate_saxpy
    f = jit(K.saxpy, target="intel", signature=SAXPY[1], fallback=False)
    y, x = np.arange(300.0), np.full(300, 2.0)
    want = 3.0 * x + y
    f.launch(y, x, 3.0, len(y))
    assert (y == want).all()
    [(name, grid, block, args)] = fake.launches
    assert (name, grid, block) == ("hj_kernel", (2, 1, 1), (256, 1, 1))
    assert args[2:4] == [300, 8] and args[5:7] == [300, 8] and args[8] == 300
    assert f64(args[7]) == 3.0
    log = fake.log()
    assert "zeKernelSetGroupSize(256, 1, 1)" in log
    assert "zeCommandListAppendLaunchKernel(hj_kernel, groups 2x1x1)" in log


def test_device_arrays_sync_false_and_synchronize(fake):
    fake.emulate = emulate_saxpy
    f = jit(K.saxpy, target="levelzero", signature=SAXPY[1], fallback=False)
    y, x = np.ones(1000), np.arange(1000.0)
    yd, xd = f.to_device(y), f.to_device(x)
    fake.launches.clear()
    for _ in range(3):
        f.launch(yd, xd, 0.5, len(y), grid=4, block=256, sync=False)
    assert fake.launches == []                 # queued, not run
    f.synchronize()
    assert len(fake.launches) == 3
    assert (yd.to_host() == 1.0 + 1.5 * x).all()
    assert (y == 1.0).all()                    # the host array is untouched


def test_an_error_in_the_kernel_is_an_index_error_in_the_caller(fake):
    fake.emulate = emulate_raises
    fn, sig = K.KERNELS["raises"]
    f = jit(fn, target="levelzero", signature=sig, fallback=False)
    out, a = np.zeros(8), np.arange(8.0)
    with pytest.raises(IndexError, match="index 8 is out of bounds for axis 0 with "
                       "size 8"):
        f.launch(out, a, grid=1, block=8)
    fake.emulate = None
    f.launch(out, a, grid=1, block=8)          # the record was cleared
    od, ad = f.to_device(out), f.to_device(a)
    fake.emulate = emulate_raises
    f.launch(od, ad, grid=1, block=8, sync=False)
    with pytest.raises(IndexError, match="index 8 is out of bounds"):
        f.synchronize()
