"""The GPU kernel case list on the levelzero target: each kernel's SPIR-V module runs
on PoCL's CPU device through the OpenCL route (``HANAJIT_LEVELZERO_RUNTIME=opencl``:
``llvm-spirv-15 -r``, pyopencl) and is compared with the interpreter or NumPy.
Without PoCL, pyopencl or llvm-spirv-15 each module is assembled back from its
disassembly and passes ``spirv-val`` (or the case skips with the reason).

One adaptation, for the route's one refusal (``opencl_route.py``): a kernel that
waits at ``barrier()`` is compiled with ``boundscheck=False`` here, because PoCL's
work-group compiler hangs or aborts on a bounds-checked one (the route refuses
those: ``test_levelzero_codegen.py`` checks the refusal).  The results are still
compared bit for bit; the IndexError case has no barrier and keeps its checks."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from hanajit import plugins
from hanajit.testing.conformance import KernelConformance
from hanajit_levelzero import spirv_tools


@pytest.fixture(scope="module", autouse=True)
def opencl_route():
    mp = pytest.MonkeyPatch()
    mp.setenv("HANAJIT_LEVELZERO_RUNTIME", "opencl")
    mp.delenv("HANAJIT_LEVELZERO_DEVICE", raising=False)
    yield
    plugins.get_target("levelzero").synchronize()
    mp.undo()


class TestLevelZeroKernelConformance(KernelConformance):
    target = "levelzero"

    def jit(self, func, **options):
        if "barrier" in func.__code__.co_names:
            options.setdefault("boundscheck", False)
        return super().jit(func, **options)

    def validate(self, assembly: str) -> bool:
        asm, val = spirv_tools.tool("spirv-as"), spirv_tools.tool("spirv-val")
        if asm is None or val is None:
            return False
        with tempfile.TemporaryDirectory() as tmp:
            src, spv = Path(tmp) / "k.spvasm", Path(tmp) / "k.spv"
            src.write_text(assembly)
            subprocess.run([asm, "--target-env", "spv1.4", str(src), "-o", str(spv)],
                           check=True, capture_output=True, timeout=60)
            ok, message = spirv_tools.validate(spv.read_bytes(), env="spv1.4")
        assert ok, message
        return True


def test_the_route_refuses_a_kernel_with_barriers_that_can_raise():
    """Refused before PoCL sees it (its work-group compiler would hang, abort the
    process or lose the error), naming the way out."""
    import numpy as np
    from hanajit import jit
    from hanajit.errors import UnsupportedError
    from hanajit.testing.cases_kernel_programs import tree_sum
    ok, reason = plugins.get_target("levelzero").status()
    if not ok:
        pytest.skip(f"the OpenCL route is not available: {reason}")
    f = jit(tree_sum, target="levelzero", signature="f64[:], f64[:], i64",
            fallback=False)
    with pytest.raises(UnsupportedError, match="barrier.. and can raise"):
        f.launch(np.zeros(2), np.ones(100), 100, grid=2, block=64)


def test_float64_math_on_the_device_is_within_4_ulp():
    """Every float64 function through OpenCL.std on PoCL against CPython's ``math``
    (the C library): measured here at 1 ulp at most, ``tan`` 3 ulp (``cbrt``, not
    in Python 3.10's ``math``, 3 ulp too)."""
    import math

    import numpy as np
    from hanajit import jit
    from hanajit.testing.sourcefile import load_sibling
    ok, reason = plugins.get_target("levelzero").status()
    if not ok:
        pytest.skip(f"the OpenCL route is not available: {reason}")
    K = load_sibling(__file__, "levelzero_kernels.py", "hanajit_levelzero_test_kernels")
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-20, 20, 4000), rng.uniform(-1, 1, 4000),
                        [0.0, -0.0, 1e-310, 700.0, -700.0]])
    out = np.zeros((len(K.MATH), x.size))
    f = jit(K.math_functions, target="levelzero", fallback=False)
    f.launch(out, x, x.size, grid=-(-x.size // 256), block=256)
    for row, name in enumerate(K.MATH):
        fn = getattr(math, name)
        if name == "log":
            want = [math.log(abs(v) + 1e-300) for v in x]
        elif name == "atan2":
            want = [fn(v, 1.5) for v in x]
        elif name in ("pow", "log1p"):
            want = [fn(abs(v), 1.37) if name == "pow" else fn(abs(v)) for v in x]
        else:
            want = [fn(v) for v in x]
        want = np.array(want)
        ulps = np.abs(out[row] - want) / np.spacing(np.abs(want))
        worst = np.nanmax(np.where(np.isfinite(want), ulps, 0))
        assert worst <= 4, f"{name}: {worst} ulp"
