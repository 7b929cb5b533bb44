"""Finding the wasm linker (``wasm-ld``, else clang as a linker driver) and
``node``; nothing runs at import time."""
from __future__ import annotations

import os
import shlex
import shutil
from typing import NamedTuple

# Debian/Ubuntu install versioned names (lld-19 gives wasm-ld-19, clang-19 clang-19)
WASM_LD_NAMES = ("wasm-ld",) + tuple(f"wasm-ld-{v}" for v in range(22, 13, -1))
CLANG_NAMES = ("clang",) + tuple(f"clang-{v}" for v in range(22, 13, -1))


class Linker(NamedTuple):
    """``kind`` is ``"wasm-ld"`` or ``"clang"``; ``argv`` the command before the
    link's own arguments."""

    kind: str
    argv: list


def _from_variable(name: str) -> list[str] | None | bool:
    """The command a variable names (it may carry flags), None when it names a
    missing program, False when it is unset."""
    value = os.environ.get(name, "").strip()
    if not value:
        return False
    argv = shlex.split(value)
    exe = shutil.which(argv[0])
    return [exe, *argv[1:]] if exe else None


def _on_path(names) -> list[str] | None:
    for name in names:
        exe = shutil.which(name)
        if exe:
            return [exe]
    return None


def find_wasm_ld() -> list[str] | None:
    """``HANAJIT_WASM_LD`` (a command, may carry flags), else the first wasm-ld,
    wasm-ld-22 ... wasm-ld-14 on PATH.  A ``HANAJIT_WASM_LD`` naming a missing
    program gives None rather than another linker."""
    argv = _from_variable("HANAJIT_WASM_LD")
    return _on_path(WASM_LD_NAMES) if argv is False else argv


def find_clang() -> list[str] | None:
    """``HANAJIT_WASM_CLANG`` (a command, may carry flags), else the first clang,
    clang-22 ... clang-14 on PATH; None when the variable names a missing program."""
    argv = _from_variable("HANAJIT_WASM_CLANG")
    return _on_path(CLANG_NAMES) if argv is False else argv


def find_linker() -> Linker | None:
    """The linker an export uses: a variable that is set wins (``HANAJIT_WASM_LD``,
    then ``HANAJIT_WASM_CLANG``; one naming a missing program links nothing rather
    than with another tool), else wasm-ld on PATH, else clang on PATH."""
    for var, kind, names in (("HANAJIT_WASM_LD", "wasm-ld", WASM_LD_NAMES),
                             ("HANAJIT_WASM_CLANG", "clang", CLANG_NAMES)):
        argv = _from_variable(var)
        if argv is not False:
            return Linker(kind, argv) if argv else None
    for kind, names in (("wasm-ld", WASM_LD_NAMES), ("clang", CLANG_NAMES)):
        argv = _on_path(names)
        if argv:
            return Linker(kind, argv)
    return None


def link_arguments(kind: str, obj: str, wasm: str, exports, bits: int) -> list[str]:
    """The arguments after the linker's command: wasm-ld's own flags, or clang as
    a linker driver (``--target=wasm32 -nostdlib -Wl,...``)."""
    flags = ["--no-entry", "--allow-undefined"] + [f"--export={e}" for e in exports]
    if kind == "wasm-ld":
        return (["-mwasm64"] if bits == 64 else []) + [obj, "-o", wasm] + flags
    return ([f"--target=wasm{bits}", "-nostdlib"] + [f"-Wl,{f}" for f in flags]
            + [obj, "-o", wasm])


def find_node() -> str | None:
    return shutil.which("node") or shutil.which("nodejs")
