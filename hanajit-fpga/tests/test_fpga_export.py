"""export_fpga: the HLS kit's C simulation (g++ with the Xilinx ap_types headers)."""
from __future__ import annotations

import math
import shutil
import subprocess

import pytest

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit_fpga.target import ap_types_dir

AP_TYPES = ap_types_dir()
needs_csim = [
    pytest.mark.skipif(AP_TYPES is None, reason="Xilinx ap_types headers not found "
                       "(pip install --no-deps hls4ml)"),
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not installed"),
]


def csim(out, tmp_path):
    exe = tmp_path / "csim"
    subprocess.run(["g++", "-std=c++14", "-O2", "-isystem", str(AP_TYPES), str(out.tb),
                    str(out.cpp), "-o", str(exe)], check=True, capture_output=True)
    return subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)


@jit
def poly(x, n):
    s = 0.0
    for i in range(n):
        s = s * x + math.sqrt(i) - i // 3 + i % -4
    return s


@jit
def nested(n, m):
    t = 0
    for i in range(n):
        for j in range(m):
            t += (i * j) ^ (t >> 3)
    return t, t > 100


@jit
def checked(a, b):
    return a // b + (a % b)


@jit
def loop_break(n):
    i = 0
    t = 1
    while True:
        t = t * 3 + i
        i += 1
        if t > 100000 or i >= n:
            break
    return t


def test_files_pragmas_and_tcl(tmp_path):
    out = nested.export_fpga(tmp_path / "nested", sig="i64, i64", part="xcvu9p-flga2104-2-i",
                             clock_ns=5.0)
    cpp = out.cpp.read_text()
    assert cpp.count("#pragma HLS PIPELINE II=1") == 1      # the innermost loop only
    assert "#pragma HLS INTERFACE s_axilite port=return bundle=control" in cpp
    assert "int32_t nested(int64_t n, int64_t m, int64_t *result0, bool *result1)" in cpp
    tcl = out.tcl.read_text()
    assert "set_part {xcvu9p-flga2104-2-i}" in tcl and "-period 5 " in tcl
    assert tcl.index("csim_design") < tcl.index("csynth_design") < tcl.index("export_design")
    assert "define" in out.ll.read_text()
    default = poly.export_fpga(tmp_path / "poly", sig="f64, i64").tcl.read_text()
    assert "xcu250-figd2104-2L-e" in default and "-period 3.3 " in default


COEFFS = tuple(1.0 / (k + 1) for k in range(12))


@jit
def table(i):
    # a constant tuple indexed at run time (TableLoad: nested selects in C++)
    return COEFFS[i] + COEFFS[-1 - i]


@pytest.mark.parametrize("kernel, sig, samples", [
    (table, "i64", [(0,), (5,), (11,), (-3,)]),
    (poly, "f64, i64", None),
    (poly, "f64, i64", [(0.5, 20), (-1.5, 9), (float("nan"), 3), (2.0, -1)]),
    (nested, "i64, i64", [(5, 7), (30, 30), (0, 3)]),
    (checked, "i64, i64", [(-7, 2), (7, -2), (1, 0), (-(1 << 63), -1)]),
    (loop_break, "i64", [(3,), (50,)]),
])
def test_csim_matches_the_cpu_jit(tmp_path, kernel, sig, samples):
    for mark in needs_csim:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    out = kernel.export_fpga(tmp_path / "k", sig=sig, samples=samples)
    proc = csim(out, tmp_path)
    assert proc.returncode == 0, proc.stdout
    assert "MISMATCH" not in proc.stdout
    # a sample whose Python result leaves int64 deoptimises on the CPU: left out
    kept = [args for args in samples if representable(kernel, args)] if samples else None
    n = len(kept) if samples else 4
    assert f"{n} of {n} samples match" in proc.stdout
    if samples:                  # each result printed as Python prints it
        printed = [line for line in proc.stdout.splitlines() if line.startswith("sample")]
        assert printed == [f"sample {k}: {python_line(kernel, args)}"
                           for k, args in enumerate(kept)]


def representable(kernel, args) -> bool:
    try:
        r = kernel(*args)
    except Exception:
        return True
    return all(not isinstance(v, int) or -(1 << 63) <= v < (1 << 63)
               for v in (r if isinstance(r, tuple) else (r,)))


def python_line(kernel, args) -> str:
    try:
        return repr(kernel(*args))
    except Exception as exc:
        return f"raised {type(exc).__name__}: {exc}"


def test_the_testbench_fails_on_a_wrong_expectation(tmp_path):
    for mark in needs_csim:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    out = checked.export_fpga(tmp_path / "k", sig="i64, i64", samples=[(7, 2)])
    out.tb.write_text(out.tb.read_text().replace("r0 == 4LL", "r0 == 5LL"))
    proc = csim(out, tmp_path)
    assert proc.returncode == 1 and "MISMATCH sample 0" in proc.stdout


@jit
def cplx(x):
    z = complex(x, 1.0)
    return (z * z).real


def test_outside_the_subset_writes_the_ir_and_a_tcl_stub(tmp_path):
    """The description's IR-only export: ``.ll`` plus a TCL stub saying why, no C++,
    and one warning naming the function, the construct and its line."""
    line = cplx.__wrapped__.__code__.co_firstlineno + 2   # after @jit and def
    with pytest.warns(HanaJitFallbackWarning) as caught:
        out = cplx.export_fpga(tmp_path / "c", sig="f64")
    assert len(caught) == 1
    message = str(caught[0].message)
    assert "cplx" in message and "complex numbers" in message
    assert f"line {line}" in message
    assert out.cpp is None and out.tb is None
    assert out.ll == tmp_path / "c.ll" and out.tcl == tmp_path / "c_hls.tcl"
    assert not (tmp_path / "c_hls.cpp").exists()
    assert not (tmp_path / "c_tb.cpp").exists()
    tcl = out.tcl.read_text()
    assert "complex numbers" in tcl and f"line {line}" in tcl and "c.ll" in tcl
    assert "csynth_design" not in tcl.replace("# ", "#").split("open_project")[1]
    assert all(ln.startswith("#") for ln in tcl.split("open_project")[0].splitlines())
    assert_valid_ir(out.ll)


def assert_valid_ir(path):
    """The exported IR parses and verifies in LLVM (and ``llvm-as`` takes it too,
    where installed)."""
    import llvmlite.binding as llvm
    text = path.read_text()
    llvm.parse_assembly(text).verify()
    for tool in ("llvm-as-22", "llvm-as-19"):      # older ones lack newer syntax
        if shutil.which(tool):
            proc = subprocess.run([tool, str(path), "-o", "/dev/null"],
                                  capture_output=True, text=True)
            assert proc.returncode == 0, proc.stderr
            break


def test_a_complex_argument_gets_the_ir_only_export(tmp_path):
    @jit
    def real_part(z):
        return z.real
    with pytest.warns(HanaJitFallbackWarning, match="argument 'z' of .*real_part "
                      "has type complex128"):
        out = real_part.export_fpga(tmp_path / "z", sig="c128")
    assert out.cpp is None and out.tb is None
    assert_valid_ir(out.ll)


def test_bad_options_of_a_kernel_outside_the_subset_still_raise(tmp_path):
    with pytest.raises(ValueError, match="not array arguments"):
        cplx.export_fpga(tmp_path / "d", sig="f64", depth={"x": 4})
    assert not (tmp_path / "d.ll").exists()
