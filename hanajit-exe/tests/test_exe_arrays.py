"""export_executable with array arguments and results (.npy files in and out):
real kernels built as programs, their outputs compared bit for bit with the CPU JIT."""
from __future__ import annotations

import ast
import subprocess

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.testing.array_kernels import (cumsum, floordiv_all, halves, product_sum,
                                          rowsum, scale, stats)
from hanajit_exe.toolchain import find_host_cc

pytestmark = pytest.mark.skipif(
    find_host_cc() is None, reason="no host C compiler (cc, gcc, clang, HANAJIT_CC)")


def run(exe, *args):
    return subprocess.run([str(exe), *map(str, args)], capture_output=True, text=True,
                          timeout=30)


@pytest.fixture(scope="module")
def progs(tmp_path_factory):
    d = tmp_path_factory.mktemp("exe_arrays")
    sigs = {cumsum: "f64[:]", scale: "f64[:], f64", rowsum: "f64[:, :]",
            floordiv_all: "i64[:], i64", stats: "i32[:]", halves: "f32[:]",
            product_sum: "f64[:], f64[:]"}
    return d, {f.__name__: f.export_executable(d / f.__name__, sig=s).executable
               for f, s in sigs.items()}


def same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes()


floats = hnp.arrays(np.float64, st.integers(0, 40),
                    elements=st.floats(allow_nan=True, allow_infinity=True, width=64))


@settings(max_examples=30, deadline=None)
@given(a=floats)
def test_cumsum_new_array_written_as_npy_bit_for_bit(progs, a):
    d, exe = progs
    np.save(d / "a.npy", a)
    proc = run(exe["cumsum"], d / "a.npy", "-o", d / "out.npy")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == repr(str(d / "out.npy"))
    same(np.load(d / "out.npy"), cumsum(a))


def test_sum_of_an_expression_prints_numpys_pairwise_sum(progs):
    d, exe = progs
    rng = np.random.default_rng(7)
    for n in (5, 130, 1001):
        a, b = rng.standard_normal(n), rng.standard_normal(n)
        np.save(d / "a.npy", a)
        np.save(d / "b.npy", b)
        proc = run(exe["product_sum"], d / "a.npy", d / "b.npy")
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip() == repr(float(product_sum.py_func(a, b)))


def test_result_printed_as_a_list_without_o(progs):
    d, exe = progs
    a = np.array([0.1, -0.0, 2.5, 1e300, np.inf])
    np.save(d / "p.npy", a)
    proc = run(exe["cumsum"], d / "p.npy")
    assert proc.returncode == 0, proc.stderr
    printed = proc.stdout.strip().replace("inf", "1e999")
    assert [float(x) for x in ast.literal_eval(printed)] == cumsum(a).tolist()


def test_in_place_scale_written_back_on_request(progs):
    d, exe = progs
    a = np.array([1.5, -2.0, 0.0, -0.0, np.nan, 7e-310])
    np.save(d / "s.npy", a)
    proc = run(exe["scale"], d / "s.npy", "2.5")           # no write-back
    assert proc.returncode == 0 and proc.stdout.strip() == "None"
    same(np.load(d / "s.npy"), a)
    proc = run(exe["scale"], "--write-back", d / "s.npy", "-3.25")
    assert proc.returncode == 0, proc.stderr
    want = a.copy()
    scale(want, -3.25)
    same(np.load(d / "s.npy"), want)


@pytest.mark.parametrize("order", ["C", "F", "view"])
def test_2d_row_sum_from_c_fortran_and_sliced_files(progs, order):
    d, exe = progs
    m = np.random.default_rng(1).standard_normal((5, 7))
    m = {"C": m, "F": np.asfortranarray(m), "view": m[::2, 1::3]}[order]
    np.save(d / "m.npy", m)
    proc = run(exe["rowsum"], d / "m.npy", "--out", d / "r.npy")
    assert proc.returncode == 0, proc.stderr
    same(np.load(d / "r.npy"), rowsum(m))


def test_npy_version_2_and_empty_arrays(progs):
    d, exe = progs
    a = np.arange(6.0) / 7
    with open(d / "v2.npy", "wb") as f:
        np.lib.format.write_array(f, a, version=(2, 0))
    proc = run(exe["cumsum"], d / "v2.npy", "--out=" + str(d / "v2o.npy"))
    assert proc.returncode == 0, proc.stderr
    same(np.load(d / "v2o.npy"), cumsum(a))
    np.save(d / "e.npy", np.zeros((0, 3)))
    assert run(exe["rowsum"], d / "e.npy", "-o", d / "eo.npy").returncode == 0
    same(np.load(d / "eo.npy"), np.zeros(0))
    assert run(exe["rowsum"], d / "e.npy").stdout.strip() == "[]"


@settings(max_examples=30, deadline=None)
@given(a=hnp.arrays(np.int64, st.integers(0, 12),
                    elements=st.integers(-2**63, 2**63 - 1)),
       k=st.integers(-2**63, 2**63 - 1).filter(bool))
def test_integer_floor_division_on_negatives(progs, a, k):
    d, exe = progs
    np.save(d / "i.npy", a)
    proc = run(exe["floordiv_all"], d / "i.npy", k, "-o", d / "io.npy")
    assert proc.returncode == 0, proc.stderr
    same(np.load(d / "io.npy"), floordiv_all(a, k))


def test_element_division_by_zero_is_numpys(progs):
    # a[i] // 0 of a NumPy integer is 0 (NumPy's scalar semantics, with a
    # RuntimeWarning in the interpreter), as in the CPU JIT and CPython
    d, exe = progs
    a = np.array([1, -2], dtype=np.int64)
    np.save(d / "z.npy", a)
    proc = run(exe["floordiv_all"], d / "z.npy", 0, "-o", d / "zo.npy")
    assert proc.returncode == 0, proc.stderr
    with np.errstate(divide="ignore"):
        want = floordiv_all.py_func(a, 0)
    same(np.load(d / "zo.npy"), want)
    same(want, floordiv_all(a, 0))


def test_tuple_of_bool_array_scalar_and_strided_view(progs):
    d, exe = progs
    a = np.array([3, -1, 0, 2**31 - 1, -2**31, 5, 7], dtype=np.int32)
    np.save(d / "t.npy", a)
    pos, total, view = stats(a)
    proc = run(exe["stats"], d / "t.npy")
    assert proc.returncode == 0, proc.stderr
    assert ast.literal_eval(proc.stdout.strip()) == (pos.tolist(), total, view.tolist())
    proc = run(exe["stats"], d / "t.npy", "-o", d / "p.npy", "-o", d / "v.npy")
    assert proc.returncode == 0, proc.stderr
    assert ast.literal_eval(proc.stdout.strip()) == (str(d / "p.npy"), total,
                                                     str(d / "v.npy"))
    same(np.load(d / "p.npy"), pos)
    same(np.load(d / "v.npy"), view)


def test_float32_and_uint8_results(progs):
    d, exe = progs
    a = np.array([1.5, -0.0, 3.4028235e38, 1e-45, np.nan], dtype=np.float32)
    np.save(d / "h.npy", a)
    proc = run(exe["halves"], d / "h.npy", "-o", d / "lo.npy", "-o", d / "hi.npy")
    assert proc.returncode == 0, proc.stderr
    lo, hi = halves(a)
    same(np.load(d / "lo.npy"), lo)
    same(np.load(d / "hi.npy"), hi)


@pytest.mark.parametrize("case, message", [
    ("dtype", "holds dtype '<i8', expected '<f8'"),
    ("ndim", "has 2 dimensions, expected 1"),
    ("text", "is not a .npy file"),
    ("missing", "cannot open"),
    ("two_o", "too many -o options"),
    ("arity", "expected 1 argument, got 0"),
])
def test_bad_files_and_options_exit_64(progs, case, message):
    d, exe = progs
    np.save(d / "i8.npy", np.arange(3))
    np.save(d / "2d.npy", np.zeros((2, 2)))
    (d / "t.txt").write_text("1 2 3")
    args = {"dtype": [d / "i8.npy"], "ndim": [d / "2d.npy"], "text": [d / "t.txt"],
            "missing": [d / "nope.npy"],
            "two_o": [d / "2d.npy", "-o", d / "x.npy", "-o", d / "y.npy"],
            "arity": []}[case]
    proc = run(exe["cumsum"], *args)
    assert proc.returncode == 64 and message in proc.stderr, proc.stderr
    assert "usage:" in proc.stderr


def test_bool_arrays_accept_numpy_bool_files(tmp_path):
    @jit
    def count(flags):
        n = 0
        for i in range(flags.shape[0]):
            if flags[i]:
                n += 1
        return n
    exe = count.export_executable(tmp_path / "count", sig="b1[:]").executable
    a = np.array([True, False, True, True])
    np.save(tmp_path / "b.npy", a)
    assert run(exe, tmp_path / "b.npy").stdout.strip() == str(count(a))


def test_complex_arrays_are_rejected(tmp_path):
    @jit
    def first(z):
        return z[0].real
    with pytest.raises(UnsupportedError, match="complex"):
        first.export_executable(tmp_path / "c", sig="c128[:]")


def test_complex_math_is_refused_naming_it(tmp_path):
    # (the C library's cexp is called only by the CPU JIT: math_functions)
    @jit
    def phase(x):
        return np.exp(1j * x).real
    with pytest.raises(UnsupportedError, match=r"complex exp\(\)"):
        phase.export_executable(tmp_path / "p", sig="f64")


def test_layout_signatures_check_the_file_order(tmp_path):
    exe = rowsum.export_executable(tmp_path / "rc", sig="f64[:, ::1]").executable
    m = np.arange(6.0).reshape(2, 3) / 7
    np.save(tmp_path / "c.npy", m)
    np.save(tmp_path / "f.npy", np.asfortranarray(m))
    proc = run(exe, tmp_path / "c.npy", "-o", tmp_path / "o.npy")
    assert proc.returncode == 0, proc.stderr
    same(np.load(tmp_path / "o.npy"), rowsum(m))
    proc = run(exe, tmp_path / "f.npy")
    assert proc.returncode == 64 and "Fortran-ordered" in proc.stderr


def test_big_endian_files_and_o_without_array_results_exit_64(progs):
    d, exe = progs
    np.save(d / "be.npy", np.arange(3.0).astype(">f8"))
    proc = run(exe["cumsum"], d / "be.npy")
    assert proc.returncode == 64 and "holds dtype '>f8'" in proc.stderr
    np.save(d / "ok.npy", np.arange(3.0))
    proc = run(exe["scale"], d / "ok.npy", "2", "-o", d / "x.npy")
    assert proc.returncode == 64 and "no array result for -o" in proc.stderr


def test_index_error_message_carries_the_index(tmp_path):
    @jit
    def pick(a, i):
        return a[i]
    exe = pick.export_executable(tmp_path / "pick", sig="i64[:], i64").executable
    a = np.array([4, 5, 6])
    np.save(tmp_path / "a.npy", a)
    assert run(exe, tmp_path / "a.npy", -1).stdout.strip() == "6"
    proc = run(exe, tmp_path / "a.npy", 7)
    with pytest.raises(IndexError) as info:
        pick(a, 7)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"IndexError: {info.value}"
