"""GPU kernel codegen in a child process, for any kernel-model row.

``python -m hanajit.toolkit.kernel_emit`` reads ``{"ir", "triple", "cpu",
"features", "llvm_options", "emit", "optimise", "pre_emit", "post_emit"}`` as JSON on stdin,
sets the LLVM options (``--spirv-ext=...``), optimises at O3 for the target
machine (or only inlines, for a row whose ``optimise`` is ``"inline"``), applies
the row's ``pre_emit`` fixes to the optimised IR and its
``post_emit`` fixes to the object (``spirv_patch``) and writes
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
    pre = request.get("pre_emit") or ()
    if request.get("optimise") == "inline":
        out = {"llvm": _inline_only(llvm, tm, request["ir"])}
    else:
        out = llvm_toolchain.compile(request["ir"], tm,
                                     emit=() if pre else tuple(request["emit"]))
    if pre:
        from .spirv_patch import apply_text
        out["llvm"] = apply_text(out["llvm"], pre)
        out.update(_emit_only(llvm, tm, out["llvm"], request["emit"]))
    if "obj" in out and request.get("post_emit"):
        from .spirv_patch import apply
        out["obj"] = apply(out["obj"], request["post_emit"])
    if "obj" in out:
        out["obj"] = base64.b64encode(out["obj"]).decode("ascii")
    return out


def _inline_only(llvm, tm, text: str) -> str:
    """The light pipeline of a row with ``optimise == "inline"``: always-inline,
    SROA, instcombine, SCCP, instcombine again, global DCE.  No CFG simplification: LLVM 22's SPIR-V
    structuriser gives invalid structured control flow (or asserts) on the
    merged exits O3 makes; the driver's compiler optimises the shader anyway."""
    from .llvm_toolchain import LOCK
    with LOCK:
        mod = llvm.parse_assembly(text)
        try:
            mod.triple = tm.triple
            mod.data_layout = str(tm.target_data)
            mod.verify()
            pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(
                speed_level=0))
            mpm = llvm.create_new_module_pass_manager()
            mpm.add_always_inliner_pass()
            mpm.add_sroa_pass()
            mpm.add_instruction_combine_pass()
            mpm.add_sccp_pass()             # folds the constant branches inlining left
            # the insertvalue/extractvalue chains of inlined tuple results that
            # those branches separated: the SPIR-V backend aborts on aggregate
            # values with a constant field ("Unexpected integer constant pattern")
            mpm.add_instruction_combine_pass()
            mpm.add_global_dead_code_eliminate_pass()
            mpm.run(mod, pb)
            return str(mod)
        finally:
            mod.close()


def _emit_only(llvm, tm, text: str, kinds) -> dict:
    """Emit already optimised IR ``text`` (after the row's ``pre_emit`` fixes)."""
    from .llvm_toolchain import LOCK
    out = {}
    with LOCK:
        for kind in kinds:
            mod = llvm.parse_assembly(text)
            try:
                mod.verify()
                out[kind] = tm.emit_object(mod) if kind == "obj" else tm.emit_assembly(mod)
            finally:
                mod.close()
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
         "llvm_options": list(model.llvm_options), "emit": list(emit),
         "optimise": model.optimise, "pre_emit": list(model.pre_emit),
         "post_emit": list(model.post_emit)},
        what=f"{model.name} codegen{' for ' + cpu if cpu else ''}", timeout=timeout,
        error=lambda msg: UnsupportedError(msg, construct=f"{model.name} codegen"),
        fork_server=True)
    if "obj" in out:
        out["obj"] = base64.b64decode(out["obj"])
    return out


if __name__ == "__main__":
    json.dump(emit(json.load(sys.stdin)), sys.stdout)
