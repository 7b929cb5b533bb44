"""The ``fpga`` export target: primitive IR -> HLS C++ (+ LLVM IR for IR flows).

Stages: ``"cpp"`` (the HLS C++ kernel and top function, printed by
``hanajit.toolkit.c_family``) and ``"llvm"`` (the kernel's LLVM IR).  Nothing here
needs an FPGA tool; the doctor reports the C++ compiler and the Xilinx ap_types
headers that the C simulation uses, and ``vitis_hls`` when it is installed.
"""
from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

from hanajit.lowering.cabi import check_scalar_signature
from hanajit.target import Artifact, Capabilities, Target


def ap_types_dir() -> Path | None:
    """The Apache-2.0 Xilinx ap_types headers that ``pip install --no-deps hls4ml``
    ships (found without importing hls4ml, which needs TensorFlow/Keras)."""
    spec = importlib.util.find_spec("hls4ml")
    if spec is None or not spec.submodule_search_locations:
        return None
    for loc in spec.submodule_search_locations:
        path = Path(loc) / "templates" / "vivado" / "ap_types"
        if (path / "ap_int.h").exists():
            return path
    return None


def find_cxx() -> str | None:
    value = os.environ.get("HANAJIT_CXX", "").strip()
    if value:
        return shutil.which(value)
    return shutil.which("g++") or shutil.which("clang++") or shutil.which("c++")


class FpgaTarget(Target):
    """Vitis HLS C++ kits for FPGAs (export only; synthesis happens in AMD's tools)."""

    name = "fpga"
    description = "FPGA: Vitis HLS C++ top function, C-sim testbench and TCL (export only)"
    stages = ("cpp", "llvm")
    kind = "export"
    # hls_math / <cmath>; the C-family emitter prints no complex numbers
    capabilities = Capabilities(c_math=True, complex=False)

    def status(self) -> tuple[bool, str]:
        return True, "pure Python export; synthesis needs Vitis HLS"

    def doctor(self, report) -> None:
        cxx = find_cxx()
        report.check("fpga: C++ compiler for C simulation", True if cxx else None,
                     cxx or "not found (g++, clang++ or HANAJIT_CXX)")
        ap = ap_types_dir()
        report.check("fpga: Xilinx ap_types headers", True if ap else None,
                     str(ap) if ap else "not found (pip install --no-deps hls4ml)")
        vitis = shutil.which("vitis_hls")
        report.check("fpga: vitis_hls (synthesis)", True if vitis else None,
                     vitis or "not installed: run the .tcl where Vitis HLS is")

    def compile(self, module, options) -> Artifact:
        from .hls import top_function, top_name
        fn = module.functions[module.entry]
        check_scalar_signature(fn, "export_fpga", check_return=False, arrays=True)
        top = top_name(options.get("name") or fn.pyname or module.entry)
        cpp, outs = top_function(module, top, options.get("depth"))
        return Artifact(target=self.name, entry=top,
                        stages={"cpp": cpp, "llvm": _llvm_text(module)},
                        metadata={"fn": fn, "outs": outs, "raises": list(module.raises)})

    def ir_artifact(self, module, name: str, reason: str) -> Artifact:
        """The artifact of a kernel the C++ printer refused (``reason``): the
        LLVM IR stage only, exported as ``.ll`` and a TCL stub."""
        from .hls import top_name
        return Artifact(target=self.name, entry=top_name(name),
                        stages={"llvm": _llvm_text(module)},
                        metadata={"reason": reason, "ir_entry": module.entry})

    def export(self, artifact: Artifact, output, **options):
        from .hls import DEFAULT_CLOCK_NS, DEFAULT_PART, tcl_script, tcl_stub, testbench
        from .export import FpgaExport
        prefix = Path(output)
        prefix.parent.mkdir(parents=True, exist_ok=True)
        stem = prefix.name
        part = options.get("part") or DEFAULT_PART
        clock = options.get("clock_ns") or DEFAULT_CLOCK_NS
        top = artifact.entry
        if "cpp" not in artifact.stages:
            paths = FpgaExport(ll=prefix.parent / f"{stem}.ll",
                               tcl=prefix.parent / f"{stem}_hls.tcl", cpp=None, tb=None)
            paths.tcl.write_text(tcl_stub(stem, top, part, clock, artifact.metadata),
                                 encoding="utf-8")
            paths.ll.write_text(artifact.stages["llvm"], encoding="utf-8")
            return paths
        paths = FpgaExport(ll=prefix.parent / f"{stem}.ll",
                           tcl=prefix.parent / f"{stem}_hls.tcl",
                           cpp=prefix.parent / f"{stem}_hls.cpp",
                           tb=prefix.parent / f"{stem}_tb.cpp")
        header = artifact.stages["cpp"].split("\n", 2)
        paths.cpp.write_text(artifact.stages["cpp"], encoding="utf-8")
        paths.tb.write_text(testbench(artifact.metadata["fn"], top,
                                      artifact.metadata["outs"], options.get("cases", []),
                                      header[1], artifact.metadata["raises"]),
                            encoding="utf-8")
        paths.tcl.write_text(tcl_script(stem, top, part, clock), encoding="utf-8")
        paths.ll.write_text(artifact.stages["llvm"], encoding="utf-8")
        return paths


def _llvm_text(module) -> str:
    """The kernel's LLVM IR with the entry function external (internal calling
    convention: see hanajit.lowering.llvm)."""
    import copy

    from hanajit.lowering.llvm import LLVMTargetInfo, ModuleLowering

    ml = ModuleLowering(copy.deepcopy(module), LLVMTargetInfo())
    llmod = ml.lower()
    llmod.get_global(module.entry).linkage = ""
    return str(llmod)
