"""Which driver launches Metal kernels: Metal.framework through PyObjC on macOS
(``pyobjc_driver``), else the C++ simulation (``sim.driver``).
``HANAJIT_METAL_DRIVER=metal`` or ``=sim`` forces one."""
from __future__ import annotations

import os
import sys

from hanajit.errors import TargetError

CHOICES = ("metal", "sim")


def choice() -> str:
    forced = os.environ.get("HANAJIT_METAL_DRIVER", "").strip().lower()
    if forced:
        if forced not in CHOICES:
            raise TargetError(f"HANAJIT_METAL_DRIVER must be one of {CHOICES}, got "
                              f"{forced!r}")
        return forced
    return "metal" if sys.platform == "darwin" else "sim"


def get_driver():
    if choice() == "metal":
        from .pyobjc_driver import get_driver as metal
        return metal()
    from .sim.driver import get_driver as sim
    return sim()
