"""``hanajit doctor`` checks of the cuda target: what compiling and launching need."""
from __future__ import annotations

import importlib.util
import subprocess

from hanajit.errors import TargetError
from hanajit.doctor_probe import check_launch, probe_kernel

from . import toolchain


def run_checks(report) -> None:
    arch = toolchain.gpu_arch()
    libdevice = toolchain.find_libdevice()
    report.check("cuda: libdevice (exp, log, sin, pow ... in kernels)",
                 libdevice is not None or None, libdevice or toolchain.LIBDEVICE_HELP)
    ptxas = toolchain.find_ptxas()
    if ptxas is None:
        report.check("cuda: ptxas (optional: validates PTX offline)", None,
                     "not found; the driver compiles PTX itself at launch")
    else:
        try:
            out = subprocess.run([ptxas, "--version"], capture_output=True, text=True,
                                 timeout=30).stdout.strip().splitlines()
            report.check("cuda: ptxas (optional: validates PTX offline)", True,
                         f"{ptxas}: {out[-1] if out else '?'}")
        except Exception as exc:
            report.check("cuda: ptxas (optional: validates PTX offline)", False,
                         repr(exc))
    report.check(f"cuda: compile a kernel to PTX for {arch}", *_probe_compile())
    if importlib.util.find_spec("cuda") is None or (
            importlib.util.find_spec("cuda.bindings") is None
            and importlib.util.find_spec("cuda.cuda") is None):
        report.check("cuda: cuda-bindings (needed to launch)", None,
                     "not installed: pip install 'hanajit-cuda[launch]' "
                     "(cuda-bindings)")
        return
    report.check("cuda: cuda-bindings (needed to launch)", True, "installed")
    try:
        from .driver import get_driver
        d = get_driver()
    except TargetError as exc:           # no driver or no device: launch unavailable
        report.check("cuda: driver and devices", None, f"{exc}; compiling still works")
        return
    except Exception as exc:
        report.check("cuda: driver and devices", False, f"{type(exc).__name__}: {exc}")
        return
    report.check("cuda: driver and devices", True,
                 f"{d.count} device(s); using {d.name} (sm_{d.capability[0]}"
                 f"{d.capability[1]})")
    check_launch(report, "cuda")


def _probe_compile():
    try:
        ptx = probe_kernel("cuda").inspect_gpu()
        return ".entry hj_kernel" in ptx, f"{len(ptx.splitlines())} lines of PTX"
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
