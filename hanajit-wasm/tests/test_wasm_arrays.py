"""export_wasm with array arguments and results: linear memory, the module's
allocator, wasmtime (Python) and node (.mjs loader), compared with the CPU JIT."""
from __future__ import annotations

import importlib.util
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.array_kernels import (cumsum, floordiv_all, halves, product_sum,
                                          rowsum, scale, stats)
from hanajit_wasm.toolchain import find_node, find_wasm_ld

pytestmark = [
    pytest.mark.skipif(find_wasm_ld() is None,
                       reason="no wasm-ld (Debian: lld-19; or HANAJIT_WASM_LD)"),
    pytest.mark.skipif(importlib.util.find_spec("wasmtime") is None,
                       reason="wasmtime not installed (pip install wasmtime)"),
]
needs_node = pytest.mark.skipif(find_node() is None, reason="node not installed")
DRIVER = Path(__file__).with_name("node_arrays.mjs")


SIGS = {cumsum: "f64[:]", scale: "f64[:], f64", rowsum: "f64[:, :]",
        floordiv_all: "i64[:], i64", stats: "i32[:]", halves: "f32[:]",
        product_sum: "f64[:], f64[:]"}


@pytest.fixture(scope="module", params=[32, 64], ids=["wasm32", "wasm64"])
def mods(request, tmp_path_factory):
    from hanajit_wasm.runtime import load
    d = tmp_path_factory.mktemp(f"wasm_arrays{request.param}")
    exports = {f.__name__: f.export_wasm(d / f.__name__, sig=s, bits=request.param)
               for f, s in SIGS.items()}
    return {n: load(e) for n, e in exports.items()}, exports, request.param


def same(got, want):
    assert isinstance(got, np.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


@settings(max_examples=25, deadline=None)
@given(a=hnp.arrays(np.float64, st.integers(0, 30),
                    elements=st.floats(allow_nan=True, allow_infinity=True)))
def test_cumsum_returns_a_new_array_bit_for_bit(mods, a):
    k, _, _ = mods
    same(k["cumsum"](a), cumsum(a))


def test_in_place_scale_changes_the_callers_array(mods):
    k, _, _ = mods
    a = np.array([1.5, -2.0, 0.0, -0.0, np.nan, 7e-310])
    want = a.copy()
    scale(want, -3.25)
    assert k["scale"](a, -3.25) is None
    same(a, want)


@pytest.mark.parametrize("order", ["C", "F", "view", "empty"])
def test_2d_row_sum(mods, order):
    k, _, _ = mods
    m = np.random.default_rng(2).standard_normal((6, 5))
    m = {"C": m, "F": np.asfortranarray(m), "view": m[::2, 1::2],
         "empty": np.zeros((0, 4))}[order]
    same(k["rowsum"](m), rowsum(m))


@settings(max_examples=25, deadline=None)
@given(a=hnp.arrays(np.int64, st.integers(0, 10),
                    elements=st.integers(-2**63, 2**63 - 1)),
       k=st.integers(-2**63, 2**63 - 1).filter(bool))
def test_integer_floor_division_on_negatives(mods, a, k):
    mod, _, _ = mods
    same(mod["floordiv_all"](a, k), floordiv_all(a, k))


def test_element_division_by_zero_is_numpys(mods):
    # a[i] // 0 of a NumPy integer is 0 (NumPy's scalar semantics), as in CPython
    k, _, _ = mods
    with np.errstate(divide="ignore"):
        want = floordiv_all.py_func(np.arange(3), 0)
    same(k["floordiv_all"](np.arange(3), 0), want)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 700), seed=st.integers(0, 2**32 - 1))
def test_sum_of_an_expression_is_numpys_pairwise_sum(mods, n, seed):
    k, _, _ = mods
    rng = np.random.default_rng(seed)
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    assert k["product_sum"](a, b) == product_sum.py_func(a, b)


def test_tuple_with_bool_array_scalar_and_view(mods):
    k, _, _ = mods
    a = np.array([3, -1, 0, 2**31 - 1, -2**31, 5, 7], dtype=np.int32)
    got, want = k["stats"](a), stats(a)
    same(got[0], want[0])
    assert got[1] == want[1]
    same(got[2], want[2])


def test_float32_and_uint8_results(mods):
    k, _, _ = mods
    a = np.array([1.5, -0.0, 3.4028235e38, 1e-45, np.nan], dtype=np.float32)
    for g, w in zip(k["halves"](a), halves(a)):
        same(g, w)


def test_memory_is_reused_across_calls(mods):
    k, _, _ = mods
    a = np.arange(100_000, dtype=np.float64)
    k["cumsum"](a)
    mod = k["cumsum"]
    pages = mod._memory.size(mod.store)
    for _ in range(20):
        same(mod(a), cumsum(a))
    assert mod._memory.size(mod.store) == pages


def test_wrong_array_type_is_a_type_error(mods):
    k, _, _ = mods
    with pytest.raises(TypeError, match="expected a 1-d float64 array"):
        k["cumsum"](np.arange(3))


def _short(dtype) -> str:
    dtype = np.dtype(dtype)
    return "bool" if dtype.kind == "b" else f"{dtype.kind}{dtype.itemsize * 8}"


def _node(export, bits, calls):
    enc = [[{"array": _short(a.dtype), "shape": list(a.shape),
             "hex": np.ascontiguousarray(a).tobytes().hex()}
            if isinstance(a, np.ndarray) else a for a in call] for call in calls]
    flags = ["--experimental-wasm-memory64"] if bits == 64 else []
    proc = subprocess.run([find_node(), *flags, str(DRIVER), str(export.mjs),
                           json.dumps(enc)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _dec(v, dtype):
    return np.frombuffer(bytes.fromhex(v["hex"]), dtype=dtype).reshape(v["shape"])


@needs_node
def test_node_loader_copies_arrays_in_and_out(mods):
    _, ex, bits = mods
    a = np.array([1.5, -2.0, 3.25, 1e300, -0.0, np.nan, np.inf])
    m = np.random.default_rng(3).standard_normal((4, 3))
    [(ok, r, _)] = _node(ex["cumsum"], bits, [[a]])
    assert ok == "ok"
    same(_dec(r, np.float64), cumsum(a))
    [(ok, r, args)] = _node(ex["scale"], bits, [[a, 2.5]])
    want = a.copy()
    scale(want, 2.5)
    assert r is None
    same(_dec(args[0], np.float64), want)
    [(ok, r, _)] = _node(ex["rowsum"], bits, [[m]])
    same(_dec(r, np.float64), rowsum(m))
    i = np.array([3, -1, 0, 2**31 - 1, -2**31, 5, 7], dtype=np.int32)
    [(ok, (pos, total, view), _)] = _node(ex["stats"], bits, [[i]])
    pw, tw, vw = stats(i)
    same(_dec(pos, np.bool_), pw)
    assert int(total) == tw
    same(_dec(view, np.int32), vw)
    f = np.array([1.5, -0.0, 3.4028235e38, 1e-45], dtype=np.float32)
    [(ok, (lo, hi), _)] = _node(ex["halves"], bits, [[f]])
    same(_dec(lo, np.float32), halves(f)[0])
    same(_dec(hi, np.uint8), halves(f)[1])
    res = _node(ex["floordiv_all"], bits,
                [[np.array([-7, 7, -2**63], dtype=np.int64), {"big": "-2"}],
                 [np.array([1], dtype=np.int64), {"big": "0"}]])
    same(_dec(res[0][1], np.int64),
         floordiv_all(np.array([-7, 7, -2**63], dtype=np.int64), -2))
    assert res[1][0] == "ok"
    same(_dec(res[1][1], np.int64), np.zeros(1, np.int64))      # NumPy's a[i] // 0


def test_complex_arrays_are_rejected(tmp_path):
    @jit
    def first(z):
        return z[0].real
    with pytest.raises(UnsupportedError, match="complex"):
        first.export_wasm(tmp_path / "c", sig="c128[:]")
