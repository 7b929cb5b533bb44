"""LLVM wasm code generation, run in a child process (``python -m hanajit_wasm.emit``).

An LLVM fatal error or assertion in the wasm backend ends the process it runs in
(the toolchain notes: some call ``exit(1)``, the llvmlite wheel aborts on failed
assertions), so the exporter never runs it in the user's interpreter: this module
reads a JSON request on stdin -- ``{"ir", "triple", "dir", "want": ["ll", "s",
"o"], "link": [more IR texts]}`` -- links the extra modules in, optimises the
module, links in the compiler-runtime helpers its code calls
(:mod:`hanajit_wasm.compiler_rt`: the backend lowers 128-bit arithmetic that loop
optimisations create to ``__multi3`` and kin) and writes ``kernel.ll``, ``kernel.s`` and ``kernel.o`` into ``dir``
(``hanajit.toolkit.llvm_toolchain``: each emission from a fresh parse).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile

from hanajit.errors import TargetError
from hanajit.toolkit import llvm_toolchain

from . import compiler_rt

CPU = "generic"       # LLVM 22: sign-ext, nontrapping-fptoint, multivalue, bulk-memory...


def emit(request: dict) -> dict:
    tm = llvm_toolchain.target_machine(request["triple"], cpu=request.get("cpu", CPU))
    want = request.get("want", ["ll", "s", "o"])
    kinds = {"s": "asm", "o": "obj"}
    link = list(request.get("link", ()))
    emit_kinds = [kinds[k] for k in want if k in kinds]
    out = llvm_toolchain.compile(request["ir"], tm, link=link,
                                 emit=sorted(set(emit_kinds) | {"asm"}))
    helpers = compiler_rt.referenced(out["asm"])
    if helpers:            # again, with the helpers defined (64-bit code only)
        out = llvm_toolchain.compile(request["ir"], tm,
                                     link=link + [compiler_rt.helper_ir(helpers)],
                                     emit=emit_kinds)
    written = {}
    for kind in want:
        value = out["llvm"] if kind == "ll" else out[kinds[kind]]
        path = os.path.join(request["dir"], f"kernel.{kind}")
        with open(path, "wb" if kind == "o" else "w",
                  **({} if kind == "o" else {"encoding": "utf-8"})) as f:
            f.write(value)
        written[kind] = path
    return written


def emit_in_subprocess(ir_text: str, triple: str, want=("ll", "s", "o"),
                       timeout: float = 120, link=()) -> dict:
    """Run :func:`emit` in a child Python; return ``{"ll": str, "s": str, "o":
    bytes}`` for what was asked.  A crash or an LLVM error is a TargetError."""
    with tempfile.TemporaryDirectory(prefix="hanajit-wasm-") as tmp:
        request = {"ir": ir_text, "triple": triple, "dir": tmp, "want": list(want),
                   "link": list(link)}
        llvm_toolchain.run_isolated("hanajit_wasm.emit", request,
                                    what=f"LLVM wasm codegen for {triple}",
                                    timeout=timeout, error=TargetError, fork_server=True)
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
    json.dump(emit(json.load(sys.stdin)), sys.stdout)
