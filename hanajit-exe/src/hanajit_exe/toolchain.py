"""Finding the tools an executable export needs: the C compiler, mingw-w64, wine.

Each finder returns an argv prefix (a list, since ``HANAJIT_CC`` may hold flags such
as ``"ccache gcc"``) or None when nothing usable is installed.  Nothing here runs at
import time.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess

HOST_COMPILERS = ("cc", "gcc", "clang")
MINGW_COMPILERS = ("x86_64-w64-mingw32-gcc", "x86_64-w64-mingw32-clang")
WINE_PATHS = ("/usr/lib/wine/wine64", "/usr/lib64/wine/wine64")


def _from_env(var: str) -> list[str] | None:
    value = os.environ.get(var, "").strip()
    if not value:
        return None
    argv = shlex.split(value)
    exe = shutil.which(argv[0])
    return [exe, *argv[1:]] if exe else None


def find_host_cc() -> list[str] | None:
    """The host C compiler: ``HANAJIT_CC`` (which may carry flags), else the first of
    cc, gcc, clang on PATH.  A ``HANAJIT_CC`` naming a missing program gives None:
    the user asked for that compiler, so no other one is substituted."""
    if os.environ.get("HANAJIT_CC", "").strip():
        return _from_env("HANAJIT_CC")
    for name in HOST_COMPILERS:
        exe = shutil.which(name)
        if exe:
            return [exe]
    return None


def find_mingw_cc() -> list[str] | None:
    """The mingw-w64 cross compiler for x86-64 Windows (``HANAJIT_MINGW_CC``
    overrides; Debian package gcc-mingw-w64-x86-64)."""
    if os.environ.get("HANAJIT_MINGW_CC", "").strip():
        return _from_env("HANAJIT_MINGW_CC")
    for name in MINGW_COMPILERS:
        exe = shutil.which(name)
        if exe:
            return [exe]
    return None


def find_wine() -> str | None:
    """A 64-bit wine loader to run Windows executables (Debian package wine64 puts
    it at /usr/lib/wine/wine64, not on PATH)."""
    for name in ("wine64", "wine"):
        exe = shutil.which(name)
        if exe:
            return exe
    for path in WINE_PATHS:
        if os.access(path, os.X_OK):
            return path
    return None


def wine_env(prefix: str | os.PathLike) -> dict:
    """Environment for running under wine quietly in a private prefix."""
    env = dict(os.environ)
    env["WINEDEBUG"] = "-all"
    env["WINEPREFIX"] = str(prefix)
    return env


def describe(argv: list[str] | None) -> str:
    """One line naming a compiler and its version, for the doctor."""
    if not argv:
        return "not found"
    try:
        out = subprocess.run([*argv, "--version"], capture_output=True, text=True,
                             timeout=20)
        first = (out.stdout or out.stderr).strip().splitlines()
        version = first[0] if first else ""
    except (OSError, subprocess.SubprocessError) as exc:
        version = f"(--version failed: {exc})"
    return f"{shlex.join(argv)}: {version}" if version else shlex.join(argv)
