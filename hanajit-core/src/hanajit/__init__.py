"""hanajit: a JIT compiler for numeric Python on LLVM.

``import hanajit`` stays cheap: LLVM and the compiler load on the first compilation.
"""
from __future__ import annotations

import pluggy

from ._version import __version__
from .errors import (
    HanaJitError,
    HanaJitFallbackWarning,
    HanaJitPluginWarning,
    TargetError,
    UnsupportedError,
)

hookimpl = pluggy.HookimplMarker("hanajit")

__all__ = [
    "__version__", "jit", "prange", "hookimpl", "HanaJitError",
    "HanaJitFallbackWarning", "HanaJitPluginWarning", "TargetError",
    "UnsupportedError",
]


def __getattr__(name):
    if name in ("jit", "prange"):
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'hanajit' has no attribute {name!r}")
