"""Typed IR module -> Metal Shading Language (stage ``"msl"``).

Core prints everything: the functions through the C-family emitter in its MSL
dialect, the kernel model and the kernel entry through ``hanajit.toolkit.
c_kernel`` (whose docstring gives the buffer layout the drivers bind).  This
module only chooses the dialect and applies the float64 policy:

* ``metal_float64="refuse"`` (the default): a kernel using float64 anywhere is an
  ``UnsupportedError`` naming the line and the option (Metal has no double);
* ``metal_float64="demote"``: float64 values are computed as float32 -- float64
  arrays must then hold float32 data, which the launcher arranges -- with one
  ``HanaJitMetalWarning`` per function.
"""
from __future__ import annotations

import dataclasses
import warnings

from hanajit.errors import UnsupportedError
from hanajit.ir import nodes as N
from hanajit.lowering.kernel_lower import check_kernel
from hanajit.toolkit.c_dialects import MSL, MSL_DEMOTE_F64
from hanajit.toolkit.c_kernel import emit_kernel_source

FLOAT64_MODES = ("refuse", "demote")
TARGET = "the metal target"
_warned: set = set()


class HanaJitMetalWarning(UserWarning):
    """A Metal kernel computes float64 as float32 (``metal_float64="demote"``)."""


def float64_mode(options) -> str:
    mode = (options or {}).get("metal_float64") or "refuse"
    if mode not in FLOAT64_MODES:
        raise UnsupportedError(f"metal_float64 must be one of {FLOAT64_MODES}, got "
                               f"{mode!r}", construct="metal_float64")
    return mode


def emit_msl(module: N.Module, caps, options=None):
    """The kernel's :class:`~hanajit.toolkit.c_kernel.KernelSource`."""
    mode = float64_mode(options)
    try:
        check_kernel(module, dataclasses.replace(caps, float64=mode == "demote"), TARGET)
    except UnsupportedError as exc:
        if exc.construct != "float64":
            raise
        raise UnsupportedError(f"{exc}; Metal has no double: pass "
                               "metal_float64='demote' to compute it in float32",
                               func=exc.func, line=exc.line,
                               construct="float64") from None
    if mode == "demote":
        try:
            check_kernel(module, caps, TARGET)
        except UnsupportedError as exc:
            if exc.construct != "float64":
                raise
            entry = module.functions[module.entry].pyname
            if entry not in _warned:
                _warned.add(entry)
                warnings.warn(f"{entry}: metal_float64='demote' computes float64 as "
                              "float32 on Metal (results differ from the CPU's)",
                              HanaJitMetalWarning, stacklevel=2)
            return emit_kernel_source(module, MSL_DEMOTE_F64, TARGET)
    return emit_kernel_source(module, MSL, TARGET)


def uses_barrier(module: N.Module) -> bool:
    return any(isinstance(s, N.Barrier) for fn in module.functions.values()
               for s in N.walk_stmts(fn.body))
