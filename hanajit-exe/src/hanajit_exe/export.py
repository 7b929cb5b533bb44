"""``f.export_executable(...)``: write the object, the C main, the build script,
and link them when a compiler is there.

Files, for ``output="dir/prog"``: ``dir/prog.o`` (the kernel), ``dir/prog.c`` (the
generated ``main``), ``dir/prog.build.sh`` (the exact link command, runnable from
anywhere; for Windows also ``dir/prog.build.bat`` to rebuild there with mingw-w64's
gcc), ``dir/prog.ptx`` (the embedded one-thread CUDA kernel, CUDA modes only) and
the executable ``dir/prog`` (``dir/prog.exe`` for Windows).
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
    was found (run ``build`` then); ``ptx`` is the embedded kernel's PTX file for
    the CUDA modes, None for ``cuda="off"``."""

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
    """Exporter ``executable``: turn a ``@jit`` function into a command-line program.

    ``output`` is the executable's path (``.exe`` is added for Windows); the
    object, C source and build script(s) are written beside it.  ``sig`` selects
    the specialisation (a signature string or tuple; default: the first compiled
    one).  ``cuda`` is ``"off"``, ``"optional"`` or ``"required"`` (True / False /
    None alias optional / off).  With "optional" or "required" the hanajit-cuda
    plugin compiles the function as a one-thread kernel for ``cuda_arch`` (else
    ``@jit(gpu_arch=)``, else ``HANAJIT_CUDA_ARCH``, else sm_75); its PTX is
    embedded in the program and written to ``<output>.ptx``.  The program loads
    the NVIDIA driver at run time and runs the kernel on the GPU; when CUDA cannot
    run, "optional" says why on stderr and runs the CPU code, "required" exits
    with status 70.  Arrays the function allocates live in a device arena the
    program provides.  ``platform`` (an
    extension) is ``"host"`` (default), or ``"windows"`` to cross-compile with
    mingw-w64 on Linux.
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
    _refuse_gpu_model(module)
    target = plugins.get_target("exe")
    artifact = target.compile(module, {"triple": triple})
    gpu = None
    if mode != "off":
        arch = cuda_arch or jitfunc.options.get("gpu_arch")
        gpu = _single_thread_kernel(plugins, module, arch, mode)
        # lowering registers raise codes in the module (append-only, so the CPU
        # object's codes stand); the program's table covers both lowerings
        artifact.metadata["raises"] = list(module.raises)
    return target.export(artifact, output, cuda=mode, platform=plat, gpu=gpu)


def _refuse_gpu_model(module) -> None:
    """A program calls its function once: the GPU kernel model (``thread_id()``,
    shared arrays, barriers, atomics) has no meaning there."""
    from hanajit.errors import UnsupportedError
    from hanajit.ir import nodes as N
    for fn in module.functions.values():
        for s in N.walk_stmts(fn.body):
            found = isinstance(s, N.Barrier) or any(
                isinstance(sub, (N.GpuIndex, N.SharedArray, N.Atomic))
                for e in N.stmt_exprs(s) if e is not None for sub in N.walk_expr(e))
            if found:
                raise UnsupportedError(
                    f"export_executable: {fn.pyname} (line {s.line}) uses the GPU "
                    "kernel model (thread_id(), shared arrays, barrier(), atomics); "
                    "a program runs the function once -- launch kernels with "
                    "f.launch()", func=fn.pyname, line=s.line,
                    construct="GPU kernel model")


def _single_thread_kernel(plugins, module, arch, mode):
    """The function as a one-thread CUDA kernel, from the hanajit-cuda plugin."""
    from hanajit.errors import UnsupportedError
    try:
        cuda_target = plugins.get_target("cuda")
    except TargetError as exc:
        raise TargetError(f"export_executable(cuda={mode!r}) needs the hanajit-cuda "
                          "plugin to compile PTX (pip install 'hanajit-exe[cuda]'): "
                          f"{exc}") from None
    try:
        return cuda_target.compile_single_thread(module, arch)
    except UnsupportedError as exc:
        raise UnsupportedError(
            f"export_executable(cuda={mode!r}): the GPU cannot run this function: "
            f"{exc} (export with cuda='off' for a CPU-only program)",
            func=getattr(exc, "func", None), line=getattr(exc, "line", None),
            construct=getattr(exc, "construct", None)) from exc


def _write_build_scripts(build: Path, output: Path, flags: list, cc, env_var: str,
                         default: str, windows: bool) -> None:
    """``<stem>.build.sh`` (and for Windows ``<stem>.build.bat``, for rebuilding
    on Windows with mingw-w64's gcc) holding the exact link command."""
    shown = [shlex.join(cc)] if cc else [f"${{{env_var}:-{default}}}"]
    build.write_text(
        "#!/bin/sh\n"
        f"# Links {output.name} from the files hanajit-exe wrote beside this script.\n"
        "set -e\n"
        'cd "$(dirname "$0")"\n'
        + " ".join(shown + [shlex.quote(f) for f in flags]) + "\n",
        encoding="utf-8")
    os.chmod(build, 0o755)
    if windows:
        bat = build.with_name(build.name[:-len(".sh")] + ".bat")
        bat.write_text(
            "@echo off\r\n"
            f"rem Links {output.name} from the files hanajit-exe wrote beside this "
            "script,\r\n"
            "rem with mingw-w64's gcc on Windows (set HANAJIT_CC to use another).\r\n"
            'cd /d "%~dp0"\r\n'
            'if not defined HANAJIT_CC set "HANAJIT_CC=gcc"\r\n'
            "%HANAJIT_CC% " + " ".join(_bat_quote(f) for f in flags) + "\r\n"
            "exit /b %ERRORLEVEL%\r\n",
            encoding="utf-8")


def _bat_quote(arg: str) -> str:
    return f'"{arg}"' if any(c in arg for c in ' &()^<>|') else arg


def write_executable(artifact, output, *, cuda: str = "off", platform: str = "linux",
                     gpu=None) -> ExecutableExport:
    """Write the artifact's files beside ``output`` and link them if possible;
    ``gpu`` is the one-thread kernel embedded for the CUDA modes."""
    output = Path(output)
    if platform == "windows" and output.suffix.lower() != ".exe":
        output = output.with_name(output.name + ".exe")
    stem = output.name[:-4] if output.name.lower().endswith(".exe") else output.name
    folder = output.parent if str(output.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    obj = folder / f"{stem}.o"
    src = folder / f"{stem}.c"
    build = folder / f"{stem}.build.sh"
    ptx = None
    obj.write_bytes(artifact.stages["obj"])
    src.write_text(generate_main(artifact.metadata["fn"], artifact.metadata["raises"],
                                 program=stem, cuda=cuda, gpu=gpu), encoding="utf-8")
    if gpu is not None:
        ptx = folder / f"{stem}.ptx"
        ptx.write_text(gpu.ptx, encoding="utf-8")

    if platform == "windows":
        cc, env_var, default = toolchain.find_mingw_cc(), "HANAJIT_MINGW_CC", \
            "x86_64-w64-mingw32-gcc"
    else:
        cc, env_var, default = toolchain.find_host_cc(), "HANAJIT_CC", "cc"
    flags = ["-std=c11", "-O2", "-o", output.name, src.name, obj.name, "-lm"]
    if cuda != "off" and platform == "linux":
        flags.append("-ldl")          # dlopen (part of libc from glibc 2.34)
    _write_build_scripts(build, output, flags, cc, env_var, default,
                         platform == "windows")
    if cc is None:
        return ExecutableExport(None, obj, src, build, ptx)
    proc = subprocess.run([*cc, *flags], cwd=folder, capture_output=True, text=True)
    if proc.returncode != 0:
        raise TargetError(f"linking {output} failed ({shlex.join([*cc, *flags])}):\n"
                          f"{proc.stderr.strip()}")
    return ExecutableExport(output, obj, src, build, ptx)
