"""``hanajit doctor`` checks of the metal target: what compiling and launching need."""
from __future__ import annotations

import importlib.util
import sys

from hanajit.doctor_probe import check_launch, probe_kernel

from . import drivers, sim


def run_checks(report) -> None:
    report.check("metal: print a kernel as MSL", *_probe_compile())
    cxx = sim.find_compiler()
    try:
        choice = drivers.choice()
    except Exception as exc:
        report.check("metal: driver", False, str(exc))
        return
    if choice == "sim":
        report.check("metal: g++ for the Metal simulation (launch without a Mac)",
                     cxx is not None or None,
                     f"{cxx}: launches run in a C++ simulation of Metal, not on a GPU"
                     if cxx else "not found: launch unavailable (compiling still works)")
        if cxx:
            check_launch(report, "metal", "f32")
        if sys.platform != "darwin":
            report.check("metal: Metal.framework", None, "not macOS")
        return
    if importlib.util.find_spec("Metal") is None:
        report.check("metal: pyobjc-framework-Metal (needed to launch)", None,
                     "not installed: pip install 'hanajit-metal[launch]'")
        return
    try:
        from .pyobjc_driver import get_driver
        d = get_driver()
    except Exception as exc:
        report.check("metal: device", False, f"{type(exc).__name__}: {exc}")
        return
    report.check("metal: device", True, d.name)
    check_launch(report, "metal", "f32")


def _probe_compile():
    try:
        msl = probe_kernel("metal", "f32").inspect_gpu()
        return "kernel void hj_kernel(" in msl, f"{len(msl.splitlines())} lines of MSL"
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
