"""HANAJIT_CPU_NAME / HANAJIT_CPU_FEATURES (hanajit_cpu.cpu_choice): code for a CPU
other than the host's, and code-generation properties that hold on every x86-64 CPU.

The properties the vector tests assert (a loop is vectorised, no libm call is left,
vector math is called, the vector square is inlined) are checked here for CPUs this
host may not be: baselines without AVX2, AVX-512 CPUs of both vendors, whose
preferred vector widths differ.  Kernels are compiled eagerly from a signature and
never run, so CPUs with instructions this host lacks can be checked too.
"""
import json
import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                                reason="the CPU names checked are x86-64 ones")

CPUS = ["x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4", "sandybridge",
        "skylake-avx512", "icelake-server", "sapphirerapids", "znver3", "znver4"]

PROBE = r'''
import json, os, re, warnings
os.environ["HANAJIT_SHARE_HELPERS"] = "0"   # helpers' code in their callers' IR
warnings.simplefilter("ignore", RuntimeWarning)     # CPUs this host cannot run
import numpy as np
from hanajit import jit
from hanajit_cpu.engine import get_engine


def sqrt_abs(a):
    return np.sqrt(np.abs(a))


def exp_all(a):
    return np.exp(a)


def squares(x, out):
    for i in range(len(x)):
        out[i] = x[i] ** 2


def total(a):
    s = 0.0
    for v in a:
        s += v
    return s


def stride_sum(a):
    return a[::3].sum()


def stride_scale(a, out):
    out[::3] = a[::3] * 2.0 + 1.0


def vector_calls(f):
    return sorted(set(re.findall(r"call [^\n]*?<\d+ x double> @([\w.]+)",
                                 f.inspect_llvm())))


sig = "(float64[:],)"
a = jit(sqrt_abs, fallback=False, signature=sig)
b = jit(exp_all, fallback=False, signature=sig)
c = jit(squares, fallback=False, signature="(float64[:], float64[:])")
d = jit(total, fallback=False, reduce_reassoc=True, signature=sig)
g = jit(stride_sum, fallback=False, signature=sig)
h = jit(stride_scale, fallback=False, signature="(float64[:], float64[:])")
e = get_engine()
print(json.dumps({
    "cpu": e.cpu,
    "sqrt": vector_calls(a),
    "sqrt_libm": bool(re.search(r"call [^\n]*@sqrt\b", a.inspect_llvm())),
    "exp": vector_calls(b),
    "square_fmul": "fmul <" in c.inspect_llvm(),
    "square_calls": [n for n in vector_calls(c) if "vsquare" in n],
    "reassoc": "fadd reassoc <" in d.inspect_llvm(),
    "gathers": [n for f in (g, h) for n in re.findall(r"@llvm\.masked\.(?:gather|scatter)\.\w+",
                                                      f.inspect_llvm())],
}))
'''


def _probe(tmp_path, **env):
    script = tmp_path / "probe.py"
    script.write_text(PROBE)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env={**os.environ, **env}, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("cpu", CPUS)
def test_vectorisation_properties_hold_on_every_cpu(tmp_path, cpu):
    got = _probe(tmp_path, HANAJIT_CPU_NAME=cpu)
    assert got["cpu"] == cpu
    # np.sqrt(np.abs(a)) vectorises at the width this CPU prefers, no libm call left
    assert any(n.startswith("llvm.sqrt.v") for n in got["sqrt"]), got
    assert not got["sqrt_libm"]
    # np.exp calls a vector exp (libmvec's or hanajit's own, or -- for an AVX-512
    # CPU where NumPy's own loop here is SVML's -- NumPy's SVML function:
    # hanajit_cpu/numpy_simd.py)
    assert any(n.startswith(("_ZGV", "__svml_")) for n in got["exp"]), got
    # x[i] ** 2 in a vector loop: the vector square was inlined as a multiply
    assert got["square_fmul"] and not got["square_calls"], got
    # reduce_reassoc=True sums in vector partial sums
    assert got["reassoc"]
    # lanes with a run-time stride are separate loads and stores, never gathers or
    # scatters (cpu_choice.X86_TUNING): 3-12x slower where LLVM would choose them
    assert not got["gathers"], got


def test_features_alone_modify_the_host_cpu(tmp_path):
    got = _probe(tmp_path, HANAJIT_CPU_FEATURES="-avx2,-avx512f")
    host = _probe(tmp_path)
    assert got["cpu"] == host["cpu"]
    assert all("_ZGVd" not in n and "_ZGVe" not in n for n in got["exp"]), got


def test_tuning_comes_before_the_features_asked_for(monkeypatch):
    """The x86 tuning is added to every choice, before HANAJIT_CPU_FEATURES, whose
    ``-prefer-no-gather`` then undoes it (LLVM applies features in order)."""
    from hanajit_cpu import cpu_choice

    class FakeLLVM:
        def get_host_cpu_name(self):
            return "znver4"

        def get_host_cpu_features(self):
            class F:
                def flatten(self):
                    return "+avx2,+avx512f"
            return F()

        def get_process_triple(self):
            return "x86_64-unknown-linux-gnu"

    for var in ("HANAJIT_CPU_NAME", "HANAJIT_CPU_FEATURES"):
        monkeypatch.delenv(var, raising=False)
    tuning = cpu_choice.X86_TUNING
    assert cpu_choice.choose(FakeLLVM()) == ("znver4", "+avx2,+avx512f," + tuning)
    monkeypatch.setenv("HANAJIT_CPU_FEATURES", "-prefer-no-gather")
    assert cpu_choice.choose(FakeLLVM()) == (
        "znver4", "+avx2,+avx512f," + tuning + ",-prefer-no-gather")
    monkeypatch.setenv("HANAJIT_CPU_NAME", "x86-64-v4")
    assert cpu_choice.choose(FakeLLVM()) == ("x86-64-v4", tuning + ",-prefer-no-gather")


KEY = r'''
import json
from hanajit_cpu.target import CpuTarget
from hanajit_cpu.engine import get_engine
print(json.dumps([repr(CpuTarget().cache_env()), get_engine().cpu]))
'''


def _key(tmp_path, **env):
    script = tmp_path / "key.py"
    script.write_text(KEY)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("HANAJIT_CPU_")}
    out = subprocess.run([sys.executable, "-W", "ignore", str(script)],
                         capture_output=True, text=True, env={**clean, **env},
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_cache_key_names_the_chosen_cpu_not_the_host(tmp_path):
    """Machines of a cluster that choose the same CPU share disk cache entries: the
    key then holds the chosen CPU and not this host's description."""
    host_key, host_cpu = _key(tmp_path)
    v2_key, v2_cpu = _key(tmp_path, HANAJIT_CPU_NAME="x86-64-v2")
    v3_key, _ = _key(tmp_path, HANAJIT_CPU_NAME="x86-64-v3")
    same_key, _ = _key(tmp_path, HANAJIT_CPU_NAME="host")
    assert v2_cpu == "x86-64-v2"
    assert len({host_key, v2_key, v3_key}) == 3
    assert same_key == host_key
    with open("/proc/cpuinfo") as f:
        model = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
    if model:
        assert model[0] in host_key and model[0] not in v2_key
    feat_key, feat_cpu = _key(tmp_path, HANAJIT_CPU_FEATURES="-avx2")
    assert feat_cpu == host_cpu and feat_key != host_key


def test_warns_when_the_chosen_cpu_exceeds_the_host(tmp_path):
    with open("/proc/cpuinfo") as f:
        if " avx512f" in f.read():
            pytest.skip("this host has AVX-512: no CPU in the list exceeds it")
    script = tmp_path / "warn.py"
    script.write_text("from hanajit_cpu.engine import get_engine\nget_engine()\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env={**os.environ, "HANAJIT_CPU_NAME": "skylake-avx512"},
                         timeout=120, check=False)
    assert out.returncode == 0
    assert "avx512f" in out.stderr and "illegal instruction" in out.stderr
    quiet = subprocess.run([sys.executable, str(script)], capture_output=True,
                           text=True, env={**os.environ, "HANAJIT_CPU_NAME": "x86-64"},
                           timeout=120, check=False)
    assert "illegal instruction" not in quiet.stderr
