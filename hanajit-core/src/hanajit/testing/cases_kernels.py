"""The GPU kernel case list: kernels that write one element of an output array per
thread, launched on the target's device and compared, element by element, with
the same kernel run by the CPU interpreter thread after thread.

Without a usable device every case still compiles for the target (the kernel
model, codegen) and, where the subclass gives one, passes :meth:`KernelConformance.
validate` (CUDA: ``ptxas`` assembles the PTX); otherwise the case skips with the
target's reason.
"""
from __future__ import annotations

import builtins
import math
import types

import numpy as np
import pytest

from .base import ConformanceBase, requires
from .cases_kernel_programs import KernelProgramCases
from .reference import same_float

N = 77          # elements: more than one block of BLOCK threads, not a multiple
BLOCK = 32


def float_arith(out, x, y, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821  (kernel-model builtins)
    if i < n:
        out[i] = (x[i] + y[i]) * x[i] - y[i] / (abs(y[i]) + 1.0)


def int_floordiv(out, a, b, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = a[i] // b[i] + a[i] % b[i] * 3 - (a[i] >> 2)


def nan_compare(out, x, y, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = ((x[i] < y[i]) + 2 * (x[i] <= y[i]) + 4 * (x[i] == y[i])
                  + 8 * (x[i] != y[i]) + 16 * (x[i] >= y[i]))


def exact_math(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.sqrt(abs(x[i])) + math.floor(x[i]) * 0.5 - math.ceil(x[i])


def float32_arith(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = x[i] * x[i] - np.float32(0.5) * x[i]


def per_thread_loop(out, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        s = 0
        for k in range(i):
            if k % 3 == 0:
                continue
            s += k * k - i
        out[i] = s


def float_to_int(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = int(x[i]) + round(x[i])


def transcendental(out, x, n):
    i = block_id() * block_dim() + thread_id()  # noqa: F821
    if i < n:
        out[i] = math.exp(x[i] * 0.01) + math.sin(x[i]) - math.log1p(abs(x[i]))


def _floats(seed):
    edge = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 1e308, 5e-324, 3.0]
    rest = np.random.default_rng(seed).normal(0, 50, N - len(edge))
    return np.concatenate([edge, rest])


def _floats32(seed):
    with np.errstate(over="ignore"):        # 1e308 becomes inf, as intended
        return _floats(seed).astype(np.float32)


def _ints(seed):
    edge = [0, -1, 7, -7, (1 << 62), -(1 << 62), 3]
    rest = np.random.default_rng(seed).integers(-10**6, 10**6, N - len(edge))
    return np.concatenate([edge, rest]).astype(np.int64)


def _divisors(seed):
    b = np.random.default_rng(seed).integers(-1000, 1000, N)
    b[:4] = (-1, 1, -7, 1000)
    b[b == 0] = 5
    return b.astype(np.int64)


def _finite(seed):
    return np.random.default_rng(seed).uniform(-1e6, 1e6, N)


# name -> (kernel, output dtype, inputs, accepted ulps)
KERNELS = {
    "float_arith": (float_arith, np.float64, lambda: (_floats(1), _floats(2)), 0),
    "int_floordiv": (int_floordiv, np.int64, lambda: (_ints(3), _divisors(4)), 0),
    "nan_compare": (nan_compare, np.int64, lambda: (_floats(5), _floats(5)[::-1].copy()), 0),
    "exact_math": (exact_math, np.float64, lambda: (_finite(6),), 0),
    "float32_arith": (float32_arith, np.float32, lambda: (_floats32(7),), 0),
    "per_thread_loop": (per_thread_loop, np.int64, lambda: (), 0),
    "float_to_int": (float_to_int, np.int64, lambda: (_finite(8),), 0),
    "transcendental": (transcendental, np.float64, lambda: (_finite(9) / 1e4,), 4),
}


def run_threads(kernel, out, inputs, n):
    """The kernel in the interpreter: thread ``t`` of a one-block grid of ``n``
    threads, for every ``t`` in order (kernels here have no barriers)."""
    code = kernel.__code__
    g = dict(kernel.__globals__)
    for t in range(n):
        model = {"thread_id": lambda t=t: t, "block_id": lambda: 0,
                 "block_dim": lambda: n, "grid_dim": lambda: 1}
        g["__builtins__"] = {**builtins.__dict__, **model}
        types.FunctionType(code, g, kernel.__name__)(out, *inputs, n)


def _signature(dtype, inputs) -> str:
    short = {"float64": "f64", "float32": "f32", "int64": "i64"}
    return ", ".join([f"{short[np.dtype(dtype).name]}[:]"]
                     + [f"{short[a.dtype.name]}[:]" for a in inputs] + ["i64"])


class KernelConformance(KernelProgramCases, ConformanceBase):
    """GPU kernel targets: subclass with ``target = "<name>"``.  The element-wise
    kernels here, and the programs of :mod:`.cases_kernel_programs`."""

    target = "cuda"

    @pytest.fixture(autouse=True)
    def _target_available(self):
        ok, reason = self.target_status()
        self.device = ok
        self.device_reason = reason

    def validate(self, assembly: str) -> bool:
        """Check a kernel's device assembly (``inspect_gpu``) without the device
        (assemble it ...); return False when the target has no such check (the
        case then skips)."""
        return False

    @requires("kernel_model")
    @pytest.mark.parametrize("name", sorted(KERNELS))
    def test_kernel(self, name):
        kernel, dtype, make, ulps = KERNELS[name]
        inputs = make()
        jf = self.jit(kernel)
        from .base import capabilities_of
        if not capabilities_of(self.target).float64 and np.float64 in (
                dtype, *(a.dtype for a in inputs)):
            # a target without float64 refuses the kernel, naming the capability
            with pytest.raises(Exception, match="float64"):
                jf.compile_signature(_signature(dtype, inputs))
            return
        if not self.device:
            jf.compile_signature(_signature(dtype, inputs))
            if not self.validate(jf.inspect_gpu()):
                pytest.skip(f"target {self.target!r} cannot launch: {self.device_reason}")
            return
        got = np.zeros(N, dtype)
        jf.launch(got, *inputs, N, grid=(N + BLOCK - 1) // BLOCK, block=BLOCK)
        want = np.zeros(N, dtype)
        run_threads(kernel, want, inputs, N)
        bad = [i for i in range(N) if not (
            same_float(float(got[i]), float(want[i]), ulps) if dtype != np.int64
            else got[i] == want[i])]
        assert not bad, (f"{name}: {len(bad)} elements differ, first: "
                         + ", ".join(f"[{i}] {got[i]!r} != {want[i]!r}" for i in bad[:5]))
