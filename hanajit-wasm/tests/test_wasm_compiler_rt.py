"""The compiler-runtime helpers (``hanajit_wasm.compiler_rt``) linked into modules:
128-bit arithmetic and conversions checked against Python's integers through
wasmtime, and the exported ``.wasm`` imports nothing but libm."""
from __future__ import annotations

import importlib.util
import random
import subprocess

import pytest

from hanajit_wasm import compiler_rt
from hanajit_wasm.codegen import TRIPLES
from hanajit_wasm.emit import emit_in_subprocess
from hanajit_wasm.toolchain import find_wasm_ld

pytestmark = [
    pytest.mark.skipif(find_wasm_ld() is None, reason="no wasm-ld (Debian: lld-19)"),
    pytest.mark.skipif(importlib.util.find_spec("wasmtime") is None,
                       reason="wasmtime not installed (pip install wasmtime)"),
]

M64 = (1 << 64) - 1
INT_OPS = {"mul": "mul", "sdiv": "sdiv", "udiv": "udiv", "srem": "srem",
           "urem": "urem", "shl": "shl", "lshr": "lshr", "ashr": "ashr"}


def _pair(name):
    return (f"  %{name}l = zext i64 %{name}lo to i128\n  %{name}h0 = zext i64 %{name}hi to i128\n"
            f"  %{name}h = shl i128 %{name}h0, 64\n  %{name} = or i128 %{name}l, %{name}h\n")


def _half(v, which):
    return (f"  %sh = lshr i128 {v}, 64\n  %hw = trunc i128 %sh to i64\n"
            f"  %lw = trunc i128 {v} to i64\n  %o = select i1 {which}, i64 %hw, i64 %lw\n"
            "  ret i64 %o\n")


def _module() -> str:
    text = ""
    for name, op in INT_OPS.items():
        text += (f"define i64 @t_{name}(i64 %alo, i64 %ahi, i64 %blo, i64 %bhi, i32 %w) {{\n"
                 + _pair("a") + _pair("b") + f"  %r = {op} i128 %a, %b\n"
                 "  %hi = icmp ne i32 %w, 0\n" + _half("%r", "%hi") + "}\n")
    for name, (op, fty) in {"sitofp_d": ("sitofp", "double"), "uitofp_d": ("uitofp", "double"),
                            "sitofp_f": ("sitofp", "float"),
                            "uitofp_f": ("uitofp", "float")}.items():
        text += (f"define {fty} @t_{name}(i64 %alo, i64 %ahi) {{\n" + _pair("a")
                 + f"  %r = {op} i128 %a to {fty}\n  ret {fty} %r\n}}\n")
    for name, (op, fty) in {"fptosi_d": ("fptosi", "double"), "fptoui_d": ("fptoui", "double"),
                            "fptosi_f": ("fptosi", "float"),
                            "fptoui_f": ("fptoui", "float")}.items():
        text += (f"define i64 @t_{name}({fty} %x, i32 %w) {{\n"
                 f"  %r = {op} {fty} %x to i128\n  %hi = icmp ne i32 %w, 0\n"
                 + _half("%r", "%hi") + "}\n")
    return text


@pytest.fixture(scope="module", params=[32, 64])
def rt(request, tmp_path_factory):
    import wasmtime
    bits = request.param
    folder = tmp_path_factory.mktemp(f"rt{bits}")
    out = emit_in_subprocess(_module(), TRIPLES[bits], want=("s", "o"))
    assert {"__multi3", "__divti3", "__udivti3", "__modti3", "__umodti3", "__ashlti3",
            "__lshrti3", "__ashrti3", "__floattidf", "__floatuntidf", "__floattisf",
            "__floatuntisf", "__fixdfti", "__fixunsdfti", "__fixsfti",
            "__fixunssfti"} <= set(compiler_rt.PUBLIC)
    (folder / "rt.o").write_bytes(out["o"])
    exports = [f"--export=t_{n}" for n in list(INT_OPS) + [
        "sitofp_d", "uitofp_d", "sitofp_f", "uitofp_f",
        "fptosi_d", "fptoui_d", "fptosi_f", "fptoui_f"]]
    proc = subprocess.run([*find_wasm_ld(), *(["-mwasm64"] if bits == 64 else []),
                           "rt.o", "-o", "rt.wasm", "--no-entry", "--fatal-warnings",
                           *exports], cwd=folder, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    config = wasmtime.Config()
    config.wasm_memory64 = bits == 64
    engine = wasmtime.Engine(config)
    store = wasmtime.Store(engine)
    module = wasmtime.Module.from_file(engine, str(folder / "rt.wasm"))
    assert list(module.imports) == []
    ex = wasmtime.Instance(store, module, []).exports(store)
    return lambda name, *a: ex[f"t_{name}"](store, *a)


def _s64(v):
    v &= M64
    return v - (1 << 64) if v >> 63 else v


def _split(v):
    return _s64(v), _s64(v >> 64)


def _s128(v):
    v &= (1 << 128) - 1
    return v - (1 << 128) if v >> 127 else v


def _samples(rng, n=150):
    edge = [0, 1, 2, 3, M64, 1 << 64, (1 << 64) + 1, (1 << 127) - 1, 1 << 127,
            (1 << 128) - 1, (1 << 63) - 1, 1 << 63, 10 ** 30, 6, 7]
    vals = edge + [rng.getrandbits(rng.choice((8, 32, 63, 64, 65, 100, 127, 128)))
                   for _ in range(n)]
    return vals


def _c_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def test_integer_helpers_match_python(rt):
    rng = random.Random(7)
    vals = _samples(rng)
    mask = (1 << 128) - 1
    for a in vals:
        for b in rng.sample(vals, 12):
            sa, sb = _s128(a), _s128(b)
            want = {"mul": a * b, "shl": a << (b % 128), "lshr": a >> (b % 128),
                    "ashr": sa >> (b % 128)}
            if b:
                want.update(udiv=a // b, urem=a % b)
                if not (sa == -(1 << 127) and sb == -1):
                    q = _c_div(sa, sb)
                    want.update(sdiv=q, srem=sa - q * sb)
            for name, value in want.items():
                arg_b = b % 128 if name in ("shl", "lshr", "ashr") else b
                got = [rt(name, *_split(a), *_split(arg_b), w) & M64 for w in (0, 1)]
                assert got[0] | (got[1] << 64) == value & mask, (name, a, b)


def test_conversions_match_python(rt):
    import numpy as np
    rng = random.Random(11)
    for a in _samples(rng, 300):
        sa = _s128(a)
        assert rt("uitofp_d", *_split(a)) == float(a)
        assert rt("sitofp_d", *_split(a)) == float(sa)
        # float32: round the exact integer once (float(int) would round twice)
        assert rt("uitofp_f", *_split(a)) == _f32(a)
        assert rt("sitofp_f", *_split(a)) == (-_f32(-sa) if sa < 0 else _f32(sa))
    for x in [0.0, 0.5, 1.0, -1.5, 2.0 ** 63, 2.0 ** 64, 1e30, -1e30, 2.0 ** 127 - 2 ** 74,
              -2.0 ** 127, 123456789.987, *(rng.uniform(-1e38, 1e38) for _ in range(200))]:
        want = int(x)
        got = [rt("fptosi_d", x, w) & M64 for w in (0, 1)]
        assert _s128(got[0] | (got[1] << 64)) == want
        if x >= 0:
            got = [rt("fptoui_d", x, w) & M64 for w in (0, 1)]
            assert got[0] | (got[1] << 64) == want
        x32 = float(np.float32(x))           # 2**127 - 2**74 rounds up to 2**127
        if abs(x32) >= 2.0 ** 127:
            continue
        got = [rt("fptosi_f", x32, w) & M64 for w in (0, 1)]
        assert _s128(got[0] | (got[1] << 64)) == int(x32)
        if x32 >= 0:
            got = [rt("fptoui_f", x32, w) & M64 for w in (0, 1)]
            assert got[0] | (got[1] << 64) == int(x32)


def _f32(v: int) -> float:
    """The float32 nearest the non-negative integer ``v`` (ties to even), exactly."""
    import numpy as np
    if v == 0:
        return 0.0
    shift = max(0, v.bit_length() - 24)
    m, rest = v >> shift, v & ((1 << shift) - 1)
    half = 1 << (shift - 1) if shift else 0
    if shift and (rest > half or (rest == half and m & 1)):
        m += 1
    out = m * 2.0 ** shift
    return float(np.float32(out)) if out < 2.0 ** 128 else float("inf")


def test_helpers_are_linked_only_when_called():
    from hanajit_wasm.emit import emit_in_subprocess as emit
    plain = emit("define i64 @f(i64 %a, i64 %b) {\n  %r = mul i64 %a, %b\n  ret i64 %r\n}\n",
                 TRIPLES[32], want=("s",))["s"]
    assert "__multi3" not in plain and "hj_rt" not in plain
    wide = emit("define i64 @f(i64 %a, i64 %b) {\n  %x = sext i64 %a to i128\n"
                "  %y = sext i64 %b to i128\n  %r = mul i128 %x, %y\n  %s = lshr i128 %r, 64\n"
                "  %t = trunc i128 %s to i64\n  ret i64 %t\n}\n", TRIPLES[32], want=("s",))["s"]
    assert "__multi3:" in wide and "__divti3" not in wide
