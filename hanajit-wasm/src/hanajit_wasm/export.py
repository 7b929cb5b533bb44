"""``f.export_wasm(prefix, sig=None, bits=32)`` and ``f.inspect_wasm()``.

Files, for ``prefix="out/ss"``: ``ss.ll`` (optimised wasm LLVM IR), ``ss.s`` (wasm
assembly), ``ss.o`` (the wasm relocatable object), ``ss.json`` (manifest: export
names, parameter and result types, raise table), ``ss.mjs`` (ES-module loader),
``ss.build.sh`` (the exact link command) and ``ss.wasm`` when a linker is found
(:func:`hanajit_wasm.toolchain.find_linker`: ``HANAJIT_WASM_LD``, then
``HANAJIT_WASM_CLANG``, else ``wasm-ld``/``wasm-ld-19`` ..., else ``clang``/``clang-19``
... on PATH, clang driving the link as ``clang --target=wasm32 -nostdlib -Wl,...``).
Without one the build script picks wasm-ld, else clang, when it runs.
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import NamedTuple

from hanajit.errors import TargetError

from . import toolchain
from .jsloader import generate_loader


class WasmExport(NamedTuple):
    """What ``export_wasm`` wrote; ``wasm`` is None when no linker was found."""

    ll: Path
    s: Path
    mjs: Path
    build: Path
    wasm: Path | None


def _compile(jitfunc, sig, bits):
    from hanajit import plugins
    if bits not in (32, 64):
        raise ValueError(f"bits must be 32 or 64, not {bits!r}")
    module = jitfunc.ir_module(sig)
    target = plugins.get_target("wasm")
    name = getattr(jitfunc, "__name__", None) or module.entry
    return target, target.compile(module, {"bits": bits, "name": name})


def export_wasm(jitfunc, prefix, sig=None, bits: int = 32) -> WasmExport:
    """Exporter ``wasm``: retarget a scalar function to wasm32 (or wasm64) and
    write the files listed in the module docstring."""
    target, artifact = _compile(jitfunc, sig, bits)
    return target.export(artifact, prefix)


def inspect_wasm(jitfunc, sig=None, bits: int = 32) -> tuple[str, bool]:
    """``(text, native)``: the wasm assembly of the function, touching no disk;
    ``native`` is True when LLVM's wasm backend produced it (otherwise ``text`` is
    the retargeted LLVM IR and the reason is appended as a comment)."""
    from .codegen import TRIPLES, export_name, lower_for_wasm, runtime_modules
    from .emit import emit_in_subprocess
    from hanajit.lowering.cabi import check_scalar_signature
    if bits not in (32, 64):
        raise ValueError(f"bits must be 32 or 64, not {bits!r}")
    module = jitfunc.ir_module(sig)
    check_scalar_signature(module.functions[module.entry], "export_wasm", arrays=True)
    name = export_name(getattr(jitfunc, "__name__", None) or module.entry)
    text, manifest = lower_for_wasm(module, name, bits)
    try:
        return emit_in_subprocess(text, TRIPLES[bits], want=("s",),
                                  link=runtime_modules(manifest))["s"], True
    except TargetError as exc:
        note = "\n".join("; " + line for line in str(exc).splitlines())
        return f"{text}\n{note}\n", False


def write_wasm(artifact, prefix) -> WasmExport:
    """Write an artifact's files for ``prefix`` and link the module if possible."""
    prefix = Path(prefix)
    folder = prefix.parent
    folder.mkdir(parents=True, exist_ok=True)
    stem = prefix.name
    manifest = artifact.metadata["manifest"]
    paths = {k: folder / f"{stem}.{k}" for k in ("ll", "s", "o", "json", "mjs", "wasm")}
    paths["build"] = folder / f"{stem}.build.sh"
    paths["ll"].write_text(artifact.stages["llvm"], encoding="utf-8")
    paths["s"].write_text(artifact.stages["s"], encoding="utf-8")
    paths["o"].write_bytes(artifact.stages["wasm-obj"])
    paths["json"].write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    paths["mjs"].write_text(generate_loader(manifest, paths["wasm"].name,
                                            paths["mjs"].name), encoding="utf-8")
    linker = toolchain.find_linker()
    obj, wasm_name = paths["o"].name, paths["wasm"].name
    args = {kind: toolchain.link_arguments(kind, obj, wasm_name, manifest["exports"],
                                           manifest["bits"])
            for kind in ("wasm-ld", "clang")}
    if linker is not None:
        command = shlex.join(linker.argv) + " " + shlex.join(args[linker.kind]) + "\n"
    else:                  # decided when the script runs: wasm-ld, else clang
        command = ('if command -v ${HANAJIT_WASM_LD:-wasm-ld} >/dev/null 2>&1; then\n'
                   '  ${HANAJIT_WASM_LD:-wasm-ld} ' + shlex.join(args["wasm-ld"]) + "\n"
                   "else\n"
                   '  ${HANAJIT_WASM_CLANG:-clang} ' + shlex.join(args["clang"]) + "\n"
                   "fi\n")
    paths["build"].write_text(
        "#!/bin/sh\n"
        f"# Links {wasm_name} from the object hanajit-wasm wrote beside this script,\n"
        "# with wasm-ld (LLVM's lld; Debian: lld-19 gives wasm-ld-19) or any clang\n"
        "# with the WebAssembly backend as the linker driver.\n"
        "set -e\n"
        'cd "$(dirname "$0")"\n' + command, encoding="utf-8")
    os.chmod(paths["build"], 0o755)
    wasm = None
    if linker is not None:
        argv = [*linker.argv, *args[linker.kind]]
        proc = subprocess.run(argv, cwd=folder, capture_output=True, text=True)
        if proc.returncode != 0:
            raise TargetError(f"{linker.kind} failed ({shlex.join(argv)}):\n"
                              f"{proc.stderr.strip()}")
        wasm = paths["wasm"]
    return WasmExport(paths["ll"], paths["s"], paths["mjs"], paths["build"], wasm)
