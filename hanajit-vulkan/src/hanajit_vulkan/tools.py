"""The SPIR-V tools (``spirv-val``, ``spirv-dis``, ``spirv-as`` of SPIRV-Tools),
found on PATH; optional: without them the target still compiles, ``inspect_gpu``
shows the optimised LLVM IR and nothing is validated offline."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

TARGET_ENV = "vulkan1.3"


def find(tool: str) -> str | None:
    return shutil.which(tool)


def disassemble(spv: bytes) -> str | None:
    """The SPIR-V assembly text of ``spv`` (None without ``spirv-dis``)."""
    dis = find("spirv-dis")
    if dis is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.spv"
        path.write_bytes(spv)
        proc = subprocess.run([dis, "--raw-id", str(path)], capture_output=True,
                              text=True, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(f"spirv-dis failed: {proc.stderr.strip()}")
    return proc.stdout


def validate(spv: bytes) -> tuple[bool, str]:
    """``spirv-val --target-env vulkan1.3`` on ``spv``: (passed, its messages)."""
    val = find("spirv-val")
    if val is None:
        raise FileNotFoundError("spirv-val not found (Debian: spirv-tools)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.spv"
        path.write_bytes(spv)
        proc = subprocess.run([val, "--target-env", TARGET_ENV, str(path)],
                              capture_output=True, text=True, timeout=60)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


def assemble(text: str) -> bytes:
    """``spirv-as`` of SPIR-V assembly (what ``inspect_gpu`` shows)."""
    asm = find("spirv-as")
    if asm is None:
        raise FileNotFoundError("spirv-as not found (Debian: spirv-tools)")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "kernel.spvasm", Path(tmp) / "kernel.spv"
        src.write_text(text)
        proc = subprocess.run([asm, "--target-env", TARGET_ENV, "--preserve-numeric-ids",
                               str(src), "-o", str(out)],
                              capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise RuntimeError(f"spirv-as failed: {proc.stderr.strip()}")
        return out.read_bytes()
