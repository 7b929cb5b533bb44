"""export_wasm: link with wasm-ld, run with wasmtime and node, compare with the CPU JIT."""
from __future__ import annotations

import importlib.util
import json
import math
import struct
import subprocess
from pathlib import Path

import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit_wasm.toolchain import find_node, find_wasm_ld

needs_ld = pytest.mark.skipif(find_wasm_ld() is None,
                              reason="no wasm-ld (Debian: lld-19; or HANAJIT_WASM_LD)")
needs_wasmtime = pytest.mark.skipif(importlib.util.find_spec("wasmtime") is None,
                                    reason="wasmtime not installed (pip install wasmtime)")
needs_node = pytest.mark.skipif(find_node() is None, reason="node not installed")
DRIVER = Path(__file__).with_name("node_driver.mjs")


@jit
def sum_squares(n):
    total = 0.0
    for i in range(n):
        total += i * i
    return total


@jit
def divmod_like(a, b):
    return a // b, a % b, a > b


@jit
def wave(x, n):
    s = 0.0
    for i in range(n):
        s += math.sin(x * i) * math.exp(-x) + math.log1p(i) + math.atan2(x, i + 1)
    return s


@jit
def flags(a, b):
    return (a and not b) or x_is_big(3.5)


@jit
def x_is_big(x):
    return x > 3.0


@jit
def sin(x):                       # shares its name with the libm import
    return math.sin(x) + 1.0


def ulps(a: float, b: float) -> int:
    ia, ib = (struct.unpack("<q", struct.pack("<d", v))[0] for v in (a, b))
    return abs(ia - ib)


def node_run(mjs, argsets, *flags_):
    proc = subprocess.run([find_node(), *flags_, str(DRIVER), str(Path(mjs).resolve()),
                           json.dumps(argsets)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_files_and_assembly_without_linking(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_WASM_LD", "no-such-wasm-ld")
    out = sum_squares.export_wasm(tmp_path / "ss", sig="i64")
    assert out.wasm is None
    assert "wasm32-unknown-unknown" in out.ll.read_text()
    assert ".functype\tsum_squares (i64) -> (f64)" in out.s.read_text()
    assert "--export=sum_squares" in out.build.read_text()
    assert (tmp_path / "ss.o").read_bytes()[:4] == b"\0asm"
    assert "export default async function load" in out.mjs.read_text()
    text, native = sum_squares.inspect_wasm("i64")
    assert native and "sum_squares:" in text and "f64.add" in text


def test_inspect_after_a_call_and_complex_is_rejected(tmp_path):
    sum_squares(3)
    text, native = sum_squares.inspect_wasm()
    assert native and ".functype\tsum_squares (i64) -> (f64)" in text

    @jit
    def cplx(z):
        return z.imag
    with pytest.raises(UnsupportedError, match="complex"):
        cplx.export_wasm(tmp_path / "c", sig="c128")


@needs_ld
@needs_wasmtime
@pytest.mark.parametrize("bits", [32, 64])
def test_wasmtime_is_bit_identical_with_the_cpu_jit(tmp_path, bits):
    from hanajit_wasm import runtime
    k = runtime.load(wave.export_wasm(tmp_path / "wave", sig="f64, i64", bits=bits))
    for x, n in ((0.3, 40), (-1.25, 7), (2.0, 0)):
        assert k(x, n) == wave(x, n)
    d = runtime.load(divmod_like.export_wasm(tmp_path / "dm", sig="i64, i64", bits=bits))
    for a, b in ((-7, 2), (7, -2), ((1 << 63) - 1, 3)):
        assert d(a, b) == divmod_like(a, b)
    # -2**63 // -1 is 2**63: the CPU JIT re-runs in the interpreter, the export raises
    assert divmod_like(-(1 << 63), -1) == (1 << 63, 0, False)
    with pytest.raises(OverflowError, match=r"beyond int64 \(x // y\)"):
        d(-(1 << 63), -1)
    with pytest.raises(ZeroDivisionError, match="integer division or modulo by zero"):
        d(1, 0)
    assert d(5, 5) == (1, 0, False)           # the error flag is cleared per call


@needs_ld
@needs_wasmtime
def test_bools_calls_and_a_kernel_named_like_libm(tmp_path):
    from hanajit_wasm import runtime
    f = runtime.load(flags.export_wasm(tmp_path / "flags", sig="bool, bool"))
    for a in (True, False):
        for b in (True, False):
            assert f(a, b) is flags(a, b)
    s = runtime.load(sin.export_wasm(tmp_path / "sin", sig="f64"))
    assert s(0.5) == sin(0.5)


@needs_ld
@needs_node
def test_node_runs_the_mjs_loader(tmp_path):
    out = divmod_like.export_wasm(tmp_path / "dm", sig="i64, i64")
    got = node_run(out.mjs, [["-7", "2"], ["1", "0"], [str(-(1 << 63)), "-1"]])
    assert got[0] == ["ok", ["-4", "1", False]]
    assert got[1] == ["raise", "ZeroDivisionError", "integer division or modulo by zero"]
    assert got[2] == ["raise", "OverflowError", "Python int beyond int64 (x // y)"]
    out = sum_squares.export_wasm(tmp_path / "ss", sig="i64")
    assert node_run(out.mjs, [["1000"]]) == [["ok", sum_squares(1000)]]
    out = checked.export_wasm(tmp_path / "checked", sig="i64")
    assert node_run(out.mjs, [["-3"], ["0"], ["2"]]) == [
        ["raise", "IndexError", "index -3 is outside {0..9}"],
        ["raise", "ValueError", "literal braces {} stay"], ["ok", "4"]]


@jit
def checked(n):
    if n < 0:
        raise IndexError(f"index {n} is outside {{0..{n + 12}}}")
    if n == 0:
        raise ValueError("literal braces {} stay")
    return n * 2


@needs_ld
@needs_node
def test_node_math_is_within_two_ulp(tmp_path):
    # JavaScript Math is not glibc: transcendental results may differ by an ulp
    out = wave.export_wasm(tmp_path / "wave", sig="f64, i64")
    cases = [(0.3, 40), (-1.25, 7), (2.0, 0)]
    got = node_run(out.mjs, [[repr(x), str(n)] for x, n in cases])
    for (x, n), (status, value) in zip(cases, got):
        assert status == "ok"
        assert ulps(float(value), wave(x, n)) <= 2 * max(1, n)


@needs_ld
@needs_node
def test_node_wasm64(tmp_path):
    out = sum_squares.export_wasm(tmp_path / "ss64", sig="i64", bits=64)
    assert "-mwasm64" in out.build.read_text()
    got = node_run(out.mjs, [["100"]], "--experimental-wasm-memory64")
    assert got == [["ok", sum_squares(100)]]
