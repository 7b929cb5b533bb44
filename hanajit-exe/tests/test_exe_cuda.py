"""export_executable(cuda="optional" / "required"): the embedded PTX (validated with
ptxas), the architecture chosen, the fallback to the CPU code without CUDA (no
driver, a driver whose cuInit fails, a module that does not load, a failed launch),
and the program's host side against a fake driver whose "device" runs the kernel's
LLVM IR compiled for the host."""
from __future__ import annotations

import ast
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hanajit.testing.reference import python_numbers
from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.array_kernels import (
    cumsum,
    floordiv_all,
    halves,
    pick,
    rowsum,
    scale,
    smooth,
    stats,
)
from hanajit.testing.sourcefile import load_sibling
from hanajit_cuda import toolchain
from hanajit_exe.toolchain import find_host_cc
from hypothesis import example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

CC = find_host_cc()
pytestmark = pytest.mark.skipif(CC is None, reason="no host C compiler (cc, gcc, "
                                "clang, HANAJIT_CC)")
PTXAS = toolchain.find_ptxas()
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="ptxas not found (CUDA toolkit, "
                                 "pip install nvidia-cuda-nvcc, or HANAJIT_PTXAS)")
needs_gcc = pytest.mark.skipif(sys.platform != "linux" or CC is None,
                               reason="the fake libcuda.so.1 is built with the host "
                               "compiler on Linux")


def shown(value):
    """How the exported program prints a result (NumPy scalars as Python numbers)."""
    return repr(python_numbers(value))


def _helper():
    return load_sibling(__file__, "fake_libcuda.py", "hanajit_exe_test_fake_libcuda")


@jit
def divmod_like(a, b):
    return a // b, a % b, a > b


@jit
def flags(a, b, c):
    return (a and b) or c, -7 // 2, math.copysign(0.0, -1.0)


def value(stdout: str):
    """The printed result, read back and printed by Python (the program prints
    as Python does, so this is the text itself)."""
    return repr(ast.literal_eval(stdout.strip()))


def run(exe, *args, env=None, cwd=None):
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          timeout=60, env=env, cwd=cwd)


def no_driver_env(tmp_path, monkeypatch):
    """Make sure no real driver is found (this machine has none anyway)."""
    monkeypatch.setenv("LD_LIBRARY_PATH", str(tmp_path / "nothing-here"))


# -- what is embedded ------------------------------------------------------------------

@needs_ptxas
@pytest.mark.parametrize("fn, sig", [(divmod_like, "i64, i64"), (pick, "f64[:], i64"),
                                     (smooth, "f64[:, :], f64"), (scale, "f64[:], f64"),
                                     (flags, "bool, bool, bool")])
def test_embedded_ptx_assembles_with_ptxas(tmp_path, fn, sig):
    out = fn.export_executable(tmp_path / "p", sig=sig, cuda="optional",
                               cuda_arch="sm_80")
    ptx = out.ptx.read_text()
    assert out.ptx == tmp_path / "p.ptx"
    assert ".target sm_80" in ptx and ".visible .entry hj_kernel(" in ptx
    # the program carries the same text, line by line
    src = out.source.read_text()
    assert "static const char hj_ptx[] =" in src
    assert '".visible .entry hj_kernel(\\n"' in src
    r = subprocess.run([PTXAS, "-arch=sm_80", str(out.ptx), "-o",
                        str(tmp_path / "p.cubin")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr


def test_libdevice_math_is_embedded_or_refused_clearly(tmp_path):
    @jit
    def wave(x):
        return math.exp(x) + math.sin(x)
    if toolchain.find_libdevice() is None:
        with pytest.raises(UnsupportedError, match="libdevice"):
            wave.export_executable(tmp_path / "w", sig="f64", cuda="optional")
        return
    out = wave.export_executable(tmp_path / "w", sig="f64", cuda="optional")
    ptx = out.ptx.read_text()
    assert ".extern" not in ptx            # libdevice's functions are linked in
    assert out.executable is not None


def test_cuda_off_embeds_nothing(tmp_path):
    out = divmod_like.export_executable(tmp_path / "off", sig="i64, i64")
    assert out.ptx is None and not (tmp_path / "off.ptx").exists()
    src = out.source.read_text()
    assert "hj_ptx" not in src and "dlopen" not in src and "libcuda" not in src


def test_without_a_compiler_the_cuda_program_is_still_written(tmp_path, monkeypatch):
    no_driver_env(tmp_path, monkeypatch)
    monkeypatch.setenv("HANAJIT_CC", "no-such-compiler-anywhere")
    out = divmod_like.export_executable(tmp_path / "dm", sig="i64, i64",
                                        cuda="optional")
    assert out.executable is None and out.ptx.exists()
    assert out.build.read_text().rstrip().endswith("-lm -ldl")
    subprocess.run(["sh", str(out.build)], check=True, capture_output=True,
                   env={**os.environ, "HANAJIT_CC": CC[0]})
    proc = run(tmp_path / "dm", -7, 2)
    assert proc.returncode == 0 and value(proc.stdout) == shown(divmod_like(-7, 2))
    assert "running the CPU code" in proc.stderr


def _target(out) -> str:
    return re.search(r"\.target (sm_\w+)", out.ptx.read_text()).group(1)


def test_arch_precedence(tmp_path, monkeypatch):
    monkeypatch.delenv("HANAJIT_CUDA_ARCH", raising=False)
    sig = "i64, i64"
    assert _target(divmod_like.export_executable(tmp_path / "a", sig=sig,
                                                 cuda="optional")) == "sm_75"
    monkeypatch.setenv("HANAJIT_CUDA_ARCH", "sm_86")
    assert _target(divmod_like.export_executable(tmp_path / "b", sig=sig,
                                                 cuda="optional")) == "sm_86"

    @jit(gpu_arch="sm_80")
    def g(a, b):
        return a - b
    assert _target(g.export_executable(tmp_path / "c", sig=sig, cuda="optional")) \
        == "sm_80"
    assert _target(g.export_executable(tmp_path / "d", sig=sig, cuda="optional",
                                       cuda_arch="sm_90")) == "sm_90"
    with pytest.raises(ValueError, match="sm_75"):
        g.export_executable(tmp_path / "e", sig=sig, cuda="optional", cuda_arch="sm_x")


def test_the_gpu_kernel_model_is_refused_in_every_mode(tmp_path):
    from hanajit.gpu import thread_id

    @jit(target="cuda")
    def kern(a):
        a[thread_id()] = 1.0
    for mode in ("off", "optional"):
        with pytest.raises(UnsupportedError, match="GPU kernel model.*f.launch"):
            kern.export_executable(tmp_path / "k", sig="f64[:]", cuda=mode)


# -- without CUDA: "required" exits 70, "optional" runs the CPU code -----------------

def test_required_exits_70_without_a_driver(tmp_path, monkeypatch):
    no_driver_env(tmp_path, monkeypatch)
    out = divmod_like.export_executable(tmp_path / "req", sig="i64, i64",
                                        cuda="required")
    proc = run(out.executable, 7, 2)
    assert proc.returncode == 70 and proc.stdout == ""
    assert proc.stderr.strip() == (f"{out.executable}: CUDA is required, but cannot "
                                   "load libcuda.so.1 (no NVIDIA driver)")
    assert run(out.executable, 7).returncode == 64       # arguments are checked first
    assert run(out.executable, "x", 1).returncode == 64


def test_optional_runs_the_cpu_code_scalars(tmp_path, monkeypatch):
    no_driver_env(tmp_path, monkeypatch)
    out = divmod_like.export_executable(tmp_path / "opt", sig="i64, i64",
                                        cuda="optional")
    for a, b in ((-7, 2), (7, -2)):
        proc = run(out.executable, a, b)
        assert proc.returncode == 0
        assert proc.stdout.strip() == shown(divmod_like(a, b))
        assert proc.stderr.count("\n") == 1
        assert "CUDA unavailable: cannot load libcuda.so.1" in proc.stderr
        assert "running the CPU code" in proc.stderr
    proc = run(out.executable, -2**63, -1)          # 2**63: beyond int64
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == "OverflowError: Python int beyond int64 (x // y)"
    proc = run(out.executable, 7, 0)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == ("ZeroDivisionError: integer division or "
                                           "modulo by zero")


def test_optional_runs_the_cpu_code_arrays(tmp_path, monkeypatch):
    no_driver_env(tmp_path, monkeypatch)
    out = smooth.export_executable(tmp_path / "sm", sig="f64[:, :], f64",
                                   cuda="optional")
    m = np.arange(12.0).reshape(3, 4) / 7
    np.save(tmp_path / "m.npy", m)
    proc = run(out.executable, "--write-back", tmp_path / "m.npy", 1.5)
    assert proc.returncode == 0, proc.stderr
    want = m.copy()
    assert value(proc.stdout) == shown(smooth(want, 1.5))
    assert np.load(tmp_path / "m.npy").tobytes() == want.tobytes()


# -- a fake driver: the library is there but CUDA still cannot run ---------------------

def _fake(tmp_path, fn, sig, mode):
    """Build the fake driver for ``fn``'s kernel; the environment that loads it."""
    lib = _helper().build_fake_libcuda(tmp_path, fn.ir_module(sig))
    env = {"LD_LIBRARY_PATH": str(lib.parent), "HJ_FAKE": mode,
           "HJ_FAKE_PTX": str(tmp_path / "loaded.ptx"),
           "HJ_FAKE_LOG": str(tmp_path / "launch.log"), "PATH": "/usr/bin:/bin"}
    return env


@needs_gcc
@pytest.mark.parametrize("mode, why", [
    ("noinit", "cuInit failed: CUDA_ERROR_NO_DEVICE (100)"),
    ("badptx", "cuModuleLoadData failed: CUDA_ERROR_INVALID_PTX (218)"),
    ("launchfail", "cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED (719)")])
def test_fake_driver_failures_fall_back_or_exit_70(tmp_path, mode, why):
    env = _fake(tmp_path, pick, "f64[:], i64", mode)
    opt = pick.export_executable(tmp_path / "opt", sig="f64[:], i64", cuda="optional")
    req = pick.export_executable(tmp_path / "req", sig="f64[:], i64", cuda="required")
    a = np.array([1.5, -2.0, 4.25])
    np.save(tmp_path / "a.npy", a)
    proc = run(opt.executable, tmp_path / "a.npy", -1, env=env)
    assert proc.returncode == 0 and value(proc.stdout) == shown(pick(a, -1))
    assert proc.stderr == f"{opt.executable}: CUDA unavailable: {why}; running the " \
                          "CPU code\n"
    proc = run(req.executable, tmp_path / "a.npy", -1, env=env)
    assert proc.returncode == 70 and proc.stdout == ""
    assert proc.stderr == f"{req.executable}: CUDA is required, but {why}\n"
    if mode != "noinit":               # the driver was handed the embedded PTX
        assert (tmp_path / "loaded.ptx").read_text() == req.ptx.read_text()


@needs_gcc
def test_fake_device_runs_the_program_host_side(tmp_path):
    env = _fake(tmp_path, smooth, "f64[:, :], f64", "run")
    out = smooth.export_executable(tmp_path / "sm", sig="f64[:, :], f64",
                                   cuda="required")
    for m in (np.arange(12.0).reshape(3, 4) / 7, np.asfortranarray(
              np.linspace(-1, 1, 6).reshape(2, 3)), np.zeros((0, 5))):
        np.save(tmp_path / "m.npy", m)
        proc = run(out.executable, "--write-back", tmp_path / "m.npy", -0.5, env=env)
        assert proc.returncode == 0, proc.stderr
        assert proc.stderr == ""                   # it ran on the "device"
        want = m.copy(order="A")
        assert value(proc.stdout) == shown(smooth(want, -0.5))
        got = np.load(tmp_path / "m.npy")
        assert got.tobytes(order="A") == want.tobytes(order="A")
    log = (tmp_path / "launch.log").read_text().splitlines()
    # buf, arena, arena size; the array: data, 2 shape, 2 strides; k
    assert log[0] == "grid 1 1 1 block 1 1 1 params 9"


@needs_gcc
def test_fake_device_raise_record_and_scalars(tmp_path):
    env = _fake(tmp_path, pick, "f64[:], i64", "run")
    out = pick.export_executable(tmp_path / "p", sig="f64[:], i64", cuda="required")
    a = np.array([1.5, -2.0, 4.25])
    np.save(tmp_path / "a.npy", a)
    for i in (0, 2, -3):
        proc = run(out.executable, tmp_path / "a.npy", i, env=env)
        assert (proc.returncode, value(proc.stdout), proc.stderr) == \
            (0, shown(pick(a, i)), "")
    proc = run(out.executable, tmp_path / "a.npy", 3, env=env)
    assert proc.returncode == 1 and proc.stdout == ""
    with pytest.raises(IndexError) as exc:
        pick(a, 3)
    assert proc.stderr == f"IndexError: {exc.value}\n"

    env = _fake(tmp_path, divmod_like, "i64, i64", "run")
    out = divmod_like.export_executable(tmp_path / "dm", sig="i64, i64",
                                        cuda="optional")
    for x, y in ((-7, 2), (2**63 - 1, -1), (5, 5)):
        proc = run(out.executable, x, y, env=env)
        assert (proc.returncode, proc.stdout.strip(), proc.stderr) == \
            (0, shown(divmod_like(x, y)), "")
    proc = run(out.executable, -2**63, -1, env=env)      # 2**63: beyond int64
    assert proc.returncode == 1 and proc.stderr.splitlines()[-1].startswith(
        "OverflowError")
    proc = run(out.executable, 1, 0, env=env)
    assert proc.returncode == 1 and proc.stderr == ("ZeroDivisionError: integer "
                                                    "division or modulo by zero\n")

    env = _fake(tmp_path, flags, "bool, bool, bool", "run")
    out = flags.export_executable(tmp_path / "fl", sig="bool, bool, bool",
                                  cuda="optional")
    proc = run(out.executable, "true", 0, 1, env=env)
    assert value(proc.stdout) == shown(flags(True, False, True)) and proc.stderr == ""


@pytest.fixture(scope="module")
def fake_divmod(tmp_path_factory):
    """divmod_like as a cuda="required" program on the fake device."""
    d = tmp_path_factory.mktemp("fake_divmod")
    env = _fake(d, divmod_like, "i64, i64", "run")
    out = divmod_like.export_executable(d / "dm", sig="i64, i64", cuda="required")
    return out.executable, env


INT64 = st.one_of(st.sampled_from([0, 1, -1, 2**63 - 1, -2**63, 7, -7]),
                  st.integers(-2**63, 2**63 - 1))


@needs_gcc
@settings(max_examples=40, deadline=None)
@given(a=INT64, b=INT64)
@example(a=-2**63, b=-1)
def test_fake_device_int64_edges_equal_the_cpu_jit(fake_divmod, a, b):
    exe, env = fake_divmod
    proc = run(exe, a, b, env=env)
    try:
        got = divmod_like(a, b)
    except ZeroDivisionError as exc:
        assert proc.returncode == 1 and proc.stderr == f"ZeroDivisionError: {exc}\n"
        return
    if not all(-2**63 <= v < 2**63 for v in got[:2]):     # -2**63 // -1: 2**63
        assert proc.returncode == 1 and proc.stderr.splitlines()[-1].startswith(
            "OverflowError: Python int beyond int64"), proc.stderr
        return
    assert (proc.returncode, value(proc.stdout), proc.stderr) == (0, shown(got), "")


@pytest.fixture(scope="module")
def fake_scale(tmp_path_factory):
    """scale (in place) as a cuda="optional" program on the fake device."""
    d = tmp_path_factory.mktemp("fake_scale")
    env = _fake(d, scale, "f64[:], f64", "run")
    out = scale.export_executable(d / "sc", sig="f64[:], f64", cuda="optional")
    return d, out.executable, env


@needs_gcc
@settings(max_examples=30, deadline=None)
@given(a=hnp.arrays(np.float64, st.integers(0, 30),
                    elements=st.floats(allow_nan=True, allow_infinity=True)),
       k=st.floats(allow_nan=True, allow_infinity=True))
def test_fake_device_arrays_round_trip_bit_for_bit(fake_scale, a, k):
    d, exe, env = fake_scale
    k = float(repr(k))           # what the program reads (no NaN payloads in text)
    np.save(d / "a.npy", a)
    proc = run(exe, "--write-back", d / "a.npy", repr(k), env=env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "None\n", "")
    want = a.copy()
    scale(want, k)
    got = np.load(d / "a.npy")
    # bit for bit, except that a NaN's sign is unspecified (x86 returns one NaN
    # operand of a product, and which one depends on the compiled operand order)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert got[~nan].tobytes() == want[~nan].tobytes()


@needs_gcc
@pytest.mark.parametrize("fn, sig, inputs", [
    (cumsum, "f64[:]", [np.array([0.1, -0.0, 2.5, 1e300, np.inf, np.nan])]),
    (rowsum, "f64[:, :]", [np.arange(12.0).reshape(3, 4) / 3]),
    (floordiv_all, "i64[:], i64", [np.array([-7, 7, -2**63, 2**63 - 1]), -2]),
    (stats, "i32[:]", [np.array([3, -1, 4, 1, -5], dtype=np.int32)]),
    (halves, "f32[:]", [np.array([1.5, -2.25, 3e38, -0.0], dtype=np.float32)]),
    (cumsum, "f64[:]", [np.zeros(0)])])
def test_fake_device_allocated_and_view_results_bit_for_bit(tmp_path, fn, sig, inputs):
    """Arrays the function allocates live in the arena and come back; views of
    arguments (stats returns a[::2]) point into the argument's copy."""
    env = _fake(tmp_path, fn, sig, "run")
    out = fn.export_executable(tmp_path / "p", sig=sig, cuda="required")
    args = []
    for k, x in enumerate(inputs):
        if isinstance(x, np.ndarray):
            np.save(tmp_path / f"in{k}.npy", x)
            args.append(tmp_path / f"in{k}.npy")
        else:
            args.append(x)
    want = fn(*inputs)
    results = list(want) if isinstance(want, tuple) else [want]
    arrays = [r for r in results if isinstance(r, np.ndarray)]
    outs = [x for j in range(len(arrays)) for x in ("-o", tmp_path / f"out{j}.npy")]
    proc = run(out.executable, *args, *outs, env=env)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    for j, a in enumerate(arrays):
        got = np.load(tmp_path / f"out{j}.npy")
        assert got.dtype == a.dtype and got.shape == a.shape
        assert got.tobytes() == np.ascontiguousarray(a).tobytes()
    proc = run(out.executable, *args, env=env)          # printed as lists
    assert proc.returncode == 0 and proc.stderr == ""
    if not any(np.isnan(a).any() for a in arrays if a.dtype.kind == "f"):
        shown = tuple(r.tolist() if isinstance(r, np.ndarray) else r for r in results)
        assert ast.literal_eval(proc.stdout.strip()) == (
            shown if isinstance(want, tuple) else shown[0])


@jit
def big_then_loop(n, reps):
    big = np.zeros(n)                      # more than the first arena (16 MiB)
    s = 0.0
    for r in range(reps):
        tmp = np.ones(1000) * r            # a temporary per iteration
        s += tmp.sum()
    big[n - 1] = s
    return big[n - 1], big.shape[0]


@needs_gcc
def test_fake_device_arena_grows_and_runs_again(tmp_path):
    env = _fake(tmp_path, big_then_loop, "i64, i64", "run")
    out = big_then_loop.export_executable(tmp_path / "b", sig="i64, i64",
                                          cuda="required")
    for n, reps in ((3_000_000, 50), (10, 20_000), (0, 1)):
        proc = run(out.executable, n, reps, env=env)
        try:
            want = big_then_loop(n, reps)
        except IndexError as exc:
            assert proc.returncode == 1 and proc.stderr == f"IndexError: {exc}\n"
            continue
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        assert value(proc.stdout) == shown(want)
    # a second run for the 24 MB array; the loop's temporaries reuse two blocks
    assert len((tmp_path / "launch.log").read_text().splitlines()) == 4


@jit
def churn(n):
    prev = np.zeros(1)
    cur = np.zeros(1)
    s = 0.0
    for i in range(n):
        cur = np.arange((i * 7) % 13 + 1) * 0.5 + prev[0]   # sizes vary
        s += cur.sum() - prev.sum()
        if i % 4 == 0:
            prev = cur                                      # lifetimes overlap
    return s, prev, cur


@needs_gcc
def test_fake_device_reused_blocks_hold_the_right_values(tmp_path):
    """Blocks released and reused (free list, newest-block rollback) never hand
    out memory still referenced: results from reused blocks match the CPU JIT."""
    env = _fake(tmp_path, churn, "i64", "run")
    out = churn.export_executable(tmp_path / "c", sig="i64", cuda="required")
    for n in (0, 1, 5, 50, 500):
        proc = run(out.executable, n, "-o", tmp_path / "p.npy", "-o",
                   tmp_path / "c.npy", env=env)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        s, prev, cur = churn(n)
        assert ast.literal_eval(proc.stdout.strip())[0] == s
        assert np.load(tmp_path / "p.npy").tobytes() == prev.tobytes()
        assert np.load(tmp_path / "c.npy").tobytes() == cur.tobytes()


@pytest.mark.parametrize("fn, sig", [(stats, "i32[:]"), (smooth, "f64[:, :], f64"),
                                     (divmod_like, "i64, i64")])
def test_the_cuda_main_compiles_without_warnings(tmp_path, fn, sig):
    out = fn.export_executable(tmp_path / "w", sig=sig, cuda="required")
    # (helpers the signature does not use are unused: those warnings are expected)
    proc = subprocess.run([*CC, "-std=c11", "-Wall", "-Wextra", "-Werror",
                           "-Wno-unused-function", "-Wno-unused-but-set-variable",
                           "-fsyntax-only", str(out.source)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


@jit
def cmul(z, x):
    return z * x, -z


@needs_gcc
def test_fake_device_complex_arguments_and_results(tmp_path):
    env = _fake(tmp_path, cmul, "c128, f64", "run")
    out = cmul.export_executable(tmp_path / "cz", sig="c128, f64", cuda="required")
    for z, x in (("1+2j", "0.5"), ("-0-1j", "-0.0"), ("nan+infj", "2")):
        proc = run(out.executable, z, x, env=env)
        assert (proc.returncode, proc.stderr) == (0, "")
        assert proc.stdout == shown(cmul(complex(z), float(x))) + "\n"
