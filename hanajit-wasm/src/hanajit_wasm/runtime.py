"""Run an exported ``.wasm`` in Python through wasmtime (``pip install wasmtime``).

The libm imports are bound to the C library's own functions through ctypes, so a
module run here computes exactly what the CPU JIT computes (the same glibc
``sin``, ``exp`` ...); JavaScript's ``Math`` may differ by an ulp or two.

NumPy arrays are copied into linear memory (``hanajit_alloc``) before the call
and back into the caller's array after it, so in-place kernels behave as on the
CPU; array results are copied out into fresh ndarrays, then released.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import json
import math
from pathlib import Path

from hanajit.errors import TargetError, kernel_exception, kernel_message_fields

_LIBM = None


def _libm():
    global _LIBM
    if _LIBM is None:
        name = ctypes.util.find_library("m")
        _LIBM = ctypes.CDLL(name) if name else ctypes.CDLL(None)
    return _LIBM


def _import_function(name: str, params: list, results: list):
    """A Python function with C semantics for the libm import ``name``."""
    ctype = {"f64": ctypes.c_double, "f32": ctypes.c_float}
    try:
        cfn = getattr(_libm(), name)
    except AttributeError:
        cfn = None
    if cfn is not None and all(p in ctype for p in params + results):
        cfn.restype = ctype[results[0]]
        cfn.argtypes = [ctype[p] for p in params]
        return cfn
    fallback = getattr(math, name.rstrip("f") if name.endswith("f") and len(name) > 3
                       else name, None)
    if fallback is None:
        raise TargetError(f"wasm import env.{name} has no C library function")
    return fallback


def _kind(valtype) -> str:
    return str(valtype).lower()


class WasmKernel:
    """A loaded module: call it like the jitted function."""

    def __init__(self, wasm_path, manifest: dict):
        import wasmtime

        self.manifest = manifest
        config = wasmtime.Config()
        if manifest.get("bits") == 64:
            config.wasm_memory64 = True
        engine = wasmtime.Engine(config)
        self.store = wasmtime.Store(engine)
        module = wasmtime.Module.from_file(engine, str(wasm_path))
        imports = []
        for imp in module.imports:
            ft = imp.type
            if imp.module != "env" or not isinstance(ft, wasmtime.FuncType):
                raise TargetError(f"unexpected wasm import {imp.module}.{imp.name}")
            fn = _import_function(imp.name, [_kind(p) for p in ft.params],
                                  [_kind(r) for r in ft.results])
            imports.append(wasmtime.Func(self.store, ft, fn))
        self.instance = wasmtime.Instance(self.store, module, imports)
        ex = self.instance.exports(self.store)
        name = manifest["symbol"]
        self._fn = ex[name]
        self._error = ex[f"{name}_error"]
        self._error_arg = ex.get(f"{name}_error_arg")
        self._i64 = ex.get(f"{name}_result_i64")
        self._f64 = ex.get(f"{name}_result_f64")
        self._memory = ex.get("memory")
        self._alloc = ex.get("hanajit_alloc")
        self._free = ex.get("hanajit_free")
        self._release = ex.get("hanajit_release")

    # -- linear memory helpers -------------------------------------------------
    def copy_in(self, array) -> int:
        """Copy a C-contiguous ndarray into a fresh block; return its address."""
        import numpy as np
        data = np.ascontiguousarray(array).tobytes()
        addr = self._alloc(self.store, len(data))
        if not addr:
            raise MemoryError("wasm linear memory cannot grow")
        self._memory.write(self.store, data, addr)
        return addr

    def copy_out(self, addr: int, dtype, shape, strides):
        """A fresh C-ordered ndarray from a strided array at ``addr``."""
        import numpy as np
        dtype = np.dtype(dtype)
        if any(n == 0 for n in shape):
            return np.empty(shape, dtype)
        lo = sum(min(0, (n - 1) * st) for n, st in zip(shape, strides))
        hi = sum(max(0, (n - 1) * st) for n, st in zip(shape, strides)) + dtype.itemsize
        raw = self._memory.read(self.store, addr + lo, addr + hi)
        view = np.ndarray(shape, dtype, buffer=raw, offset=-lo, strides=strides)
        return np.array(view, order="C")

    def __call__(self, *args):
        params = self.manifest["params"]
        if len(args) != len(params):
            raise TypeError(f"{self.manifest['function']}() takes {len(params)} "
                            f"arguments ({len(args)} given)")
        wargs, blocks = [], []
        try:
            for a, (pname, t) in zip(args, params):
                if isinstance(t, dict):
                    wargs += self._array_arg(a, pname, t, blocks)
                else:
                    wargs.append(_to_wasm(a, t))
            value = self._fn(self.store, *wargs)
            for arr, addr in blocks:      # in-place changes reach the caller
                if arr.flags.writeable:
                    arr[...] = self.copy_out(addr, arr.dtype, arr.shape,
                                             _c_strides(arr.shape, arr.itemsize))
            code = self._error(self.store)
            if code:
                exc_name, message = self.manifest["raises"][code - 1]
                ints = [self._error_arg(self.store, k)
                        for k in range(kernel_message_fields(message))] \
                    if self._error_arg is not None else []
                exc = _exception_class(exc_name)
                raise kernel_exception(exc, message, ints)
            result = self.manifest["result"]
            if isinstance(result, list):
                return self._read_tuple(result, [0])
            if isinstance(result, dict):
                return self._read_tuple([result], [0])[0]
            return _from_wasm(value, result)
        finally:
            for _, addr in blocks:
                self._free(self.store, addr)

    def _array_arg(self, a, pname, t, blocks) -> list:
        import numpy as np
        dtype = np.dtype(_NP_DTYPES[t["array"]])
        if not isinstance(a, np.ndarray) or a.dtype != dtype or a.ndim != t["ndim"]:
            got = (f"{a.dtype}[{a.ndim}-d]" if isinstance(a, np.ndarray)
                   else type(a).__name__)
            raise TypeError(f"{self.manifest['function']}() argument {pname!r}: "
                            f"expected a {t['ndim']}-d {dtype} array, got {got}")
        addr = self.copy_in(a)
        blocks.append((a, addr))
        shape = list(a.shape)
        return [addr] + shape + _c_strides(a.shape, a.itemsize)

    def _read_array(self, t, pos):
        import numpy as np
        n = t["ndim"]
        slots = [self._i64(self.store, pos[0] + k) for k in range(2 + 2 * n)]
        pos[0] += 2 + 2 * n
        meminfo, data = slots[0], slots[1]
        out = self.copy_out(data, _NP_DTYPES[t["array"]], tuple(slots[2:2 + n]),
                            tuple(slots[2 + n:]))
        if meminfo:
            self._release(self.store, meminfo)
        return np.asarray(out)

    def _read_tuple(self, types, pos):
        out = []
        for t in types:
            if isinstance(t, dict):
                out.append(self._read_array(t, pos))
            elif isinstance(t, list):
                out.append(self._read_tuple(t, pos))
            elif t == "none":
                out.append(None)
            else:
                k = pos[0]
                pos[0] += 1
                if t in ("f64", "f32"):
                    out.append(self._f64(self.store, k))
                else:
                    out.append(_from_slot(self._i64(self.store, k), t))
        return tuple(out)


_NP_DTYPES = {"bool": "bool", "f64": "<f8", "f32": "<f4", "i64": "<i8", "i32": "<i4",
              "i16": "<i2", "i8": "i1", "u64": "<u8", "u32": "<u4", "u16": "<u2",
              "u8": "u1"}


def _c_strides(shape, itemsize) -> list:
    out, step = [], itemsize
    for n in reversed(shape):
        out.append(step)
        step *= max(n, 1)
    return out[::-1]


def _to_wasm(value, t: str):
    if t == "bool":
        return 1 if value else 0
    if t in ("f64", "f32"):
        return float(value)
    v = int(value)
    if t == "u64" and v >= 1 << 63:
        v -= 1 << 64
    if t == "u32" and v >= 1 << 31:
        v -= 1 << 32
    return v


def _from_wasm(value, t: str):
    if t == "none":
        return None
    if t == "bool":
        return bool(value)
    if t == "u64" and value < 0:
        return value + (1 << 64)
    if t == "u32" and value < 0:
        return value + (1 << 32)
    return value


def _from_slot(value, t: str):
    if t == "bool":
        return bool(value)
    if t.startswith("u") and value < 0:
        return value + (1 << 64)
    return value


def _exception_class(name: str):
    """The class a manifest's raise names, as Python's traceback spells it
    (``ZeroDivisionError``, ``numpy.linalg.LinAlgError``)."""
    import builtins
    import importlib
    module, _, attr = name.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module) if module else builtins, attr, None)
    except ImportError:
        cls = None
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return cls
    return type(attr, (RuntimeError,), {})


def load(prefix_or_export) -> WasmKernel:
    """Load ``<prefix>.wasm`` with its ``<prefix>.json`` manifest (a path prefix or
    the ``WasmExport`` that ``export_wasm`` returned)."""
    wasm = getattr(prefix_or_export, "wasm", None)
    if wasm is None and hasattr(prefix_or_export, "mjs"):
        raise TargetError("the module was not linked (no wasm-ld); run the build "
                          "script first")
    base = Path(wasm) if wasm is not None else Path(str(prefix_or_export) + ".wasm")
    manifest = json.loads(base.with_suffix(".json").read_text(encoding="utf-8"))
    return WasmKernel(base, manifest)
