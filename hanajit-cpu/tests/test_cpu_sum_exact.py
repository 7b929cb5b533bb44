"""np.sum / np.mean / np.var / np.std of float arrays bit for bit with NumPy where NumPy's inner
loop gets a whole lane: its pairwise summation (pairwise_sum) over a 1-D array
of any stride, a C-contiguous array as a whole, or the last axis of one; a
float32 mean divided in float64 as NumPy divides by its intp count; the sum
and mean of a 1-D expression, fused, in the order NumPy sums its temporary
(``reductions.fused_pairwise``).  Hypothesis
over lengths around the 8/128 block edges, magnitudes over 40 decades, signed
zeros, infinities and NaN."""
from __future__ import annotations

import re

import numpy as np
import pytest
from hanajit import jit
from hypothesis import given, settings
from hypothesis import strategies as st


def total(a):
    return np.sum(a)


def mean(a):
    return np.mean(a)


def rows(a):
    return a.sum(axis=-1)


def row_means(a):
    return a.mean(axis=1)


def kept(a):
    return np.sum(a, keepdims=True)


def method(a):
    return a.sum()


def var(a):
    return np.var(a)


def std_ddof(a):
    return a.std(ddof=1)


def row_vars(a):
    return np.var(a, axis=-1, ddof=2, keepdims=True)


def var_float_ddof(a):
    return np.var(a, ddof=0.5)


def product_sum(a):
    return np.sum(a * (a + 1))


def expression_mean(a):
    return ((a - 1) * 3).mean()


def product_kept(a):
    return np.sum(a * a, axis=0, keepdims=True)


def strided_product(a):
    return np.sum(a[::2] * a[::-2])


EXPRESSIONS = (product_sum, expression_mean, product_kept, strided_product)
FUNCS = {f: jit(f, fallback=False) for f in (total, mean, rows, row_means, kept, method,
                                             var, std_ddof, row_vars, var_float_ddof)
         + EXPRESSIONS}


def same(f, x):
    with np.errstate(all="ignore"):
        want = np.asarray(f(x))
        got = np.asarray(FUNCS[f](x), dtype=want.dtype)
    # bit for bit, a NaN's sign and payload aside (docs/optimizers.md: no
    # compilation promises them)
    nan = np.isnan(want)
    assert got.shape == want.shape and np.array_equal(np.isnan(got), nan), (got, want)
    assert got[~nan].tobytes() == want[~nan].tobytes(), (got, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [0, 1, 5, 7, 8, 9, 15, 16, 127, 128, 129, 255, 256, 257,
                               1000, 4097, 100003])
def test_lengths(dtype, n):
    rng = np.random.default_rng(n)
    a = (rng.standard_normal(n) * np.exp(rng.uniform(-20, 20, n))).astype(dtype)
    for f in (total, method, product_sum, product_kept, strided_product) + (
            (mean, expression_mean) if n else ()):
        same(f, a)
        same(f, a[::-3])
    m = np.resize(a, (3, n))
    for f in (rows, kept, total) + ((row_means, mean) if n else ()):
        same(f, m)
    if n:
        for f in (var, std_ddof, var_float_ddof):
            same(f, a + 3)
            same(f, a[::2])
        same(row_vars, m)


values = st.floats(allow_nan=True, allow_infinity=True, width=64)


@settings(max_examples=150, deadline=None)
@given(st.lists(values, min_size=1, max_size=300), st.sampled_from([np.float64, np.float32]))
def test_hypothesis(xs, dtype):
    with np.errstate(all="ignore"):
        a = np.array(xs, dtype=dtype)
    for f in (total, mean) + EXPRESSIONS:
        same(f, a)
    same(rows, a.reshape(1, -1))


def test_signed_zeros_and_special_values():
    for a in (np.array([-0.0]), np.array([-0.0] * 9), np.array([np.inf, -np.inf]),
              np.array([np.nan] + [1.0] * 200), np.array([1e308] * 130)):
        for f in (total, mean) + EXPRESSIONS:
            same(f, a)


def _vector_loops(llvm_ir: str) -> list[str]:
    """The blocks of ``llvm_ir`` that branch to themselves carrying
    floating-point vectors around (the bodies of vectorised loops)."""
    blocks = re.split(r"\n(?=[\w.]+:)", llvm_ir)
    return [b for b in blocks
            if re.search(r"= phi <\d+ x (double|float)>", b)
            and re.search(r"label %" + re.escape(b.split(":", 1)[0]) + r"\b", b)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pairwise_leaves_are_vector_loops(dtype, monkeypatch):
    """NumPy's leaf (eight accumulators, each every eighth value) as vector code:
    each block of eight values is loaded and added as whole vectors, with no
    shuffle between the loads and the accumulators (pairwise_sum._leaf).  The
    leaves of a tree, that is: a lone leaf (at most 128 values) may shuffle."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")    # the helper's code in the caller's
    a = np.random.default_rng(3).random(100003).astype(dtype)
    for f, args in ((total, (a,)), (product_sum, (a,))):
        g = jit(f, fallback=False)
        assert g(*args).tobytes() == f(*args).tobytes()
        loops = _vector_loops(g.inspect_llvm())
        assert any("shufflevector" not in body for body in loops), f.__name__


def column_distances(A, B):
    D = np.empty((A.shape[1], B.shape[1]))
    for i in range(A.shape[1]):
        for j in range(B.shape[1]):
            D[i, j] = np.sqrt(((A[:, i] - B[:, j]) ** 2).sum())
    return D


@pytest.mark.parametrize("f, make", [
    (total, lambda rng: (rng.random(100003),)),
    (total, lambda rng: (rng.random(3001)[::3],)),
    (product_sum, lambda rng: (rng.random(100003),)),
    (column_distances, lambda rng: (rng.random((16, 20)), rng.random((16, 30)))),
])
def test_leaf_blocks_are_not_in_order_reductions(f, make, monkeypatch):
    """The blocks of a leaf stay one loop whose eight accumulators are the
    vector: LLVM's loop vectoriser, allowed in-order float reductions, would
    otherwise take eight blocks at a time into eight in-order reductions
    (``llvm.vector.reduce.fadd``), masked for a leaf of 16 values -- 4x slower
    for sums of short columns.  The loop is marked short (``_leaf_sum``, the
    helper's ``hj_short_loops``)."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")    # the helper's code in the caller's
    args = make(np.random.default_rng(5))
    g = jit(f, fallback=False)
    assert g(*args).tobytes() == f(*args).tobytes()
    assert "llvm.vector.reduce.fadd" not in g.inspect_llvm()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("step", [1, 3])
def test_leaves_are_inlined_into_the_tree(dtype, step, monkeypatch):
    """The recursive pairwise sum calls nothing but itself: its leaves
    (``pairwise_sum._leaf``, ``hj_inline``) are part of it.  A call per leaf of
    128 values, its arguments the array's fields mostly on the stack, cost
    about a fifth of the whole sum."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")    # the helper's code in the caller's
    a = np.random.default_rng(9).random(30011 * step).astype(dtype)[::step]
    g = jit(total, fallback=False)
    assert g(a).tobytes() == total(a).tobytes()
    ir = g.inspect_llvm()
    bodies = dict(re.findall(r'define [^@]*@"?([\w.$]+)"?\((.*?)\n}\n', ir, re.DOTALL))
    calls = {name: set(re.findall(r'call [^@]*@"?([\w.$]+)"?\(', body)) & set(bodies)
             for name, body in bodies.items()}
    recursive = [name for name, callees in calls.items() if name in callees]
    assert recursive, calls
    for name in recursive:
        assert calls[name] == {name}, calls
    # nor does it check the stack's depth (``hj_shallow``: at most 64 levels), so
    # it cannot raise: no status returned and tested after every call
    for name in recursive:
        assert "__stack" not in name
        assert re.search(rf'define [^@\n]* void @"?{re.escape(name)}"?\(', ir), name


@pytest.mark.parametrize("f", [rows, row_means])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_axis_lanes_allocate_only_the_result(f, dtype, monkeypatch):
    """The lanes of an axis sum are summed without scratch memory
    (``pairwise_unbuffered``): an allocation per lane of more than 128 values
    made rows of 300 values 2.4x slower than NumPy's."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")    # the helper's code in the caller's
    a = np.random.default_rng(4).standard_normal((7, 300)).astype(dtype)
    g = jit(f, fallback=False)
    assert g(a).tobytes() == f(a).tobytes()
    assert len(re.findall(r"call [^\n]*@\"?hj_nrt_alloc", g.inspect_llvm())) == 1


@pytest.mark.parametrize("step", [2, -1, -3])
def test_strided_sums_allocate_nothing(step, monkeypatch):
    """A 1-D sum of a non-contiguous array has scalar accumulators, no scratch
    memory: its loads are separate anyway, and ``y[::2].sum()`` measured
    0.84-0.89x NumPy with the scratch, 0.93x without."""
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")    # the helper's code in the caller's
    a = np.random.default_rng(6).standard_normal(3001)[::step]
    g = jit(total, fallback=False)
    assert g(a).tobytes() == total(a).tobytes()
    assert "hj_nrt_alloc" not in g.inspect_llvm()
