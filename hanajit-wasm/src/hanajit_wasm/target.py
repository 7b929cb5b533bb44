"""The ``wasm`` export target: primitive IR -> wasm LLVM IR -> wasm object.

Stages: ``"llvm"`` (optimised LLVM IR for wasm32/wasm64), ``"s"`` (wasm assembly)
and ``"wasm-obj"`` (the relocatable object that wasm-ld links into ``.wasm``).
Code generation runs in a child process (:mod:`hanajit_wasm.emit`).
"""
from __future__ import annotations

from hanajit.lowering.cabi import check_scalar_signature
from hanajit.target import Artifact, Capabilities, Target

from . import toolchain


class WasmTarget(Target):
    """WebAssembly modules for browsers, Node and wasm runtimes (export only)."""

    name = "wasm"
    description = "WebAssembly (wasm32/wasm64) module + ES-module loader (export only)"
    stages = ("llvm", "s", "wasm-obj")
    kind = "export"
    # math imported from the loader; complex numbers are refused by the codegen
    capabilities = Capabilities(c_math=True, complex=False, allocation=True)

    def status(self) -> tuple[bool, str]:
        linker = toolchain.find_linker()
        if linker is None:
            return True, ("no wasm-ld or clang found (set HANAJIT_WASM_LD or "
                          "HANAJIT_WASM_CLANG): exports write the object and a build script")
        return True, f"links with {linker.kind} ({linker.argv[0]})"

    def doctor(self, report) -> None:
        from hanajit.errors import TargetError

        from .codegen import TRIPLES
        from .emit import emit_in_subprocess
        probe = ('define double @probe(double %x) {\n  %y = call double @llvm.sin.f64('
                 'double %x)\n  ret double %y\n}\ndeclare double @llvm.sin.f64(double)\n')
        try:
            out = emit_in_subprocess(probe, TRIPLES[32], want=("o",))
            report.check("wasm: LLVM wasm32 backend (in a subprocess)",
                         out["o"][:4] == b"\0asm", f"{len(out['o'])}-byte object")
        except TargetError as exc:
            report.check("wasm: LLVM wasm32 backend (in a subprocess)", False, str(exc))
        linker = toolchain.find_linker()
        report.check("wasm: linker (wasm-ld, else clang)", True if linker else None,
                     f"{linker.kind}: {linker.argv[0]}" if linker else
                     "not found (Debian: lld-19 or clang-19; HANAJIT_WASM_LD or "
                     "HANAJIT_WASM_CLANG); exports write <prefix>.build.sh instead of linking")
        node = toolchain.find_node()
        report.check("wasm: node (runs the .mjs loader)", True if node else None,
                     node or "not found")
        try:
            import wasmtime
            report.check("wasm: wasmtime (hanajit_wasm.runtime)", True,
                         getattr(wasmtime, "__version__", "installed"))
        except ImportError:
            report.check("wasm: wasmtime (hanajit_wasm.runtime)", None,
                         "not installed (pip install wasmtime)")

    def compile(self, module, options) -> Artifact:
        from .codegen import TRIPLES, export_name, lower_for_wasm, runtime_modules
        from .emit import emit_in_subprocess
        bits = options.get("bits", 32)
        fn = module.functions[module.entry]
        check_scalar_signature(fn, "export_wasm", arrays=True)
        name = export_name(options.get("name") or fn.pyname or module.entry)
        text, manifest = lower_for_wasm(module, name, bits)
        out = emit_in_subprocess(text, TRIPLES[bits], link=runtime_modules(manifest))
        return Artifact(target=self.name, entry=name,
                        stages={"llvm": out["ll"], "s": out["s"], "wasm-obj": out["o"]},
                        metadata={"manifest": manifest})

    def export(self, artifact: Artifact, output, **options):
        from .export import write_wasm
        return write_wasm(artifact, output)
