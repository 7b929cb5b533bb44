"""Launching without an AMD GPU: core's launcher over the HIP driver (ctypes)
over a fake ``libamdhip64`` built with gcc (``fake_libamdhip64.py``), whose device
memory is host memory and whose kernel is a Python emulation reading the packed
argument buffer.  Checks the calls made (code object of the device's
architecture, ``extra`` packing, grid and block, streams, synchronisation),
copies to and from the device, and the error record raised as IndexError in the
caller -- at once, or at ``synchronize()`` after ``sync=False``."""
from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest
from hanajit import jit, plugins
from hanajit.errors import TargetError, UnsupportedError
from hanajit.launch.device_array import DeviceArray
from hanajit.testing.sourcefile import load_sibling
from hanajit_hip import driver, toolchain
from hanajit_hip.hip_api import HipError

FAKE = load_sibling(__file__, "fake_libamdhip64.py", "hanajit_hip_fake_runtime")
K = load_sibling(__file__, "hip_kernels.py", "hanajit_hip_test_kernels")
pytestmark = pytest.mark.skipif(toolchain.find_lld() is None,
                                reason="ld.lld 15+ not found (apt-get install lld-19)")
N = 40


@pytest.fixture(scope="module")
def fake_path(tmp_path_factory):
    return FAKE.build(tmp_path_factory.mktemp("fakehip"))


@pytest.fixture
def fake(monkeypatch, fake_path):
    monkeypatch.setenv("HANAJIT_HIP_LIBRARY", str(fake_path))
    monkeypatch.setattr(driver, "_driver", None)
    monkeypatch.setattr(plugins.get_target("hip"), "_launcher", None)
    f = FAKE.Fake(fake_path)
    f.reset()
    f.arch("gfx90a:sramecc+:xnack-")
    return f


_jitted: dict = {}


def kernel(name, archs="gfx90a"):
    if (name, archs) not in _jitted:
        fn, sig = K.KERNELS[name]
        _jitted[name, archs] = jit(fn, target="hip", signature=sig, gpu_arch=archs,
                                   fallback=False)
    return _jitted[name, archs]


def doubles(ptr, n):
    return np.ctypeslib.as_array((ctypes.c_double * n).from_address(ptr))


def emulate_saxpy(slots, grid, block):
    """The kernel on the host: slots are err, y (ptr, n, stride), x (...), a, n."""
    err, y, ny, sy, x, nx, sx, a, n = slots
    assert (sy, sx) == (8, 8) and ny == nx == n and err != 0
    a = struct.unpack("<d", struct.pack("<Q", a))[0]
    yv, xv = doubles(y, n), doubles(x, n)
    yv[:] = a * xv + yv


def launches(fake):
    return [line for line in fake.log() if line.startswith("launch")]


def test_launch_packs_copies_and_picks_the_arch(fake):
    fake.arch("gfx1100")
    fake.kernel(emulate_saxpy)
    f = kernel("saxpy", "gfx90a,gfx1100")
    y, x = np.arange(N, dtype=np.float64), np.full(N, 0.5)
    f.launch(y, x, 2.0, N, grid=2, block=32)
    assert np.array_equal(y, np.arange(N) + 1.0)
    log = fake.log()
    assert "properties R0600" in log                     # ROCm 6's call
    assert "load elf=1 mach=0x41" in log                 # gfx1100's code object
    assert "function hj_kernel" in log
    (line,) = launches(fake)
    assert "grid=2,1,1 block=32,1,1 shared=0 stream=(nil)" in line
    slots = [int(s, 16) for s in line.split("slots=")[1].split(",")]
    assert slots[2:4] == [N, 8] and slots[5:7] == [N, 8]
    assert slots[7] == 0x4000000000000000 and slots[8] == N     # 2.0, n
    assert "sync device" in log[log.index(line):]
    assert log.count("htod 320") == 2                     # y and x over
    assert "dtoh 320" in log                              # y back


def test_to_device_sync_false_and_synchronize(fake):
    fake.kernel(emulate_saxpy)
    f = kernel("saxpy")
    y, x = np.ones(N), np.arange(N, dtype=np.float64)
    yd, xd = f.to_device(y), f.to_device(x)
    assert isinstance(yd, DeviceArray) and yd.shape == (N,)
    fake.reset()
    f.launch(yd, xd, 3.0, N, grid=1, block=64, sync=False)
    assert fake.log()[-1].startswith("launch")            # not waited for
    f.synchronize()
    assert fake.log()[-2:] == ["sync device", "dtoh 32"]  # then the error record
    assert np.array_equal(yd.to_host(), 1.0 + 3.0 * x)


def test_stream_handle(fake):
    fake.kernel(emulate_saxpy)
    f = kernel("saxpy")
    s = driver.get_driver().new_stream()
    yd, xd = f.to_device(np.zeros(4)), f.to_device(np.ones(4))
    f.launch(yd, xd, 1.0, 4, grid=1, block=4, stream=s, sync=False)
    assert f"stream={s:#x}" in launches(fake)[-1]
    f.synchronize()

    class TorchLikeStream:
        cuda_stream = s
    f.launch(yd, xd, 1.0, 4, grid=1, block=4, stream=TorchLikeStream())
    assert f"sync stream={s:#x}" in fake.log()
    assert np.array_equal(yd.to_host(), np.full(4, 2.0))


def raise_in_kernel(artifact):
    """A fake kernel that records an IndexError as the first failing thread does."""
    code = 1 + next(i for i, r in enumerate(artifact.metadata["raises"])
                    if r[0] is IndexError)

    def run(slots, grid, block):
        rec = (ctypes.c_int64 * 4).from_address(slots[0])
        rec[0], rec[1], rec[2], rec[3] = code, N, N, 0
    return run


def test_error_record_raises_in_the_caller(fake):
    f = kernel("raises")
    art = f._pick(None).artifact
    fake.kernel(raise_in_kernel(art))
    out, a = np.zeros(N), np.ones(N)
    with pytest.raises(IndexError):
        f.launch(out, a, grid=1, block=N)
    fake.kernel(lambda slots, grid, block: None)          # the record was cleared
    f.launch(out, a, grid=1, block=N)
    fake.kernel(raise_in_kernel(art))
    od, ad = f.to_device(out), f.to_device(a)
    f.launch(od, ad, grid=1, block=N, sync=False)          # no error yet
    with pytest.raises(IndexError):
        f.synchronize()
    f.synchronize()                                        # reported once


def test_arch_not_compiled(fake):
    fake.arch("gfx942:sramecc+:xnack-")
    with pytest.raises(UnsupportedError, match="gpu_arch='gfx942'"):
        kernel("saxpy").launch(np.zeros(4), np.zeros(4), 1.0, 4)


def test_no_device(fake):
    fake.mode(1)
    target = plugins.get_target("hip")
    ok, reason = target.status()
    assert not ok and "hipErrorNoDevice" in reason
    with pytest.raises(TargetError, match="no usable device"):
        kernel("saxpy").launch(np.zeros(4), np.zeros(4), 1.0, 4)
    target.synchronize()                        # nothing launched: no error


def test_runtime_errors_name_the_call(fake):
    fake.mode(3)
    with pytest.raises(HipError, match="hipModuleLaunchKernel failed: "
                       "hipErrorLaunchFailure"):
        kernel("saxpy").launch(np.zeros(4), np.zeros(4), 1.0, 4)


def test_status_names_the_device(fake):
    ok, reason = plugins.get_target("hip").status()
    assert ok and reason == "Fake AMD GPU 0 (gfx90a:sramecc+:xnack-)"


def test_auto_target_hook():
    from hanajit_hip import plugin
    assert plugin.hanajit_select_target(["cpu", "hip"], K.saxpy) == "hip"
    assert plugin.hanajit_select_target(["cpu"], K.saxpy) is None   # no device
    assert plugin.hanajit_select_target(["cpu", "hip"], doubles) is None
