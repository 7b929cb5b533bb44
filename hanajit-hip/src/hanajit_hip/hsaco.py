"""AMDGPU LLVM IR -> one code object (``.hsaco``) per architecture.

Codegen runs in a child process (some LLVM errors end the process they happen
in): ``python -m hanajit_hip.hsaco`` reads ``{"ir", "archs", "libs"}`` as JSON
on stdin; for each architecture it links the device-library bitcode listed for
it (``ocml``, ``ockl``, the ``oclc_*`` control constants; definitions made
``linkonce_odr`` so that unused ones are dropped), makes everything but the
kernel internal, optimises at O3 for that ``gfx`` processor and writes
``{arch: {"llvm": optimised IR, "obj": base64 ELF relocatable}}`` as JSON on
stdout.  This process then links each object into a shared ELF, the code
object the HIP runtime loads, with ``ld.lld -shared``.

One code object per architecture, not a clang offload bundle: the launcher
picks the one of the device's ``gcnArchName``; every one is a plain AMDGPU ELF
that ``llvm-readelf`` and ``llvm-objdump`` read.
"""
from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import sys
import tempfile

from .codegen import KERNEL

TRIPLE = "amdgcn-amd-amdhsa"
# a function the optimised module still declares and LLVM does not provide
_EXTERNAL = re.compile(r'^declare [^@\n]*@"?((?!llvm\.)[\w.$]+)"?\(', re.M)


def emit(request: dict) -> dict:
    from hanajit.toolkit import llvm_toolchain
    llvm_toolchain.binding(all_targets=True)
    out = {}
    for arch in request["archs"]:
        tm = llvm_toolchain.target_machine(TRIPLE, cpu=arch)
        lib = request.get("libs", {}).get(arch) or {"files": [], "ir": ""}
        link = []
        for path in lib["files"]:
            with open(path, "rb") as f:
                link.append(f.read())
        if lib["ir"]:
            link.append(lib["ir"])
        got = llvm_toolchain.compile(request["ir"], tm, link=link, link_lazily=True,
                                     prepare=_internalise, emit=("obj",))
        out[arch] = {"llvm": got["llvm"],
                     "obj": base64.b64encode(got["obj"]).decode("ascii")}
    return out


def _internalise(llvm, mod) -> None:
    """Internal linkage (default visibility: ocml's definitions are protected)
    for every definition but the kernel, so unused library code disappears and
    the code object exports only the kernel."""
    for value in list(mod.functions) + list(mod.global_variables):
        if (not value.is_declaration and value.name != KERNEL
                and not value.name.startswith("llvm.")):
            value.visibility = "default"
            value.linkage = "internal"


def emit_in_subprocess(ir_text: str, archs, libs: dict, timeout: float = 300) -> dict:
    """Run :func:`emit` in a child Python; an LLVM crash becomes UnsupportedError.
    Returns ``{arch: {"llvm": text, "obj": bytes}}``."""
    from hanajit.errors import UnsupportedError
    from hanajit.toolkit import llvm_toolchain
    out = llvm_toolchain.run_isolated(
        "hanajit_hip.hsaco", {"ir": ir_text, "archs": list(archs), "libs": libs},
        what=f"AMDGPU codegen for {', '.join(archs)}", timeout=timeout,
        error=lambda msg: UnsupportedError(msg, construct="amdgpu codegen"),
        fork_server=True)
    for item in out.values():
        item["obj"] = base64.b64decode(item["obj"])
    return out


def link(obj: bytes, lld: str) -> bytes:
    """The code object of one relocatable AMDGPU object: ``ld.lld -shared``."""
    from hanajit.errors import UnsupportedError
    with tempfile.TemporaryDirectory(prefix="hanajit-hip-") as tmp:
        src, dst = os.path.join(tmp, "kernel.o"), os.path.join(tmp, "kernel.hsaco")
        with open(src, "wb") as f:
            f.write(obj)
        proc = subprocess.run([lld, "-shared", src, "-o", dst], capture_output=True,
                              text=True, timeout=120)
        if proc.returncode != 0:
            raise UnsupportedError(f"{lld} could not link the AMDGPU code object:\n"
                                   f"{proc.stderr.strip()}", construct="ld.lld")
        with open(dst, "rb") as f:
            return f.read()


def build(fn, ir_text: str, ocml: list, archs) -> dict:
    """The code objects of the lowered module ``ir_text`` for IR function ``fn``:
    ``{"hsaco": {arch: bytes}, "llvm": {arch: IR}, "device_libs": folder or
    None}``.  The device libraries are linked when the code calls them; without
    them (or without ``ld.lld``) UnsupportedError says how to get them."""
    from hanajit.errors import UnsupportedError

    from . import toolchain
    lld = toolchain.find_lld()
    if lld is None:
        raise UnsupportedError(f"{fn.pyname}: {toolchain.LLD_HELP}", func=fn.pyname,
                               construct="ld.lld")
    folder, libs = None, {}
    if ocml:
        folder = toolchain.find_device_libs()
        if folder is None:
            raise UnsupportedError(
                f"{fn.pyname} calls {', '.join(ocml)}: {toolchain.DEVICE_LIBS_HELP}",
                func=fn.pyname, construct="rocm device libraries")
        for arch in archs:
            files, ir = toolchain.device_library(folder, arch)
            libs[arch] = {"files": files, "ir": ir}
    emitted = emit_in_subprocess(ir_text, archs, libs)
    for arch in archs:
        # ld.lld -shared accepts undefined symbols, which the runtime would only
        # report when loading the code object: refuse them here
        missing = sorted(set(_EXTERNAL.findall(emitted[arch]["llvm"])))
        if missing:
            raise UnsupportedError(
                f"{fn.pyname}: the {arch} code object would call "
                f"{', '.join(missing)}, which neither the kernel nor ROCm's device "
                "libraries define", func=fn.pyname, construct="external function")
    return {"hsaco": {a: link(emitted[a]["obj"], lld) for a in archs},
            "llvm": {a: emitted[a]["llvm"] for a in archs}, "device_libs": folder}


if __name__ == "__main__":
    json.dump(emit(json.load(sys.stdin)), sys.stdout)
