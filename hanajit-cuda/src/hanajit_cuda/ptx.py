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
import signal
import subprocess
import sys

TRIPLE = "nvptx64-nvidia-cuda"
KERNEL = "hj_kernel"            # the kernel entry's symbol


def emit(request: dict) -> dict:
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    tm = llvm.Target.from_triple(TRIPLE).create_target_machine(
        cpu=request["arch"], opt=3)
    text = request["ir"]
    if llvm.llvm_version_info[0] < 20 or request.get("annotate"):
        text = kernel_by_annotation(text)
    mod = llvm.parse_assembly(text)
    mod.triple = TRIPLE
    mod.data_layout = str(tm.target_data)
    if request.get("libdevice"):
        with open(request["libdevice"], "rb") as f:
            lib = llvm.parse_bitcode(f.read())
        lib.triple = TRIPLE
        lib.data_layout = mod.data_layout
        for fn in lib.functions:
            if not fn.is_declaration:
                fn.linkage = "linkonce_odr"
        mod.link_in(lib)
    mod.verify()
    # internal linkage everywhere but the kernel, so unused helpers disappear
    for fn in mod.functions:
        if (not fn.is_declaration and fn.name != KERNEL
                and not fn.name.startswith("llvm.")):
            fn.linkage = "internal"
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(mod, pb)
    bitcode = mod.as_bitcode()
    return {"llvm": str(mod), "ptx": tm.emit_assembly(llvm.parse_bitcode(bitcode))}


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
    request = {"ir": ir_text, "arch": arch, "libdevice": libdevice}
    try:
        proc = subprocess.run([sys.executable, "-m", "hanajit_cuda.ptx"],
                              input=json.dumps(request), capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        raise UnsupportedError(f"NVPTX codegen for {arch} took over {timeout} s",
                               construct="nvptx codegen") from None
    if proc.returncode != 0:
        how = (f"was killed by {signal.Signals(-proc.returncode).name}"
               if proc.returncode < 0 else f"exited with status {proc.returncode}")
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        raise UnsupportedError(f"NVPTX codegen for {arch} {how}:\n{tail}",
                               construct="nvptx codegen")
    return json.loads(proc.stdout)


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
