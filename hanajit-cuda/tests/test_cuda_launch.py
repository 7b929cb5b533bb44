"""Launch on a real GPU: results against NumPy (bit-exact where the arithmetic is
the same), resident arrays, asynchronous launches, errors.  Every test skips with
the reason when no CUDA driver and device are present (scripts/gpu-check.sh runs
them on a machine with one)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from hanajit import jit, plugins


def load_kernels():
    from hanajit.testing import gpu_kernels
    return gpu_kernels


K = load_kernels()
_OK, _WHY = plugins.get_target("cuda").status()
pytestmark = pytest.mark.skipif(not _OK, reason=f"no CUDA device: {_WHY}")
_cache: dict = {}


def kernel(name):
    if name not in _cache:
        fn, sig = K.KERNELS[name]
        _cache[name] = jit(fn, target="cuda", signature=sig, fallback=False)
    return _cache[name]


def rng(seed=0):
    return np.random.default_rng(seed)


def test_saxpy_bit_exact_host_arrays():
    n = 1_000_003
    x, y = rng().random(n), rng(1).random(n)
    want = 2.5 * x + y
    kernel("saxpy").launch(y, x, 2.5, n)
    assert np.array_equal(y, want)


def test_saxpy_resident_async():
    n = 100_000
    x, y = rng().random(n), rng(1).random(n)
    f = kernel("saxpy")
    xd, yd = f.to_device(x), f.to_device(y)
    want = y.copy()
    for _ in range(10):
        f.launch(yd, xd, 0.5, n, grid=(n + 255) // 256, block=256, sync=False)
        want = 0.5 * x + want
    f.synchronize()
    assert np.array_equal(yd.to_host(), want)
    yd.copy_from_host(y)
    assert np.array_equal(yd.to_host(), y)
    assert yd.shape == (n,) and yd.dtype == np.float64
    cai = yd.__cuda_array_interface__
    assert cai["shape"] == (n,) and cai["typestr"] == "<f8" and cai["data"][0] != 0
    xd.free()
    yd.free()


def test_tree_reduction_bit_exact():
    n = 256 * 37 + 11
    a = rng().random(n)
    nblocks = (n + 255) // 256
    partials = np.zeros(nblocks)
    kernel("block_sums").launch(partials, a, n, grid=nblocks, block=256)
    s = np.zeros(nblocks * 256)
    s[:n] = a
    s = s.reshape(nblocks, 256)
    step = 128
    while step > 0:                       # the same order of additions
        s[:, :step] = s[:, :step] + s[:, step:2 * step]
        step //= 2
    assert np.array_equal(partials, s[:, 0])


def test_atomic_histogram_exact():
    n = 500_000
    data = rng().integers(0, 10**6, n)
    hist = np.zeros(64, np.int32)
    kernel("histogram").launch(hist, data, n, grid=(n + 255) // 256, block=256)
    assert np.array_equal(hist, np.bincount(data % 64, minlength=64).astype(np.int32))


def test_stencil_2d_bit_exact():
    a = rng().random((300, 517))
    out = np.zeros_like(a)
    kernel("stencil2d").launch(out, a, grid=((517 + 15) // 16, (300 + 15) // 16),
                               block=(16, 16))
    want = np.zeros_like(a)
    want[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    assert np.array_equal(out, want)


def test_3d_indexing_bit_exact():
    a = rng().random((9, 17, 33)).astype(np.float32)
    out = np.zeros_like(a)
    kernel("scale3d").launch(out, a, np.float32(1.75), grid=(5, 3, 3), block=(8, 8, 4))
    assert np.array_equal(out, a * np.float32(1.75) + a)


def test_transcendentals_close_to_numpy():
    x = rng().random(10_000) * 10 + 0.01
    out = np.zeros((4, x.size))
    kernel("transcendentals").launch(out, x)
    want = np.stack([np.exp(x), np.sin(x), np.log(x), x ** 1.5])
    np.testing.assert_allclose(out, want, rtol=4e-16 * 8, atol=0)


def test_shared_memory_atomics():
    out = np.zeros(8)
    ints = np.zeros((2, 1), np.int64)
    kernel("shared_atomics").launch(out, ints, grid=1, block=128)
    assert out[0] == 0.0 and out[1] == 127.0
    assert 1.0 <= out[2] <= 128.0 and out[3] == 64.0
    assert out[4] == 0 and out[5] == 127 and 0 <= out[6] <= 127
    assert out[7] == sum(range(128))
    assert ints.ravel().tolist() == [64, 64]


def test_strided_and_readonly_host_arrays():
    base = rng().random(2001)
    y = base[::2].copy()
    x = base[::2]                         # strided, not copied back
    x.flags.writeable = False
    view = np.zeros(2002)[::2]            # strided output written back through a copy
    view[...] = y
    f = jit(K.saxpy, target="cuda", fallback=False)
    f.launch(view, x, 3.0, x.size)
    assert np.array_equal(view, 3.0 * x + y)


def test_index_error_is_raised_and_the_context_survives():
    def oob(y, n):
        i = block_id() * block_dim() + thread_id()  # noqa: F821
        y[i + n] = 1.0

    f = jit(oob, target="cuda", fallback=False)
    y = np.zeros(10)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 10"):
        f.launch(y, 5, grid=1, block=32)
    z = np.zeros(10)
    f.launch(z, -10, grid=1, block=10)     # negative indices wrap, as in Python
    assert z.tolist() == [1.0] * 10
    yd = f.to_device(np.zeros(10))
    f.launch(yd, 100, grid=1, block=1, sync=False)
    with pytest.raises(IndexError):
        f.synchronize()
    f.launch(yd, 0, grid=1, block=10)      # usable afterwards
    assert yd.to_host().tolist() == [1.0] * 10


def test_bad_geometry_is_a_value_error():
    f = kernel("saxpy")
    y = np.zeros(4)
    with pytest.raises(ValueError, match="at most 1024 threads"):
        f.launch(y, y, 1.0, 4, grid=1, block=2048)
    with pytest.raises(ValueError, match="positive"):
        f.launch(y, y, 1.0, 4, grid=0, block=1)


def test_driver_errors_carry_the_driver_message():
    from hanajit_cuda.driver import CudaError, get_driver
    with pytest.raises(CudaError, match="CUDA_ERROR_"):
        get_driver().alloc(1 << 60)       # out of memory
    y = np.arange(4.0)
    kernel("saxpy").launch(y, y, 1.0, 4)  # still fine
    assert y.tolist() == [0.0, 2.0, 4.0, 6.0]


def test_foreign_cuda_array_interface_objects():
    numba_cuda = pytest.importorskip("numba.cuda")
    if not numba_cuda.is_available():
        pytest.skip("numba.cuda sees no device")
    x = rng().random(1000)
    y = rng(1).random(1000)
    xd, yd = numba_cuda.to_device(x), numba_cuda.to_device(y)
    kernel("saxpy").launch(yd, xd, 2.0, 1000)
    assert np.array_equal(yd.copy_to_host(), 2.0 * x + y)


def test_cupy_and_torch_arrays_in_place():
    x = np.arange(1000.0)
    cp = None
    try:
        import cupy as cp
    except Exception:
        pass
    if cp is not None:
        yc = cp.ones(1000)
        kernel("saxpy").launch(yc, cp.asarray(x), 2.0, 1000)
        assert np.array_equal(cp.asnumpy(yc), 2.0 * x + 1)
    try:
        import torch
        ok = torch.cuda.is_available()
    except Exception:
        ok = False
    if ok:
        yt = torch.ones(1000, dtype=torch.float64, device="cuda")
        xt = torch.arange(1000, dtype=torch.float64, device="cuda")
        torch.cuda.synchronize()
        kernel("saxpy").launch(yt, xt, 2.0, 1000)
        assert np.array_equal(yt.cpu().numpy(), 2.0 * x + 1)
    if cp is None and not ok:
        pytest.skip("neither CuPy nor a CUDA PyTorch is installed")


def test_benchmark_script_runs(capsys):
    spec = importlib.util.spec_from_file_location(
        "cuda_bench", Path(__file__).parents[1] / "benchmarks" / "cuda_bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--n", "1e6", "--repeat", "2", "--launches", "200"]) == 0
    out = capsys.readouterr().out
    assert "| saxpy" in out and "| back-to-back launch" in out
    assert "| results exact (saxpy, launches) | True, True |" in out


STICKY_SCRIPT = '''
import numpy as np
from hanajit import jit
from hanajit_cuda.driver import CudaError


def wild(y, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    y[i + n] = 1.0


f = jit(wild, target="cuda", signature="f64[:], i64", boundscheck=False,
        fallback=False)
old = f.to_device(np.zeros(4))
for n in (1 << 40, 0):
    try:
        f.launch(old if n else np.zeros(4), n, grid=1, block=1)
        print("no error", flush=True)
    except CudaError as exc:
        print("raised", exc.name, "restart it" in str(exc), flush=True)
'''


def test_an_illegal_address_raises_and_says_the_process_must_restart(tmp_path):
    # boundscheck=False lets a kernel write anywhere.  The driver's
    # CUDA_ERROR_ILLEGAL_ADDRESS is sticky: on the H200 (driver 580) even a reset of
    # the primary context and a new retain fail with it.  So the error and every
    # later one say that the process must restart (run in a process of its own)
    import subprocess
    script = tmp_path / "sticky.py"
    script.write_text(STICKY_SCRIPT)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.split("\n")
    assert lines[0] == "raised CUDA_ERROR_ILLEGAL_ADDRESS True", out.stdout + out.stderr
    assert lines[1].startswith("raised CUDA_ERROR_") and lines[1].endswith(" True"), \
        out.stdout + out.stderr
