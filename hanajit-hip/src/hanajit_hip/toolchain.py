"""Where AMD's and LLVM's files are: the architectures to compile for, ``ld.lld``
(needed to compile), ROCm's device libraries (needed for math), ``llvm-readelf``
and ``llvm-objdump`` (inspection, tests, doctor) and ``libamdhip64`` (launch).

Nothing here needs a GPU or the HIP runtime.
"""
from __future__ import annotations

import functools
import glob
import os
import re
import shutil
import subprocess

DEFAULT_ARCHS = ("gfx90a", "gfx1100")      # a data-centre and a consumer GPU
LLD_HELP = (
    "AMD code objects are linked with ld.lld 15 or later (code object v5): "
    "`apt-get install lld-19` (or any lld from LLVM 15 on), a ROCm install "
    "(/opt/rocm/llvm/bin/ld.lld), or set HANAJIT_LD_LLD=/path/to/ld.lld")
DEVICE_LIBS_HELP = (
    "kernels using transcendental functions (exp, log, sin, pow ...) need ROCm's "
    "device libraries (ocml.bc, ockl.bc and the oclc_*.bc control files): "
    "`apt-get install rocm-device-libs` (Debian, Ubuntu), a ROCm install "
    "(/opt/rocm/amdgcn/bitcode), or set HANAJIT_ROCM_DEVICE_LIBS=/path/to/bitcode")
# the oldest LLVM whose lld and readelf know code object v5
MIN_LLVM = 15
_ARCH = re.compile(r"gfx(\d{1,2})([0-9a-f])([0-9a-f])")


# -- architectures ---------------------------------------------------------------------
def gpu_archs(options: dict | None = None) -> tuple[str, ...]:
    """The ``gfx`` processors to compile for, in order: ``@jit(gpu_arch=)`` (a
    name, a comma-separated string or a sequence), ``HANAJIT_HIP_ARCH``
    (comma-separated), or gfx90a and gfx1100.  ``ValueError`` for a name that is
    not ``gfx`` followed by the ISA version (gfx90a, gfx942, gfx1100 ...)."""
    value = (options or {}).get("gpu_arch") or os.environ.get("HANAJIT_HIP_ARCH") \
        or DEFAULT_ARCHS
    names = value.split(",") if isinstance(value, str) else list(value)
    archs = []
    for name in names:
        arch = str(name).strip().lower()
        if not _ARCH.fullmatch(arch):
            raise ValueError(f"gpu_arch {name!r} is not an AMD GPU architecture such "
                             "as 'gfx90a' or 'gfx1100'")
        if arch not in archs:
            archs.append(arch)
    if not archs:
        raise ValueError("gpu_arch names no AMD GPU architecture")
    return tuple(archs)


def isa_version(arch: str) -> int:
    """``__oclc_ISA_version`` of ``arch``: major * 1000 + minor * 100 + stepping
    (gfx90a: 9010, gfx1100: 11000)."""
    major, minor, stepping = _ARCH.fullmatch(arch).groups()
    return int(major) * 1000 + int(minor, 16) * 100 + int(stepping, 16)


def wavefront64(arch: str) -> bool:
    """GCN and CDNA (gfx9 and before) run 64-wide wavefronts; RDNA (gfx10 on)
    defaults to 32."""
    return isa_version(arch) < 10000


# -- ROCm device libraries -------------------------------------------------------------
_LIB_DIRS = ("/opt/rocm/amdgcn/bitcode", "/opt/rocm/lib/amdgcn/bitcode",
             "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/usr/lib/amdgcn/bitcode",
             "/usr/lib64/amdgcn/bitcode", "/usr/share/amdgcn/bitcode")


def find_device_libs() -> str | None:
    """The folder holding ``ocml.bc`` and ``ockl.bc``: ``HANAJIT_ROCM_DEVICE_LIBS``,
    ``$ROCM_PATH``/``$HIP_PATH``, /opt/rocm, Debian's ``rocm-device-libs``; None
    if nowhere."""
    env = os.environ.get("HANAJIT_ROCM_DEVICE_LIBS")
    if env:
        return env if _has_libs(env) else None
    dirs = []
    for var in ("ROCM_PATH", "HIP_PATH"):
        if os.environ.get(var):
            root = os.environ[var]
            dirs += [os.path.join(root, "amdgcn", "bitcode"),
                     os.path.join(root, "lib", "amdgcn", "bitcode")]
    dirs += list(_LIB_DIRS)
    dirs += sorted(glob.glob("/opt/rocm-*/amdgcn/bitcode"), reverse=True)
    dirs += sorted(glob.glob("/usr/lib/llvm-*/lib/clang/*/lib/amdgcn/bitcode"),
                   reverse=True)
    return next((d for d in dirs if _has_libs(d)), None)


def _has_libs(folder: str) -> bool:
    return all(os.path.isfile(os.path.join(folder, f)) for f in ("ocml.bc", "ockl.bc"))


# the oclc control constants and the value hanajit needs: Python's float semantics
# (infinities and NaNs, subnormals kept, correctly rounded sqrt)
CONTROLS = (
    ("finite_only", "__oclc_finite_only_opt", "i8", "off"),
    ("unsafe_math", "__oclc_unsafe_math_opt", "i8", "off"),
    ("daz_opt", "__oclc_daz_opt", "i8", "off"),
    ("correctly_rounded_sqrt", "__oclc_correctly_rounded_sqrt32", "i8", "on"),
)
ABI_VERSION = 500          # code object v5 (the kernel model's module flag)


def device_library(folder: str, arch: str) -> tuple[list, str]:
    """What to link for math on ``arch``: the bitcode files (``ocml``, ``ockl``
    and the ``oclc_*`` control files of the choices above, of ``arch``'s ISA
    version and wavefront size, of ABI version 500) and LLVM IR text defining the
    control constants whose file the installation lacks (Debian's 5.2 libraries
    predate gfx11: ``__oclc_ISA_version`` 11000 is written here)."""
    files = [os.path.join(folder, "ocml.bc"), os.path.join(folder, "ockl.bc")]
    missing = []
    wanted = [(f"oclc_{name}_{value}", sym, ty, int(value == "on"))
              for name, sym, ty, value in CONTROLS]
    wanted.append((f"oclc_wavefrontsize64_{'on' if wavefront64(arch) else 'off'}",
                   "__oclc_wavefrontsize64", "i8", int(wavefront64(arch))))
    wanted.append((f"oclc_isa_version_{arch[3:]}", "__oclc_ISA_version", "i32",
                   isa_version(arch)))
    wanted.append((f"oclc_abi_version_{ABI_VERSION}", "__oclc_ABI_version", "i32",
                   ABI_VERSION))
    for stem, sym, ty, value in wanted:
        path = os.path.join(folder, stem + ".bc")
        if os.path.isfile(path):
            files.append(path)
        else:
            missing.append(f"@{sym} = linkonce_odr local_unnamed_addr addrspace(4) "
                           f"constant {ty} {value}, align {1 if ty == 'i8' else 4}")
    return files, "\n".join(missing)


# -- LLVM tools ----------------------------------------------------------------------
def find_lld() -> str | None:
    """``HANAJIT_LD_LLD``, else the newest ``ld.lld`` (15 or later) on PATH or in
    ROCm's LLVM."""
    return _find_tool("ld.lld", "HANAJIT_LD_LLD")


def find_readelf() -> str | None:
    return _find_tool("llvm-readelf", "HANAJIT_LLVM_READELF")


def find_objdump() -> str | None:
    return _find_tool("llvm-objdump", "HANAJIT_LLVM_OBJDUMP")


@functools.lru_cache(maxsize=None)
def _find_tool(name: str, env_var: str) -> str | None:
    env = os.environ.get(env_var)
    if env:
        return env if os.path.isfile(env) else None
    candidates = [f"{name}-{v}" for v in range(30, MIN_LLVM - 1, -1)]
    found = [shutil.which(c) for c in candidates]
    found += [f"/opt/rocm/llvm/bin/{name}", shutil.which(name)]
    for path in found:
        if path and os.path.isfile(path) and llvm_version(path) >= MIN_LLVM:
            return path
    return None


@functools.lru_cache(maxsize=None)
def llvm_version(tool: str) -> int:
    """The LLVM major version a tool reports (``--version``); 0 if it does not run."""
    try:
        out = subprocess.run([tool, "--version"], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 0
    m = re.search(r"(?:LLD|LLVM version) (\d+)\.", out)
    return int(m.group(1)) if m else 0


# -- the HIP runtime -----------------------------------------------------------------
def find_libamdhip64() -> str | None:
    """``HANAJIT_HIP_LIBRARY``, ``$ROCM_PATH``/lib, /opt/rocm/lib, or the
    dynamic loader's ``libamdhip64``; None if nowhere."""
    import ctypes.util
    env = os.environ.get("HANAJIT_HIP_LIBRARY")
    if env:
        return env if os.path.isfile(env) else None
    roots = [os.environ.get("ROCM_PATH"), os.environ.get("HIP_PATH"), "/opt/rocm"]
    for root in filter(None, roots):
        for path in sorted(glob.glob(os.path.join(root, "lib", "libamdhip64.so*"))):
            return path
    return ctypes.util.find_library("amdhip64")
