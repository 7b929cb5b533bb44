"""The executable prints as Python prints the CPU JIT's result: floats (hypothesis,
incl. subnormals, -0.0, inf, nan), float32, complex, bools, None, tuples and ints
of every width; raises as ``Name: message`` with exit status 1; bad text 64."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest
from hanajit.testing.reference import python_numbers
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.toolkit.boundary import Exit
from hanajit_exe.toolchain import find_host_cc

needs_cc = pytest.mark.skipif(find_host_cc() is None, reason="no host C compiler")
pytestmark = needs_cc


def shown(value):
    """How the exported program prints a result (NumPy scalars as Python numbers)."""
    return repr(python_numbers(value))


@jit
def ident(x):
    return x, np.float32(x)


@jit
def mix(x, n, b):
    # NumPy scalars converted, which wrap (np.int8(n) of a Python int out of
    # range is OverflowError, as in NumPy)
    w = np.int64(n)
    return (x * 0.5, b, None, n, np.int8(w), np.uint16(w), np.uint64(w) * np.uint64(3),
            (x,), (), n > 2)


@jit
def cz(z, x):
    return z * x, complex(0.0, x), -z, z


@jit
def div(a, b):
    return a // b


@jit
def pick(n):
    a = [1.5, 2.5, 3.5]
    return a[n]


def run(exe, *args):
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          timeout=30)


@pytest.fixture(scope="module")
def progs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("boundary")
    return {f.__name__: f.export_executable(folder / f.__name__, sig=sig).executable
            for f, sig in ((ident, "f64"), (mix, "f64, i64, bool"), (cz, "c128, f64"),
                           (div, "i64, i64"), (pick, "i64"))}


@settings(max_examples=40, deadline=None)
@given(st.floats(allow_subnormal=True))
@example(0.0)
@example(-0.0)
@example(float("inf"))
@example(float("nan"))
@example(1e16)
@example(1e-5)
@example(0.1)
@example(5e-324)
@example(-1.7976931348623157e308)
def test_floats_print_as_python(progs, x):
    proc = run(progs["ident"], repr(x))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shown(ident(x)) + "\n"      # float32: the JIT's float


@pytest.mark.parametrize("args", [(2.5, 7, True), (-0.0, -3, False), (1e300, 300, True),
                                  (float("nan"), 0, False)])
def test_tuples_ints_bools_none(progs, args):
    proc = run(progs["mix"], *map(repr, args))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shown(mix(*args)) + "\n"


@pytest.mark.parametrize("z, x", [("1+2j", "0.5"), ("-0-1j", "-0.0"), ("nan+infj", "2"),
                                  ("(3e16-1e-5j)", "1"), ("2j", "inf"), ("-1.5", "0.1")])
def test_complex(progs, z, x):
    proc = run(progs["cz"], z, x)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == shown(cz(complex(z), float(x))) + "\n"


def python_error(fn, *args) -> str:
    with pytest.raises(Exception) as info:
        fn(*args)
    return f"{type(info.value).__name__}: {info.value}\n"


def test_raises_and_usage(progs):
    proc = run(progs["div"], 7, 0)
    assert (proc.returncode, proc.stdout) == (Exit.RAISED, "")
    assert proc.stderr == python_error(div, 7, 0)
    proc = run(progs["pick"], 5)
    assert proc.returncode == Exit.RAISED
    assert proc.stderr == python_error(pick.py_func if hasattr(pick, "py_func")
                                       else pick, 5)
    assert run(progs["div"], 7).returncode == Exit.USAGE
    proc = run(progs["div"], "7.5", 1)
    assert proc.returncode == Exit.USAGE
    assert proc.stderr.splitlines() == [      # the same text as the wasm loader's
        f"{progs['div']}: argument 1 (a: expected int64, got '7.5')",
        f"usage: {progs['div']} <a:i64> <b:i64>"]
    assert run(progs["cz"], "1+2", 1).returncode == Exit.USAGE
    assert run(progs["mix"], 1, 2, "yes").returncode == Exit.USAGE
