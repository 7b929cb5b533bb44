"""NumPy's own SIMD math functions, called by compiled code for the elements of
NumPy's ufunc loops (``hanajit.lowering.numpy_loops``).

On x86-64 hosts with AVX-512 many of NumPy's float loops call SVML, Intel's
vector math library built into ``_multiarray_umath`` and exported from it:
``np.power`` calls ``__svml_pow8_ha`` (eight float64 values a call) and
``__svml_powf16`` (sixteen float32 values), ``np.tan``, ``np.arcsin``,
``np.log10``, ``np.expm1``, ``np.cbrt``, ``np.arctan2`` ... theirs, whose
results differ from the C library's in the last bits for a few percent of the
inputs.  Compiled code calls the same functions for those ufuncs, so
``a ** b``, ``np.tan(a)`` ... give NumPy's bits, as fast as NumPy (the loop
vectorises with the SVML function as its vector variant).

Before use, each function is checked once per process: where the engine's CPU
has AVX-512 (the functions take ``zmm`` registers), the symbol is exported and a
small compiled loop calling it -- a vector of eight or sixteen values at a time,
and one value in every lane -- gives the ufunc's result bit for bit on a sample
of random and special values.  Otherwise (AVX2 hosts, where NumPy's loop is the
C library's function; a ufunc NumPy computes with code of its own; a NumPy built
without SVML; ``NPY_DISABLE_CPU_FEATURES`` taking AVX-512 away) the table has no
entry and the function is the C library's, in vector loops libmvec's
(``vecmath.py``).  The code holds the symbols, not
addresses: a process that loads it from the disk cache resolves them in its own
NumPy (:func:`imports_for`).
"""
from __future__ import annotations

import ctypes
import functools
import os
import re

# intrinsic -> (NumPy's ufunc, SVML's name); each is tried in float64 (eight
# lanes, SVML's "_ha" version, as NumPy calls it) and float32 (sixteen lanes)
_UFUNCS = {
    "pow": ("power", "pow"), "atan2": ("arctan2", "atan2"), "tan": ("tan", "tan"),
    "asin": ("arcsin", "asin"), "acos": ("arccos", "acos"), "atan": ("arctan", "atan"),
    "sinh": ("sinh", "sinh"), "cosh": ("cosh", "cosh"), "tanh": ("tanh", "tanh"),
    "asinh": ("arcsinh", "asinh"), "acosh": ("arccosh", "acosh"),
    "atanh": ("arctanh", "atanh"), "exp": ("exp", "exp"), "exp2": ("exp2", "exp2"),
    "expm1": ("expm1", "expm1"), "log": ("log", "log"), "log2": ("log2", "log2"),
    "log10": ("log10", "log10"), "log1p": ("log1p", "log1p"), "cbrt": ("cbrt", "cbrt"),
    "sin": ("sin", "sin"), "cos": ("cos", "cos"),
}
# the ufuncs NumPy 2 computes with code of its own, or the C library's, in each
# type (its float16 loops call SVML's float32 sin, cos, exp, log and tanh, but
# not its float32 loops).  They are never offered: a sample cannot tell two
# accurate float32 functions apart (NumPy's own float32 tanh gives SVML's bits
# on the probe's values), where a function NumPy does call always passes
_OWN = {"float64": {"sin", "cos", "tanh"},
        "float32": {"sin", "cos", "tanh", "exp", "log"}}
# (intrinsic, dtype name) -> (lanes, NumPy's vector function, the ufunc it serves);
# each is used only once :func:`checked` on this host
FUNCTIONS = {}
for _intr, (_ufunc, _svml) in _UFUNCS.items():
    if _intr not in _OWN["float64"]:
        FUNCTIONS[_intr, "float64"] = (8, f"__svml_{_svml}8_ha", _ufunc)
    if _intr not in _OWN["float32"]:
        FUNCTIONS[_intr, "float32"] = (16, f"__svml_{_svml}f16", _ufunc)
_BINARY = {"pow", "atan2"}
_SYMBOL = re.compile(r'@"?(__svml_\w+)"?')


@functools.cache
def _library():
    """NumPy's ``_multiarray_umath`` (already loaded: the same handle), or None."""
    try:
        import numpy._core._multiarray_umath as mu
        return ctypes.CDLL(mu.__file__)
    except Exception:                   # noqa: BLE001 - no such module or file
        return None


def address(name: str) -> int | None:
    lib = _library()
    if lib is None or not hasattr(lib, name):
        return None
    return ctypes.cast(getattr(lib, name), ctypes.c_void_p).value


class Table:
    """``LLVMTargetInfo.numpy_loops`` for an engine: each function checked on the
    first request for it (:func:`checked`)."""

    def __init__(self, engine):
        self.engine = engine

    def get(self, key):
        if key not in FUNCTIONS or not enabled() or not _has_avx512(self.engine.isa_features):
            return None
        lanes, name, _ = FUNCTIONS[key]
        return (lanes, name) if checked(self.engine, key) else None


def offered(intrinsic: str, dtype: str = "float64") -> bool:
    """Does compiled code call NumPy's own SIMD function for ``intrinsic`` in
    ``dtype`` on this host (the process's engine; checked as :class:`Table` does)?"""
    from .engine import get_engine
    return Table(get_engine()).get((intrinsic, dtype)) is not None


def enabled() -> bool:
    """Off with ``HANAJIT_NUMPY_SIMD=0``, and with ``HANAJIT_VECMATH=0`` (no vector
    math at all: the C library's functions everywhere)."""
    return (os.environ.get("HANAJIT_NUMPY_SIMD", "1") != "0"
            and os.environ.get("HANAJIT_VECMATH", "1") != "0")


def _has_avx512(features: str) -> bool:
    return "+avx512f" in features.split(",")


@functools.cache
def checked(engine, key) -> bool:
    """Does NumPy's function for ``key`` give ``np.<ufunc>``'s bits, in vector
    blocks and alone in a vector?  (Compiled and run once per process.)"""
    import numpy as np
    lanes, name, ufunc = FUNCTIONS[key]
    addr = address(name)
    if addr is None:
        return False
    dtype = np.dtype(key[1])
    ty = {"float64": "double", "float32": "float"}[key[1]]
    nargs = 2 if key[0] in _BINARY else 1
    try:
        obj = engine.compile_object(_probe_ir(name, ty, lanes, nargs), speed=0)[1]
        keep, found = engine.link(obj, ["hj_probe_blocks", "hj_probe_lanes"],
                                  imports={name: addr})
    except Exception:                   # noqa: BLE001 - then the C library's
        return False
    kind = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                            ctypes.c_int64)
    x, y = _samples(np, dtype, lanes)
    with np.errstate(all="ignore"):
        want = getattr(np, ufunc)(*((x, y) if nargs == 2 else (x,)))
    for fn in ("hj_probe_blocks", "hj_probe_lanes"):
        for shift in (0, 1):            # every value in two lanes of a block
            got = np.empty_like(x)
            n = (len(x) - shift) // lanes * lanes
            kind(found[fn])(x[shift:].ctypes.data, y[shift:].ctypes.data,
                            got[shift:].ctypes.data, n)
            g, w = got[shift:shift + n], want[shift:shift + n]
            # (bit for bit; a NaN for a NaN, whose payload is not promised:
            # docs/semantics.md -- NumPy's expm1 keeps a signalling NaN's bit)
            if not ((g.view(kind_of(g)) == w.view(kind_of(w)))
                    | (np.isnan(g) & np.isnan(w))).all():
                return False
    _KEEP.append(keep)
    return True


_KEEP: list = []


def kind_of(a):
    """The unsigned integer type of ``a``'s item size (its bits)."""
    import numpy as np
    return np.uint64 if a.itemsize == 8 else np.uint32


def _samples(np, dtype, lanes):
    """Random pairs over a wide range (both signs, small and large magnitudes:
    every function's domain and beyond) and every pair of special values, a
    multiple of ``lanes`` long plus one."""
    rng = np.random.default_rng(20261207)
    n = 4096
    sign = np.where(rng.random(n // 4) < 0.5, -1.0, 1.0)
    x = np.concatenate([rng.random(n // 4) * 10.0, rng.uniform(-1.5, 1.5, n // 4),
                        sign * 10.0 ** rng.uniform(-30, 30, n // 4),
                        rng.uniform(-800, 800, n // 4)])
    y = np.concatenate([rng.standard_normal(n // 2) * 8.0, rng.uniform(-60, 60, n // 2)])
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0,
               -3.0, 1.5, -1.5, 1e300, 1e-300, 5e-324, 1e30, 0.999999, 1.000001]
    sx, sy = zip(*[(p, q) for p in special for q in special])
    # and random bit patterns: every binade, subnormals, NaNs with payloads
    kind = np.uint64 if dtype.itemsize == 8 else np.uint32
    bits = rng.integers(0, np.iinfo(kind).max, (2, 16384), dtype=kind, endpoint=True)
    with np.errstate(all="ignore"):
        x = np.concatenate([x.astype(dtype), np.array(sx, dtype), bits[0].view(dtype),
                            np.full(lanes, 0.75, dtype)])
        y = np.concatenate([y.astype(dtype), np.array(sy, dtype), bits[1].view(dtype),
                            np.full(lanes, 2.5, dtype)])
    m = len(x) // lanes * lanes + 1
    return x[:m].copy(), y[:m].copy()


def _probe_ir(name: str, ty: str, lanes: int, nargs: int) -> str:
    """``hj_probe_blocks(x, y, out, n)``: ``n`` (a multiple of ``lanes``) values,
    a vector at a time; ``hj_probe_lanes``: one value in every lane at a time
    (``y`` is read, and passed when the function takes two arguments)."""
    v = f"<{lanes} x {ty}>"
    zeros = f"<{lanes} x i32> zeroinitializer"
    params = f"{v}, {v}" if nargs == 2 else v
    call = f"  %r = call {v} @{name}({v} %vx, {v} %vy)" if nargs == 2 else \
        f"  %r = call {v} @{name}({v} %vx)"
    blocks = f"""  %vx = load {v}, ptr %px, align 4
  %vy = load {v}, ptr %py, align 4
{call}
  store {v} %r, ptr %po, align 4"""
    one = f"""  %sx = load {ty}, ptr %px
  %sy = load {ty}, ptr %py
  %ix = insertelement {v} undef, {ty} %sx, i32 0
  %iy = insertelement {v} undef, {ty} %sy, i32 0
  %vx = shufflevector {v} %ix, {v} undef, {zeros}
  %vy = shufflevector {v} %iy, {v} undef, {zeros}
{call}
  %s = extractelement {v} %r, i32 0
  store {ty} %s, ptr %po"""
    return (f"declare {v} @{name}({params}) nounwind readnone\n"
            + _probe_loop("hj_probe_blocks", ty, lanes, blocks)
            + _probe_loop("hj_probe_lanes", ty, 1, one))


def _probe_loop(fn: str, ty: str, step: int, body: str) -> str:
    """``fn(x, y, out, n)``: ``body`` at ``i`` = 0, ``step``, ... below ``n``
    (``%px``, ``%py``, ``%po``: the items at ``i``)."""
    return f"""
define void @{fn}(ptr %x, ptr %y, ptr %o, i64 %n) {{
entry:
  %none = icmp eq i64 %n, 0
  br i1 %none, label %done, label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %px = getelementptr {ty}, ptr %x, i64 %i
  %py = getelementptr {ty}, ptr %y, i64 %i
  %po = getelementptr {ty}, ptr %o, i64 %i
{body}
  %next = add i64 %i, {step}
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}}
"""


def imports_for(llvm_text: str) -> dict:
    """Addresses of NumPy's functions an optimised module calls (a clear error
    when this process's NumPy lacks one: code from another host's cache)."""
    out = {}
    for name in sorted(set(_SYMBOL.findall(llvm_text))):
        addr = address(name)
        if addr is None:
            raise RuntimeError(f"compiled code calls NumPy's {name}, which this "
                               "process's NumPy does not export; recompile (clear "
                               "the cache)")
        out[name] = addr
    return out


def cache_env() -> tuple:
    """What NumPy's choice of SIMD loops depends on besides the CPU and NumPy's
    version (both already in the cache key)."""
    return (("npy_disable_cpu_features", os.environ.get("NPY_DISABLE_CPU_FEATURES", "")),
            ("numpy_simd", os.environ.get("HANAJIT_NUMPY_SIMD", "1")))
