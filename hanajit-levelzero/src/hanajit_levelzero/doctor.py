"""``hanajit doctor`` checks of the levelzero target: compiling to SPIR-V (and
``spirv-val``), the Level Zero loader with its drivers and devices, and the OpenCL
route (pyopencl, ``llvm-spirv-15``, OpenCL devices)."""
from __future__ import annotations

import importlib.util

from hanajit.doctor_probe import check_launch

from . import opencl_route, runtime, spirv_tools


def run_checks(report) -> None:
    spirv = _probe_compile(report)
    if spirv is not None:
        ok, detail = spirv_tools.validate(spirv, env="spv1.4")
        report.check("levelzero: spirv-val (optional: validates SPIR-V offline)",
                     ok, detail or "the probe kernel is valid SPIR-V 1.4")
    selected = _runtime(report)
    usable = {"levelzero": _loader(report), "opencl": _opencl(report, selected == "opencl")}
    if usable.get(selected):
        check_launch(report, "levelzero")


def _probe_compile(report):
    try:
        from hanajit import jit
        from hanajit.doctor_probe import SIGNATURES, hj_probe

        from .target import LevelZeroTarget

        module = jit(hj_probe, target="levelzero", fallback=False).ir_module(
            SIGNATURES["f64"])
        spv = LevelZeroTarget().compile(module, {}).stages["spirv"]
        report.check("levelzero: compile a kernel to SPIR-V", True,
                     f"{len(spv)} bytes of OpenCL-flavoured SPIR-V")
        return spv
    except Exception as exc:             # noqa: BLE001 - reported, not raised
        report.check("levelzero: compile a kernel to SPIR-V", False,
                     f"{type(exc).__name__}: {exc}")
        return None


def _runtime(report) -> str | None:
    try:
        selected = runtime.runtime()
    except Exception as exc:             # noqa: BLE001 - reported, not raised
        report.check("levelzero: runtime (HANAJIT_LEVELZERO_RUNTIME)", False, str(exc))
        return None
    report.check("levelzero: runtime (HANAJIT_LEVELZERO_RUNTIME)", True,
                 selected + (" (the OpenCL route)" if selected == "opencl" else ""))
    return selected


def _loader(report) -> bool:
    """The loader library, then the drivers and devices it finds (their absence
    is not a failure: compiling works without them)."""
    from . import ze_driver
    name = "levelzero: Level Zero loader, drivers and devices"
    try:
        lib = ze_driver.load_library()
    except OSError as exc:
        report.check(name, None, f"{ze_driver.LOADER} not loadable ({exc}); install "
                     "libze1 and Intel's compute runtime to launch")
        return False
    try:
        d = ze_driver.ZeDriver(lib)
    except Exception as exc:     # noqa: BLE001 - no driver, no device, zeInit failing
        report.check(name, None, f"loader {getattr(lib, '_name', ze_driver.LOADER)} "
                     f"loaded; {exc}; compiling still works")
        return False
    report.check(name, True, f"{d.count} device(s); using {d.describe()}; "
                 f"fp64 {'yes' if d.module_flags & 2 else 'no'}")
    return True


def _opencl(report, selected: bool) -> bool:
    name = "levelzero: OpenCL route (pyopencl, llvm-spirv-15, devices)"
    missing = []
    if importlib.util.find_spec("pyopencl") is None:
        missing.append("pyopencl (pip install 'hanajit-levelzero[opencl]')")
    if opencl_route.translator() is None:
        missing.append("llvm-spirv-15 (apt-get install llvm-spirv-15)")
    if missing:
        report.check(name, False if selected else None,
                     "missing: " + ", ".join(missing))
        return False
    try:
        from .opencl_driver import OpenCLDriver
        d = OpenCLDriver()
    except Exception as exc:             # noqa: BLE001 - reported, not raised
        report.check(name, False if selected else None, f"{type(exc).__name__}: {exc}")
        return False
    report.check(name, True, d.describe()
                 + ("" if selected
                    else "; set HANAJIT_LEVELZERO_RUNTIME=opencl to use it"))
    return True
