"""The PyObjC driver against a fake ``Metal`` module whose GPU is the C++
simulation: buffers with offsets, float scalars as float32 bytes, threadgroup
memory, one pipeline per kernel source, kernels in flight until synchronize."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit
from hanajit.launch.launcher import Launcher
from hanajit.testing.sourcefile import load_sibling
from hanajit_metal import pyobjc_driver, sim

fake = load_sibling(__file__, "fake_metal.py", "hanajit_metal_fake_metal")
mk = load_sibling(__file__, "metal_kernels.py", "hanajit_metal_test_kernels")

pytestmark = pytest.mark.skipif(sim.find_compiler() is None, reason="no g++")


@pytest.fixture
def launcher():
    fake.calls.clear()
    return Launcher(pyobjc_driver.MetalDriver(fake))


def artifact(func, sig, **options):
    f = jit(func, target="metal", fallback=False, signature=sig, **options)
    return f._pick(None).artifact


def test_views_scalars_and_shared_memory(launcher):
    def axpy(y, x, a, n):
        i = block_id() * block_dim() + thread_id()  # noqa: F821
        if i < n:
            y[i] = a * x[i] + y[i]
    art = artifact(axpy, "f32[:], f32[:], f32, i64")
    base = np.arange(40, dtype=np.float32)
    y = np.ones(20, np.float32)
    launcher.launch(art, (y, base[::2], np.float32(0.5), 20), grid=1, block=32)
    assert np.array_equal(y, np.float32(0.5) * base[::2] + 1)
    assert ("mathMode", fake.MTLMathModeSafe) in fake.calls
    art2 = artifact(mk.tree_sum, "f32[:], f32[:], i64")
    out = np.zeros(2, np.float32)
    x = np.ones(100, np.float32)
    launcher.launch(art2, (out, x, 100), grid=2, block=64)
    assert out.tolist() == [64.0, 36.0]
    launcher.launch(art2, (out, x, 10), grid=2, block=64)
    assert out.tolist() == [10.0, 0.0]
    assert sum(c[0] == "library" for c in fake.calls) == 2       # one per source


def test_device_arrays_wait_for_synchronize(launcher):
    art = artifact(mk.histogram, "i32[:], i64[:], i64")
    counts = launcher.to_device(np.zeros(8, np.int32))
    x = launcher.to_device(np.arange(64, dtype=np.int64))
    launcher.launch(art, (counts, x, 64), grid=2, block=32, sync=False)
    launcher.launch(art, (counts, x, 64), grid=2, block=32, sync=False)
    launcher.synchronize()
    assert counts.to_host().tolist() == [16] * 8


def test_raise_and_demoted_float64(launcher):
    art = artifact(mk.out_of_bounds, "f32[:], i64")
    with pytest.raises(IndexError, match=r"index 1[2-5] is out of bounds for axis 0 with size 12"):
        launcher.launch(art, (np.zeros(12, np.float32), 12), grid=1, block=4)

    def scale(out, x, n):
        i = thread_id()  # noqa: F821
        if i < n:
            out[i] = x[i] * 0.1
    with pytest.warns(Warning):
        art = artifact(scale, "f64[:], f64[:], i64", metal_float64="demote")
    x = np.linspace(-3, 3, 16)
    out = np.zeros(16)
    launcher.launch(art, (out, x, 16), grid=1, block=16)
    assert np.array_equal(out, (x.astype(np.float32) * np.float32(0.1)).astype(float))


def test_doctor_and_driver_choice(monkeypatch):
    from hanajit.doctor import Report
    from hanajit.errors import TargetError
    from hanajit_metal import drivers
    from hanajit_metal.target import MetalTarget
    monkeypatch.setenv("HANAJIT_METAL_DRIVER", "sim")
    assert MetalTarget().status() == (True, "the Metal simulation (g++)")
    report = Report()
    MetalTarget().doctor(report)
    checks = {c.name: c for g in report.groups.values() for c in g.checks}
    assert checks["metal: print a kernel as MSL"].ok
    assert checks["metal: g++ for the Metal simulation (launch without a Mac)"].ok
    probe = checks["metal: probe launch (saxpy on the device, in a child process)"]
    assert probe.ok and "the Metal simulation (g++) equal NumPy's" in probe.detail
    monkeypatch.setenv("HANAJIT_METAL_DRIVER", "vulkan")
    with pytest.raises(TargetError, match="HANAJIT_METAL_DRIVER"):
        drivers.choice()
    monkeypatch.setenv("HANAJIT_METAL_DRIVER", "metal")
    monkeypatch.setitem(__import__("sys").modules, "Metal", None)   # not installed
    ok, reason = MetalTarget().status()
    assert not ok and "pyobjc-framework-Metal" in reason
