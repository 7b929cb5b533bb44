"""Vectorised math on the CPU target (libmvec through LLVM's loop vectoriser).

Every function that vectorises is measured against a long-double reference on a
large random sample and on edge values, and must stay within the bound that
docs/vector-math.md states: 4 ulp (glibc's documented bound for libmvec), with nan,
inf and signed zeros exactly as the scalar C library gives them.
"""
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

MAX_ULP = 4.0          # the bound docs/vector-math.md states
N = 1_000_000


@pytest.fixture(autouse=True)
def _libmvec_not_numpys(monkeypatch):
    """These tests are libmvec's (and vexp's): where NumPy's own loop is SVML
    (AVX-512 hosts), NumPy's ufuncs would call that instead, NumPy's bits
    (test_cpu_numpy_simd_math.py); libmvec stays what library code and hosts
    without AVX-512 call."""
    monkeypatch.setenv("HANAJIT_NUMPY_SIMD", "0")


def _libmvec_present():
    from hanajit_cpu.engine import get_engine
    from hanajit_cpu.vecmath import vector_variants
    return bool(vector_variants(get_engine().isa_features))


needs_libmvec = pytest.mark.skipif(not _libmvec_present(),
                                   reason="no libmvec (not glibc, or HANAJIT_VECMATH=0)")


# one kernel per function: the compiled loop is what is measured
def k_exp(a):
    return np.exp(a)


def k_log(a):
    return np.log(a)


def k_sin(a):
    return np.sin(a)


def k_cos(a):
    return np.cos(a)


def k_tan(a):
    return np.tan(a)


def k_tanh(a):
    return np.tanh(a)


def k_expm1(a):
    return np.expm1(a)


def k_log1p(a):
    return np.log1p(a)


def k_sinh(a):
    return np.sinh(a)


def k_cosh(a):
    return np.cosh(a)


def k_arctan(a):
    return np.arctan(a)


def k_arcsin(a):
    return np.arcsin(a)


def k_log2(a):
    return np.log2(a)


def k_log10(a):
    return np.log10(a)


def k_exp2(a):
    return np.exp2(a)


def k_cbrt(a):
    return np.cbrt(a)


def k_pow(a, b):
    return a ** b


def _sample(name, rng, n):
    """Inputs covering the function's interesting range (float64)."""
    u = rng.uniform
    wide = np.concatenate([-(10.0 ** u(-310, 308, n // 2)), 10.0 ** u(-310, 308, n // 2)])
    if name == "exp":
        return np.concatenate([u(-746, 710, n // 2), u(-2, 2, n // 4), wide[: n // 4]])
    if name in ("log", "log2", "log10", "cbrt"):
        return np.concatenate([10.0 ** u(-323, 308, n // 2), u(0, 4, n // 2)])
    if name == "log1p":
        return np.concatenate([10.0 ** u(-20, 300, n // 2), u(-1, 1, n // 2)])
    if name in ("sin", "cos", "tan"):
        return np.concatenate([u(-10, 10, n // 2), u(-1e6, 1e6, n // 4),
                               10.0 ** u(-300, 300, n // 4)])
    if name in ("expm1", "sinh", "cosh", "exp2"):
        return np.concatenate([u(-40, 40, n // 2), u(-1100, 1100, n // 4),
                               wide[: n // 4] * 1e-3])
    if name == "arcsin":
        return u(-1, 1, n)
    return np.concatenate([u(-20, 20, n // 2), wide[: n // 2]])


REF = {"exp": np.exp, "log": np.log, "sin": np.sin, "cos": np.cos, "tan": np.tan,
       "tanh": np.tanh, "expm1": np.expm1, "log1p": np.log1p, "sinh": np.sinh,
       "cosh": np.cosh, "arctan": np.arctan, "arcsin": np.arcsin, "log2": np.log2,
       "log10": np.log10, "exp2": np.exp2, "cbrt": np.cbrt}
KERNELS = {name: globals()[f"k_{name}"] for name in REF}

# edge values of every function, each tiled so that it lands in vector lanes
EDGES = [np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308,
         -2.2250738585072014e-308, 1e-310, 1.0, -1.0, 0.5, 709.78, 709.782712893384,
         709.8, 710.0, -708.4, -745.0, -745.13, -745.1332191019412, -745.2, 88.72,
         88.73, -103.0, -104.0, 1e22, -1e22, 1e300, 1.7976931348623157e308,
         -1.7976931348623157e308, 3.4028234663852886e38, 1e-45, 1.1754943508222875e-38,
         np.pi, -np.pi / 2, 20.0, -20.0, 1e-8, -1e-300]


def ulp_error(got, x, ref_fn, dtype):
    """Max ulp error of ``got`` over finite reference values, where the reference is
    ``ref_fn`` in long double on ``x`` rounded to ``dtype``; nan/inf/zero-sign of
    ``got`` must equal the scalar reference's exactly."""
    ref = ref_fn(x.astype(np.longdouble))
    exact = ref.astype(dtype)                       # what a correctly rounded libm gives
    finite = np.isfinite(exact)
    # classification must match exactly
    assert np.array_equal(np.isnan(got), np.isnan(exact)), _where(got, exact, x)
    inf = np.isinf(exact)
    assert np.array_equal(got[inf], exact[inf]), _where(got, exact, x)
    zero = finite & (exact == 0)
    assert np.array_equal(np.signbit(got[zero]), np.signbit(exact[zero])), \
        _where(got, exact, x)
    if not finite.any():
        return 0.0
    g = got[finite].astype(np.longdouble)
    r = ref[finite]
    err = np.abs(g - r) / np.spacing(np.abs(exact[finite])).astype(np.longdouble)
    return float(err.max())


def _where(got, exact, x):
    bad = ~((got == exact) | (np.isnan(got) & np.isnan(exact)))
    return list(zip(x[bad][:5], got[bad][:5], exact[bad][:5]))


def calls_libmvec(f) -> bool:
    """The optimised code calls a vector function (declarations alone do not count:
    ``llvm.compiler.used`` keeps them all)."""
    return re.search(r"call <\d+ x (double|float)> @_ZGV", f.inspect_llvm()) is not None


def _compiled(kernel, *args):
    f = jit(kernel, fallback=False)
    out = f(*args)
    return f, out


@needs_libmvec
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(REF))
def test_random_sample_within_bound(name, dtype):
    rng = np.random.default_rng(abs(hash(name)) % 2**32)
    with np.errstate(all="ignore"):
        x = _sample(name, rng, N).astype(dtype)
    f, got = _compiled(KERNELS[name], x)
    assert calls_libmvec(f), "the loop did not call libmvec"
    assert got.dtype == dtype
    assert ulp_error(got, x, REF[name], dtype) <= MAX_ULP


@needs_libmvec
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(REF))
def test_edge_values(name, dtype):
    with np.errstate(all="ignore"):
        x = np.repeat(np.array(EDGES, dtype=dtype), 16)
    for n in (len(x), 37, 3):                      # vector lanes, tails, scalar only
        xs = x[:n].copy()
        got = jit(KERNELS[name], fallback=False)(xs)
        assert ulp_error(got, xs, REF[name], dtype) <= MAX_ULP


@needs_libmvec
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pow_random_and_special_pairs(dtype):
    rng = np.random.default_rng(7)
    base = np.concatenate([10.0 ** rng.uniform(-5, 5, N // 2), rng.uniform(-3, 3, N // 2)])
    expo = np.concatenate([rng.uniform(-50, 50, N // 2), rng.integers(-20, 20, N // 2)])
    base, expo = base.astype(dtype), expo.astype(dtype)
    f, got = _compiled(k_pow, base, expo)
    assert calls_libmvec(f)

    def ref(b):                                     # b is base in long double
        return np.power(b, expo.astype(np.longdouble))
    assert ulp_error(got, base, ref, dtype) <= MAX_ULP

    sp = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0, -3.0,
          1e300, 1e-300, 5e-324]
    b, e = (np.array(v, dtype=dtype) for v in zip(*[(p, q) for p in sp for q in sp]))
    b, e = np.tile(b, 4), np.tile(e, 4)
    got = jitted(k_pow, fallback=False)(b, e)

    def ref2(bb):
        return np.power(bb, e.astype(np.longdouble))
    assert ulp_error(got, b, ref2, dtype) <= MAX_ULP


def test_square_is_exact():
    """``a ** 2`` is NumPy's exact square, never a vector pow."""
    def square(a):
        return a ** 2
    x = np.random.default_rng(3).standard_normal(1001)
    f = jit(square, fallback=False)
    np.testing.assert_array_equal(f(x), x * x)
    assert "pow" not in f.inspect_llvm()


@needs_libmvec
def test_fused_expression_vectorises_and_sums_in_order():
    """In default mode the sum in ``np.sum(np.exp(a))`` keeps NumPy's pairwise
    order over the temporary (bit-identical to NumPy's sum of the compiled
    ``np.exp(a)``; ``reductions.fused_pairwise``) while exp runs in SIMD."""
    def total(a):
        return np.sum(np.exp(a))

    def values(a):
        return np.exp(a)
    x = np.random.default_rng(5).uniform(-5, 5, 10_007)
    f = jit(total, fallback=False)
    got = f(x)
    elems = jitted(values, fallback=False)(x)
    assert got == np.sum(elems)
    assert calls_libmvec(f)


def test_sqrt_and_fabs_vectorise_exactly():
    def k(a):
        return np.sqrt(np.abs(a))
    x = np.random.default_rng(9).standard_normal(4099)
    f = jit(k, fallback=False)
    np.testing.assert_array_equal(f(x), np.sqrt(np.abs(x)))
    llvm = f.inspect_llvm()
    # vectorised (at whatever width this CPU prefers), and no libm call is left
    assert re.search(r"<\d+ x double> @llvm\.sqrt\.v\d+f64", llvm), llvm
    assert not re.search(r"call [^\n]*@sqrt\b", llvm)


PROBE = """
import numpy as np
from hanajit import jit

def k(a):
    return np.exp(a)

f = jit(k, fallback=False)
x = np.linspace(-700.0, 700.0, 4099)
got = f(x)
import ctypes, ctypes.util
libm = ctypes.CDLL(ctypes.util.find_library("m"))
libm.exp.restype = ctypes.c_double
libm.exp.argtypes = [ctypes.c_double]
same = all(g == libm.exp(v) for g, v in zip(got.tolist(), x.tolist()))
print("scalar" if same and "_ZGV" not in f.inspect_llvm() else "vector")
"""


def test_disabled_by_environment(tmp_path):
    """HANAJIT_VECMATH=0 keeps scalar libm calls: results equal the C library's."""
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    env = dict(os.environ, HANAJIT_VECMATH="0")
    out = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True,
                         env=env, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "scalar", out.stdout


def test_exporters_get_no_vector_variants():
    """Only the host CPU target asks for vector variants; core's default is none."""
    from hanajit.lowering.llvm import LLVMTargetInfo
    assert LLVMTargetInfo().vector_variants == {}


def test_missing_vector_function_is_a_clear_error(monkeypatch):
    """An object that calls a vector function this process cannot resolve is
    refused with a message, never linked to address 0."""
    from hanajit_cpu import vecmath
    with pytest.raises(RuntimeError, match="_ZGVeN8v_nosuchfn"):
        vecmath.imports_for("declare <8 x double> @_ZGVeN8v_nosuchfn(<8 x double>)")
    monkeypatch.setattr(vecmath, "_lib", False)       # as without libmvec
    with pytest.raises(RuntimeError, match="_ZGVeN8v_exp"):
        vecmath.imports_for("call <8 x double> @_ZGVeN8v_exp(<8 x double> %x)")
    assert vecmath.imports_for("call double @exp(double %x)") == {}


def test_variant_table_follows_host_isa():
    """Only the ISAs the host has are offered (an AVX2-only host gets no AVX-512
    variant), and only symbols libmvec exports."""
    from hanajit_cpu import vecmath
    if vecmath.libmvec() is None:
        pytest.skip("no libmvec")
    avx2 = vecmath.vector_variants("+sse2,+sse4.1,+avx,+avx2,-avx512f")
    names = {v for variants in avx2.values() for _, v in variants}
    assert "_ZGVdN4v_log" in names and not any(v.startswith("_ZGVeN8v_l") for v in names)
    assert avx2["llvm.log.f32"] == ((8, "_ZGVdN8v_logf"), (4, "_ZGVbN4v_logf"))
    assert avx2["llvm.exp.f64"][0] == (8, "_ZGVeN8v_hjexp")     # vexp.py, any AVX
    assert avx2["hj.libm.pow"][0] == (4, "_ZGVdN4vv_pow")
    sse = vecmath.vector_variants("+sse2,-avx2,-avx512f")
    assert sse["llvm.sin.f64"] == ((2, "_ZGVbN2v_sin"),)
    assert sse["llvm.exp.f64"] == ((2, "_ZGVbN2v_exp"),)


def test_own_exp_accuracy_over_the_whole_range():
    """vexp.py's polynomial exp, lane by lane, over every binade it can return
    (subnormal results included): within 1 ulp, better than the general bound."""
    for dtype, lo, hi in ((np.float64, -746.0, 710.0), (np.float32, -104.0, 89.0)):
        x = np.linspace(lo, hi, 2_000_003).astype(dtype)
        f = jit(k_exp, fallback=False)
        got = f(x)
        if "hjexp" not in f.inspect_llvm():
            pytest.skip("hanajit's own exp needs AVX2 or AVX-512, which the CPU code is "
                        "generated for lacks (libmvec's exp is used, tested above)")
        assert ulp_error(got, x, np.exp, dtype) <= 1.0


def test_disk_cache_key_knows_whether_vector_math_is_on(monkeypatch):
    """Code compiled with vector math is never loaded from the disk cache by a
    process that asked for scalar libm calls (HANAJIT_VECMATH=0), and vice versa."""
    from hanajit_cpu.target import CpuTarget
    monkeypatch.delenv("HANAJIT_VECMATH", raising=False)
    on = CpuTarget().cache_env()
    monkeypatch.setenv("HANAJIT_VECMATH", "0")
    assert CpuTarget().cache_env() != on


def _two_logs(x, y):
    return math.log(x) * 3.0 + math.log(y) * 5.0


def _two_sines_with_a_break(a):
    out = np.empty(a.shape[0])
    for i in range(a.shape[0]):
        t = a[i]
        out[i] = math.sin(t) * 3.0 + math.sin(t + 1.0) * 5.0
        if out[i] > 1e300:
            break
    return out


def test_math_calls_outside_vectorisable_loops_are_the_c_librarys():
    """Straight-line code and loops with early exits call the scalar C library:
    LLVM's SLP vectoriser must not pack two calls into one vector call, whose
    last bits differ (docs/vector-math.md)."""
    rng = np.random.default_rng(7)
    xs = rng.uniform(0.1, 100.0, 4000)
    f = jit(_two_logs, fallback=False)
    for x, y in zip(xs[::2], xs[1::2]):
        assert f(float(x), float(y)).hex() == _two_logs(float(x), float(y)).hex()
    a = rng.uniform(-50.0, 50.0, 4000)
    assert jit(_two_sines_with_a_break, fallback=False)(a).tobytes() == \
        _two_sines_with_a_break(a).tobytes()
