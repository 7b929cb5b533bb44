"""The SPIRV-Tools command-line programs, when installed (``apt-get install
spirv-tools``): ``spirv-dis`` for ``inspect_gpu()``, ``spirv-val`` for the tests and
``hanajit doctor``.  Nothing here is needed to compile or launch."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


def tool(name: str) -> str | None:
    return shutil.which(name)


def _run(args, spirv: bytes, timeout: float = 60):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kernel.spv"
        path.write_bytes(spirv)
        return subprocess.run([*args, str(path)], capture_output=True, text=True,
                              timeout=timeout, check=False)


def disassemble(spirv: bytes) -> str | None:
    """The module as SPIR-V assembly text, or None without ``spirv-dis``."""
    dis = tool("spirv-dis")
    if dis is None:
        return None
    proc = _run([dis, "--no-color"], spirv)
    return proc.stdout if proc.returncode == 0 else None


def validate(spirv: bytes, env: str = "opencl1.2") -> tuple[bool | None, str]:
    """``spirv-val --target-env env`` on the module: (True, "") when valid, (False,
    the validator's message), or (None, why) without ``spirv-val``."""
    val = tool("spirv-val")
    if val is None:
        return None, "spirv-val not found (apt-get install spirv-tools)"
    proc = _run([val, "--target-env", env], spirv)
    return proc.returncode == 0, (proc.stdout + proc.stderr).strip()


_CAPABILITY_NAMES = {10: "Float64", 11: "Int64", 12: "Int64Atomics"}


def capabilities(spirv: bytes) -> set:
    """The ``OpCapability`` names of a module that devices may lack (Float64,
    Int64, Int64Atomics), read from the binary."""
    import struct
    words = struct.unpack(f"<{len(spirv) // 4}I", spirv)
    found, i = set(), 5
    while i < len(words):
        count, op = words[i] >> 16, words[i] & 0xFFFF
        if op == 17 and words[i + 1] in _CAPABILITY_NAMES:       # OpCapability
            found.add(_CAPABILITY_NAMES[words[i + 1]])
        if op == 54:                # OpFunction: the capabilities came before
            break
        i += max(count, 1)
    return found
