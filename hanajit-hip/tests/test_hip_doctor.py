"""``hanajit doctor``'s hip section: ld.lld, the device libraries, LLVM's readers,
a probe compile for every architecture, libamdhip64 and its devices (the fake
runtime of ``fake_libamdhip64.py`` standing in for ROCm)."""
from __future__ import annotations

import pytest
from hanajit.doctor import Report
from hanajit.testing.sourcefile import load_sibling
from hanajit_hip import driver, toolchain
from hanajit_hip.doctor import run_checks

PROBE = "hip: probe launch (saxpy on the device, in a child process)"
FAKE = load_sibling(__file__, "fake_libamdhip64.py", "hanajit_hip_fake_runtime")


def checks(monkeypatch, **env):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setattr(driver, "_driver", None)
    report = Report()
    run_checks(report)
    return {c.name: (c.ok, c.detail) for g in report.groups.values() for c in g.checks}


@pytest.mark.skipif(toolchain.find_lld() is None, reason="ld.lld 15+ not found")
def test_doctor_without_runtime(monkeypatch):
    got = checks(monkeypatch, HANAJIT_HIP_LIBRARY="/nonexistent/libamdhip64.so",
                 HANAJIT_HIP_ARCH="gfx90a,gfx1100")
    assert got["hip: ld.lld (links code objects; needed to compile)"][0] is True
    ok, detail = got["hip: compile a kernel for gfx90a, gfx1100"]
    assert ok is True and "gfx90a: " in detail and "gfx1100: " in detail
    ok, detail = got["hip: libamdhip64 (needed to launch)"]
    assert ok is None and "HANAJIT_HIP_LIBRARY" in detail
    assert "hip: devices" not in got


def test_doctor_with_fake_runtime(monkeypatch, tmp_path):
    lib = FAKE.build(tmp_path)
    got = checks(monkeypatch, HANAJIT_HIP_LIBRARY=str(lib), HANAJIT_HIP_ARCH="gfx1100")
    assert got["hip: libamdhip64 (needed to launch)"] == (True, str(lib))
    ok, detail = got["hip: devices"]
    assert ok is True and "2 device(s); using Fake AMD GPU 0 (gfx90a" in detail
    assert "not among the compiled architectures gfx1100" in detail
    assert PROBE not in got                        # not launchable there
    got = checks(monkeypatch, HANAJIT_HIP_LIBRARY=str(lib), HANAJIT_HIP_ARCH="gfx90a")
    # the child process loads the fake runtime too, which runs no kernel: the
    # launch happens and the unchanged result is reported as wrong
    ok, detail = got[PROBE]
    assert ok is False and "launched on Fake AMD GPU 0" in detail
    assert "y[1] is 998.0, not 1000.0" in detail
    FAKE.Fake(lib).mode(1)                         # no device
    got = checks(monkeypatch, HANAJIT_HIP_LIBRARY=str(lib))
    ok, detail = got["hip: devices"]
    assert ok is None and "hipErrorNoDevice" in detail


def test_bad_arch_is_reported(monkeypatch):
    got = checks(monkeypatch, HANAJIT_HIP_ARCH="sm_80")
    assert got["hip: architectures (gpu_arch / HANAJIT_HIP_ARCH)"][0] is False
