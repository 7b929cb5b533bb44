"""NVPTX LLVM IR -> PTX (stage ``"ptx"``), run in a child process.

Some LLVM errors end the process they happen in (``exit(1)`` on "no libcall
available", assertions in the llvmlite wheel), so codegen never runs in the user's
interpreter: ``python -m hanajit_cuda.ptx`` reads ``{"ir", "arch", "libdevice"}``
as JSON on stdin, links libdevice when given (its functions made ``linkonce_odr``
so unused ones are dropped; ``nvvm-reflect-ftz`` 0: no flush to zero), optimises at
O3 for the ``sm_XX`` (NVVMReflect runs in that pipeline) and writes
``{"llvm": optimised IR, "ptx": text}`` as JSON on stdout.
"""
from __future__ import annotations

import json
import sys

TRIPLE = "nvptx64-nvidia-cuda"
KERNEL = "hj_kernel"            # the kernel entry's symbol


def emit(request: dict) -> dict:
    from hanajit.toolkit import llvm_toolchain
    llvm = llvm_toolchain.binding(all_targets=True)
    tm = llvm_toolchain.target_machine(TRIPLE, cpu=request["arch"])
    text = request["ir"]
    if llvm.llvm_version_info[0] < 20 or request.get("annotate"):
        text = kernel_by_annotation(text)
    link = ()
    if request.get("libdevice"):
        with open(request["libdevice"], "rb") as f:
            link = (f.read(),)
    out = llvm_toolchain.compile(text, tm, link=link, link_lazily=True,
                                 prepare=_linkage, emit=("asm",))
    return {"llvm": out["llvm"], "ptx": out["asm"]}


def _linkage(llvm, mod) -> None:
    """Internal linkage everywhere but the kernel, so unused helpers disappear."""
    for fn in mod.functions:
        if (not fn.is_declaration and fn.name != KERNEL
                and not fn.name.startswith("llvm.")):
            fn.linkage = "internal"


def kernel_by_annotation(text: str) -> str:
    """Mark the kernel with ``nvvm.annotations`` instead of the ``ptx_kernel``
    calling convention, which LLVM before 20 (llvmlite before 0.45) lacks."""
    text = text.replace(f'define ptx_kernel void @"{KERNEL}"',
                        f'define void @"{KERNEL}"')
    text = text.replace(f"define ptx_kernel void @{KERNEL}", f"define void @{KERNEL}")
    return text + (f'\n!nvvm.annotations = !{{!999999}}\n'
                   f'!999999 = !{{ptr @{KERNEL}, !"kernel", i32 1}}\n')


def emit_in_subprocess(ir_text: str, arch: str, libdevice: str | None,
                       timeout: float = 300) -> dict:
    """Run :func:`emit` in a child Python; an LLVM crash becomes UnsupportedError."""
    from hanajit.errors import UnsupportedError
    from hanajit.toolkit import llvm_toolchain
    return llvm_toolchain.run_isolated(
        "hanajit_cuda.ptx", {"ir": ir_text, "arch": arch, "libdevice": libdevice},
        what=f"NVPTX codegen for {arch}", timeout=timeout,
        error=lambda msg: UnsupportedError(msg, construct="nvptx codegen"),
        fork_server=True)


def emit_function(fn, ir_text: str, uses_libdevice: bool, arch: str) -> dict:
    """PTX of the lowered module ``ir_text`` for IR function ``fn``: libdevice
    linked when the code calls it (UnsupportedError saying how to get it when it
    is missing), NVPTX in a child process; the result has ``libdevice`` (the
    path linked, or None) beside ``ptx`` and ``llvm``."""
    from hanajit.errors import UnsupportedError

    from . import toolchain
    libdevice = None
    if uses_libdevice:
        libdevice = toolchain.find_libdevice()
        if libdevice is None:
            raise UnsupportedError(f"{fn.pyname}: {toolchain.LIBDEVICE_HELP}",
                                   func=fn.pyname, construct="libdevice")
    return dict(emit_in_subprocess(ir_text, arch, libdevice), libdevice=libdevice)


if __name__ == "__main__":
    json.dump(emit(json.load(sys.stdin)), sys.stdout)
