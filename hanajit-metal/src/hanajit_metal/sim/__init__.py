"""The C++ simulation of Metal: generated MSL compiled by g++ against
``metal_sim.h`` (Metal's types, address spaces, built-ins and atomics mapped onto
C++), the grid run in loops and threads (see the header).

:func:`build` turns a kernel's MSL into a shared library with one C entry,
``hj_sim_launch(void **buffers, const unsigned *dims, const size_t *tg_sizes)``,
cached on disk by the hash of the source, the header and the compiler; a
precompiled header keeps each build to about a second.  ``driver.SimDriver``
runs it behind the generic launcher.
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from hanajit.errors import TargetError

HERE = Path(__file__).parent
HEADER = HERE / "metal_sim.h"
FLAGS = ("-std=c++20", "-O1", "-fPIC", "-pthread", "-Wno-attributes",
         "-ffp-contract=off", "-fno-fast-math")
_ATTRIBUTE = re.compile(r"\[\[[^\]]*\]\]")
_lock = threading.Lock()
_loaded: dict = {}


def find_compiler() -> str | None:
    """g++ (``HANAJIT_METAL_SIM_CXX`` overrides), or None."""
    return os.environ.get("HANAJIT_METAL_SIM_CXX") or shutil.which("g++")


def find_clang() -> str | None:
    """clang++ for the address-space check (``HANAJIT_METAL_SIM_CLANG`` overrides),
    or None."""
    found = os.environ.get("HANAJIT_METAL_SIM_CLANG")
    if found:
        return found
    for name in ["clang++"] + [f"clang++-{v}" for v in range(22, 13, -1)]:
        found = shutil.which(name)
        if found:
            return found
    return None


def check_address_spaces(msl: str) -> None:
    """Compile the MSL with clang (``-fsyntax-only``) with Metal's address spaces
    as clang address spaces (``HJ_STRICT_ADDRESS_SPACES`` in the header): a
    ``threadgroup`` pointer where a ``device`` one is expected, or a ``device``
    pointer passed as a ``thread`` one, is an error as in Metal
    (``metal_strict.h``).  TargetError with
    clang's messages; needs :func:`find_clang`."""
    clang = find_clang()
    if clang is None:
        raise TargetError("the address-space check needs clang++ (or "
                          "HANAJIT_METAL_SIM_CLANG): not found")
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        src = Path(tmp) / "kernel.cpp"
        src.write_text(cxx_source(msl, wrapper=False))
        _run([clang, "-std=c++20", "-fsyntax-only", "-Wno-unknown-attributes",
              "-Wno-parentheses-equality", "-DHJ_STRICT_ADDRESS_SPACES", "-I",
              str(HERE), str(src)])


def cxx_source(msl: str, buffers: int = 0, shared: int = 0, barriers: bool = False,
               wrapper: bool = True) -> str:
    """The MSL as C++: attributes (``[[buffer(0)]]`` ...) removed -- g++ would
    read ``[[threadgroup(0)]]`` through the ``threadgroup`` macro -- and the C
    entry that runs the grid appended."""
    text = _ATTRIBUTE.sub("", msl)
    if not wrapper:
        return text
    args = [f"hjsim::ptr{{b[{i}]}}" for i in range(buffers)]
    args += [f"hjsim::ptr{{s[{i}]}}" for i in range(shared)]
    args += ["t", "g", "bd", "gd"]
    return text + (
        '\nextern "C" int hj_sim_launch(void **b, const unsigned *d, const size_t *tg) {\n'
        "    return hjsim::run(uint3{d[0], d[1], d[2]}, uint3{d[3], d[4], d[5]}, tg, "
        f"{shared}, {'true' if barriers else 'false'},\n"
        "        [&](uint3 t, uint3 g, uint3 bd, uint3 gd, void **s) {\n"
        f"            hj_kernel({', '.join(args)});\n"
        "        });\n}\n")


def cache_dir() -> Path:
    uid = os.getuid() if hasattr(os, "getuid") else 0
    root = os.environ.get("HANAJIT_METAL_SIM_CACHE") or os.path.join(
        tempfile.gettempdir(), f"hanajit-metal-sim-{uid}")
    path = Path(root)
    path.mkdir(parents=True, exist_ok=True)
    return path


def _compiler() -> str:
    cxx = find_compiler()
    if cxx is None:
        raise TargetError("the Metal simulation needs g++ (or HANAJIT_METAL_SIM_CXX): "
                          "not found")
    return cxx


def _version(cxx) -> str:
    return subprocess.run([cxx, "--version"], capture_output=True, text=True,
                          timeout=60).stdout


def precompiled_header(cxx: str, flags=FLAGS) -> Path:
    """A directory holding ``metal_sim.h``, its ``metal_stdlib`` and a precompiled
    ``metal_sim.h.gch`` for ``flags``."""
    key = hashlib.sha256((HEADER.read_text() + _version(cxx) + " ".join(flags))
                         .encode()).hexdigest()[:16]
    d = cache_dir() / f"pch-{key}"
    gch = d / "metal_sim.h.gch"
    if not gch.exists():
        tmp = Path(tempfile.mkdtemp(dir=cache_dir()))
        for name in ("metal_sim.h", "metal_stdlib"):
            shutil.copy(HERE / name, tmp / name)
        _run([cxx, *flags, "-x", "c++-header", str(tmp / "metal_sim.h"), "-o",
              str(tmp / "metal_sim.h.gch")])
        try:
            tmp.rename(d)
        except OSError:                 # another process made it first
            shutil.rmtree(tmp, ignore_errors=True)
    return d


def _run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if proc.returncode:
        raise TargetError(f"the Metal simulation could not compile the kernel "
                          f"({' '.join(cmd[:1])}):\n{proc.stderr[-4000:]}")


def compile_cxx(source: str, output: Path | None, syntax_only: bool = False) -> None:
    """Compile C++ from :func:`cxx_source` into ``output`` (a shared library), or
    only check it (``syntax_only``); TargetError with g++'s messages."""
    cxx = _compiler()
    inc = precompiled_header(cxx)
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        src = Path(tmp) / "kernel.cpp"
        src.write_text(source)
        cmd = [cxx, *FLAGS, "-I", str(inc), "-include", str(inc / "metal_sim.h"),
               str(src)]
        _run(cmd + (["-fsyntax-only"] if syntax_only else ["-shared", "-o", str(output)]))


def build(msl: str, buffers: int, shared: int, barriers: bool):
    """The ``hj_sim_launch`` function of a kernel (ctypes), compiled once per
    source (cached on disk and in this process)."""
    source = cxx_source(msl, buffers, shared, barriers)
    key = hashlib.sha256("\0".join((source, HEADER.read_text(), " ".join(FLAGS),
                                    find_compiler() or "")).encode()).hexdigest()[:24]
    with _lock:
        fn = _loaded.get(key)
        if fn is not None:
            return fn
        so = cache_dir() / f"kernel-{key}.so"
        if not so.exists():
            part = so.with_suffix(f".{os.getpid()}.part")
            compile_cxx(source, part)
            os.replace(part, so)
        lib = ctypes.CDLL(str(so))
        fn = lib.hj_sim_launch
        fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        fn.restype = ctypes.c_int
        fn.library = lib
        _loaded[key] = fn
        return fn
