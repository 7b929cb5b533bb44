"""One set of kernels through every exporter: identical results everywhere.

Each kernel runs on the CPU JIT (the reference), as a standalone executable, as a
wasm module under wasmtime, and as the HLS C simulation.  Floats must match bit
for bit: wasmtime's libm imports are the C library's own functions (JavaScript's
Math, which may differ by an ulp, is tested in hanajit-wasm).  A raise must be the
same exception with the same message everywhere.  Array kernels (in place, 2-D,
index errors) compare the result and every array argument after the call: the
executable reads and writes back .npy files, wasmtime copies through linear
memory, the HLS testbench checks the arrays itself.
"""
from __future__ import annotations

import importlib.util
import math
import shutil
import struct
import subprocess

import numpy as np
import pytest

from hanajit import jit


@jit
def int_mix(a, b):
    return a * 3 - b, (a + b) ^ (a << 2), -a


@jit
def floor_div_mod(a, b):
    return a // b, a % b


@jit
def float_floor_mod(x, y):
    return x // y, x % y


@jit
def math_mix(x, n):
    s = 0.0
    for i in range(n):
        s += math.sin(x * i) + math.exp(-x * i) + math.atan2(x, i + 1) + math.sqrt(i)
    return s


@jit
def squares(x, y):
    # a constant 2 takes helpers.float_square: x*x where pow is known to agree
    return x ** 2 + y ** 2.0


@jit
def branches(x, n):
    if n > 10 and x < 0.0:
        return x * n
    elif n % 2 == 0:
        return x / (n + 0.5)
    return math.floor(x) + n


@jit
def collatz(n):
    steps = 0
    while n != 1 and steps < 1000:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


@jit
def nested_loops(n, m):
    t = 0
    for i in range(n):
        for j in range(m):
            if (i + j) % 5 == 0:
                continue
            t += i * j
    return t


@jit
def raises(x, n):
    if n < 0:
        raise ValueError("n must be non-negative")
    return math.log(x) + n


@jit
def raises_formatted(n, k):
    if n < 0:
        raise IndexError(f"index {n} is outside {{0..{k}}}")
    if n == 0:
        raise ValueError("literal braces {} stay")
    return n * k


@jit
def comparisons(x, y):
    return x < y, x != y, x == y, x >= y


NAN = float("nan")

CASES = [
    (int_mix, "i64, i64", [(3, 4), (-7, 2), ((1 << 62), 5), (-(1 << 63), -1)]),
    (floor_div_mod, "i64, i64", [(-7, 2), (7, -2), (-7, -2), (6, 3), (1, 0)]),
    (float_floor_mod, "f64, f64", [(-7.5, 2.0), (7.5, -2.0), (-0.0, 3.0), (1.0, 0.0),
                                   (5.0, float("inf"))]),
    (math_mix, "f64, i64", [(0.3, 30), (-1.25, 7), (2.0, 0)]),
    (squares, "f64, f64", [(1.5, -2.25), (-7.462332525282427, 0.3445787210938549), (1e200, 1.0),
                           (3e-170, float("inf")), (2.0 ** 50, -(2.0 ** -50))]),
    (branches, "f64, i64", [(-2.5, 11), (3.25, 4), (1.75, 3), (-0.5, 12)]),
    (collatz, "i64", [(27,), (1,), (97,)]),
    (nested_loops, "i64, i64", [(7, 9), (0, 4), (20, 3)]),
    (raises, "f64, i64", [(2.0, 3), (2.0, -1), (-1.0, 2), (0.0, 1)]),
    (raises_formatted, "i64, i64", [(3, 4), (-2, 7), (0, 1)]),
    (comparisons, "f64, f64", [(1.0, 2.0), (NAN, 1.0), (NAN, NAN), (2.0, 2.0)]),
]
IDS = [k.__name__ for k, _, _ in CASES]


def outcome(fn, args):
    """("ok", value) or ("raise", exception class name, message)."""
    try:
        return ("ok", fn(*args))
    except Exception as exc:
        return ("raise", type(exc).__name__, str(exc))


def _number(v):
    """A NumPy scalar of the in-process call as the number an export prints."""
    if isinstance(v, tuple):
        return tuple(_number(x) for x in v)
    return v.item() if isinstance(v, np.generic) else v


def same(a, b) -> bool:
    """Equal with floats compared bit for bit (any NaN equals any NaN).  Exported
    code returns C values: a NumPy scalar of the in-process call is its number."""
    a, b = (v.item() if isinstance(v, np.generic) else v for v in (a, b))
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) and math.isnan(b):
            return True
        return struct.pack("<d", a) == struct.pack("<d", b)
    return type(a) is type(b) and a == b


def beyond_int64(out) -> bool:
    """Does an in-process outcome hold a Python int beyond int64?  The CPU JIT
    re-ran that call in the interpreter; exported code, which has none, raises
    ``OverflowError: Python int beyond int64 (...)`` instead (HLS testbenches
    leave such a sample out)."""
    if out[0] != "ok":
        return False
    values = out[1] if isinstance(out[1], tuple) else (out[1],)
    return any(isinstance(v, int) and not -(1 << 63) <= v < (1 << 63) for v in values)


def same_outcome(a, b) -> bool:
    return a[0] == b[0] and (same(a[1], b[1]) if a[0] == "ok" else a[1:] == b[1:])


def parse_printed(text: str, like):
    """Parse an executable's printed result into the shape of ``like``."""
    text = text.strip()
    if isinstance(like, tuple):
        inner = text[1:-1].rstrip(",")
        return tuple(parse_printed(p, x) for p, x in zip(inner.split(", "), like))
    if isinstance(like, bool):
        return {"True": True, "False": False}[text]
    if isinstance(like, int):
        return int(text)
    return float(text)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("exports")


@pytest.mark.parametrize("kernel, sig, samples", CASES, ids=IDS)
def test_executable(kernel, sig, samples, workdir):
    from hanajit_exe.toolchain import find_host_cc
    if find_host_cc() is None:
        pytest.skip("no host C compiler (cc, gcc, clang, HANAJIT_CC)")
    out = kernel.export_executable(workdir / f"exe_{kernel.__name__}", sig=sig)
    for args in samples:
        want = outcome(kernel, args)
        proc = subprocess.run([str(out.executable), *map(repr, args)],
                              capture_output=True, text=True, timeout=30)
        if beyond_int64(want):
            assert proc.returncode == 1, (args, proc.stdout)
            assert proc.stderr.startswith("OverflowError: Python int beyond int64")
            continue
        if want[0] == "ok":
            assert proc.returncode == 0, (args, proc.stderr)
            assert proc.stdout == repr(_number(want[1])) + "\n"   # as Python prints
            got = ("ok", parse_printed(proc.stdout, _number(want[1])))
        else:
            assert proc.returncode == 1, (args, proc.stdout)
            name, _, message = proc.stderr.strip().partition(": ")
            got = ("raise", name, message)
        assert same_outcome(got, want), (args, got, want)


@pytest.mark.parametrize("kernel, sig, samples", CASES, ids=IDS)
def test_wasm_wasmtime(kernel, sig, samples, workdir):
    from hanajit_wasm.toolchain import find_wasm_ld
    if find_wasm_ld() is None:
        pytest.skip("no wasm-ld (Debian: lld-19; or HANAJIT_WASM_LD)")
    if importlib.util.find_spec("wasmtime") is None:
        pytest.skip("wasmtime not installed (pip install wasmtime)")
    from hanajit_wasm import runtime
    module = runtime.load(kernel.export_wasm(workdir / f"wasm_{kernel.__name__}", sig=sig))
    for args in samples:
        got, want = outcome(module, args), outcome(kernel, args)
        if beyond_int64(want):
            assert got[:2] == ("raise", "OverflowError"), (args, got)
            continue
        assert same_outcome(got, want), (args, got, want)


@pytest.mark.parametrize("kernel, sig, samples", CASES, ids=IDS)
def test_hls_csim(kernel, sig, samples, workdir):
    from hanajit_fpga.target import ap_types_dir
    ap = ap_types_dir()
    if ap is None:
        pytest.skip("Xilinx ap_types headers not found (pip install --no-deps hls4ml)")
    if shutil.which("g++") is None:
        pytest.skip("g++ not installed")
    out = kernel.export_fpga(workdir / f"hls_{kernel.__name__}", sig=sig, samples=samples)
    exe = workdir / f"hls_{kernel.__name__}_csim"
    subprocess.run(["g++", "-std=c++14", "-O2", "-isystem", str(ap), str(out.tb),
                    str(out.cpp), "-o", str(exe)], check=True, capture_output=True)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
    # the testbench checks the CPU JIT's values itself; every sample is in it but
    # those whose result leaves int64
    assert proc.returncode == 0 and "MISMATCH" not in proc.stdout, proc.stdout
    n = sum(any(isinstance(a, np.ndarray) for a in args)    # (arrays: not re-run)
            or not beyond_int64(outcome(kernel, args)) for args in samples)
    assert f"{n} of {n} samples match" in proc.stdout


# -- arrays ---------------------------------------------------------------------
@jit
def axpy_inplace(a, x, y):
    s = 0.0
    for i in range(y.shape[0]):
        y[i] = a * x[i] + y[i]
        s += y[i]
    return s


@jit
def grid_floor_mod(m, k):
    t = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            t += m[i, j] // k
            m[i, j] = m[i, j] % k
    return t


@jit
def math_inplace(a):
    n = 0
    for i in range(a.shape[0]):
        if a[i] != a[i]:
            n += 1
        a[i] = math.sqrt(abs(a[i])) + math.floor(a[i] / 3.0) + math.sin(a[i])
    return n


@jit
def pick(a, i):
    return a[i] * 2


RNG = np.random.default_rng(7)
ARRAY_CASES = [
    (axpy_inplace, "f64, f64[:], f64[:]",
     [(2.5, np.array([1.0, -0.0, np.nan, 1e308]), np.array([0.5, -0.0, 1.0, 1e308])),
      (-1.0, RNG.standard_normal(9), RNG.standard_normal(9)),
      (3.0, np.zeros(0), np.zeros(0))]),
    (grid_floor_mod, "i64[:, :], i64",
     [(np.arange(-6, 6, dtype=np.int64).reshape(3, 4), 4),
      (np.array([[-2**63, 2**63 - 1], [-1, 1]]), -3),
      (np.array([[7]]), 0)]),
    (math_inplace, "f64[:]",
     [(np.array([0.5, -2.25, np.nan, -0.0, 1e-310]),), (RNG.standard_normal(7),),
      (np.array([1.0, np.inf, 2.0]),)]),                  # sin(inf): ValueError
    (pick, "i32[:], i64", [(np.array([3, -4, 5], dtype=np.int32), 1),
                          (np.array([3, -4, 5], dtype=np.int32), -1),
                          (np.array([3, -4, 5], dtype=np.int32), 3)]),
]
ARRAY_IDS = [k.__name__ for k, _, _ in ARRAY_CASES]


def array_outcome(fn, args):
    """(outcome, arrays after the call) for a call on copies of ``args``."""
    work = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return outcome(fn, work), [a for a in work if isinstance(a, np.ndarray)]


def same_arrays(a, b) -> bool:
    return len(a) == len(b) and all(
        x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes()
        for x, y in zip(a, b))


@pytest.mark.parametrize("kernel, sig, samples", ARRAY_CASES, ids=ARRAY_IDS)
def test_executable_arrays(kernel, sig, samples, workdir):
    from hanajit_exe.toolchain import find_host_cc
    if find_host_cc() is None:
        pytest.skip("no host C compiler (cc, gcc, clang, HANAJIT_CC)")
    name = kernel.__name__
    out = kernel.export_executable(workdir / f"exe_{name}", sig=sig)
    for args in samples:
        want, want_arrays = array_outcome(kernel, args)
        argv, files = [], []
        for k, a in enumerate(args):
            if isinstance(a, np.ndarray):
                files.append(workdir / f"exe_{name}_{k}.npy")
                np.save(files[-1], a)
                argv.append(str(files[-1]))
            else:
                argv.append(repr(a))
        proc = subprocess.run([str(out.executable), "--write-back", *argv],
                              capture_output=True, text=True, timeout=30)
        if want[0] == "ok":
            assert proc.returncode == 0, (args, proc.stderr)
            assert proc.stdout == repr(_number(want[1])) + "\n"   # as Python prints
            got = ("ok", parse_printed(proc.stdout, _number(want[1])))
        else:
            assert proc.returncode == 1, (args, proc.stdout)
            exc_name, _, message = proc.stderr.strip().partition(": ")
            got = ("raise", exc_name, message)
        assert same_outcome(got, want), (args, got, want)
        # --write-back writes after a successful call only
        after = want_arrays if want[0] == "ok" else [a for a in args
                                                     if isinstance(a, np.ndarray)]
        assert same_arrays([np.load(f) for f in files], after), args


@pytest.mark.parametrize("kernel, sig, samples", ARRAY_CASES, ids=ARRAY_IDS)
def test_wasm_wasmtime_arrays(kernel, sig, samples, workdir):
    from hanajit_wasm.toolchain import find_wasm_ld
    if find_wasm_ld() is None:
        pytest.skip("no wasm-ld (Debian: lld-19; or HANAJIT_WASM_LD)")
    if importlib.util.find_spec("wasmtime") is None:
        pytest.skip("wasmtime not installed (pip install wasmtime)")
    from hanajit_wasm import runtime
    module = runtime.load(kernel.export_wasm(workdir / f"wasm_{kernel.__name__}",
                                             sig=sig))
    for args in samples:
        (got, got_arrays), (want, want_arrays) = (array_outcome(module, args),
                                                  array_outcome(kernel, args))
        assert same_outcome(got, want), (args, got, want)
        assert same_arrays(got_arrays, want_arrays), args


@pytest.mark.parametrize("kernel, sig, samples", ARRAY_CASES, ids=ARRAY_IDS)
def test_hls_csim_arrays(kernel, sig, samples, workdir):
    test_hls_csim(kernel, sig, samples, workdir)
