"""Windows x86-64 executables: cross-linked with mingw-w64, run under wine64."""
from __future__ import annotations

import subprocess

import numpy as np

import pytest

from hanajit import jit
from hanajit_exe.toolchain import find_mingw_cc, find_wine, wine_env

pytestmark = [
    pytest.mark.skipif(find_mingw_cc() is None,
                       reason="mingw-w64 not installed (Debian: gcc-mingw-w64-x86-64)"),
    pytest.mark.skipif(find_wine() is None, reason="wine64 not installed (Debian: wine64)"),
]


@jit
def kernel(x, n):
    s = 0.0
    for i in range(n):
        s += (x + i) / (i + 1)
    return s, n // 3, n % -3


def test_windows_executable_runs_under_wine(tmp_path):
    out = kernel.export_executable(tmp_path / "kernel", sig="f64, i64",
                                   platform="windows")
    assert out.executable.name == "kernel.exe"
    assert out.executable.read_bytes()[:2] == b"MZ"
    env = wine_env(tmp_path / "wineprefix")      # first run creates it (~7-12 s)
    proc = subprocess.run([find_wine(), str(out.executable), "2.5", "10"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    s, q, r = proc.stdout.strip().strip("()").split(", ")
    assert (float(s), int(q), int(r)) == kernel(2.5, 10)
    proc = subprocess.run([find_wine(), str(out.executable), "2.5"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 64 and "usage:" in proc.stderr


@jit
def running_mean(a):
    out = np.empty(a.shape[0])
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
        out[i] = s / (i + 1)
    return out


def test_windows_array_program_reads_and_writes_npy(tmp_path):
    out = running_mean.export_executable(tmp_path / "rm", sig="f64[:]",
                                         platform="windows")
    a = np.array([1.5, -2.25, 1e300, 3.0, -0.0])
    np.save(tmp_path / "a.npy", a)
    proc = subprocess.run([find_wine(), str(out.executable), "a.npy", "-o", "o.npy"],
                          capture_output=True, text=True, cwd=tmp_path,
                          env=wine_env(tmp_path / "wineprefix"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = np.load(tmp_path / "o.npy")
    assert got.tobytes() == running_mean(a).tobytes()


def test_windows_cuda_optional_falls_back_to_the_cpu_under_wine(tmp_path):
    out = kernel.export_executable(tmp_path / "kc", sig="f64, i64", platform="windows",
                                   cuda="optional")
    assert out.ptx == tmp_path / "kc.ptx" and "hj_kernel" in out.ptx.read_text()
    src = out.source.read_text()
    assert 'LoadLibraryA(HJ_CUDA_LIB)' in src and '"nvcuda.dll"' in src
    proc = subprocess.run([find_wine(), str(out.executable), "2.5", "10"],
                          capture_output=True, text=True,
                          env=wine_env(tmp_path / "wineprefix"), timeout=120)
    assert proc.returncode == 0, proc.stderr
    s, q, r = proc.stdout.strip().strip("()").split(", ")
    assert (float(s), int(q), int(r)) == kernel(2.5, 10)
    # wine has no usable nvcuda.dll here: one line, then the CPU code
    line = [x for x in proc.stderr.splitlines() if "CUDA" in x]
    assert len(line) == 1 and "CUDA unavailable:" in line[0]
    assert line[0].endswith("; running the CPU code")


def test_windows_export_writes_a_build_bat(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_MINGW_CC", "no-such-mingw")
    out = kernel.export_executable(tmp_path / "kb", sig="f64, i64", platform="windows")
    assert out.executable is None
    bat = (tmp_path / "kb.build.bat").read_bytes()
    assert bat.startswith(b"@echo off\r\n") and b"\r\n" in bat
    lines = bat.decode().splitlines()
    assert 'cd /d "%~dp0"' in lines
    assert "%HANAJIT_CC% -std=c11 -O2 -o kb.exe kb.c kb.o -lm" in lines
    assert "-ldl" not in bat.decode()
