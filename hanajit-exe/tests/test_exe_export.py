"""export_executable: build real programs, run them, compare with the CPU JIT."""
from __future__ import annotations

import math
import os
import subprocess

import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit_exe import ExecutableExport
from hanajit_exe.toolchain import find_host_cc

needs_cc = pytest.mark.skipif(find_host_cc() is None,
                              reason="no host C compiler (cc, gcc, clang, HANAJIT_CC)")


@jit
def compound(x, years):
    for _ in range(years):
        x *= 1.05
    return x


@jit
def divmod_like(a, b):
    return a // b, a % b, a > b


@jit
def wave(x, n):
    s = 0.0
    for i in range(n):
        s += math.sin(x * i) * math.exp(-x) + math.sqrt(i)
    return s


@jit
def flags(a, b, c):
    if c:
        return a and b
    return a or not b


@jit
def narrow(a, b):
    return a + b


@jit
def nothing(x):
    return None


@jit
def one(x):
    return (x,)


def run(out: ExecutableExport, *args, **kw):
    return subprocess.run([str(out.executable), *map(str, args)], capture_output=True,
                          text=True, timeout=30, **kw)


@needs_cc
def test_float_loop_matches_the_cpu_jit_bit_for_bit(tmp_path):
    out = compound.export_executable(tmp_path / "compound", sig="f64, i64")
    assert out.executable == tmp_path / "compound" and out.ptx is None
    assert out.object.exists() and out.source.exists() and out.build.exists()
    proc = run(out, 1000, 10)
    assert proc.returncode == 0, proc.stderr
    assert float(proc.stdout) == compound(1000.0, 10)
    assert proc.stdout == repr(compound(1000.0, 10)) + "\n"     # as Python prints it


@needs_cc
def test_math_functions_are_bit_identical(tmp_path):
    out = wave.export_executable(tmp_path / "wave", sig="f64, i64")
    for x, n in ((0.3, 50), (-1.25, 7), (2.0, 0)):
        proc = run(out, repr(x), n)
        assert proc.returncode == 0, proc.stderr
        assert float(proc.stdout) == wave(x, n)


@needs_cc
def test_tuples_bools_and_python_floor_division(tmp_path):
    out = divmod_like.export_executable(tmp_path / "dm", sig="i64, i64")
    for a, b in ((-7, 2), (7, -2), (5, 5)):
        proc = run(out, a, b)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == repr(divmod_like(a, b))
    # -2**63 // -1 is 2**63: no interpreter to re-run in, so an OverflowError
    proc = run(out, -9223372036854775808, -1)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == "OverflowError: Python int beyond int64 (x // y)"


@needs_cc
def test_a_raise_prints_the_exception_and_exits_1(tmp_path):
    out = divmod_like.export_executable(tmp_path / "dm", sig="i64, i64")
    proc = run(out, 7, 0)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.strip() == "ZeroDivisionError: integer division or modulo by zero"


@needs_cc
@pytest.mark.parametrize("args", [(), ("1",), ("1", "2", "3"), ("x", "2"), ("1.5", "2"),
                                  ("9223372036854775808", "1"), ("", "1")])
def test_wrong_arity_or_text_exits_64(tmp_path, args):
    out = divmod_like.export_executable(tmp_path / "dm", sig="i64, i64")
    proc = run(out, *args)
    assert proc.returncode == 64
    assert "usage:" in proc.stderr


@needs_cc
def test_bool_arguments_and_result(tmp_path):
    out = flags.export_executable(tmp_path / "flags", sig="bool, bool, bool")
    for a in (True, False):
        for b in (True, False):
            for c in (True, False):
                proc = run(out, a, b, c)
                assert proc.stdout.strip() == repr(flags(a, b, c))
    assert run(out, "true", "0", "1").stdout.strip() == repr(flags(True, False, True))
    assert run(out, "yes", "0", "1").returncode == 64


@needs_cc
def test_narrow_integers_range_check_and_wrap(tmp_path):
    out = narrow.export_executable(tmp_path / "narrow", sig="i8, i8")
    assert run(out, 100, 27).stdout.strip() == "127"
    assert run(out, 128, 0).returncode == 64


@needs_cc
def test_none_one_tuple_and_special_floats(tmp_path):
    assert run(nothing.export_executable(tmp_path / "n", sig="f64"), 1).stdout == "None\n"
    out = one.export_executable(tmp_path / "one", sig="f64")
    assert run(out, 1).stdout == "(1.0,)\n"
    assert run(out, "-inf").stdout == "(-inf,)\n"
    assert run(out, "nan").stdout == "(nan,)\n"
    assert run(out, "0.1").stdout == "(0.1,)\n"


@needs_cc
def test_export_after_a_call_uses_the_compiled_signature(tmp_path):
    @jit
    def halve(n):
        return n // 2
    halve(10)
    out = halve.export_executable(tmp_path / "halve")
    assert run(out, -5).stdout.strip() == "-3"


@needs_cc
def test_cuda_modes(tmp_path):
    req = compound.export_executable(tmp_path / "req", sig="f64, i64", cuda="required")
    proc = run(req, 1, 2)
    assert proc.returncode == 70 and "CUDA is required" in proc.stderr
    assert run(req, 1).returncode == 64          # arguments are checked first
    # (test_exe_cuda.py covers the CUDA modes in detail)
    opt = compound.export_executable(tmp_path / "opt", sig="f64, i64", cuda=True,
                                     cuda_arch="sm_90")
    assert float(run(opt, 1000, 3).stdout) == compound(1000.0, 3)
    assert opt.ptx == tmp_path / "opt.ptx" and ".target sm_90" in opt.ptx.read_text()
    with pytest.raises(ValueError, match="cuda must be"):
        compound.export_executable(tmp_path / "bad", sig="f64, i64", cuda="always")


def test_without_a_compiler_the_build_script_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_CC", "no-such-compiler-anywhere")
    out = compound.export_executable(tmp_path / "compound", sig="f64, i64")
    assert out.executable is None
    script = out.build.read_text()
    assert "compound.c" in script and "compound.o" in script and "-lm" in script
    assert "main(int argc" in out.source.read_text()
    assert out.object.read_bytes()[:4] == b"\x7fELF"
    monkeypatch.delenv("HANAJIT_CC")
    cc = find_host_cc()
    if cc is None:
        return
    # the script builds the same program once a compiler is there
    subprocess.run(["sh", str(out.build)], check=True, capture_output=True,
                   env={**os.environ, "HANAJIT_CC": cc[0]})
    proc = subprocess.run([str(tmp_path / "compound"), "1000", "10"],
                          capture_output=True, text=True)
    assert float(proc.stdout) == compound(1000.0, 10)


@needs_cc
def test_hanajit_cc_may_carry_flags(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_CC", f"{find_host_cc()[0]} -DHANAJIT_TEST=1")
    out = compound.export_executable(tmp_path / "compound", sig="f64, i64")
    assert "-DHANAJIT_TEST=1" in out.build.read_text()
    assert float(run(out, 2, 1).stdout) == 2.1


@needs_cc
def test_complex_arguments_are_read_as_python_reads_them(tmp_path):
    @jit
    def cplx(z):
        return z.real
    out = cplx.export_executable(tmp_path / "c", sig="c128")
    assert run(out, "(1.5-2j)").stdout == "1.5\n"


@jit
def sin(x):                       # shares its name with libm's sin
    return math.sin(x) * 2.0


@needs_cc
def test_a_kernel_named_like_libm(tmp_path):
    out = sin.export_executable(tmp_path / "sin", sig="f64")
    assert float(run(out, 0.5).stdout) == math.sin(0.5) * 2.0
