"""Kernels compiled one after another through the codegen fork server
(``hanajit.toolkit.codegen_workers``) are byte for byte what a fresh ``python -m``
child per kernel gives, for every target that compiles in a child: NVPTX, AMDGPU,
WebAssembly and both SPIR-V rows (LLVM 22's SPIR-V backend carries state from
one module to the next within a process: compiled in one process, later
modules differed, once with an id defined twice)."""
from __future__ import annotations

import glob
import os
import tempfile

import numpy as np
import pytest

from hanajit import jit
from hanajit.testing import cases_kernels
from hanajit.toolkit import codegen_workers
from hanajit.toolkit import llvm_toolchain as tc

_SERVER_RUN = codegen_workers.run
_SHORT = {"float64": "f64", "float32": "f32", "int64": "i64"}
# the GPU case list without math (libdevice and ROCm's libraries are optional)
NAMES = [n for n in cases_kernels.KERNELS if n != "transcendental"]


def _signature(name: str) -> str:
    kernel, dtype, make, _ = cases_kernels.KERNELS[name]
    return ", ".join([f"{_SHORT[np.dtype(dtype).name]}[:]"]
                     + [f"{_SHORT[a.dtype.name]}[:]" for a in make()] + ["i64"])


@pytest.fixture
def requests(monkeypatch):
    """The (module, request) pairs the server serves, in order."""
    seen = []
    run = _SERVER_RUN

    def recording(module, request, timeout):
        seen.append((module, request))
        return run(module, request, timeout)
    monkeypatch.setattr(codegen_workers, "run", recording)
    monkeypatch.delenv("HANAJIT_CODEGEN_WORKERS", raising=False)
    return seen


def _outcome(run, module: str, request: dict):
    """``run(module, request)``; a wasm request's files are read from a fresh
    directory of its own."""
    request = dict(request)
    with tempfile.TemporaryDirectory() as tmp:
        if "dir" in request:
            request["dir"] = tmp
        out = run(module, request)
        if "dir" in request:
            out = {os.path.basename(p): open(p, "rb").read()
                   for p in sorted(glob.glob(os.path.join(tmp, "*")))}
    return out


def _fresh(module: str, request: dict):
    """What a fresh ``python -m module`` child gives."""
    return _outcome(lambda m, r: tc.run_isolated(m, r, what="fresh codegen", timeout=300,
                                                 error=RuntimeError), module, request)


def _through_server(module: str, request: dict):
    return _outcome(lambda m, r: _SERVER_RUN(m, r, 300), module, request)


@pytest.mark.parametrize("target, options", [("cuda", {}), ("hip", {"gpu_arch": "gfx90a"}),
                                             ("levelzero", {}), ("vulkan", {})])
def test_gpu_kernels_through_the_server_equal_fresh_children(target, options, requests):
    for name in NAMES:
        jf = jit(cases_kernels.KERNELS[name][0], target=target,
                 signature=_signature(name), fallback=False, **options)
        jf._pick(None)
    assert len(requests) == len(NAMES)
    served = [_through_server(m, r) for m, r in requests]   # one server, in a row
    for (module, request), got in zip(requests, served):
        assert got == _fresh(module, request)


def test_wasm_modules_through_the_server_equal_fresh_children(requests, tmp_path):
    pytest.importorskip("hanajit_wasm")
    from hanajit.testing.array_kernels import cumsum, rowsum, scale
    from hanajit_wasm.toolchain import find_wasm_ld
    if find_wasm_ld() is None:
        pytest.skip("no wasm-ld (Debian: lld-19; or HANAJIT_WASM_LD)")
    for f, sig in ((cumsum, "f64[:]"), (scale, "f64[:], f64"), (rowsum, "f64[:, :]")):
        jit(f).export_wasm(tmp_path / f.__name__, sig=sig)
    assert requests
    served = [_through_server(m, r) for m, r in requests]
    for (module, request), got in zip(requests, served):
        assert got == _fresh(module, request)
