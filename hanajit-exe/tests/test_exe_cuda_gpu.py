"""export_executable(cuda="required") on a real NVIDIA GPU: the program runs the
embedded PTX through the driver and prints what the CPU JIT computes.  Skips
without a driver and a device (run by scripts/gpu-check.sh on a GPU machine)."""
from __future__ import annotations

import ast
import ctypes
import subprocess
import sys

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.array_kernels import (compound, cumsum, halves, pick, rowsum,
                                          scale, smooth, stats)
from hanajit_exe.toolchain import find_host_cc


def _gpu() -> str | None:
    """Why the GPU tests cannot run here, or None."""
    if sys.platform != "linux":
        return "the GPU executable tests run on Linux"
    if find_host_cc() is None:
        return "no host C compiler"
    try:
        cu = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return "no NVIDIA driver (libcuda.so.1)"
    count = ctypes.c_int(0)
    if cu.cuInit(0) != 0 or cu.cuDeviceGetCount(ctypes.byref(count)) != 0 \
            or count.value < 1:
        return "the NVIDIA driver reports no usable device"
    return None


WHY = _gpu()
pytestmark = pytest.mark.skipif(WHY is not None, reason=WHY or "")


@jit
def divmod_like(a, b):
    return a // b, a % b, a > b, -a // 3, a % -7


@jit
def mixed(x, n, f):
    s = 0.0
    for i in range(n):
        s += (x + i) / (i + 1) - (i % 3) * 0.25
    return s, int(s) // 7, float(n) * n, x != x, f and n > 2


def run(exe, *args):
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          timeout=120)


def value(stdout: str):
    return repr(ast.literal_eval(stdout.strip()))


@pytest.mark.parametrize("fn, sig, cases", [
    (divmod_like, "i64, i64", [(-7, 2), (7, -2), (-2**63, -1), (2**63 - 1, 5)]),
    (compound, "f64, i64", [(1000.0, 10), (-0.5, 3), (1e300, 40)]),
    (mixed, "f64, i64, bool", [(2.5, 10, True), (-1e10, 4, False), (0.1, 0, True)]),
])
def test_scalars_on_the_gpu_equal_the_cpu_jit(tmp_path, fn, sig, cases):
    out = fn.export_executable(tmp_path / "p", sig=sig, cuda="required")
    for args in cases:
        proc = run(out.executable, *args)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        assert value(proc.stdout) == repr(fn(*args))


def test_raises_on_the_gpu_print_and_exit_like_the_cpu(tmp_path):
    out = divmod_like.export_executable(tmp_path / "dm", sig="i64, i64",
                                        cuda="required")
    proc = run(out.executable, 5, 0)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == "ZeroDivisionError: integer division or modulo by zero\n"
    out = pick.export_executable(tmp_path / "pick", sig="f64[:], i64", cuda="required")
    a = np.array([1.5, -2.0, 4.25])
    np.save(tmp_path / "a.npy", a)
    got = run(out.executable, tmp_path / "a.npy", -1).stdout
    assert value(got) == repr(pick(a, -1))
    proc = run(out.executable, tmp_path / "a.npy", 7)
    with pytest.raises(IndexError) as exc:
        pick(a, 7)
    assert proc.returncode == 1 and proc.stderr == f"IndexError: {exc.value}\n"


def test_arrays_on_the_gpu_are_written_back(tmp_path):
    out = smooth.export_executable(tmp_path / "sm", sig="f64[:, :], f64",
                                   cuda="required")
    for m in (np.arange(12.0).reshape(3, 4) / 7,
              np.asfortranarray(np.linspace(-1, 1, 6).reshape(2, 3)), np.zeros((0, 4))):
        np.save(tmp_path / "m.npy", m)
        proc = run(out.executable, "--write-back", tmp_path / "m.npy", -0.5)
        assert proc.returncode == 0 and proc.stderr == "", proc.stderr
        want = m.copy(order="A")
        assert value(proc.stdout) == repr(smooth(want, -0.5))
        assert np.load(tmp_path / "m.npy").tobytes(order="A") == \
            want.tobytes(order="A")
    out = scale.export_executable(tmp_path / "sc", sig="f64[:], f64", cuda="optional")
    a = np.linspace(-3, 3, 1001)
    np.save(tmp_path / "a.npy", a)
    proc = run(out.executable, "--write-back", tmp_path / "a.npy", 1.25)
    assert proc.returncode == 0 and proc.stderr == ""      # no fallback line
    want = a.copy()
    scale(want, 1.25)
    assert np.load(tmp_path / "a.npy").tobytes() == want.tobytes()


@jit
def grow(n, reps):
    big = np.zeros(n)                      # over the first arena: a second run
    s = 0.0
    for r in range(reps):
        s += (np.ones(1000) * r).sum()     # temporaries reuse their blocks
    big[n - 1] = s
    return big[n - 3:], big.shape[0]


@pytest.mark.parametrize("fn, sig, inputs", [
    (cumsum, "f64[:]", [np.array([0.1, -0.0, 2.5, 1e300, np.inf])]),
    (rowsum, "f64[:, :]", [np.arange(12.0).reshape(3, 4) / 3]),
    (stats, "i32[:]", [np.array([3, -1, 4, 1, -5], dtype=np.int32)]),
    (halves, "f32[:]", [np.array([1.5, -2.25, 3e38, -0.0], dtype=np.float32)]),
    (grow, "i64, i64", [3_000_000, 2000])])
def test_arrays_allocated_on_the_gpu_come_back(tmp_path, fn, sig, inputs):
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
    outs = [x for j in range(len(arrays)) for x in ("-o", tmp_path / f"o{j}.npy")]
    proc = run(out.executable, *args, *outs)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    for j, a in enumerate(arrays):
        assert np.load(tmp_path / f"o{j}.npy").tobytes() == \
            np.ascontiguousarray(a).tobytes()
