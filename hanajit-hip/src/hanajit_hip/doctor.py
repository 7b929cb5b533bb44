"""``hanajit doctor`` checks of the hip target: what compiling, inspecting and
launching need (ld.lld, the device libraries, LLVM's readers, libamdhip64 and
its devices)."""
from __future__ import annotations

import re

from hanajit.errors import TargetError
from hanajit.doctor_probe import check_launch, probe_kernel

from . import toolchain


def run_checks(report) -> None:
    try:
        archs = toolchain.gpu_archs()
    except ValueError as exc:
        report.check("hip: architectures (gpu_arch / HANAJIT_HIP_ARCH)", False,
                     str(exc))
        return
    lld = toolchain.find_lld()
    report.check("hip: ld.lld (links code objects; needed to compile)",
                 lld is not None,
                 f"{lld} (LLVM {toolchain.llvm_version(lld)})" if lld
                 else toolchain.LLD_HELP)
    libs = toolchain.find_device_libs()
    report.check("hip: ROCm device libraries (exp, log, sin, pow ... in kernels)",
                 libs is not None or None, libs or toolchain.DEVICE_LIBS_HELP)
    readers = [t for t in (toolchain.find_readelf(), toolchain.find_objdump()) if t]
    report.check("hip: llvm-readelf, llvm-objdump (optional: inspect_gpu)",
                 len(readers) == 2 or None,
                 ", ".join(readers) if len(readers) == 2
                 else "not found (apt-get install llvm-19); inspect_gpu shows LLVM IR")
    if lld is not None:
        report.check(f"hip: compile a kernel for {', '.join(archs)}", *_probe(archs))
    lib = toolchain.find_libamdhip64()
    if lib is None:
        report.check("hip: libamdhip64 (needed to launch)", None,
                     "not found: install ROCm (or Debian's libamdhip64-5), or set "
                     "HANAJIT_HIP_LIBRARY; compiling still works")
        return
    report.check("hip: libamdhip64 (needed to launch)", True, lib)
    try:
        from .driver import get_driver
        d = get_driver()
    except TargetError as exc:           # no device: launch unavailable
        report.check("hip: devices", None, f"{exc}; compiling still works")
        return
    except Exception as exc:
        report.check("hip: devices", False, f"{type(exc).__name__}: {exc}")
        return
    report.check("hip: devices", True,
                 f"{d.count} device(s); using {d.name} ({d.arch})"
                 + ("" if d.arch.split(":")[0] in archs else
                    f"; not among the compiled architectures {', '.join(archs)}: "
                    "set gpu_arch= or HANAJIT_HIP_ARCH"))
    if d.arch.split(":")[0] in archs:
        check_launch(report, "hip")


def _probe(archs):
    try:
        f = probe_kernel("hip", gpu_arch=",".join(archs))
        heads = re.findall(r"^; AMDGPU code object for (\w+): (\d+) bytes$",
                           f.inspect_gpu(), re.M)
        return ([a for a, _ in heads] == list(archs),
                ", ".join(f"{a}: {n} bytes" for a, n in heads))
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
