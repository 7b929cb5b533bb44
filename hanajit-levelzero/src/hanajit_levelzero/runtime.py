"""Which runtime launches the target's kernels: Level Zero (the default) or the
OpenCL route (``HANAJIT_LEVELZERO_RUNTIME=opencl``), and whether it is usable here."""
from __future__ import annotations

import os

RUNTIMES = ("levelzero", "opencl")


def runtime() -> str:
    """``HANAJIT_LEVELZERO_RUNTIME``: ``levelzero`` (default) or ``opencl``."""
    value = os.environ.get("HANAJIT_LEVELZERO_RUNTIME", "").strip().lower()
    value = value or "levelzero"
    if value not in RUNTIMES:
        from hanajit.errors import TargetError
        raise TargetError(f"HANAJIT_LEVELZERO_RUNTIME={value!r}: use one of "
                          f"{', '.join(RUNTIMES)}")
    return value


def get_driver():
    """The driver of the selected runtime (TargetError when it cannot run here)."""
    if runtime() == "opencl":
        from .opencl_driver import get_driver as get
    else:
        from .ze_driver import get_driver as get
    return get()


def probe() -> tuple[bool, str]:
    """``Target.status()``: can kernels be launched here, and on what."""
    try:
        d = get_driver()
    except Exception as exc:            # noqa: BLE001 - no driver, no device ...
        return False, f"cannot launch: {exc}"
    return True, d.describe()
