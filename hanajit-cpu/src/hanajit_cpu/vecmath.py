"""Vector math for the CPU target: glibc's libmvec behind LLVM's loop vectoriser.

exp uses hanajit's own gather-free vector functions instead (``vexp.py``).

The CPU target tells core's lowering (``LLVMTargetInfo.vector_variants``) which
vector function implements each scalar math call at each vector width; core writes
that as the call's ``vector-function-abi-variant`` attribute, and LLVM's loop
vectoriser then calls e.g. ``_ZGVeN8v_exp`` (8 doubles, AVX-512) instead of eight
scalar ``exp`` calls.  The scalar remainder of a loop still calls libm.

Accuracy: libmvec's functions are within 4 ulp of the exact result (glibc's
documented bound; measured and asserted by ``tests/test_cpu_vector_math.py``) and
handle nan, inf and signed zeros as libm does.  ``docs/vector-math.md`` has the
statement and the measured figures.

Only the host CPU target uses this; exporters (C/LLVM output, wasm, fpga) keep
scalar libm calls.  Without libmvec (not glibc, or ``HANAJIT_VECMATH=0``) the table
is empty and every call stays scalar.
"""
from __future__ import annotations

import ctypes
import os
import re

# (libmvec name, scalar callee in the lowered IR for float64, number of arguments).
# "llvm" callees are the LLVM intrinsics core lowers to; pow goes through the
# target's opaque name (see target.py); the others are plain libm calls.
FUNCTIONS = (
    ("exp", "llvm.exp", 1), ("log", "llvm.log", 1), ("sin", "llvm.sin", 1),
    ("cos", "llvm.cos", 1), ("tan", "llvm.tan", 1), ("tanh", "llvm.tanh", 1),
    ("sinh", "llvm.sinh", 1), ("cosh", "llvm.cosh", 1), ("asin", "llvm.asin", 1),
    ("acos", "llvm.acos", 1), ("atan", "llvm.atan", 1), ("exp2", "llvm.exp2", 1),
    ("log2", "llvm.log2", 1), ("log10", "llvm.log10", 1), ("atan2", "llvm.atan2", 2),
    ("pow", "hj.libm.pow", 2), ("expm1", "expm1", 1), ("log1p", "log1p", 1),
    ("cbrt", "cbrt", 1), ("asinh", "asinh", 1), ("acosh", "acosh", 1),
    ("atanh", "atanh", 1), ("erf", "erf", 1), ("erfc", "erfc", 1),
    ("hypot", "hypot", 2),
)

# vector ISA letter of the x86-64 vector function ABI -> (f64 lanes, f32 lanes);
# the widest first: LLVM picks the variant matching the vector width it chose
ISAS = (("e", 8, 16), ("d", 4, 8), ("b", 2, 4))

_LIBMVEC_NAMES = ("libmvec.so.1", "libmvec.so")
_lib = None
_table = None


def libmvec():
    """The loaded libmvec (``RTLD_GLOBAL``), or None when there is none."""
    global _lib
    if _lib is None:
        _lib = False
        for name in _LIBMVEC_NAMES:
            try:
                _lib = ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
                break
            except OSError:
                continue
    return _lib or None


def host_isas(features: str) -> list[str]:
    """The vector ISAs of :data:`ISAS` the host can run, from LLVM's feature string."""
    have = {f[1:] for f in features.split(",") if f.startswith("+")}
    out = []
    if "avx512f" in have:
        out.append("e")
    if "avx2" in have:
        out.append("d")
    if "sse4.1" in have or "sse2" in have:
        out.append("b")
    return out


def vector_variants(features: str) -> dict:
    """scalar callee name -> ((lanes, vector function name), ...) for this host.

    Only functions whose vector symbol libmvec really exports are listed (an
    unresolved symbol would link to address 0).  Empty without libmvec or with
    ``HANAJIT_VECMATH=0``.
    """
    global _table
    key = (features, os.environ.get("HANAJIT_VECMATH", "1"))
    if _table is not None and _table[0] == key:
        return _table[1]
    table: dict = {}
    lib = None if key[1] == "0" else libmvec()
    if lib is not None:
        isas = host_isas(features)
        for base, callee, nargs in FUNCTIONS:
            params = "v" * nargs
            for suffix, lanes_at, fsuffix in ((".f64", 1, ""), (".f32", 2, "f")):
                scalar = callee + suffix if callee.startswith("llvm.") else callee + fsuffix
                variants = []
                for isa in isas:
                    lanes = next(row for row in ISAS if row[0] == isa)[lanes_at]
                    vname = f"_ZGV{isa}N{lanes}{params}_{base}{fsuffix}"
                    if hasattr(lib, vname):
                        variants.append((lanes, vname))
                if variants:
                    table[scalar] = tuple(variants)
        if "e" in isas or "d" in isas:        # exp: hanajit's own, gather-free (vexp.py)
            from .vexp import VARIANTS
            table.update(VARIANTS)
    _table = (key, table)
    return table


def own_addresses(cached: bool = False) -> dict:
    """Addresses of hanajit's own vector functions (vexp.py), linked once per
    process and never freed (``runtimes.py``; with ``cached``, from the disk
    cache's copy when LLVM is not running)."""
    from . import runtimes
    return runtimes.addresses("vexp", cached)


_VNAME = re.compile(r"@\"?(_ZGV[bcde]N\d+v+_\w+)\"?")


def imports_for(llvm_text: str, cached: bool = False) -> dict:
    """Addresses of the libmvec functions an optimised module calls."""
    names = set(_VNAME.findall(llvm_text))
    if not names:
        return {}
    out = {}
    if any("_hjexp" in n for n in names):
        own = own_addresses(cached)
        out = {n: own[n] for n in names if n in own}
        names -= set(out)
    lib = libmvec()
    missing = sorted(n for n in names if lib is None or not hasattr(lib, n))
    if missing:         # e.g. a cached object from a glibc host loaded elsewhere
        raise RuntimeError("compiled code calls the vector math function(s) "
                           f"{', '.join(missing)}, which this process's libmvec does "
                           "not provide; recompile (clear the cache)")
    out.update({n: ctypes.cast(getattr(lib, n), ctypes.c_void_p).value for n in names})
    return out
