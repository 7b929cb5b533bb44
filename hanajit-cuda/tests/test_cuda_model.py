"""The kernel programming model at the IR level (hanajit.gpu, lib/gpu.py, the
verifier and printer), the interpreter's one-thread model, and the errors when the
model is used outside a GPU kernel."""
from __future__ import annotations

import importlib.util
import re
import warnings

import numpy as np
import pytest

import hanajit.gpu as gpu
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.ir import nodes as N
from hanajit.ir import types as T
from hanajit.ir.verifier import VerifyError, verify


def ir_of(fn, sig):
    return jit(fn, target="cuda", fallback=False, signature=sig).inspect_ir()


def test_geometry_lowers_to_gpu_index():
    def k(out):
        out[0] = thread_id() + block_id_y() * 10 + block_dim_z() * 100  # noqa: F821
        out[1] = grid_dim() + gpu.thread_id_z()  # noqa: F821

    text = ir_of(k, "i64[:]")
    for piece in ("gpu.thread[x]", "gpu.block[y]", "gpu.block_dim[z]",
                  "gpu.grid_dim[x]", "gpu.thread[z]"):
        assert piece in text


def test_shared_arrays_are_distinct_per_call_site():
    def k(out):
        a = shared_f32(8)  # noqa: F821
        b = gpu.shared_array(8, np.float32)
        c = shared_array(3, np.uint32)  # noqa: F821
        a[0] = 1.0
        b[0] = 2.0
        c[0] = 3
        out[0] = a[0] + b[0] + c[0]

    text = ir_of(k, "f64[:]")
    assert re.search(r"shared<f32\[:, C\]>\(\w+__shared0, 8\)", text)
    assert re.search(r"shared<f32\[:, C\]>\(\w+__shared1, 8\)", text)
    assert re.search(r"shared<u32\[:, C\]>\(\w+__shared2, 3\)", text)


def test_barrier_and_atomics_in_ir():
    def k(a, h):
        barrier()  # noqa: F821
        old = atomic_add(h, (1, 2), 1.5)  # noqa: F821
        atomic_cas(a, -1, 0, 7)  # noqa: F821
        a[0] = atomic_max(a, 0, 3) + int(old)  # noqa: F821

    text = ir_of(k, "i32[:], f64[:, :]")
    assert "\n    barrier\n" in text
    for op in ("atomic_add(h[", "atomic_max(a[", "atomic_cas(a["):
        assert op in text
    # the index is checked like a[i] = v: bounds and negative indices
    assert "IndexError" in text


@pytest.mark.parametrize("src, message", [
    ("shared_f64(n)", "positive constant"),
    ("shared_array(4, np.complex128)", "complex"),
    ("shared_f64(100000)", "exceed"),
    ("atomic_add(b, 0, 1)", "on bool elements"),
    ("atomic_add(a, (0, 0), 1)", "index of a 1-D array"),
    ("atomic_add(a, 0, 1j)", "real number"),
    ("thread_id(1)", "takes no arguments"),
    ("barrier(1)", "takes no arguments"),
])
def test_misuse_gives_clear_messages(src, message, tmp_path):
    path = tmp_path / "kern.py"
    path.write_text(f"import numpy as np\n\n\ndef k(a, b, n):\n    x = {src}\n")
    spec = importlib.util.spec_from_file_location(f"kern_{abs(hash(src))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    with pytest.raises(UnsupportedError, match=message):
        jit(mod.k, target="cuda", fallback=False, signature="f64[:], bool[:], i64")


def test_cpu_function_using_the_model_is_a_clear_error():
    def cpu(a):
        return thread_id() + a  # noqa: F821

    with pytest.raises(UnsupportedError, match="GPU kernel function.*target 'cpu'"):
        jit(cpu, fallback=False)(1)
    f = jit(cpu)
    with pytest.warns(HanaJitFallbackWarning, match="GPU kernel function"):
        with pytest.raises(NameError):        # unimported, in the interpreter
            f(1)

    def cpu2(a):
        return gpu.thread_id() + a

    with pytest.warns(HanaJitFallbackWarning):
        with pytest.raises(RuntimeError, match="only meaningful in a GPU kernel"):
            jit(cpu2)(1)


def test_outside_a_kernel_the_model_raises():
    with pytest.raises(RuntimeError, match="only meaningful"):
        gpu.block_dim()
    with pytest.raises(RuntimeError, match="only meaningful"):
        gpu.barrier()


def test_direct_call_runs_one_thread_in_the_interpreter():
    def k(y, x, hist):
        i = block_id() * block_dim() + thread_id()  # noqa: F821
        s = shared_f64(4)  # noqa: F821
        s[i] = x[i] * 2.0
        barrier()  # noqa: F821
        y[i] = s[i] + grid_dim() + block_dim_y()  # noqa: F821
        old = atomic_add(hist, 1, 5)  # noqa: F821
        atomic_max(hist, 0, 9)  # noqa: F821
        atomic_cas(hist, 2, 7, 3)  # noqa: F821
        return old

    f = jit(k, target="cuda")
    y, x, hist = np.zeros(3), np.array([1.5, 2.0, 3.0]), np.array([1, 2, 7])
    with pytest.warns(HanaJitFallbackWarning, match="runs through launch"):
        assert f(y, x, hist) == 2
    assert y.tolist() == [5.0, 0.0, 0.0]
    assert hist.tolist() == [9, 7, 3]


def _saxpy(y, x, a, n):
    i = gpu.block_id() * gpu.block_dim() + gpu.thread_id()
    if i < n:
        y[i] = a * x[i] + y[i]


def test_a_kernel_compiled_by_signature_called_directly_falls_back():
    # compiled eagerly for the device; a direct call is not a launch: it runs the
    # body once, as thread 0, in the interpreter, with the warning (it crashed
    # with "'NoneType' object is not callable")
    f = jit(_saxpy, target="cuda", signature="f64[:], f64[:], f64, i64")
    y, x = np.ones(4), np.arange(1.0, 5.0)
    with pytest.warns(HanaJitFallbackWarning, match="saxpy.*runs through launch"):
        assert f(y, x, 2.0, 4) is None
    assert y.tolist() == [3.0, 1.0, 1.0, 1.0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f(y, x, 2.0, 4)                   # one warning per signature
    assert y.tolist() == [5.0, 1.0, 1.0, 1.0]


def test_atomic_float_min_max_ignore_nan_in_the_interpreter():
    a = np.array([1.0, np.nan])
    with gpu.single_thread():
        assert gpu.atomic_min(a, 0, np.nan) == 1.0
        assert gpu.atomic_max(a, 1, 2.0) != 2.0
    assert a.tolist() == [1.0, 2.0]


def test_verifier_knows_the_gpu_nodes():
    arr = T.ArrayType(T.FLOAT64, 1, "C")
    fn = N.Function(name="k", params=["a"], arg_types=(arr,),
                    locals={"a": arr, "o": T.FLOAT64}, return_type=T.NONE,
                    level="primitive")
    a = N.Var("a", arr)
    i = N.Const(0, T.INT64)
    good = N.Atomic("add", a, [i], N.Const(1.0, T.FLOAT64), None, T.FLOAT64)
    fn.body = [N.Assign(target="o", value=good), N.Barrier(), N.Return()]
    verify(fn)
    fn.body = [N.ExprStmt(value=N.BinOp("add", good, good, T.FLOAT64)), N.Return()]
    with pytest.raises(VerifyError, match="Atomic not directly assigned"):
        verify(fn)
    bad = N.Atomic("add", a, [i], N.Const(1, T.INT64), None, T.FLOAT64)
    fn.body = [N.Assign(target="o", value=bad)]
    with pytest.raises(VerifyError, match="Atomic add"):
        verify(fn)
    fn.locals["o"] = T.INT64
    fn.body = [N.Assign(target="o", value=N.GpuIndex("lane", 0, T.INT64))]
    with pytest.raises(VerifyError, match="GpuIndex lane"):
        verify(fn)


def test_lazy_specialisation_on_first_launch():
    def k(y, a):
        i = thread_id()  # noqa: F821
        if i < y.shape[0]:
            y[i] = a

    f = jit(k, target="cuda")
    assert f.signatures == []
    y = np.zeros(4, np.float32)
    try:
        f.launch(y, 2, grid=1, block=4)
    except Exception as exc:          # no driver here: compiled, then refused to run
        from hanajit.errors import TargetError
        assert isinstance(exc, TargetError)
    assert f.signatures == [(T.ArrayType(T.FLOAT32, 1, "C"), T.INT64)]
    assert ".entry hj_kernel" in f.inspect_gpu()


def test_launch_on_a_cpu_function_is_a_type_error():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = jit(lambda x: x)
    with pytest.raises(TypeError, match="needs a GPU target"):
        f.launch(1)


def test_target_auto_picks_cuda_for_kernels_when_a_device_is_there(monkeypatch):
    from hanajit_cuda import plugin

    def k(y):
        y[thread_id()] = 1.0  # noqa: F821

    def plain(y):
        y[0] = 1.0

    assert plugin.hanajit_select_target(["cpu", "cuda"], k) == "cuda"
    assert plugin.hanajit_select_target(["cpu"], k) is None       # no device
    assert plugin.hanajit_select_target(["cpu", "cuda"], plain) is None
    monkeypatch.setenv("HANAJIT_TARGET", "cuda")
    f = jit(k, target="auto", signature="f64[:]", fallback=False)
    assert f.options["target"] == "cuda" and ".entry hj_kernel" in f.inspect_gpu()
    monkeypatch.setenv("HANAJIT_TARGET", "cpu")
    g = jit(plain, target="auto")
    y = np.zeros(2)
    g(y)
    assert g.options["target"] == "cpu" and y.tolist() == [1.0, 0.0]


def test_plugin_import_loads_no_llvm_numpy_or_driver():
    import subprocess
    import sys
    code = ("import sys, hanajit_cuda.plugin; "
            "print(sorted({'llvmlite', 'numpy', 'cuda'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr
