"""Reading code objects back: ``llvm-readelf --notes`` (the HSA metadata: target
id, kernel descriptor symbol, kernel arguments) and ``llvm-objdump -d`` (the
disassembly), for ``inspect_gpu()``, the doctor and the tests.
"""
from __future__ import annotations

import os
import re
import subprocess
import tempfile

from . import toolchain


def _run_on(hsaco: bytes, argv: list) -> str:
    with tempfile.TemporaryDirectory(prefix="hanajit-hip-") as tmp:
        path = os.path.join(tmp, "kernel.hsaco")
        with open(path, "wb") as f:
            f.write(hsaco)
        proc = subprocess.run(argv + [path], capture_output=True, text=True,
                              timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"{os.path.basename(argv[0])} failed: {proc.stderr.strip()}")
    return proc.stdout.replace(path, "kernel.hsaco")


def notes(hsaco: bytes) -> str | None:
    """``llvm-readelf --notes`` of a code object; None without llvm-readelf."""
    tool = toolchain.find_readelf()
    return None if tool is None else _run_on(hsaco, [tool, "--notes"])


def disassemble(hsaco: bytes, arch: str) -> str | None:
    """``llvm-objdump -d`` of a code object; None without llvm-objdump."""
    tool = toolchain.find_objdump()
    return None if tool is None else _run_on(hsaco, [tool, "-d", f"--mcpu={arch}"])


def parse_notes(text: str) -> dict:
    """What the checks need from ``llvm-readelf --notes``: ``target`` (the target
    id), ``version`` (the metadata version, [1, 2] for code object v5) and
    ``kernels``: ``{name: {"symbol", "args": [{"kind", "size", "offset",
    "address_space"}, ...]}}`` (hidden arguments excluded)."""
    out: dict = {"target": None, "version": None, "kernels": {}}
    m = re.search(r"^amdhsa\.target:\s+(\S+)", text, re.M)
    if m:
        out["target"] = m.group(1)
    m = re.search(r"^amdhsa\.version:\s*\n\s+-\s+(\d+)\s*\n\s+-\s+(\d+)", text, re.M)
    if m:
        out["version"] = [int(m.group(1)), int(m.group(2))]
    # each kernel is a "  - .args:" (or "  - .<field>:") item of amdhsa.kernels
    body = text.split("amdhsa.kernels:", 1)[-1].split("amdhsa.target:", 1)[0]
    for item in re.split(r"^  - ", body, flags=re.M)[1:]:
        fields = dict(re.findall(r"^\s{4}(\.\w+):\s+(\S+)\s*$", item, re.M))
        name = fields.get(".name")
        if name is None:
            continue
        args = []
        arg_block = item.split(".args:", 1)[-1] if ".args:" in item else ""
        arg_block = arg_block.split("\n    .", 1)[0]   # up to the kernel's next field
        for arg in re.split(r"^\s{6}- ", arg_block, flags=re.M)[1:]:
            a = dict(re.findall(r"(\.\w+):\s+(\S+(?: '[^']*')?)", arg))
            kind = a.get(".value_kind", "")
            if kind.startswith("hidden_"):
                continue
            args.append({"kind": kind, "size": int(a.get(".size", -1)),
                         "offset": int(a.get(".offset", -1)),
                         "address_space": a.get(".address_space")})
        out["kernels"][name] = {"symbol": fields.get(".symbol"), "args": args}
    return out


def expected_args(kinds: list) -> list:
    """The argument metadata the kernel entry ``hj_kernel(ptr err, <kinds>)``
    must have: 8 bytes each, in order; pointers are global buffers."""
    return [{"kind": "global_buffer" if k == "ptr" else "by_value", "size": 8,
             "offset": 8 * i, "address_space": "global" if k == "ptr" else None}
            for i, k in enumerate(["ptr"] + list(kinds))]


def describe(artifact) -> str:
    """``inspect_gpu()``: for each architecture, the code object's notes and its
    disassembly; the optimised LLVM IR of an architecture whose tools are
    missing (with a line saying so)."""
    parts = []
    for arch, blob in artifact.stages["hsaco"].items():
        head = f"; AMDGPU code object for {arch}: {len(blob)} bytes"
        meta, asm = notes(blob), disassemble(blob, arch)
        if asm is None:
            parts.append(f"{head}\n; llvm-objdump {toolchain.MIN_LLVM} or later not "
                         "found (apt-get install llvm-19, or HANAJIT_LLVM_OBJDUMP): "
                         f"the optimised LLVM IR\n{artifact.metadata['llvm'][arch]}")
            continue
        meta = "" if meta is None else f"\n; llvm-readelf --notes\n{meta}"
        parts.append(f"{head}{meta}\n; llvm-objdump -d --mcpu={arch}\n{asm}")
    return "\n".join(parts)
