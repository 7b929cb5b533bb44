"""Where NVIDIA's files are: libdevice (needed to compile), ptxas (tests, doctor).

Nothing here needs a GPU or a driver.
"""
from __future__ import annotations

import glob
import importlib.util
import os
import re
import shutil

DEFAULT_ARCH = "sm_75"
LIBDEVICE_HELP = (
    "kernels using transcendental functions (exp, log, sin, pow ...) need NVIDIA's "
    "libdevice bitcode: `pip install nvidia-nvvm` (CUDA 13) or "
    "`pip install nvidia-cuda-nvcc-cu12`, install a CUDA toolkit, or set "
    "HANAJIT_LIBDEVICE=/path/to/libdevice.10.bc")


def gpu_arch(options: dict | None = None) -> str:
    """The ``sm_XX`` to compile for: ``@jit(gpu_arch=)``, ``HANAJIT_CUDA_ARCH``, or
    sm_75.  ``ValueError`` for anything else than ``sm_<digits>[a]``."""
    arch = (options or {}).get("gpu_arch") or os.environ.get("HANAJIT_CUDA_ARCH") \
        or DEFAULT_ARCH
    arch = str(arch).strip()
    if re.fullmatch(r"\d+", arch):
        arch = "sm_" + arch
    if not re.fullmatch(r"sm_\d{2,3}a?", arch):
        raise ValueError(f"gpu_arch {arch!r} is not a CUDA architecture such as "
                         "'sm_75'")
    return arch


def _site_dirs() -> list:
    dirs = []
    spec = importlib.util.find_spec("nvidia")
    if spec is not None and spec.submodule_search_locations:
        dirs += list(spec.submodule_search_locations)
    return dirs


def find_libdevice() -> str | None:
    """``HANAJIT_LIBDEVICE``, NVIDIA's pip wheels (nvidia-nvvm, nvidia-cuda-nvcc-cu12),
    ``$CUDA_HOME``/``$CUDA_PATH``, /usr/local/cuda*; None if nowhere."""
    env = os.environ.get("HANAJIT_LIBDEVICE")
    if env:
        return env if os.path.isfile(env) else None
    candidates = []
    for d in _site_dirs():
        candidates += sorted(glob.glob(os.path.join(d, "*", "nvvm", "libdevice",
                                                    "libdevice*.bc")))
        candidates += sorted(glob.glob(os.path.join(d, "nvvm", "libdevice",
                                                    "libdevice*.bc")))
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            candidates.append(os.path.join(os.environ[var], "nvvm", "libdevice",
                                           "libdevice.10.bc"))
    candidates.append("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc")
    candidates += sorted(glob.glob("/usr/local/cuda-*/nvvm/libdevice/libdevice.10.bc"),
                         reverse=True)
    for path in candidates:
        if os.path.isfile(path):
            return path
    return None


def find_ptxas() -> str | None:
    """``HANAJIT_PTXAS``, ``ptxas`` on PATH, /usr/local/cuda/bin, NVIDIA's wheels."""
    env = os.environ.get("HANAJIT_PTXAS")
    if env:
        return env if os.path.isfile(env) else None
    found = shutil.which("ptxas")
    if found:
        return found
    candidates = ["/usr/local/cuda/bin/ptxas"]
    for d in _site_dirs():
        candidates += glob.glob(os.path.join(d, "*", "bin", "ptxas"))
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None
