"""``hanajit doctor`` checks of the vulkan target: what compiling, validating and
launching need."""
from __future__ import annotations

import importlib.util

from hanajit.errors import TargetError
from hanajit.doctor_probe import check_launch, probe_kernel

from . import tools


def run_checks(report) -> None:
    report.check("vulkan: compile a kernel to SPIR-V", *_probe_compile())
    for tool in ("spirv-val", "spirv-dis"):
        path = tools.find(tool)
        report.check(f"vulkan: {tool} (optional: validates / shows SPIR-V)",
                     True if path else None,
                     path or "not found (Debian: spirv-tools)")
    if importlib.util.find_spec("vulkan") is None:
        report.check("vulkan: the vulkan package (needed to launch)", None,
                     "not installed: pip install 'hanajit-vulkan[launch]'")
        return
    try:
        from .runtime import get_runtime
        rt = get_runtime()
    except TargetError as exc:           # no loader or no device: launch unavailable
        report.check("vulkan: loader and device", None, f"{exc}; compiling still works")
        return
    except Exception as exc:
        report.check("vulkan: loader and device", False, f"{type(exc).__name__}: {exc}")
        return
    report.check("vulkan: loader and device", True,
                 f"{rt.device_name}; workgroups up to {rt.max_invocations} "
                 f"invocations; float atomics: {', '.join(rt.extensions) or 'none'}")
    check_launch(report, "vulkan")


def _probe_compile():
    try:
        asm = probe_kernel("vulkan").inspect_gpu()
        if tools.find("spirv-val") and tools.find("spirv-as"):
            ok, msg = tools.validate(tools.assemble(asm))
            return ok, "spirv-val passed" if ok else msg
        return True, "compiled"
    except Exception as exc:
        return False, f"{type(exc).__name__}: {exc}"
