"""NumPy's float loops element by element (``lowering/numpy_loops.py``,
``hanajit_cpu/numpy_simd.py``): where NumPy's ``np.power``, ``np.tan``,
``np.log10`` ... are SVML's functions (AVX-512 hosts), compiled ``a ** b``,
``a ** 1.5``, ``np.power`` and the ufuncs, of arrays and of NumPy scalars, call
the same functions and give NumPy's bits, in vector lanes, half-width lanes and
scalar remainders alike; elsewhere the table is empty and the C library's
functions stay.  ``np.logspace`` and ``np.linalg.norm(x, p)`` are NumPy's bit
for bit on every host."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

from hanajit import jit

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]


def _svml(dtype) -> bool:
    from hanajit_cpu.numpy_simd import offered
    return offered("pow", np.dtype(dtype).name)


needs_svml = pytest.mark.skipif(not _svml(np.float64),
                                reason="NumPy's power loop is not SIMD on this host")


def powers(a, b):
    return a ** b


def power_ufunc(a, b):
    return np.power(a, b)


def to_three_halves(a):
    return a ** 1.5


def by_exponent(a, e):
    return a ** e


def _same(got, want):
    assert type(got) is type(want)
    assert got.dtype == want.dtype and np.shape(got) == np.shape(want)
    assert got.tobytes() == want.tobytes()


def _pairs(dtype, n, seed):
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.random(n // 2) * 10.0, 10.0 ** rng.uniform(-20, 20, n // 2)])
    y = np.concatenate([rng.standard_normal(n // 2) * 6.0, rng.uniform(-40, 40, n // 2)])
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0, -3.0,
               1e300, 1e-300, 5e-324, 0.999999]
    sx, sy = zip(*[(p, q) for p in special for q in special])
    with np.errstate(all="ignore"):
        return (np.concatenate([x, sx]).astype(dtype), np.concatenate([y, sy]).astype(dtype))


@needs_svml
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_array_powers_are_numpys_bits(dtype):
    if not _svml(dtype):
        pytest.skip("no SIMD power loop of this dtype")
    x, y = _pairs(dtype, 20_000, 1)
    for fn in (powers, power_ufunc):
        f = jit(fn, fallback=False)
        _same(f(x, y), fn(x, y))
        # views with strides, broadcasting, and every length up to a few vectors
        # (vector lanes, half-width lanes, scalar remainders)
        _same(f(x[::3], y[1::3][:len(x[::3])]), fn(x[::3], y[1::3][:len(x[::3])]))
        _same(f(x[:40].reshape(-1, 1), y[:25]), fn(x[:40].reshape(-1, 1), y[:25]))
        for n in range(0, 41):
            _same(f(x[7:7 + n], y[3:3 + n]), fn(x[7:7 + n], y[3:3 + n]))
    f = jit(to_three_halves, fallback=False)
    _same(f(x), to_three_halves(x))
    llvm = f.inspect_llvm()
    lanes = 8 if dtype == np.float64 else 16
    # the loop is vectorised with NumPy's function as its vector variant
    assert re.search(rf"call <{lanes} x \w+> @__svml_pow", llvm), llvm


@needs_svml
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_exponents_of_numpys_fast_paths(dtype):
    """One exponent for the loop: NumPy's own tests of its value (-1, 0, 0.5, 1,
    2), whatever the value is, then its SIMD pow.  SVML's float32 pow of ``x``
    and 1.0 is an ulp off for some ``x``, where NumPy's loop returns ``x``."""
    if not _svml(dtype):
        pytest.skip("no SIMD power loop of this dtype")
    x, _ = _pairs(dtype, 4_000, 2)
    x = np.concatenate([x, np.array([1.5364419e-26, 1.3386967e+15, 3.5078724e+20],
                                    dtype)])
    f = jit(by_exponent, fallback=False)
    for e in (-1.0, 0.0, 0.5, 1.0, 2.0, 1.5, -2.5, 3.0):
        _same(f(x, dtype(e)), by_exponent(x, dtype(e)))
        _same(f(x, e), by_exponent(x, e))


@needs_svml
def test_numpy_scalars_through_the_ufunc():
    """``np.power`` of two NumPy scalars runs NumPy's loop on one value (its SIMD
    function); ``**`` of NumPy scalars is C's ``pow`` (NumPy's scalar math)."""
    x, y = _pairs(np.float64, 2_000, 3)
    f = jit(power_ufunc, fallback=False)
    g = jit(powers, fallback=False)
    differ = 0
    for a, b in zip(x.tolist(), y.tolist()):
        a, b = np.float64(a), np.float64(b)
        _same(f(a, b), power_ufunc(a, b))
        _same(g(a, b), powers(a, b))
        differ += power_ufunc(a, b).tobytes() != powers(a, b).tobytes()
    assert differ > 0           # (the two paths are really told apart here)


UFUNCS = ["tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
          "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
          "cbrt", "sin", "cos"]


def _kernel(name):
    fn = getattr(np, name)

    def k(a):
        return fn(a)
    k.__name__ = f"k_{name}"
    return k


def _intrinsic(ufunc):
    from hanajit_cpu.numpy_simd import _UFUNCS
    return next(i for i, (u, _) in _UFUNCS.items() if u == ufunc)


def _wide(dtype, n, seed):
    rng = np.random.default_rng(seed)
    sign = np.where(rng.random(n // 4) < 0.5, -1.0, 1.0)
    x = np.concatenate([rng.uniform(-3, 3, n // 4), rng.uniform(0.5, 40, n // 4),
                        sign * 10.0 ** rng.uniform(-40, 30, n // 4),
                        rng.uniform(-750, 750, n // 4),
                        [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 5e-324, 1e300]])
    with np.errstate(all="ignore"):
        return x.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", UFUNCS)
def test_ufuncs_are_numpys_bits_where_numpy_runs_svml(name, dtype):
    """Each ufunc the table names on this host (the others keep their tests in
    test_cpu_vector_math.py) is NumPy's bit for bit, and its loop calls the
    function in vectors."""
    from hanajit_cpu.engine import get_engine
    from hanajit_cpu.numpy_simd import Table
    spec = Table(get_engine()).get((_intrinsic(name), np.dtype(dtype).name))
    if spec is None:
        pytest.skip(f"np.{name} of {np.dtype(dtype).name} is not SVML's here")
    k = _kernel(name)
    f = jit(k, fallback=False)
    x = _wide(dtype, 40_000, 5)
    _same(f(x), k(x))
    for n in range(0, 41):
        _same(f(x[3:3 + n]), k(x[3:3 + n]))
    _same(f(x[::3]), k(x[::3]))
    assert re.search(rf"call <{spec[0]} x \w+> @{spec[1]}", f.inspect_llvm())
    one = jit(k, fallback=False)
    for v in x[:200]:
        _same(one(v), k(v))                     # a NumPy scalar: one value, in lanes


def test_library_code_keeps_the_c_library():
    """hanajit's library code stands for NumPy's C code, which calls the C
    library (a random distribution's ``np.expm1``): never NumPy's SVML."""
    from hanajit.lib.python.math_functions import numpy_loop_element
    from hanajit.ir import nodes as N, types as T

    class L:
        fn = type("F", (), {"origin": (np.random.Generator.__init__, ())})()
    r = numpy_loop_element(L, N.Intrinsic("expm1", [N.Const(1.0, T.FLOAT64)], T.FLOAT64))
    assert getattr(r, "numpy_loop", False)          # (not hanajit's: a user's)
    from hanajit.lib.random import more_distributions

    class Lib:
        fn = type("F", (), {"origin": (more_distributions.power_draw, ())})()
    r = numpy_loop_element(Lib, N.Intrinsic("expm1", [N.Const(1.0, T.FLOAT64)], T.FLOAT64))
    assert not getattr(r, "numpy_loop", False)


def test_environment_turns_it_off(monkeypatch):
    from hanajit_cpu import numpy_simd

    class Engine:
        isa_features = "+avx2,+avx512f"
    monkeypatch.setenv("HANAJIT_NUMPY_SIMD", "0")
    assert numpy_simd.Table(Engine()).get(("pow", "float64")) is None
    monkeypatch.setenv("HANAJIT_NUMPY_SIMD", "1")
    monkeypatch.setenv("HANAJIT_VECMATH", "0")
    assert numpy_simd.Table(Engine()).get(("pow", "float64")) is None


def logspace_steps(a, b, n, base):
    return np.logspace(a, b, n, True, base)


def norm_kernel(p, axis):
    def norm_p(x):
        return np.linalg.norm(x, p, axis)
    return norm_p


@pytest.mark.parametrize("args", [(0.0, 3.0, 1001, 10.0), (-30.0, 30.0, 777, 2.5),
                                  (-1.0, 1.0, 37, 0.3)])
def test_logspace_is_numpys_on_every_host(args):
    _same(jit(logspace_steps, fallback=False)(*args), logspace_steps(*args))


@pytest.mark.parametrize("p", [3, 1.5, -2.5, 0.7])
def test_norm_of_orders_is_numpys_on_every_host(p):
    x = np.random.default_rng(4).standard_normal((60, 37))
    for axis in (0, 1, None):
        k = norm_kernel(p, axis)
        y = x[0] if axis is None else x
        got, want = jit(k, fallback=False)(y), k(y)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes()


def test_table_needs_avx512_and_checks_the_symbol():
    """No entry where the engine's CPU lacks AVX-512 (the functions take zmm
    registers); an unknown function or symbol is no entry either."""
    from hanajit_cpu import numpy_simd

    class Engine:
        isa_features = "+sse2,+avx,+avx2,-avx512f"
    assert numpy_simd.Table(Engine()).get(("pow", "float64")) is None
    assert numpy_simd.Table(Engine()).get(("erf", "float64")) is None
    assert numpy_simd.address("__svml_no_such_function") is None


def test_missing_symbol_is_a_clear_error():
    from hanajit_cpu import numpy_simd
    with pytest.raises(RuntimeError, match="__svml_nosuch8"):
        numpy_simd.imports_for("declare <8 x double> @__svml_nosuch8(<8 x double>)")
    assert numpy_simd.imports_for("call double @pow(double %x, double %y)") == {}


KERNEL = """
import hanajit


@hanajit.jit(cache=True, fallback=False)
def k(a, b):
    return a ** b
"""

CACHED = """
import json, sys
import numpy as np
import kernel
from hanajit import cache

rng = np.random.default_rng(5)
x, y = rng.random(1003) * 9.0, rng.standard_normal(1003) * 7.0
got = kernel.k(x, y)
print(json.dumps({"same": got.tobytes() == (x ** y).tobytes(), "hits": cache.stats["hits"],
                  "svml": "__svml_pow" in kernel.k.inspect_llvm()}))
"""


def test_cached_code_links_numpys_functions(tmp_path):
    """Code loaded from the disk cache in a fresh process resolves NumPy's
    functions there (``engine.library_imports``)."""
    import json
    (tmp_path / "kernel.py").write_text(KERNEL)
    (tmp_path / "probe.py").write_text(CACHED)
    env = dict(os.environ, HANAJIT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")]))
    runs = []
    for _ in range(2):
        out = subprocess.run([sys.executable, str(tmp_path / "probe.py")],
                             capture_output=True, text=True, env=env, timeout=180,
                             check=False, cwd=str(tmp_path))
        assert out.returncode == 0, out.stderr
        runs.append(json.loads(out.stdout.strip().splitlines()[-1]))
    cold, warm = runs
    assert cold["hits"] == 0 and warm["hits"] >= 1
    assert cold["svml"] == warm["svml"] == _svml(np.float64)
    if cold["svml"]:
        assert cold["same"] and warm["same"]


def sum_of_exp(a):
    return np.sum(np.exp(a))


def sum_of_cheap(a):
    return np.sum(a * 2.0 + 1.0)


def test_a_sum_reads_numpys_temporary_of_a_costly_expression():
    """A sum of ``np.exp(a)`` is given the values computed whole first, in a loop
    that calls NumPy's function where it is SVML's (``elementwise.whole_first``):
    NumPy's bits; a cheap expression is summed on the fly, no function called."""
    f = jit(sum_of_exp, fallback=False)
    x = np.random.default_rng(6).standard_normal(10_007)
    from hanajit_cpu.numpy_simd import offered
    if offered("exp"):
        assert f(x) == sum_of_exp(x)
        assert "__svml" in f.inspect_llvm()
    else:
        assert np.isclose(f(x), sum_of_exp(x), rtol=1e-14)
    g = jit(sum_of_cheap, fallback=False)
    assert g(x) == sum_of_cheap(x)
    assert "__svml" not in g.inspect_llvm()

