"""Run an exported ``.wasm`` in Python through wasmtime (``pip install wasmtime``).

The libm imports are bound to the C library's own functions through ctypes, so a
module run here computes exactly what the CPU JIT computes (the same glibc
``sin``, ``exp`` ...); JavaScript's ``Math`` may differ by an ulp or two.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import json
import math
from pathlib import Path

from hanajit.errors import TargetError

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
        self._i64 = ex.get(f"{name}_result_i64")
        self._f64 = ex.get(f"{name}_result_f64")

    def __call__(self, *args):
        params = self.manifest["params"]
        if len(args) != len(params):
            raise TypeError(f"{self.manifest['function']}() takes {len(params)} "
                            f"arguments ({len(args)} given)")
        wargs = [_to_wasm(a, t) for a, (_, t) in zip(args, params)]
        value = self._fn(self.store, *wargs)
        code = self._error(self.store)
        if code:
            exc_name, message = self.manifest["raises"][code - 1]
            exc = _exception_class(exc_name)
            raise exc(message)
        result = self.manifest["result"]
        if isinstance(result, list):
            return self._read_tuple(result, [0])
        return _from_wasm(value, result)

    def _read_tuple(self, types, pos):
        out = []
        for t in types:
            if isinstance(t, list):
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
    import builtins
    cls = getattr(builtins, name, None)
    if isinstance(cls, type) and issubclass(cls, BaseException):
        return cls
    return type(name, (RuntimeError,), {})


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
