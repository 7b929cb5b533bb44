"""The program's function is inlined into its C-ABI wrapper before LLVM's
pipeline, which then optimises it once instead of twice (alone, then inside the
wrapper), except where a loop of a constant count sits inside another loop
(``target.optimise_once``): there only the second pass folds what unrolling
the inner loop left (``life_step``'s ``(j + dj) % m``)."""
import numpy as np
from hanajit import jit
from hanajit.pipeline import compile_ir
from hanajit.typing_rules import typeof
from hanajit_cpu.target import optimise_once
from hanajit.testing.sourcefile import load_sibling


def scaled_sum(a, k):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j] * k
    return s


# the corpus's life_step: constant-count loops (for di in (-1, 0, 1)) inside loops
neighbours = load_sibling(__file__, "corpus_kernels.py", "hanajit_corpus_kernels").life_step


def three_terms(x):
    out = np.empty_like(x)
    for i in range(x.shape[0]):
        t = 0.0
        for k in range(3):
            t = t * x[i] + k
        out[i] = t
    return out


def outer_constant(x):
    t = 0.0
    for k in range(4):          # a constant count, but inside no other loop
        for i in range(x.shape[0]):
            t += x[i] * k
    return t


def _module(fn, *args):
    module, _ = compile_ir(fn, tuple(typeof(a) for a in args), {})
    return module


def test_which_functions_are_optimised_once(monkeypatch):
    a = np.arange(12.0).reshape(3, 4)
    board = (np.arange(30) % 3 == 0).astype(np.int64).reshape(5, 6)
    assert optimise_once(_module(scaled_sum, a, 2.0))
    assert optimise_once(_module(outer_constant, a[0]))
    assert not optimise_once(_module(neighbours, board))
    assert not optimise_once(_module(three_terms, a[0]))
    monkeypatch.setenv("HANAJIT_OPTIMISE_ONCE", "0")
    assert not optimise_once(_module(scaled_sum, a, 2.0))


def test_results_either_way():
    rng = np.random.default_rng(1)
    for a in (rng.random((7, 5)), np.asfortranarray(rng.random((4, 6))),
              rng.random((6, 8))[::-2, ::3], np.empty((0, 3))):
        assert jit(scaled_sum, fallback=False)(a, 1.5) == scaled_sum(a, 1.5)
    board = (rng.random((9, 7)) < 0.4).astype(np.int64)
    np.testing.assert_array_equal(jit(neighbours, fallback=False)(board),
                                  neighbours(board))
    x = rng.random(11) - 0.5
    assert jit(three_terms, fallback=False)(x).tobytes() == three_terms(x).tobytes()
    assert jit(outer_constant, fallback=False)(x) == outer_constant(x)
