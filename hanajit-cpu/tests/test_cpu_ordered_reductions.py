"""In-order float reductions vectorise only where the loop does costly work
(``engine.ordered_reductions_pay``): the additions stay in source order, so
the result is the interpreter's bit for bit either way."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from hanajit import jit
from hanajit_cpu.engine import ordered_reductions_pay


def ratio_sum(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] / y[i]
    return s


def root_sum(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.sqrt(x[i] * y[i])
    return s


def exp_sum(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += np.exp(x[i]) * y[i]
    return s


def affine_sum(x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i] * y[i] + 1.0
    return s


def float32_ratio_sum(x, y):
    s = np.float32(0.0)
    for i in range(x.shape[0]):
        s += x[i] / y[i]
    return s


@pytest.mark.parametrize("f", [ratio_sum, exp_sum])
def test_costly_loops_add_in_order_in_simd(f):
    rng = np.random.default_rng(7)
    x, y = rng.random(1001) + 0.5, rng.random(1001) + 0.5
    g = jit(f, fallback=False)
    assert g(x, y).tobytes() == f(x, y).tobytes()
    text = g.inspect_llvm()
    assert ordered_reductions_pay(text)
    assert "llvm.vector.reduce.fadd" in text


def test_multiply_add_loops_stay_scalar():
    """No SIMD gain there, and a slower compile."""
    rng = np.random.default_rng(8)
    x, y = rng.random(1001), rng.random(1001)
    g = jit(affine_sum, fallback=False)
    assert g(x, y).tobytes() == affine_sum(x, y).tobytes()
    text = g.inspect_llvm()
    assert not ordered_reductions_pay(text)
    assert "llvm.vector.reduce.fadd" not in text


finite = st.floats(-1e6, 1e6, allow_nan=False, width=64)


@settings(max_examples=25, deadline=None)
@given(arrays(np.float64, st.integers(0, 40), elements=finite),
       st.sampled_from([ratio_sum, affine_sum, root_sum]))
def test_sums_are_the_interpreters(x, f):
    """Any length (vector body, tail, none), signed zeros, infinities from the
    divisions: the same bits, the order kept."""
    y = np.where(np.arange(x.size) % 3 == 0, 0.0, x[::-1] - 0.5)
    g = jit(f, fallback=False)
    with np.errstate(all="ignore"):
        want = f(x, y)
        got = g(x, y)
    assert np.asarray(got).tobytes() == np.asarray(want).tobytes()
    assert type(got) is type(want)


def test_float32_accumulator():
    rng = np.random.default_rng(9)
    x = (rng.random(517) + 0.25).astype(np.float32)
    y = (rng.random(517) + 0.25).astype(np.float32)
    g = jit(float32_ratio_sum, fallback=False)
    got, want = g(x, y), float32_ratio_sum(x, y)
    assert type(got) is type(want) is np.float32
    assert got.tobytes() == want.tobytes()
    assert math.isfinite(got)
