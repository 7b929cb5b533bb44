"""``f.export_executable(...)``: write the object, the C main, the build script,
and link them when a compiler is there.

Files, for ``output="dir/prog"``: ``dir/prog.o`` (the kernel), ``dir/prog.c`` (the
generated ``main``), ``dir/prog.build.sh`` (the exact link command, runnable from
anywhere) and the executable ``dir/prog`` (``dir/prog.exe`` for Windows).
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any, NamedTuple

from hanajit.errors import TargetError

from . import toolchain
from .cmain import generate_main

CUDA_MODES = ("off", "optional", "required")


class ExecutableExport(NamedTuple):
    """What ``export_executable`` wrote.  ``executable`` is None when no compiler
    was found (run ``build`` then); ``ptx`` is None until the hanajit-cuda plugin
    provides embedded PTX."""

    executable: Path | None
    object: Path
    source: Path
    build: Path
    ptx: Path | None = None


def _cuda_mode(cuda: Any) -> str:
    if cuda is True:
        return "optional"
    if cuda is False or cuda is None:
        return "off"
    if cuda not in CUDA_MODES:
        raise ValueError(f"cuda must be one of {CUDA_MODES} (or True/False/None), "
                         f"not {cuda!r}")
    return cuda


def _platform(platform: str | None) -> str:
    if platform in (None, "host"):
        if sys.platform.startswith("win"):
            return "windows"
        return "macos" if sys.platform == "darwin" else "linux"
    if platform not in ("linux", "windows", "macos"):
        raise ValueError(f"platform must be 'host', 'linux', 'windows' or 'macos', "
                         f"not {platform!r}")
    return platform


def export_executable(jitfunc, output, sig=None, cuda="off", cuda_arch=None, *,
                      platform: str | None = None) -> ExecutableExport:
    """Exporter ``executable``: turn a scalar ``@jit`` function into a program.

    ``output`` is the executable's path (``.exe`` is added for Windows); the
    object, C source and build script are written beside it.  ``sig`` selects the
    specialisation (a signature string or tuple; default: the first compiled one).
    ``cuda`` is ``"off"``, ``"optional"`` or ``"required"`` (True / False / None
    alias optional / off); no PTX is embedded yet, so "optional" runs the CPU
    kernel and "required" gives a program that exits with status 70.
    ``platform`` (an extension) is ``"host"`` (default), or ``"windows"`` to
    cross-compile with mingw-w64 on Linux.
    """
    from hanajit import plugins

    mode = _cuda_mode(cuda)
    if cuda_arch is not None and not str(cuda_arch).startswith(("sm_", "compute_")):
        raise ValueError(f"cuda_arch must look like 'sm_75', not {cuda_arch!r}")
    plat = _platform(platform)
    if plat == "macos" and mode != "off":
        raise ValueError("CUDA modes are unavailable on macOS")
    from .target import LINUX_TRIPLE, MACOS_TRIPLE, WINDOWS_TRIPLE
    triple = {"linux": LINUX_TRIPLE, "windows": WINDOWS_TRIPLE, "macos": MACOS_TRIPLE}[plat]
    module = jitfunc.ir_module(sig)
    target = plugins.get_target("exe")
    artifact = target.compile(module, {"triple": triple})
    return target.export(artifact, output, cuda=mode, platform=plat)


def write_executable(artifact, output, *, cuda: str = "off",
                     platform: str = "linux") -> ExecutableExport:
    """Write the artifact's files beside ``output`` and link them if possible."""
    output = Path(output)
    if platform == "windows" and output.suffix.lower() != ".exe":
        output = output.with_name(output.name + ".exe")
    stem = output.name[:-4] if output.name.lower().endswith(".exe") else output.name
    folder = output.parent if str(output.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    obj = folder / f"{stem}.o"
    src = folder / f"{stem}.c"
    build = folder / f"{stem}.build.sh"
    obj.write_bytes(artifact.stages["obj"])
    src.write_text(generate_main(artifact.metadata["fn"], artifact.metadata["raises"],
                                 program=stem, cuda=cuda), encoding="utf-8")

    if platform == "windows":
        cc, env_var, default = toolchain.find_mingw_cc(), "HANAJIT_MINGW_CC", \
            "x86_64-w64-mingw32-gcc"
    else:
        cc, env_var, default = toolchain.find_host_cc(), "HANAJIT_CC", "cc"
    flags = ["-std=c11", "-O2", "-o", output.name, src.name, obj.name, "-lm"]
    shown = [shlex.join(cc)] if cc else [f"${{{env_var}:-{default}}}"]
    build.write_text(
        "#!/bin/sh\n"
        f"# Links {output.name} from the files hanajit-exe wrote beside this script.\n"
        "set -e\n"
        'cd "$(dirname "$0")"\n'
        + " ".join(shown + [shlex.quote(f) for f in flags]) + "\n",
        encoding="utf-8")
    os.chmod(build, 0o755)
    if cc is None:
        return ExecutableExport(None, obj, src, build, None)
    proc = subprocess.run([*cc, *flags], cwd=folder, capture_output=True, text=True)
    if proc.returncode != 0:
        raise TargetError(f"linking {output} failed ({shlex.join([*cc, *flags])}):\n"
                          f"{proc.stderr.strip()}")
    return ExecutableExport(output, obj, src, build, None)
