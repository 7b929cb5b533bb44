"""float64 math on the Vulkan device (lavapipe here): GLSL.std.450 is 32-bit only,
so ``exp``, ``log``, ``sin``... are core's software versions
(``hanajit.lowering.softmath``), compiled into the shader.  Each is compared with
CPython's ``math`` in ulps, over a few hundred values with the edge cases, against
the bounds ``hanajit-core/tests/test_core_softmath.py`` holds on the CPU.  Before
the ``exact_float`` SPIR-V fix Mesa reassociated the arithmetic and ``exp`` came
out as ``2**k``."""
from __future__ import annotations

import math

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import TargetError
from hanajit.testing.sourcefile import load_sibling

K = load_sibling(__file__, "vulkan_kernels.py", "hanajit_vulkan_test_kernels")
RNG = np.random.default_rng(2026)
N = 300
INF, NAN = math.inf, math.nan
TINY = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, -1e-300, 1e-8]


@pytest.fixture(scope="module")
def runtime():
    from hanajit_vulkan.runtime import get_runtime
    try:
        return get_runtime()
    except TargetError as exc:
        pytest.skip(f"no Vulkan device: {exc}")


def ulps(got, want):
    """Distance in units in the last place; NaN matches NaN only."""
    g, w = got.view(np.int64), want.view(np.int64)
    g = np.where(g < 0, np.int64(-2 ** 63) - g, g)
    w = np.where(w < 0, np.int64(-2 ** 63) - w, w)
    d = np.abs(g.astype(np.float64) - w.astype(np.float64))
    d = np.where(np.isnan(got) & np.isnan(want), 0.0, d)
    return np.where(np.isnan(got) != np.isnan(want), np.inf, d)


def _with(edge, rest):
    return np.concatenate([np.array(edge, np.float64), rest])[:N]


def _signed_log(a, b, n):
    return np.exp(RNG.uniform(math.log(a), math.log(b), n)) * RNG.choice([-1.0, 1.0], n)


def _near_half_pi(n):
    return np.array([k * math.pi / 2 for k in range(1, n + 1)])


# (kernel, math function, inputs, max ulps): the CPU bounds of test_core_softmath
CASES = {
    "exp": (K.exp64, math.exp, lambda: (_with(
        TINY + [INF, -INF, NAN, 1.0, -1.0, 709.782712893384, -708.4, -745.1332191019411,
                -745.14, 0.5 * math.log(2)], RNG.uniform(-745, 709, N)),), 1),
    "log": (K.log64, math.log, lambda: (_with(
        [5e-324, 2.2250738585072014e-308, 1e-300, 1.0, 1.0000000000000002,
         0.9999999999999999, 2.0, 0.5, 1.7976931348623157e308, INF, NAN],
        np.exp(RNG.uniform(-740, 709, N))),), 1),
    "sin": (K.sin64, math.sin, lambda: (_with(
        TINY + [NAN, math.pi, -math.pi / 4, 1e5, 1e7, 1e14],
        np.concatenate([RNG.uniform(-10, 10, 150), _signed_log(1e-3, 1e14, 100),
                        _near_half_pi(50)])),), 1),
    "cos": (K.cos64, math.cos, lambda: (_with(
        TINY + [NAN, math.pi, math.pi / 2, 1e5, 1e7],
        np.concatenate([RNG.uniform(-10, 10, 150), _signed_log(1e-3, 1e14, 100),
                        _near_half_pi(50)])),), 1),
    "tan": (K.tan64, math.tan, lambda: (_with(
        TINY + [NAN, math.pi, -math.pi / 4, 1e5, 1e7],
        np.concatenate([RNG.uniform(-10, 10, 150), _signed_log(1e-3, 1e14, 100),
                        _near_half_pi(50)])),), 1),
    "tanh": (K.tanh64, math.tanh, lambda: (_with(
        TINY + [INF, -INF, NAN, 19.1, -19.1, 22.0, 1e300],
        RNG.uniform(-20, 20, N)),), 2),
    "pow": (K.pow64, math.pow, lambda: (
        _with([2.0, 2.0, -2.0, 0.0, -0.0, 1.0, INF, 0.5, NAN, 1.0, -3.0, 10.0, 4.0],
              RNG.uniform(0, 10, N)),
        _with([0.5, -1074.0, 3.0, 2.0, 3.0, NAN, -1.0, INF, 0.0, INF, 101.0, 300.0, -0.5],
              RNG.uniform(-50, 50, N))), 1),
    "atan2": (K.atan2_64, math.atan2, lambda: (
        _with([0.0, -0.0, 0.0, -0.0, INF, -INF, INF, 1.0, -1.0, 5e-324, NAN, 1e300],
              _signed_log(1e-300, 1e300, N)),
        _with([0.0, 0.0, -0.0, -0.0, INF, INF, -INF, -INF, 0.0, 1e300, 1.0, 5e-324],
              RNG.uniform(-10, 10, N))), 1),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_float64_math_on_the_device(runtime, name):
    kernel, fn, make, bound = CASES[name]
    args = make()
    want = np.array([fn(*a) for a in zip(*(x.tolist() for x in args))])
    out = np.zeros(len(want))
    f = jit(kernel, target="vulkan", fallback=False)
    f.launch(out, *args, len(want), grid=(len(want) + 63) // 64, block=64)
    d = ulps(out, want)
    i = int(np.argmax(d))
    assert d.max() <= bound, (name, [a[i] for a in args], out[i], want[i])
    assert runtime.validation and not runtime.messages


def test_float64_math_raises_like_cpython(runtime):
    f = jit(K.log64, target="vulkan", fallback=False)
    with pytest.raises(ValueError, match="math domain error"):
        f.launch(np.zeros(4), np.array([1.0, 2.0, -1.0, 3.0]), 4, grid=1, block=4)
