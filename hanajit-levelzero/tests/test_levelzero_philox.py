"""``hanajit.philox`` normals in a Level Zero kernel, run on PoCL's CPU device
through the OpenCL route and compared bit for bit with NumPy's
``Generator(Philox).standard_normal`` (the conformance programs cover the other
draws on every target).  Thread ``i`` draws 40 normals from stream ``i``: the
ziggurat's wedges run (and, over the grid, its tail)."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit, plugins
from hanajit.philox import philox_normal, philox_stream

KEY = 0x5DEECE66D


def normals(out, key, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        s = philox_stream(key, i)
        for k in range(out.shape[1]):
            x, s = philox_normal(s)
            out[i, k] = x


@pytest.fixture
def opencl_route(monkeypatch):
    monkeypatch.setenv("HANAJIT_LEVELZERO_RUNTIME", "opencl")
    monkeypatch.delenv("HANAJIT_LEVELZERO_DEVICE", raising=False)
    yield
    plugins.get_target("levelzero").synchronize()


def test_normals_equal_numpys(opencl_route):
    jf = jit(normals, target="levelzero", fallback=False)
    jf.compile_signature("f64[:, :], u64, i64")      # compiles without a device
    ok, reason = plugins.get_target("levelzero").status()
    if not ok:
        pytest.skip(f"no OpenCL device for the route: {reason}")
    n = 200
    out = np.zeros((n, 40))
    jf.launch(out, np.uint64(KEY), n, grid=4, block=64)
    want = np.array([np.random.Generator(np.random.Philox(
        key=KEY, counter=i << 128)).standard_normal(40) for i in range(n)])
    assert np.array_equal(out.view(np.uint64), want.view(np.uint64))
    assert np.abs(want).max() > 3.6543          # a draw from the tail
