"""LLVM unrolls loops with more than one exit only for modules whose own code
has such a loop (``target.checked_loops``): a bounds check that stays in a
scatter loop is where it pays, and everywhere else -- hanajit's library, whose
loops index unchecked -- it only cost compile time."""
import numpy as np
import pytest
from hanajit import jit
from hanajit.pipeline import compile_ir
from hanajit.typing_rules import typeof
from hanajit_cpu.target import checked_loops


def bincount(idx):
    out = np.zeros(8, np.int64)
    for i in range(idx.shape[0]):
        out[idx[i]] += 1        # the index is data: its check stays in the loop
    return out


def first_above(a, x):
    for i in range(a.shape[0]):
        if a[i] > x:
            return i
    return -1


def smallest(a):
    return a.min()              # the library's loops only


def _module(fn, *args):
    module, _ = compile_ir(fn, tuple(typeof(a) for a in args), {})
    return module


def test_loops_that_leave_early_are_the_programs_own():
    idx = np.array([1, 3, 3, 7])
    a = np.linspace(0.0, 1.0, 50)
    assert checked_loops(_module(bincount, idx))
    assert checked_loops(_module(first_above, a, 0.5))
    assert not checked_loops(_module(smallest, a))
    # and each computes what the interpreter computes
    np.testing.assert_array_equal(jit(bincount)(idx), bincount(idx))
    assert jit(first_above)(a, 0.5) == first_above(a, 0.5)
    assert jit(smallest)(a) == smallest(a)


def test_out_of_range_index_still_raises():
    with pytest.raises(IndexError):
        jit(bincount)(np.array([1, 9]))
