"""export_fpga with array arguments: m_axi ports, the testbench feeds arrays and
checks them (and the scalar result) against the CPU JIT, g++ C simulation."""
from __future__ import annotations

import shutil
import subprocess

import numpy as np
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
def scale(a, k):
    for i in range(a.shape[0]):
        a[i] *= k


@jit
def rowsum_into(m, out):
    for i in range(m.shape[0]):
        s = 0.0
        for j in range(m.shape[1]):
            s += m[i, j]
        out[i] = s
    return out.shape[0]


@jit
def floordiv_count(a, k):
    t = 0
    for i in range(a.shape[0]):
        a[i] = a[i] // k
        t += a[i] % 7
    return t


@jit
def threshold(x, flags, level):
    n = 0
    for i in range(x.shape[0]):
        flags[i] = x[i] > level
        if flags[i]:
            n += 1
    return n, x[1:].shape[0]


@jit
def with_temp(n):
    tmp = np.zeros(n)
    return tmp.shape[0]


@jit
def make(n):
    return np.zeros(n)


@jit
def product_sum(a, b):
    # on the CPU NumPy's pairwise order, which allocates; in hardware (no heap,
    # Capabilities.allocation) the in-order sum, and the testbench's references
    # are computed that way too
    return np.sum(a * b)


CASES = [
    (scale, "f64[:], f64", None),
    (scale, "f64[:], f64", [(np.array([1.5, np.nan, -0.0, np.inf, 5e-324]), -2.0),
                            (np.zeros(0), 1.0)]),
    (rowsum_into, "f64[:, :], f64[:]", None),
    (rowsum_into, "f64[::1, :], f64[:]", None),
    (rowsum_into, "f64[:, :], f64[:]", [(np.ones((4, 2)), np.zeros(3))]),  # IndexError
    (floordiv_count, "i64[:], i64", [(np.array([-7, 7, -2**63, 2**63 - 1]), -2),
                                     (np.array([3, 4]), 0), (np.array([-1]), 3)]),
    (threshold, "f32[:], b1[:], f32", [(np.array([0.5, -1.0, 2.0, np.nan],
                                                 dtype=np.float32),
                                        np.zeros(4, dtype=bool), 0.25)]),
    (threshold, "i32[:], b1[:], i32", None),
    (product_sum, "f64[:], f64[:]", None),
]


@pytest.mark.parametrize("kernel, sig, samples", CASES)
def test_csim_with_arrays_matches_the_cpu_jit(tmp_path, kernel, sig, samples):
    for mark in needs_csim:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    out = kernel.export_fpga(tmp_path / "k", sig=sig, samples=samples)
    proc = csim(out, tmp_path)
    assert proc.returncode == 0, proc.stdout
    n = len(samples) if samples else 4
    assert f"{n} of {n} samples match" in proc.stdout


def test_raise_samples_are_kept(tmp_path):
    out = rowsum_into.export_fpga(tmp_path / "k", sig="f64[:, :], f64[:]",
                                  samples=[(np.ones((4, 2)), np.zeros(3))])
    tb = out.tb.read_text()
    assert "if (!(code == 0" not in tb and "if (!(code == 1 &&" in tb    # an IndexError


def test_array_ports_are_m_axi(tmp_path):
    out = rowsum_into.export_fpga(tmp_path / "k", sig="f64[:, :], f64[:]")
    cpp = out.cpp.read_text()
    assert ("int32_t rowsum_into(double *m, int64_t m_shape0, int64_t m_shape1, "
            "double *out, int64_t out_shape0, int64_t *result)") in cpp
    for port in ("m", "out"):
        assert (f"#pragma HLS INTERFACE m_axi port={port} offset=slave bundle=gmem "
                f"depth={12 if port == 'm' else 5}" in cpp)      # default samples
        assert f"#pragma HLS INTERFACE s_axilite port={port} bundle=control" in cpp
    assert "#pragma HLS INTERFACE s_axilite port=m_shape1 bundle=control" in cpp


def test_m_axi_depth_from_samples_or_given(tmp_path):
    samples = [(np.ones((4, 3)), np.zeros(4)), (np.ones((2, 50)), np.zeros(2))]
    cpp = rowsum_into.export_fpga(tmp_path / "a", sig="f64[:, :], f64[:]",
                                  samples=samples).cpp.read_text()
    assert "port=m offset=slave bundle=gmem depth=100" in cpp
    assert "port=out offset=slave bundle=gmem depth=4" in cpp
    cpp = rowsum_into.export_fpga(tmp_path / "b", sig="f64[:, :], f64[:]",
                                  depth=4096).cpp.read_text()
    assert "port=m offset=slave bundle=gmem depth=4096" in cpp
    assert "port=out offset=slave bundle=gmem depth=4096" in cpp
    cpp = rowsum_into.export_fpga(tmp_path / "c", sig="f64[:, :], f64[:]",
                                  depth={"out": 64}).cpp.read_text()
    assert "port=m offset=slave bundle=gmem depth=12" in cpp
    assert "port=out offset=slave bundle=gmem depth=64" in cpp
    with pytest.raises(ValueError, match="not array arguments"):
        rowsum_into.export_fpga(tmp_path / "d", sig="f64[:, :], f64[:]",
                                depth={"k": 3})
    with pytest.raises(ValueError, match="positive int"):
        rowsum_into.export_fpga(tmp_path / "e", sig="f64[:, :], f64[:]", depth=0)


def test_the_testbench_checks_array_contents(tmp_path):
    for mark in needs_csim:
        if mark.args[0]:
            pytest.skip(mark.kwargs["reason"])
    out = scale.export_fpga(tmp_path / "k", sig="f64[:], f64",
                            samples=[(np.array([1.0, 2.0]), 3.0)])
    tb = out.tb.read_text()
    assert "((double)6.0)" in tb
    out.tb.write_text(tb.replace("((double)6.0)", "((double)6.5)"))
    proc = csim(out, tmp_path)
    assert proc.returncode == 1 and "MISMATCH sample 0" in proc.stdout


@pytest.mark.parametrize("kernel, match", [
    (with_temp, "array allocation"),
    (make, "array results"),
])
def test_allocating_kernels_export_the_ir_only(tmp_path, kernel, match):
    """Outside the HLS C++ subset: ``.ll`` and a TCL stub, the reason in a warning."""
    import llvmlite.binding as llvm
    with pytest.warns(HanaJitFallbackWarning, match=match):
        out = kernel.export_fpga(tmp_path / "k", sig="i64")
    assert out.cpp is None and out.tb is None
    assert not (tmp_path / "k_hls.cpp").exists()
    assert match in out.tcl.read_text()
    llvm.parse_assembly(out.ll.read_text()).verify()


def test_a_sample_of_the_wrong_dtype_is_a_type_error(tmp_path):
    with pytest.raises(TypeError, match="does not fit f64"):
        scale.export_fpga(tmp_path / "k", sig="f64[:], f64",
                          samples=[(np.arange(3), 2.0)])


def test_one_copy_of_each_loop_nest(tmp_path):
    """The CPU code runs a checked and an unchecked copy of a nest whose indices one
    test proves (passes/version_bounds.py); in hardware a copy is area, so the HLS
    kernel keeps only the checked one."""
    from hanajit.ir import nodes as N
    module = rowsum_into.ir_module("f64[:, :], f64[:]")
    loops = sum(isinstance(s, N.ForCount) for f in module.functions.values()
                for s in N.walk_stmts(f.body))
    assert loops >= 4                  # versioned (and jammed) for the CPU
    cpp = rowsum_into.export_fpga(tmp_path / "k", sig="f64[:, :], f64[:]").cpp.read_text()
    kernel = cpp[cpp.index("rowsum_into"):]
    assert kernel.count("for (v_") == 2
