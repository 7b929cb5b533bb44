"""The ``exe`` export target: primitive IR -> LLVM object + C main -> executable.

Stages: ``"llvm"`` (the optimised LLVM IR text of the kernel and its C-ABI entry
wrapper) and ``"obj"`` (the relocatable object for the requested triple).  The code
is generated for the baseline ``x86-64`` CPU, not the build machine's, since the
executable is meant to be copied elsewhere.
"""
from __future__ import annotations

import os
import subprocess
import tempfile

from hanajit.ir import types as T
from hanajit.lowering.cabi import check_scalar_signature
from hanajit.target import Artifact, Capabilities, Target

from . import toolchain

LINUX_TRIPLE = "x86_64-unknown-linux-gnu"
WINDOWS_TRIPLE = "x86_64-w64-windows-gnu"          # mingw-w64 (COFF, Win64 ABI)
MACOS_TRIPLE = "x86_64-apple-macosx10.15.0"
BASELINE_CPU = "x86-64"


def lower_to_object(module, triple: str, cpu: str = BASELINE_CPU):
    """Lower a primitive IR module with its C-ABI entry wrapper for ``triple``;
    return (optimised IR text, object bytes)."""
    from hanajit.lowering.cabi import add_entry_wrapper
    from hanajit.lowering.llvm import LLVMTargetInfo, ModuleLowering
    from hanajit.toolkit import llvm_toolchain

    tm = llvm_toolchain.target_machine(triple, cpu=cpu, reloc="pic", codemodel="default")
    info = LLVMTargetInfo(triple=triple, data_layout=str(tm.target_data))
    ml = ModuleLowering(module, info)
    llmod = ml.lower()
    entry_fn = module.functions[module.entry]
    add_entry_wrapper(llmod, entry_fn, ml.declare(entry_fn))
    text = str(llmod)
    link = ()
    if "hj_nrt_" in text:                # arrays: link the memory runtime in
        from hanajit.lowering import nrt
        link = (_runtime_ir(triple, nrt.RUNTIME_IR),)
    out = llvm_toolchain.compile(text, tm, link=link, emit=("obj",))
    return out["llvm"], out["obj"]


def _runtime_ir(triple: str, text: str) -> str:
    """The memory runtime for ``triple``: Windows' C library has no
    ``aligned_alloc``; its ``_aligned_malloc`` (size first) pairs with
    ``_aligned_free``."""
    if "windows" not in triple:
        return text
    out = (text.replace("declare ptr @aligned_alloc(i64, i64)",
                        "declare ptr @_aligned_malloc(i64, i64)")
           .replace("call ptr @aligned_alloc(i64 64, i64 %sz)",
                    "call ptr @_aligned_malloc(i64 %sz, i64 64)")
           .replace("@free(", "@_aligned_free("))
    if "aligned_alloc" in out:
        raise AssertionError("the memory runtime changed: update _runtime_ir")
    return out


class ExeTarget(Target):
    """Standalone command-line executables (export only)."""

    name = "exe"
    description = "standalone command-line executables (LLVM object + C main, export only)"
    stages = ("llvm", "obj")
    kind = "export"
    capabilities = Capabilities(c_math=True, stack_check=True, allocation=True)   # linked with the C library

    def status(self) -> tuple[bool, str]:
        cc = toolchain.find_host_cc()
        if cc is None:
            return True, ("no C compiler found (set HANAJIT_CC): exports write the C "
                          "source and a build script")
        return True, f"links with {cc[0]}"

    def doctor(self, report) -> None:
        cc = toolchain.find_host_cc()
        report.check("exe: host C compiler", True if cc else None,
                     toolchain.describe(cc) if cc else
                     "not found (cc, gcc, clang or HANAJIT_CC); exports write "
                     "<output>.build.sh instead of linking")
        if cc:
            ok, detail = _probe()
            report.check("exe: build and run a probe executable", ok, detail)
        mingw = toolchain.find_mingw_cc()
        report.check("exe: mingw-w64 (platform='windows')", True if mingw else None,
                     toolchain.describe(mingw) if mingw else
                     "not found (Debian: gcc-mingw-w64-x86-64)")
        wine = toolchain.find_wine()
        report.check("exe: wine64 (runs Windows executables here)",
                     True if wine else None, wine or "not found (Debian: wine64)")
        cuda = _cuda_plugin()
        report.check("exe: cuda='optional'/'required' (PTX from the cuda plugin)",
                     True if cuda is None else None,
                     "the cuda plugin compiles the embedded kernels; programs load "
                     "the NVIDIA driver when run" if cuda is None else cuda)

    def compile(self, module, options) -> Artifact:
        fn = module.functions[module.entry]
        check_scalar_signature(fn, "export_executable", arrays=True, complex_=True)
        triple = options.get("triple", LINUX_TRIPLE)
        text, obj = lower_to_object(module, triple, options.get("cpu", BASELINE_CPU))
        return Artifact(target=self.name, entry="__hj_entry",
                        stages={"llvm": text, "obj": obj},
                        metadata={"fn": fn, "raises": list(module.raises),
                                  "triple": triple})

    def export(self, artifact: Artifact, output, **options):
        from .export import write_executable
        return write_executable(artifact, output, **options)


def _cuda_plugin() -> str | None:
    """None when the cuda target (and its single-thread kernels) is there, else
    why not."""
    from hanajit import plugins
    from hanajit.errors import TargetError
    try:
        target = plugins.get_target("cuda")
    except TargetError:
        return ("the hanajit-cuda plugin is not installed: "
                "pip install 'hanajit-exe[cuda]'")
    if not target.capabilities.kernel_model:
        return f"target {target.name!r} does not run GPU kernels"
    return None


def _probe() -> tuple[bool, str]:
    """Export a tiny kernel and run it (the doctor's end-to-end check)."""
    from hanajit.ir import nodes as N

    fn = N.Function(name="probe", params=["n"], arg_types=(T.INT64,),
                    locals={"n": T.INT64},
                    body=[N.Return(value=N.BinOp("mul", N.Var("n", T.INT64),
                                                 N.Const(7, T.INT64), T.INT64))],
                    return_type=T.INT64, pyname="probe", can_raise=False,
                    level="primitive")
    module = N.Module(entry="probe", functions={"probe": fn})
    target = ExeTarget()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            art = target.compile(module, {})
            out = target.export(art, os.path.join(tmp, "probe"))
            if out.executable is None:
                return False, "the compiler was found but nothing was linked"
            run = subprocess.run([str(out.executable), "6"], capture_output=True,
                                 text=True, timeout=30)
            ok = run.returncode == 0 and run.stdout.strip() == "42"
            return ok, f"probe 6 -> {run.stdout.strip()!r} (exit {run.returncode})"
    except Exception as exc:          # a doctor check never raises
        return False, repr(exc)
