"""The exporter case list on hanajit-fpga: each case exported as an HLS kit whose
testbench runs every argument tuple in C simulation (g++ with the Xilinx ap_types
headers) and checks the kernel's results against the CPU JIT's, which the host
case list checks against CPython; the testbench exits non-zero on a mismatch."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from hanajit.testing.conformance import ExporterConformance
from hanajit_fpga.target import ap_types_dir


class TestFpgaConformance(ExporterConformance):
    target = "fpga"

    def run_export(self, func, signature, argsets, tmp_path):
        ap_types = ap_types_dir()
        if ap_types is None or shutil.which("g++") is None:
            pytest.skip("C simulation needs g++ and the Xilinx ap_types headers "
                        "(pip install --no-deps hls4ml)")
        out = func.export_fpga(tmp_path / "k", sig=signature, samples=argsets)
        assert out.cpp is not None, "outside the HLS C++ subset: " + out.tcl.read_text()
        exe = tmp_path / "csim"
        subprocess.run(["g++", "-std=c++14", "-O1", "-isystem", str(ap_types), str(out.tb),
                        str(out.cpp), "-o", str(exe)], check=True, capture_output=True)
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return [None] * len(argsets)          # the testbench checked each one
