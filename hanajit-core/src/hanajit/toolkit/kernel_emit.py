"""GPU kernel codegen in a child process, for any kernel-model row.

``python -m hanajit.toolkit.kernel_emit`` reads ``{"ir", "triple", "cpu",
"features", "llvm_options", "emit"}`` as JSON on stdin, sets the LLVM options
(``--spirv-ext=...``), optimises at O3 for the target machine and writes
``{"llvm": optimised IR, "asm": text, "obj": base64}`` (the kinds asked for) as
JSON on stdout.  :func:`emit_kernel` runs it through ``run_isolated``, so an LLVM
abort becomes an error instead of ending the caller (``../shared/notes``: the
SPIR-V and AMDGPU backends abort on some input).
"""
from __future__ import annotations

import base64
import json
import sys


def emit(request: dict) -> dict:
    from . import llvm_toolchain
    llvm = llvm_toolchain.binding(all_targets=True)
    for option in request.get("llvm_options") or ():
        llvm.set_option("", option)
    tm = llvm_toolchain.target_machine(request["triple"], cpu=request.get("cpu") or "",
                                       features=request.get("features") or "")
    out = llvm_toolchain.compile(request["ir"], tm, emit=tuple(request["emit"]))
    if "obj" in out:
        out["obj"] = base64.b64encode(out["obj"]).decode("ascii")
    return out


def emit_kernel(ir_text: str, model, cpu: str | None = None, emit=("obj",),
                timeout: float = 300) -> dict:
    """Optimise ``ir_text`` (lowered for ``model``, a ``KernelModel``) and emit it
    for ``cpu`` (default: the row's) in a child process.  Returns ``"llvm"`` and
    the kinds in ``emit`` (``"obj"`` as bytes); an LLVM crash raises
    UnsupportedError naming the row."""
    from ..errors import UnsupportedError
    from . import llvm_toolchain
    cpu = model.cpu if cpu is None else cpu
    out = llvm_toolchain.run_isolated(
        "hanajit.toolkit.kernel_emit",
        {"ir": ir_text, "triple": model.triple, "cpu": cpu, "features": model.features,
         "llvm_options": list(model.llvm_options), "emit": list(emit)},
        what=f"{model.name} codegen{' for ' + cpu if cpu else ''}", timeout=timeout,
        error=lambda msg: UnsupportedError(msg, construct=f"{model.name} codegen"))
    if "obj" in out:
        out["obj"] = base64.b64decode(out["obj"])
    return out


if __name__ == "__main__":
    json.dump(emit(json.load(sys.stdin)), sys.stdout)
