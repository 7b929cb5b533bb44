"""``hanajit.lowering.shared``: which callees a linking target compiles apart, and
that each piece prints the same text whichever function calls it (the key it is
compiled once by)."""
from __future__ import annotations

import numpy as np

from hanajit import prange
from hanajit.ir import types as T
from hanajit.lowering import shared
from hanajit.lowering.llvm import ModuleLowering
from hanajit.pipeline import compile_ir

F64_1D = T.ArrayType(T.FLOAT64, 1, "C")


def median_of(a):
    return np.median(a)


def median_plus_sum(a, k):
    s = 0.0
    for i in range(k):
        s += a[i]
    return np.median(a) + s


def scalar(x, y):
    return x * y + 1.0


def rows(a, n):
    out = np.empty(n)
    for i in prange(n):
        out[i] = np.median(a) + i
    return out


def _piece_text(module, root):
    p = shared.piece(module, root)
    return str(ModuleLowering(p.module, names=p.names,
                              exports=frozenset({root})).lower())


def test_a_library_algorithm_is_split_and_prints_the_same_for_every_caller():
    m1, _ = compile_ir(median_of, (F64_1D,))
    m2, _ = compile_ir(median_plus_sum, (F64_1D, T.INT64))
    r1, r2 = shared.roots(m1), shared.roots(m2)
    assert len(r1) == 1 and len(r2) == 1
    assert m1.entry not in r1
    t1, t2 = _piece_text(m1, r1[0]), _piece_text(m2, r2[0])
    assert t1 == t2 and shared.ROOT in t1
    assert shared.kept(m1, r1) == {m1.entry}


def test_small_functions_stay_whole():
    m, _ = compile_ir(scalar, (T.FLOAT64, T.FLOAT64))
    assert shared.roots(m) == []
    assert shared.kept(m, []) == set(m.functions)


def test_a_prange_body_is_never_split():
    m, _ = compile_ir(rows, (F64_1D, T.INT64), {"parallel": True})
    for root in shared.roots(m):
        reach = shared.piece(m, root).module.functions
        assert all(not shared._parallel_bodies(fn) for fn in reach.values())
        assert m.entry not in reach
