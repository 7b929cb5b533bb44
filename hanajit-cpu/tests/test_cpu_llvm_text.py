"""``lowering.llvm_text.module_text`` prints a module as ``str(module)`` does,
character for character: every module the CPU target prints while compiling
kernels of many kinds (loops, arrays of every layout, complex numbers, tuples,
raises, library pieces compiled apart) is printed both ways and compared."""
import numpy as np
import pytest
from llvmlite import ir

from hanajit import jit
from hanajit.lowering import llvm_text
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.sourcefile import load_sibling

K = load_sibling(__file__, "corpus_kernels.py", "hanajit_corpus_kernels")
rng = np.random.default_rng(0)


def R(*shape):
    return rng.random(shape)


CASES = [
    ("black_scholes", (R(100) + 1, R(100) + 1, R(100) + 0.1, 0.05, 0.2)),
    ("life_step", ((R(16, 16) < 0.3).astype(np.int64),)),
    ("histogram2d", (R(500), R(500), 10)),
    ("softmax2d", (R(10, 5),)),
    ("bubble_sort", (R(30),)),
    ("mandel", (30, 20, 50)),
    ("lstsq_normal", (R(50, 3), R(50))),
    ("argsort_topk", (R(50), 5)),
    ("unique_counts", (rng.integers(0, 5, 50),)),
    ("primes_below", (100,)),
]


def complex_tuple(z, k):
    if k < 0:
        raise ValueError("negative k")
    w = z[::-1] * (1 - 2j)
    return w.sum(), np.median(np.abs(w)), (k, float(k) / 3)


def test_module_text_is_llvmlites_text(monkeypatch):
    assert llvm_text.USABLE
    printed = []
    fast, plain = llvm_text.module_text, ir.Module.__repr__

    def checked(m):
        got = fast(m)
        printed.append(got == plain(m))
        return got

    monkeypatch.setattr(llvm_text, "module_text", checked)
    for name, args in CASES:
        fn = getattr(K, name)
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        got, want = jit(fn, fallback=False)(*args), fn(*copies)
        # (black_scholes and softmax2d: vector math, within 4 ulp as test_cpu_corpus)
        assert np.allclose(got, want, rtol=1e-12, atol=0, equal_nan=True), name
    z = (R(9) + 1j * R(9)).astype(np.complex64)
    f = jit(complex_tuple, fallback=False)
    assert_same_bits(f(z, 4), complex_tuple(z, 4))
    with pytest.raises(ValueError, match="negative k"):
        f(z, -1)
    assert len(printed) >= len(CASES) + 1 and all(printed)
