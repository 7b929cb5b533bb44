"""A function loaded from the disk cache in a fresh process runs without LLVM,
whatever it calls (docs/cache.md, *Loading without LLVM*).

Each kernel is a module of its own, imported by two fresh processes sharing a
cache folder (``run_twice_cached``): the first compiles and writes the entries
(the function's and the runtimes' it calls), the second loads them.  The second
checks its result against CPython/NumPy running the same function, and that
neither ``llvmlite`` nor any of its modules was imported.
"""
from __future__ import annotations

import json

import pytest

from hanajit.testing.sourcefile import run_twice_cached

# name -> (definitions, call expression, reference computed by the interpreter[,
# relative tolerance, 1e-13 by default])
HEADER = '''
import json, math, random, sys, traceback


class _Watch:
    """Records where llvmlite is first imported (for the failure message)."""
    where = None

    def find_spec(self, name, path=None, target=None):
        stack = traceback.format_stack(limit=16)[:-1]
        if name.split(".")[0] == "llvmlite" and _Watch.where is None and \\
                not any("importlib.util" in line for line in stack[-3:]):
            _Watch.where = "".join(stack)
        return None


sys.meta_path.insert(0, _Watch())
import numpy as np
import hanajit
from hanajit import prange

def _jit(f):
    return hanajit.jit(cache=True, fallback=False)(f)
'''

FOOTER = '''
def close(got, want):
    """The interpreter's result (sums may associate differently; vector math is
    within a few ulp: RTOL)."""
    if repr(got) == repr(want):
        return True
    try:
        return bool(np.allclose(got, want, rtol=RTOL, atol=0.0))
    except (TypeError, ValueError):
        return False


got = CALL
want = REF
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "llvmlite")
print(json.dumps([close(got, want), repr(got), repr(want), loaded[:3], _Watch.where]))
'''

KERNELS = {
    "scalar_math": ('''
def f(x, n):
    s = 0.0
    for i in range(n):
        s += math.sin(x * i) + math.sqrt(i) ** 1.5
    return s
''', "_jit(f)(0.25, 50)", "f(0.25, 50)"),
    "vector_exp": ('''
def f(a):
    return np.sum(np.exp(a))
''', "_jit(f)(np.linspace(-3.0, 3.0, 1001))", "f(np.linspace(-3.0, 3.0, 1001))"),
    "vector_sin_log": ('''
def f(a):
    return np.sin(a) + np.log(a)
''', "_jit(f)(np.linspace(0.5, 9.0, 777)).tolist()",
        "f(np.linspace(0.5, 9.0, 777)).tolist()"),
    "vector_exp_f32": ('''
def f(a):
    return np.exp(a)
''', "_jit(f)(np.linspace(-3.0, 3.0, 333, dtype=np.float32)).tolist()",
        "f(np.linspace(-3.0, 3.0, 333, dtype=np.float32)).tolist()", 5e-7),
    "reduction": ('''
def f(a):
    return a.max() - a.min() + a.sum()
''', "_jit(f)(np.arange(100.0) % 7)", "f(np.arange(100.0) % 7)"),
    "np_random": ('''
def f(rng, n):
    return rng.standard_normal(n).sum() + rng.integers(0, 10, n).sum() + rng.random()
''', "_jit(f)(np.random.default_rng(42), 100)", "f(np.random.default_rng(42), 100)"),
    "np_random_legacy": ('''
def f(n):
    np.random.seed(n)
    return np.random.randn(n)
''', "_jit(f)(5).tolist()", "f(5).tolist()"),
    "python_random": ('''
def f(seed):
    random.seed(seed)
    return random.random() + random.gauss(0.0, 1.0)
''', "_jit(f)(7)", "f(7)"),
    "blas_lapack": ('''
def f(a, b):
    return np.dot(a, np.linalg.solve(a, b))
''', "_jit(f)(np.eye(4) * 3.0 + 1.0, np.arange(4.0)).tolist()",
        "f(np.eye(4) * 3.0 + 1.0, np.arange(4.0)).tolist()"),
    "prange": ('''
def f(n):
    out = np.zeros(n)
    for i in prange(n):
        out[i] = i * 0.5
    return out.sum()
''', "_jit(f)(1000)", "f(1000)"),
    "returns_array": ('''
def f(n):
    return np.arange(n) * 2
''', "_jit(f)(10).tolist()", "f(10).tolist()"),
    "raises": ('''
def f(a, i):
    if i > 2:
        raise ValueError("i is too big")
    return a[i]

def call(g, *args):
    try:
        return g(*args)
    except Exception as exc:
        return (type(exc).__name__, str(exc))
''', "call(_jit(f), np.arange(3.0), 5)", "call(f, np.arange(3.0), 5)"),
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_warm_start_without_llvm(tmp_path, name):
    body, call, ref, *rtol = KERNELS[name]
    source = HEADER + body + FOOTER.replace("CALL", call).replace("REF", ref).replace(
        "RTOL", repr(rtol[0] if rtol else 1e-13))
    first, second = (json.loads(line) for line in
                     run_twice_cached(tmp_path, source, f"warm_{name}", "test-warm-start"))
    assert first[0], first
    same, got, want, loaded, where = second
    assert same, (got, want)
    assert got == first[1]               # bit for bit what the compiled code returned
    assert loaded == [], where
    assert list((tmp_path / "cache").rglob("*.hjc"))


def test_bound_c_methods_fingerprint_without_addresses():
    """``random.random`` is a C method of the module's hidden generator: its
    fingerprint (which decides whether an entry is stale) must not hold the
    generator's address, which differs in every process."""
    import random

    from hanajit.cache import deps
    fp = deps.fingerprint(random.random)
    assert fp == ("method", "random", "Random", "random")
    assert "0x" not in repr(deps.fingerprint(random.gauss))
    assert deps.fingerprint(len) == ("object", "builtins", "len")
