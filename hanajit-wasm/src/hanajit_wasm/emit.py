"""LLVM wasm code generation, run in a child process (``python -m hanajit_wasm.emit``).

An LLVM fatal error or assertion in the wasm backend ends the process it runs in
(the toolchain notes: some call ``exit(1)``, the llvmlite wheel aborts on failed
assertions), so the exporter never runs it in the user's interpreter: this module
reads a JSON request on stdin -- ``{"ir", "triple", "dir", "want": ["ll", "s",
"o"], "link": [more IR texts]}`` -- links the extra modules in, optimises the
module, and writes ``kernel.ll``, ``kernel.s`` and ``kernel.o`` into ``dir``.
Each emission starts from a fresh parse of the bitcode because emitting changes
the module.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile

from hanajit.errors import TargetError

CPU = "generic"       # LLVM 22: sign-ext, nontrapping-fptoint, multivalue, bulk-memory...


def emit(request: dict) -> None:
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    tm = llvm.Target.from_triple(request["triple"]).create_target_machine(
        cpu=request.get("cpu", CPU), opt=3)
    mod = llvm.parse_assembly(request["ir"])
    for extra in request.get("link", ()):         # runtime modules (heap, NRT)
        other = llvm.parse_assembly(extra)
        other.triple = request["triple"]
        other.data_layout = str(tm.target_data)
        mod.link_in(other)
    mod.triple = request["triple"]
    mod.data_layout = str(tm.target_data)
    mod.verify()
    pb = llvm.create_pass_builder(tm, llvm.create_pipeline_tuning_options(speed_level=3))
    pb.getModulePassManager().run(mod, pb)
    bitcode = mod.as_bitcode()
    out = request["dir"]
    want = request.get("want", ["ll", "s", "o"])
    if "ll" in want:
        with open(os.path.join(out, "kernel.ll"), "w", encoding="utf-8") as f:
            f.write(str(mod))
    if "s" in want:
        with open(os.path.join(out, "kernel.s"), "w", encoding="utf-8") as f:
            f.write(tm.emit_assembly(llvm.parse_bitcode(bitcode)))
    if "o" in want:
        with open(os.path.join(out, "kernel.o"), "wb") as f:
            f.write(tm.emit_object(llvm.parse_bitcode(bitcode)))


def emit_in_subprocess(ir_text: str, triple: str, want=("ll", "s", "o"),
                       timeout: float = 120, link=()) -> dict:
    """Run :func:`emit` in a child Python; return ``{"ll": str, "s": str, "o":
    bytes}`` for what was asked.  A crash or an LLVM error is a TargetError."""
    with tempfile.TemporaryDirectory(prefix="hanajit-wasm-") as tmp:
        request = {"ir": ir_text, "triple": triple, "dir": tmp, "want": list(want),
                   "link": list(link)}
        try:
            proc = subprocess.run([sys.executable, "-m", "hanajit_wasm.emit"],
                                  input=json.dumps(request), capture_output=True,
                                  text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise TargetError(f"LLVM wasm codegen for {triple} took over {timeout} s")
        if proc.returncode != 0:
            how = (f"was killed by {signal.Signals(-proc.returncode).name}"
                   if proc.returncode < 0 else f"exited with status {proc.returncode}")
            tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
            raise TargetError(f"LLVM wasm codegen for {triple} {how}:\n{tail}")
        out = {}
        for kind in want:
            path = os.path.join(tmp, f"kernel.{kind}")
            if kind == "o":
                with open(path, "rb") as f:
                    out[kind] = f.read()
            else:
                with open(path, encoding="utf-8") as f:
                    out[kind] = f.read()
        return out


if __name__ == "__main__":
    emit(json.load(sys.stdin))
