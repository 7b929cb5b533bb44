"""Finding ``wasm-ld`` and ``node``; nothing runs at import time."""
from __future__ import annotations

import os
import shlex
import shutil

# Debian/Ubuntu install versioned names (lld-19 gives wasm-ld-19)
WASM_LD_NAMES = ("wasm-ld",) + tuple(f"wasm-ld-{v}" for v in range(22, 13, -1))


def find_wasm_ld() -> list[str] | None:
    """``HANAJIT_WASM_LD`` (a command, may carry flags), else the first wasm-ld,
    wasm-ld-22 ... wasm-ld-14 on PATH.  A ``HANAJIT_WASM_LD`` naming a missing
    program gives None rather than another linker."""
    value = os.environ.get("HANAJIT_WASM_LD", "").strip()
    if value:
        argv = shlex.split(value)
        exe = shutil.which(argv[0])
        return [exe, *argv[1:]] if exe else None
    for name in WASM_LD_NAMES:
        exe = shutil.which(name)
        if exe:
            return [exe]
    return None


def find_node() -> str | None:
    return shutil.which("node") or shutil.which("nodejs")
