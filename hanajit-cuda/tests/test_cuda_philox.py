"""``hanajit.philox`` in CUDA kernels, beyond the conformance list's programs
(which every GPU target runs): normals drawn in a loop, assembled by ptxas
(no GPU here: compiled and validated only), and the refusal of a target
without 64-bit integers, naming the capability."""
from __future__ import annotations

import dataclasses
import subprocess
import tempfile
from pathlib import Path

import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError
from hanajit.philox import philox_normal, philox_random, philox_stream
from hanajit_cuda import toolchain
from hanajit_cuda.target import CudaTarget


def normals(out, key, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        s = philox_stream(key, i)
        for k in range(out.shape[1]):
            x, s = philox_normal(s)
            out[i, k] = x


def uniforms(out, key, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        s = philox_stream(key, i)
        x, s = philox_random(s)
        out[i] = x


def test_normals_in_a_loop_assemble():
    jf = jit(normals, target="cuda", fallback=False)
    jf.compile_signature("f64[:, :], u64, i64")
    ptxas = toolchain.find_ptxas()
    if ptxas is None:
        pytest.skip("no ptxas to assemble the PTX")
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp) / "kernel.ptx"
        ptx.write_text(jf.inspect_gpu())
        proc = subprocess.run([ptxas, "-arch=sm_75", str(ptx), "-o",
                               str(Path(tmp) / "kernel.cubin")],
                              capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_a_target_without_int64_refuses_naming_the_capability(monkeypatch):
    monkeypatch.setattr(CudaTarget, "capabilities", dataclasses.replace(
        CudaTarget.capabilities, int64=False))
    jf = jit(uniforms, target="cuda", fallback=False)
    with pytest.raises(UnsupportedError, match=r"philox_stream\(\) needs 64-bit "
                       r"integers \(Capabilities\.int64\), which target 'cuda'"):
        jf.compile_signature("f64[:], u64, i64")
