"""The launch API on the Vulkan device (lavapipe here), validation layer on:
grid/block, device arrays, sync=False, exceptions, atomics, 2-D kernels."""
from __future__ import annotations

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import TargetError
from hanajit.testing.sourcefile import load_sibling

K = load_sibling(__file__, "vulkan_kernels.py", "hanajit_vulkan_test_kernels")


@pytest.fixture(scope="module")
def runtime():
    from hanajit_vulkan.runtime import get_runtime
    try:
        return get_runtime()
    except TargetError as exc:
        pytest.skip(f"no Vulkan device: {exc}")


def test_saxpy_with_and_without_geometry(runtime):
    f = jit(target="vulkan")(K.saxpy)
    n = 1000
    x = np.linspace(-3, 3, n)
    y = np.arange(n, dtype=np.float64)
    want = 0.5 * x + y
    f.launch(y, x, 0.5, n, grid=(n + 127) // 128, block=128)
    assert np.array_equal(y, want)
    y2 = np.arange(n, dtype=np.float64)
    f.launch(y2, x, 0.5, n)                      # one thread per element, 64 a block
    assert np.array_equal(y2, want)
    assert runtime.validation and not runtime.messages


def test_block_size_is_a_shader_each(runtime, monkeypatch):
    f = jit(target="vulkan")(K.ids)
    out = np.zeros((6 * 16, 4), np.int64)
    f.launch(out, grid=6, block=16)
    i = np.arange(6 * 16)
    assert out[:, 0].tolist() == (i % 16).tolist()
    assert out[:, 1].tolist() == (i // 16).tolist()
    assert set(out[:, 2]) == {16} and set(out[:, 3]) == {6}
    # without block=: HANAJIT_VULKAN_LOCAL_SIZE (read when the launcher starts)
    from hanajit_vulkan.driver import VulkanDriver
    monkeypatch.setenv("HANAJIT_VULKAN_LOCAL_SIZE", "32")
    assert VulkanDriver(runtime, None).default_block == (32, 1, 1)
    out2 = np.zeros((3 * 64, 4), np.int64)
    f.launch(out2, grid=3)                       # this launcher's default: 64
    assert set(out2[:, 2]) == {64} and set(out2[:, 3]) == {3}


def test_stencil_2d(runtime):
    f = jit(target="vulkan")(K.stencil)
    a = np.random.default_rng(0).normal(size=(37, 45))
    out = np.zeros_like(a)
    f.launch(out, a, grid=(5, 6), block=(8, 8))
    want = np.zeros_like(a)
    want[1:-1, 1:-1] = (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
                        - 4.0 * a[1:-1, 1:-1])
    assert np.array_equal(out, want)


def test_atomic_histogram(runtime):
    f = jit(target="vulkan")(K.histogram)
    x = np.random.default_rng(1).integers(0, 1000, 5000)
    h = np.zeros(16, np.int32)
    f.launch(h, x, x.size, block=64)
    assert h.tolist() == np.bincount(x % 16, minlength=16).tolist()


def test_float32_exp_within_bound(runtime):
    # GLSL.std.450 Exp: Vulkan allows 3 + 2|x| ulp; lavapipe measured 5e-7 relative
    f = jit(target="vulkan")(K.exp32)
    x = np.linspace(-10, 10, 300, dtype=np.float32)
    out = np.zeros_like(x)
    f.launch(out, x, x.size)
    want = np.exp(x.astype(np.float64))
    assert np.max(np.abs(out - want) / want) < 2e-6


def test_index_error_in_the_caller(runtime):
    f = jit(target="vulkan")(K.out_of_range)
    out = np.zeros(10)
    with pytest.raises(IndexError, match="out of bounds"):
        f.launch(out, 10, block=32)
    out[:] = 0
    f.launch(out, 3)                             # the record was cleared: no raise
    assert out[5:8].tolist() == [1.0, 1.0, 1.0]


def test_device_arrays_and_async(runtime):
    f = jit(target="vulkan")(K.saxpy)
    n = 300
    x = f.to_device(np.ones(n))
    y = f.to_device(np.arange(n, dtype=np.float64))
    for _ in range(3):
        f.launch(y, x, 2.0, n, sync=False)
    f.synchronize()
    assert y.to_host().tolist() == (np.arange(n) + 6.0).tolist()
    assert x.to_host().tolist() == [1.0] * n


def test_pipeline_cached_per_process(runtime):
    f = jit(target="vulkan")(K.saxpy)
    y, x = np.zeros(8), np.ones(8)
    f.launch(y, x, 1.0, 8, block=8)
    before = len(runtime.pipelines)
    f.launch(y, x, 1.0, 8, block=8)
    assert len(runtime.pipelines) == before


def test_device_selection(monkeypatch, runtime):
    from hanajit_vulkan.runtime import DEVICE_ENV, Runtime
    monkeypatch.setenv(DEVICE_ENV, "no such device")
    with pytest.raises(TargetError, match=DEVICE_ENV):
        Runtime()
    monkeypatch.setenv(DEVICE_ENV, "0")
    assert Runtime().device_name == runtime.device_name


def test_workgroup_too_large(runtime):
    f = jit(target="vulkan")(K.saxpy)
    with pytest.raises(ValueError, match="block"):
        f.launch(np.zeros(4), np.zeros(4), 1.0, 4, block=4096)


def test_doctor_section():
    from hanajit_vulkan.doctor import run_checks

    class Report:
        checks = []

        def check(self, name, ok, detail=""):
            self.checks.append((name, ok, detail))
    r = Report()
    run_checks(r)
    results = {name: ok for name, ok, _ in r.checks}
    assert results["vulkan: compile a kernel to SPIR-V"] is True
    assert results["vulkan: probe launch (saxpy on the device, in a child process)"] is True
    assert False not in results.values()


def test_shared_memory_tree_reduction(runtime):
    """Bounds-checked shared-memory indices in a loop between barriers: needs the
    barrier-semantics fix (else wrong sums) and returns in place (else invalid
    SPIR-V); the sums follow the tree order bit for bit."""
    f = jit(target="vulkan")(K.tree_sum)
    x = np.random.default_rng(2).normal(size=1000)
    out = np.zeros(16)
    f.launch(out, x, x.size, grid=16, block=64)
    w = np.concatenate([x, np.zeros(24)]).reshape(16, 64)
    s = 32
    while s > 0:
        w[:, :s] = w[:, :s] + w[:, s:2 * s]
        s //= 2
    assert np.array_equal(out, w[:, 0])


def test_shared_and_float_atomics(runtime):
    f = jit(target="vulkan")(K.shared_atomics)
    x = np.random.default_rng(3).integers(-1000, 1000, 200).astype(np.int32)
    out = np.zeros((4, 2), np.int32)
    f.launch(out, x, x.size, grid=4, block=64)
    blocks = [x[k * 64:(k + 1) * 64] for k in range(4)]
    assert out[:, 0].tolist() == [len(b) for b in blocks]
    assert out[:, 1].tolist() == [max(0, int(b.max())) for b in blocks]
    g = jit(target="vulkan")(K.float_atomics)
    xs = np.arange(1, 65, dtype=np.float32)           # sums exact in any order
    acc = np.array([0.0, 1e9, -1e9], np.float32)
    g.launch(acc, xs, xs.size, block=32)
    assert acc.tolist() == [float(xs.sum()), 1.0, 64.0]


def test_shared_histogram(runtime):
    f = jit(target="vulkan")(K.shared_histogram)
    x = np.random.default_rng(4).integers(0, 10**6, 3000)
    h = np.zeros(16, np.int32)
    f.launch(h, x, x.size, block=128)
    assert h.tolist() == np.bincount(x % 16, minlength=16).tolist()


def test_views_bools_and_float32_scalars(runtime):
    """A strided view is copied in and written back; bool arrays are bytes; a
    float32 scalar travels as a double and is narrowed in the kernel."""
    f = jit(target="vulkan")(K.mask_scale)
    base = np.zeros(40, np.float32)
    out = base[::2]
    x = np.arange(20, dtype=np.float32)
    keep = (np.arange(20) % 3) != 0
    f.launch(out, x, keep, np.float32(1.5), 20)
    want = np.where(keep, x * np.float32(1.5), np.float32(-1.0))
    assert np.array_equal(out, want) and np.array_equal(base[1::2], np.zeros(20))


def test_interleaved_views_share_one_allocation(runtime):
    """Arguments whose bytes overlap are copied as one block (core's launcher);
    each is a view at a byte offset into it, which the kernel reads from the
    pushed address."""
    f = jit(target="vulkan")(K.saxpy)
    a = np.arange(40, dtype=np.float64)
    x, y = a[::2], a[1::2]
    want = 2.0 * x + y
    f.launch(y, x, 2.0, 20)
    assert np.array_equal(a[1::2], want) and np.array_equal(a[::2], np.arange(0, 40, 2))


def test_store_in_a_loop(runtime):
    f = jit(target="vulkan", fallback=False)(K.store_in_loop)
    out = np.arange(100.0)
    f.launch(out, 90)
    want = np.arange(100.0)
    want[:90] += 1.5 * (0 + 1 + 2)
    assert np.array_equal(out, want)
    assert not runtime.messages


def _numpy_normals(key, streams, count):
    return np.array([np.random.Generator(np.random.Philox(
        key=key, counter=i << 128)).standard_normal(count) for i in range(streams)])


def test_philox_normals_equal_numpys(runtime):
    """hanajit.philox's ziggurat bit for bit with NumPy's
    ``Generator(Philox).standard_normal`` (as the CPU and Level Zero tests check;
    exp and log1p are core's software float64 math here, and no draw is accepted
    differently): one draw per thread, and 40 per thread in a loop."""
    key = 0x5DEECE66D
    one = jit(target="vulkan", fallback=False)(K.normals)
    n = 5000                                         # stream 4629 draws from the tail
    out = np.zeros(n)
    one.launch(out, key, n, block=64)
    want = _numpy_normals(key, n, 1)[:, 0]
    assert np.array_equal(out.view(np.uint64), want.view(np.uint64))
    assert np.abs(want).max() > 3.6543
    rows = jit(target="vulkan", fallback=False)(K.normals_per_row)
    out = np.zeros((200, 40))
    rows.launch(out, np.uint64(key), 200, grid=4, block=64)
    want = _numpy_normals(key, 200, 40)
    assert np.array_equal(out.view(np.uint64), want.view(np.uint64))
    assert np.abs(want).max() > 3.6543
    assert not runtime.messages
