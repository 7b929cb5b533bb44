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
    "__version__", "jit", "prange", "pmap", "set_num_threads", "get_num_threads",
    "hookimpl", "HanaJitError",
    "HanaJitFallbackWarning", "HanaJitPluginWarning", "TargetError",
    "UnsupportedError",
]


def __getattr__(name):
    if name == "jit":
        from .api import jit
        return jit
    if name == "prange":
        from .loops import prange
        return prange
    if name in ("set_num_threads", "get_num_threads"):
        from . import thread_count
        return getattr(thread_count, name)
    if name == "pmap":
        from .parallel_map import pmap
        return pmap
    raise AttributeError(f"module 'hanajit' has no attribute {name!r}")
