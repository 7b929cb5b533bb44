"""Linking with wasm-ld, else clang as the linker driver (``HANAJIT_WASM_CLANG`` or
``clang`` on PATH), and the build script for whichever was found.  No clang is
needed: a fake ``clang`` records its arguments and forwards to wasm-ld."""
from __future__ import annotations

import importlib.util
import os
import shlex
import subprocess

import pytest

from hanajit import jit
from hanajit_wasm import toolchain

WASM_LD = toolchain.find_wasm_ld()
pytestmark = [
    pytest.mark.skipif(WASM_LD is None, reason="no wasm-ld for the fake clang to call"),
    pytest.mark.skipif(importlib.util.find_spec("wasmtime") is None,
                       reason="wasmtime not installed (pip install wasmtime)"),
]


@jit
def sum_squares(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def fake_clang(folder, name="clang"):
    """A ``clang`` that writes its arguments to ``clang.args`` beside itself and
    links with wasm-ld (``-Wl,X`` -> ``X``, ``--target=wasm64`` -> ``-mwasm64``)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(
        "#!/bin/sh\n"
        'printf "%s\\n" "$@" > "${0%/*}/clang.args"\n'
        'out=""\n'
        'for a in "$@"; do\n'
        '  case "$a" in\n'
        '    --target=wasm64*) out="$out -mwasm64" ;;\n'
        '    --target=*|-nostdlib) ;;\n'
        '    -Wl,*) out="$out ${a#-Wl,}" ;;\n'
        '    *) out="$out $a" ;;\n'
        '  esac\n'
        'done\n'
        f"exec {shlex.join(WASM_LD)} $out\n")
    path.chmod(0o755)
    return path


def _run(out, n):
    from hanajit_wasm import runtime
    return runtime.load(out)(n)


@pytest.fixture
def no_vars(monkeypatch):
    monkeypatch.delenv("HANAJIT_WASM_LD", raising=False)
    monkeypatch.delenv("HANAJIT_WASM_CLANG", raising=False)
    return monkeypatch


@pytest.mark.parametrize("bits", [32, 64])
def test_hanajit_wasm_clang_links(tmp_path, no_vars, bits):
    clang = fake_clang(tmp_path / "bin")
    no_vars.setenv("HANAJIT_WASM_CLANG", str(clang))
    assert toolchain.find_linker() == ("clang", [str(clang)])
    out = sum_squares.export_wasm(tmp_path / "out" / "ss", sig="i64", bits=bits)
    args = (tmp_path / "bin" / "clang.args").read_text().split("\n")[:-1]
    assert args == [f"--target=wasm{bits}", "-nostdlib", "-Wl,--no-entry",
                    "-Wl,--allow-undefined", "-Wl,--export=sum_squares",
                    "-Wl,--export=sum_squares_error", "-Wl,--export=sum_squares_error_arg",
                    "ss.o", "-o", "ss.wasm"]
    script = out.build.read_text()
    assert f"{clang} --target=wasm{bits} -nostdlib -Wl,--no-entry" in script
    assert "wasm-ld" not in script.splitlines()[-1]
    assert _run(out, 1000) == sum_squares(1000)
    out.wasm.unlink()                       # the script reproduces the link
    subprocess.run([str(out.build)], check=True)
    assert _run(out, 77) == sum_squares(77)


def test_clang_on_path_when_no_wasm_ld(tmp_path, no_vars):
    fake_clang(tmp_path / "bin")
    no_vars.setenv("PATH", str(tmp_path / "bin"))
    assert toolchain.find_wasm_ld() is None
    linker = toolchain.find_linker()
    assert linker.kind == "clang" and linker.argv == [str(tmp_path / "bin" / "clang")]
    out = sum_squares.export_wasm(tmp_path / "ss", sig="i64")
    assert (tmp_path / "bin" / "clang.args").read_text().startswith("--target=wasm32\n")
    assert _run(out, 10) == 285


def test_wasm_ld_comes_first(tmp_path, no_vars):
    fake_clang(tmp_path / "bin")
    no_vars.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.path.dirname(WASM_LD[0])}")
    no_vars.setenv("HANAJIT_WASM_LD", shlex.join(WASM_LD))
    assert toolchain.find_linker().kind == "wasm-ld"
    out = sum_squares.export_wasm(tmp_path / "ss", sig="i64")
    assert not (tmp_path / "bin" / "clang.args").exists()
    assert out.build.read_text().splitlines()[-1].startswith(shlex.join(WASM_LD) + " ss.o")
    # a variable naming a missing program links nothing rather than with clang
    no_vars.setenv("HANAJIT_WASM_LD", "no-such-wasm-ld")
    assert toolchain.find_linker() is None


def test_without_a_linker_the_script_picks_one(tmp_path, no_vars):
    (tmp_path / "empty").mkdir()
    no_vars.setenv("PATH", str(tmp_path / "empty"))
    out = sum_squares.export_wasm(tmp_path / "ss", sig="i64")
    assert out.wasm is None
    script = out.build.read_text()
    assert "${HANAJIT_WASM_LD:-wasm-ld} ss.o -o ss.wasm --no-entry" in script
    assert "${HANAJIT_WASM_CLANG:-clang} --target=wasm32 -nostdlib" in script
    clang = fake_clang(tmp_path / "bin")
    env = {**os.environ, "PATH": f"{tmp_path / 'bin'}{os.pathsep}/usr/bin{os.pathsep}/bin"}
    env.pop("HANAJIT_WASM_LD", None)
    subprocess.run(["/bin/sh", str(out.build)], check=True, env=env)
    if not any(os.access(os.path.join(d, "wasm-ld"), os.X_OK) for d in ("/usr/bin", "/bin")):
        assert (clang.parent / "clang.args").exists()
    assert _run(tmp_path / "ss", 12) == sum_squares(12)


def test_status_and_doctor_name_the_linker(tmp_path, no_vars):
    from hanajit.doctor import Report
    from hanajit_wasm.target import WasmTarget
    clang = fake_clang(tmp_path / "bin")
    no_vars.setenv("HANAJIT_WASM_CLANG", str(clang))
    assert WasmTarget().status() == (True, f"links with clang ({clang})")
    report = Report()
    WasmTarget().doctor(report)
    checks = {c.name: c for g in report.groups.values() for c in g.checks}
    linker = checks["wasm: linker (wasm-ld, else clang)"]
    assert linker.ok and linker.detail == f"clang: {clang}"
    no_vars.delenv("HANAJIT_WASM_CLANG")
    no_vars.setenv("PATH", str(tmp_path / "nothing"))
    report = Report()
    WasmTarget().doctor(report)
    checks = {c.name: c for g in report.groups.values() for c in g.checks}
    assert checks["wasm: linker (wasm-ld, else clang)"].ok is None
