"""Integer, float and array kernels of every scalar type through both loaders
(wasmtime in Python, the ``.mjs`` loader under node), compared with the CPU JIT
and CPython; the linked modules import nothing but libm (LLVM's closed form of
``s += i * i`` calls ``__multi3``, which ``hanajit_wasm.compiler_rt`` provides)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from hanajit import jit
from hanajit.toolkit import libm
from hanajit_wasm.toolchain import find_node, find_wasm_ld

pytestmark = [
    pytest.mark.skipif(find_wasm_ld() is None,
                       reason="no wasm-ld (Debian: lld-19; or HANAJIT_WASM_LD)"),
    pytest.mark.skipif(importlib.util.find_spec("wasmtime") is None,
                       reason="wasmtime not installed (pip install wasmtime)"),
]
needs_node = pytest.mark.skipif(find_node() is None, reason="node not installed")
DRIVER = Path(__file__).with_name("node_arrays.mjs")

INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
TYPES = INTS + ["f32", "f64", "bool"]
NP = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "u8": np.uint8,
      "u16": np.uint16, "u32": np.uint32, "u64": np.uint64, "f32": np.float32,
      "f64": np.float64, "bool": bool}      # a "bool" signature is Python's bool


@jit
def sum_squares(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


@jit
def sum_cubes(n):
    s = 0
    for i in range(n):
        s += i * i * i
    return s


@jit
def product(a, b):
    return a * b


@jit
def dot(x, y):
    s = x[0] * y[0]
    for i in range(1, x.shape[0]):
        s += x[i] * y[i]
    return s


@jit
def mul_into(x, y):
    for i in range(x.shape[0]):
        x[i] = x[i] * y[i]


def _imports(path, bits):
    import wasmtime
    config = wasmtime.Config()
    config.wasm_memory64 = bits == 64
    module = wasmtime.Module.from_file(wasmtime.Engine(config), str(path))
    return [(i.module, i.name) for i in module.imports]


def _check_imports(out, bits=32):
    allowed = libm.reserved_symbols()
    for mod, name in _imports(out.wasm, bits):
        assert mod == "env" and name in allowed, f"unexpected import {mod}.{name}"


def _values(t):
    if t == "bool":
        return [True, False]
    if t.startswith("f"):
        return [0.0, -1.5, 3.25e10, 1e300 if t == "f64" else 3e38, float("nan")]
    info = np.iinfo(NP[t])
    return [0, 1, -1 if info.min else 2, info.max, info.min, info.max // 3 + 7]


def _node(mjs, calls, bits):
    flags = ["--experimental-wasm-memory64"] if bits == 64 else []
    proc = subprocess.run([find_node(), *flags, str(DRIVER), str(Path(mjs).resolve()),
                           json.dumps(calls)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _js_arg(v, t):
    if isinstance(v, np.ndarray):
        return {"array": t, "shape": list(v.shape), "hex": v.tobytes().hex()}
    if t in ("i64", "u64"):
        return {"big": str(int(v))}
    if t == "bool":
        return bool(v)
    return float(v) if t.startswith("f") else int(v)


def _series(f, n):
    """``f(n)`` of the two series kernels as CPython computes it (exact ints)."""
    return (n - 1) * n * (2 * n - 1) // 6 if f is sum_squares else ((n - 1) * n // 2) ** 2


def _same(got, want):
    """A loader's result (Python or decoded JSON) equals the CPU JIT's."""
    if isinstance(want, (bool, np.bool_)):
        assert isinstance(got, (bool, np.bool_)) and bool(got) is bool(want)
    elif isinstance(want, (float, np.floating)):
        g = float(got)
        assert g == float(want) or (g != g and want != want), (got, want)
    else:
        assert int(got) == int(want), (got, want)


@pytest.mark.parametrize("bits", [32, 64])
@pytest.mark.parametrize("t", INTS)
def test_integer_loops_and_products(tmp_path, t, bits):
    from hanajit_wasm.runtime import load
    ns = [0, 1, 10, 100] + ([1000, 3000000, 10 ** 7] if t in ("i32", "i64", "u32", "u64")
                             else [int(np.iinfo(NP[t]).max)])
    for f in (sum_squares, sum_cubes):
        out = f.export_wasm(tmp_path / f"{f.__name__}_{t}", sig=t, bits=bits)
        _check_imports(out, bits)
        k = load(out)
        # CPython's sums (range() yields Python ints whatever the bound's type), in
        # closed form; the CPU JIT and the interpreter give them for the small n
        wants = [_series(f, n) for n in ns]
        for n, want in zip(ns, wants):
            if n < 10 ** 5:
                _same(f(NP[t](n)), want)
                assert f.py_func(NP[t](n)) == want
        fits = [-(1 << 63) <= w < (1 << 63) for w in wants]
        for n, want, ok in zip(ns, wants, fits):
            # beyond int64 the CPU JIT re-runs in the interpreter; the export, which
            # has none, raises
            if not ok:
                with pytest.raises(OverflowError, match="beyond int64"):
                    k(n)
                continue
            _same(k(n), want)
        if find_node():
            got = _node(out.mjs, [[_js_arg(n, t)] for n in ns], bits)
            for (status, value, _), want, ok in zip(got, wants, fits):
                assert status == ("ok" if ok else "raise"), (status, value)
                if ok:
                    _same(value, want)
    out = product.export_wasm(tmp_path / f"product_{t}", sig=f"{t}, {t}", bits=bits)
    _check_imports(out, bits)
    k = load(out)
    vals = _values(t) + ([1 << 40, -(1 << 40) if t == "i64" else 5, (1 << 62) + 1]
                         if t in ("i64", "u64") else [])
    pairs = [(a, b) for a in vals for b in vals]
    wants = [product(NP[t](a), NP[t](b)) for a, b in pairs]
    # an i64 argument is a Python int: a product beyond int64 raises (no
    # interpreter to re-run in); NumPy's narrower scalars wrap
    fits = [t != "i64" or -(1 << 63) <= a * b < (1 << 63) for a, b in pairs]
    for (a, b), want, ok in zip(pairs, wants, fits):
        if not ok:
            with pytest.raises(OverflowError, match="beyond int64"):
                k(a, b)
            continue
        _same(k(a, b), want)
    if find_node():
        got = _node(out.mjs, [[_js_arg(a, t), _js_arg(b, t)] for a, b in pairs], bits)
        for (status, value, _), want, ok in zip(got, wants, fits):
            assert status == ("ok" if ok else "raise"), (status, value)
            if ok:
                _same(value, want)


@pytest.mark.parametrize("t", ["f32", "f64", "bool"])
def test_float_and_bool_products(tmp_path, t):
    from hanajit_wasm.runtime import load
    out = product.export_wasm(tmp_path / f"product_{t}", sig=f"{t}, {t}")
    _check_imports(out)
    k = load(out)
    pairs = [(a, b) for a in _values(t) for b in _values(t)]
    wants = [product(NP[t](a), NP[t](b)) for a, b in pairs]
    for (a, b), want in zip(pairs, wants):
        _same(k(a, b), want)
        with np.errstate(all="ignore"):
            _same(k(a, b), product.py_func(NP[t](a), NP[t](b)))
    if find_node():
        # JSON has no NaN: node gets the pairs without one
        kept = [(p, w) for p, w in zip(pairs, wants) if p[0] == p[0] and p[1] == p[1]]
        got = _node(out.mjs, [[_js_arg(a, t), _js_arg(b, t)] for (a, b), _ in kept], 32)
        for (status, value, _), (_, want) in zip(got, kept):
            assert status == "ok"
            _same(value, want)


def _arrays(t, n=9):
    rng = np.random.default_rng(3)
    if t == "bool":
        return rng.integers(0, 2, n).astype(np.bool_), rng.integers(0, 2, n).astype(np.bool_)
    if t.startswith("f"):
        return (rng.standard_normal(n).astype(NP[t]) * 1e3,
                rng.standard_normal(n).astype(NP[t]))
    info = np.iinfo(NP[t])
    lo, hi = int(info.min), int(info.max)
    return (rng.integers(lo, hi, n, dtype=NP[t], endpoint=True),
            rng.integers(lo, hi, n, dtype=NP[t], endpoint=True))


@pytest.mark.parametrize("t", TYPES)
def test_array_kernels(tmp_path, t):
    from hanajit_wasm.runtime import load
    x, y = _arrays(t)
    d = dot.export_wasm(tmp_path / f"dot_{t}", sig=f"{t}[:], {t}[:]")
    m = mul_into.export_wasm(tmp_path / f"mul_{t}", sig=f"{t}[:], {t}[:]")
    for out in (d, m):
        _check_imports(out)
    want = dot(x, y)
    with np.errstate(all="ignore"):
        py = dot.py_func(x, y)
    _same(load(d)(x, y), want)
    _same(want, py)
    xw, xj, xp = x.copy(), x.copy(), x.copy()
    load(m)(xw, y)
    mul_into(xj, y)
    with np.errstate(all="ignore"):
        mul_into.py_func(xp, y)
    assert xw.tobytes() == xj.tobytes() == xp.tobytes()
    if find_node():
        [(status, value, _)] = _node(d.mjs, [[_js_arg(x, t), _js_arg(y, t)]], 32)
        assert status == "ok"
        _same(value, want)
        [(status, _, args)] = _node(m.mjs, [[_js_arg(x, t), _js_arg(y, t)]], 32)
        assert status == "ok" and bytes.fromhex(args[0]["hex"]) == xj.tobytes()
