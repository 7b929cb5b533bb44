"""The Level Zero driver (ctypes over the loader) against a fake loader built here
with gcc, which records every call: initialisation and device selection, device
memory and copies, module creation from SPIR-V with the build flags, the
argument slots of a launch, command lists run only when the queue is
synchronised, build failures with their log, refusals by capability.  And the
real loader, where installed: no driver is a TargetError."""
from __future__ import annotations

import struct

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import TargetError, UnsupportedError
from hanajit.launch.launcher import Params
from hanajit.testing.sourcefile import load_sibling
from hanajit_levelzero import ze_driver

PROBE = "levelzero: probe launch (saxpy on the device, in a child process)"

K = load_sibling(__file__, "levelzero_kernels.py", "hanajit_levelzero_test_kernels")
F = load_sibling(__file__, "fake_loader.py", "hanajit_levelzero_fake_loader")


@pytest.fixture(scope="session")
def fake_path(tmp_path_factory):
    path = F.build(tmp_path_factory.mktemp("fake_ze"))
    if path is None:
        pytest.skip("gcc not found: the fake loader cannot be built")
    return path


@pytest.fixture
def fake(fake_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_LEVELZERO_LOADER", str(fake_path))
    monkeypatch.delenv("HANAJIT_LEVELZERO_DEVICE", raising=False)
    loader = F.FakeLoader(fake_path)
    loader.configure()
    return loader


def artifact(name):
    fn, sig = K.KERNELS[name]
    jf = jit(fn, target="levelzero", signature=sig, fallback=False)
    [spec] = jf._compiled.values()
    return spec.artifact


def test_initialisation_picks_the_device_from_the_environment(fake, monkeypatch):
    fake.configure(devices=3)
    monkeypatch.setenv("HANAJIT_LEVELZERO_DEVICE", "2")
    d = ze_driver.ZeDriver()
    assert d.name == "Fake Intel GPU 2" and d.count == 3
    assert "device 2 of 3" in d.describe()
    log = fake.log()
    assert log[:4] == ["zeInit(0)", "zeDriverGet(count)", "zeDriverGet(handles)",
                       "zeDeviceGet(count)"]
    assert "zeDeviceGetProperties(device 2, stype 0x3)" in log
    assert "zeContextCreate(stype 0xd)" in log
    assert "zeCommandQueueCreate(stype 0xe, mode 2)" in log
    monkeypatch.setenv("HANAJIT_LEVELZERO_DEVICE", "3")
    with pytest.raises(TargetError, match="HANAJIT_LEVELZERO_DEVICE=3.*3 device"):
        ze_driver.ZeDriver()


def test_no_device_and_failed_init_are_target_errors(fake):
    fake.configure(devices=0)
    with pytest.raises(TargetError, match="no driver with a device"):
        ze_driver.ZeDriver()
    fake.configure(init_fails=True)
    with pytest.raises(ze_driver.ZeError, match="zeInit failed: "
                       "ZE_RESULT_ERROR_UNINITIALIZED"):
        ze_driver.ZeDriver()


def test_memory_copies_run_on_the_queue(fake):
    d = ze_driver.ZeDriver()
    a = np.arange(10, dtype=np.float64)
    p = d.alloc(a.nbytes)
    d.htod(p, a.ctypes.data, a.nbytes)
    back = np.zeros_like(a)
    d.dtoh(back.ctypes.data, p, a.nbytes)
    assert (back == a).all()
    d.memset(p, a.nbytes)
    d.dtoh(back.ctypes.data, p, a.nbytes)
    assert (back == 0).all()
    d.free(p)
    log = fake.log()
    assert "zeMemAllocDevice(stype 0x15, size 80, alignment 64)" in log
    assert log.count("zeCommandListAppendMemoryCopy(size 80)") == 3
    assert "zeCommandListAppendMemoryFill(pattern 0 of 1 byte(s), size 80)" in log
    # each list: appended, a barrier, closed, executed, waited for, destroyed
    i = log.index("zeCommandListAppendMemoryCopy(size 80)")
    assert log[i + 1:i + 6] == ["zeCommandListAppendBarrier()", "zeCommandListClose()",
                                "zeCommandQueueExecuteCommandLists(1)",
                                "zeCommandQueueSynchronize(forever)",
                                "zeCommandListDestroy()"]


def test_module_kernel_and_argument_slots(fake):
    d = ze_driver.ZeDriver()
    art = artifact("saxpy")
    k = d.load(art)
    log = fake.log()
    [create] = [line for line in log if line.startswith("zeModuleCreate")]
    size = len(art.stages["spirv"])
    assert create == (f"zeModuleCreate(stype 0x1b, format 0, {size} "
                      "bytes, magic 0x07230203, flags "
                      "'-cl-fp32-correctly-rounded-divide-sqrt')")
    assert "zeKernelCreate(stype 0x1d, hj_kernel)" in log
    params = Params(9)
    params.values[:] = [0x1000, 0x2000, 10, 8, 0x3000, 10, 8,
                        struct.unpack("<Q", struct.pack("<d", 2.5))[0], 10]
    slots = params.values
    d.launch(k, (3, 2, 1), (64, 1, 1), None, params)
    assert fake.launches == []                     # not before synchronize
    assert "zeKernelSetGroupSize(64, 1, 1)" in fake.log()
    assert "zeCommandListAppendLaunchKernel(hj_kernel, groups 3x2x1)" in fake.log()
    slots[7] = 0                                    # captured at append time
    d.synchronize()
    [(name, grid, block, args)] = fake.launches
    assert (name, grid, block) == ("hj_kernel", (3, 2, 1), (64, 1, 1))
    assert args[:7] == [0x1000, 0x2000, 10, 8, 0x3000, 10, 8] and args[8] == 10
    assert struct.unpack("<d", struct.pack("<Q", args[7]))[0] == 2.5
    p = d.alloc(8)
    d.launch(k, (1, 1, 1), (1, 1, 1), None, params)
    fake.lib.fake_clear()
    d.free(p)                      # waits for the queued launch first
    assert fake.log() == ["zeCommandQueueSynchronize(forever)",
                          "zeCommandListDestroy()", "zeMemFree()"]


def test_a_failed_build_names_the_log(fake):
    fake.configure(build_fails=True)
    d = ze_driver.ZeDriver()
    with pytest.raises(ze_driver.ZeError, match="MODULE_BUILD_FAILURE.*fake build "
                       "failure"):
        d.load(artifact("saxpy"))
    assert "zeModuleBuildLogDestroy()" in fake.log()


def test_a_device_without_fp64_refuses_float64_kernels(fake):
    fake.configure(flags=0x4)                       # int64 atomics, no fp64
    d = ze_driver.ZeDriver()
    with pytest.raises(UnsupportedError, match="no float64 .capability Float64"):
        d.load(artifact("saxpy"))
    d.load(artifact("square32"))                    # float32 only: builds
    fake.configure(flags=0x2)
    with pytest.raises(UnsupportedError, match="no int64 atomics"):
        ze_driver.ZeDriver().load(artifact("raises"))   # the error record's CAS


def test_the_real_loader_without_a_driver_is_a_target_error(monkeypatch):
    monkeypatch.delenv("HANAJIT_LEVELZERO_LOADER", raising=False)
    try:
        lib = ze_driver.load_library()
    except OSError:
        pytest.skip("libze_loader.so.1 not installed (apt-get install libze1)")
    if lib.zeInit(0) == 0:
        pytest.skip("a Level Zero driver is installed here")
    with pytest.raises(ze_driver.ZeError, match="zeInit failed"):
        ze_driver.ZeDriver(lib)


class Report:
    def __init__(self):
        self.checks = {}

    def check(self, name, ok, detail=""):
        self.checks[name] = (ok, detail)


def test_doctor_names_the_loader_driver_and_devices(fake, monkeypatch):
    from hanajit_levelzero import doctor
    fake.configure(devices=2)
    monkeypatch.setenv("HANAJIT_LEVELZERO_DEVICE", "1")
    report = Report()
    doctor.run_checks(report)
    ok, detail = report.checks["levelzero: Level Zero loader, drivers and devices"]
    assert ok is True and "2 device(s); using Fake Intel GPU 1" in detail
    assert report.checks["levelzero: compile a kernel to SPIR-V"][0] is True
    # the probe launch runs in a child process, where the fake loader has its
    # default configuration (one device) and runs no kernel: a failed check
    # with the reason
    ok, detail = report.checks[PROBE]
    assert ok is False and "HANAJIT_LEVELZERO_DEVICE=1" in detail
    fake.configure(devices=0)
    report = Report()
    doctor.run_checks(report)
    ok, detail = report.checks["levelzero: Level Zero loader, drivers and devices"]
    assert ok is None and "no driver with a device" in detail
    assert "compiling still works" in detail
    assert PROBE not in report.checks


def test_doctor_probe_launch_on_the_opencl_route(monkeypatch):
    from hanajit_levelzero import doctor
    monkeypatch.setenv("HANAJIT_LEVELZERO_RUNTIME", "opencl")
    report = Report()
    doctor.run_checks(report)
    if not report.checks["levelzero: OpenCL route (pyopencl, llvm-spirv-15, devices)"][0]:
        pytest.skip("no OpenCL device (PoCL), pyopencl or llvm-spirv-15")
    ok, detail = report.checks[PROBE]
    assert ok is True and "equal NumPy's" in detail
