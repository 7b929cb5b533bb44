"""N-D float sums in NumPy's order, bit for bit (``arrays/sum_order.py``,
``statistics/sum_lanes.py``): the whole sum and the sums along one axis of N-D
arrays of any strides (C, F, transposed, stepped, reversed, with 0 and 1
extents), and of N-D expressions whose operands share one memory order (all C-
or all F-contiguous of the result's shape), are C-compatible (broadcast rows,
stepped views: NumPy's temporary is C-contiguous) or, along an axis, any
C-compatible layout.  Values spread over many binades, so that the order of the
additions shows in the last bits; float32 and float64.

``test_model_*`` check the pure-Python model (``sum_lanes.strided_sum``,
``innermost_axis``) against NumPy directly, on more layouts than compiling
allows (4-D, lanes past NumPy's 8192-item buffer)."""
from __future__ import annotations

import numpy as np
import pytest
from hanajit import jit
from hanajit.lib.statistics import pairwise_sum, sum_lanes
from hypothesis import given, settings
from hypothesis import strategies as st


def whole(a):
    return a.sum()


def whole_mean(a):
    return np.mean(a)


def axis0(a):
    return a.sum(axis=0)


def axis1(a):
    return np.sum(a, axis=1)


def axis_last(a):
    return a.sum(axis=-1)


def mean_axis0(a):
    return a.mean(axis=0)


def kept0(a):
    return np.sum(a, axis=0, keepdims=True)


def product(a, b):
    return np.sum(a * b)


def squared(a, b):
    return ((a - b) ** 2).sum()


def shifted_mean(a, b):
    return (a + 1.0).mean()


def product_axis0(a, b):
    return (a * b).sum(axis=0)


def product_axis1(a, b):
    return (a * b).sum(axis=1)


def product_last(a, b):
    return np.sum(a * b, axis=-1)


def squared_mean_last(a, b):
    return ((a - b) ** 2).mean(axis=-1)


def self_product(a):
    return np.sum(a * a)


def self_mixed_mean(a):
    return np.mean(np.sqrt(a * 3.0 + a))


def self_product_axis0(a):
    return (a * a).sum(axis=0)


ARRAY = (whole, whole_mean, axis0, axis1, axis_last, mean_axis0, kept0)
PAIR = (product, squared, shifted_mean, product_axis0, product_axis1, product_last,
        squared_mean_last)
AXIS_PAIR = (product_axis0, product_axis1, product_last, squared_mean_last)
# one local read twice: each read is a leaf of its own, and the flat memory the
# fused sum reads must be found for both (it once was for the first only: the
# second read past the end)
SELF = (self_product, self_mixed_mean, self_product_axis0)
JIT = {f: jit(f, fallback=False) for f in ARRAY + PAIR + SELF}


def same(f, *args):
    with np.errstate(all="ignore"):
        want = np.asarray(f(*args))
        got = np.asarray(JIT[f](*args))
    assert got.dtype == want.dtype and got.shape == want.shape, (got, want)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), (f.__name__, got, want)
    assert got[~nan].tobytes() == want[~nan].tobytes(), (
        f.__name__, [(a.shape, a.strides) for a in args], got, want)


def spread(rng, shape, dtype):
    """Values over many binades, so that the order of the additions shows."""
    x = rng.standard_normal(shape) * 2.0 ** rng.integers(-8, 24, shape)
    return x.astype(dtype)


EXTENTS = [0, 1, 2, 3, 7, 8, 9, 17, 130, 300]


def layouts(a):
    """Views of ``a`` in many layouts (all of the same ndim)."""
    yield a
    yield np.asfortranarray(a)
    yield a.T
    yield a[::-1]
    yield a[..., ::-1]
    yield a[::2]
    yield a[..., ::2]
    yield a[..., 1::3][::-1]
    yield np.swapaxes(a, 0, -1)[::2]
    if a.ndim == 3:
        yield np.moveaxis(a, -1, 0)
        yield a.transpose(1, 0, 2)[:, ::2]
        yield a[:, ::-2]


shapes = st.lists(st.sampled_from(EXTENTS), min_size=2, max_size=3).filter(
    lambda s: int(np.prod(s)) <= 40000)


@settings(max_examples=6, deadline=None)
@given(shapes, st.sampled_from([np.float64, np.float32]), st.integers(0, 2**32 - 1))
def test_arrays_any_layout(shape, dtype, seed):
    """Whole sums, means and sums along each axis of N-D arrays in every layout."""
    rng = np.random.default_rng(seed)
    for a in layouts(spread(rng, shape, dtype)):
        for f in ARRAY:
            if f in (axis1,) and a.ndim < 2:
                continue
            if f in (whole_mean, mean_axis0) and a.size == 0:
                continue
            same(f, a)


def pair_layouts(rng, shape, dtype):
    """Operand pairs whose NumPy temporary order the compiled sum reproduces."""
    x, y = spread(rng, shape, dtype), spread(rng, shape, dtype)
    yield x, y                                          # both C
    yield np.asfortranarray(x), np.asfortranarray(y)    # both F
    yield x.T, y.T                                      # both F (transposed)
    yield x, y[:1]                                      # broadcast along axis 0
    if shape[0]:
        yield x, y[0]                                   # a row for every row
    yield x[..., ::2], y[..., ::2]                      # stepped: C-ordered temporary
    yield x[::2], y[::3]                                # stepped rows
    yield x, x                                          # one operand twice
    yield x, np.asfortranarray(y)                       # C with F: C order wins
    yield y[..., ::2] * 1, np.asfortranarray(x)[..., ::2]  # C with F-stepped
    yield np.asfortranarray(x)[::2], np.asfortranarray(y)[::2]  # F-compatible
    # reversed: NumPy's temporary has positive strides, its values in index order
    yield x[::-1], y[::-1]
    yield x[..., ::-1], y[..., ::-2] if shape[-1] % 2 else y[..., ::-1]
    yield np.asfortranarray(x)[::-1], np.asfortranarray(y)[::-1]
    yield x[::-1], y                                    # with a C operand


@settings(max_examples=2, deadline=None)
@given(shapes, st.sampled_from([np.float64, np.float32]), st.integers(0, 2**32 - 1))
def test_expressions(shape, dtype, seed):
    """Whole sums, means and axis sums of N-D expressions of operands sharing one
    memory order, or C-compatible (broadcast, stepped)."""
    rng = np.random.default_rng(seed)
    for a, b in pair_layouts(rng, shape, dtype):
        try:
            if a.shape != np.broadcast_shapes(a.shape, b.shape):
                continue
        except ValueError:          # stepped rows of different lengths
            continue
        for f in PAIR:
            if f in (shifted_mean, squared_mean_last) and a.size == 0:
                continue
            if f is product_axis1 and a.ndim < 2:
                continue
            same(f, a, b)


@settings(max_examples=3, deadline=None)
@given(shapes, st.sampled_from([np.float64, np.float32]), st.integers(0, 2**32 - 1))
def test_one_operand_read_twice(shape, dtype, seed):
    """``np.sum(a * a)`` and the like in the layouts of :func:`pair_layouts`."""
    rng = np.random.default_rng(seed)
    for a, _ in pair_layouts(rng, shape, dtype):
        for f in SELF:
            if f is self_mixed_mean and a.size == 0:
                continue
            same(f, a)


@settings(max_examples=5, deadline=None)
@given(shapes, st.sampled_from([np.float64, np.float32]), st.integers(0, 2**32 - 1))
def test_expression_axes_reversed(shape, dtype, seed):
    """Along an axis, reversed C operands keep NumPy's order (its temporary's
    axes by stride size, whatever their sign)."""
    rng = np.random.default_rng(seed)
    x, y = spread(rng, shape, dtype), spread(rng, shape, dtype)
    for a, b in ((x[::-1], y[::-1]), (x[..., ::-1], y), (x[::-1, ..., ::-2], y[:, ..., ::2])):
        for f in AXIS_PAIR:
            if f is squared_mean_last and a.size == 0:
                continue
            same(f, a, b)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_long_lanes(dtype):
    """Lanes longer than NumPy's 8192-item buffer, strided and F-ordered."""
    rng = np.random.default_rng(7)
    x = spread(rng, (3, 20001), dtype)
    for a in (x[:, ::2], x[:, ::-1], np.asfortranarray(x), x.T, x[:, :9000]):
        for f in (whole, axis0, axis_last):
            same(f, a)
    y = spread(rng, (3, 20001), dtype)
    for f in (product, product_last, product_axis0):
        same(f, x, y)
        same(f, x.T, y.T)


def test_signed_zeros_and_specials():
    for v in ([-0.0] * 6, [np.inf, -np.inf, 1.0, 2.0], [np.nan, 1.0, -0.0, 5.0]):
        a = np.array(v * 3).reshape(3, -1)
        for x in (a, a.T, a[:, ::2]):
            for f in (whole, axis0, axis_last):
                same(f, x)
            for f in (product, product_axis0, product_last):
                same(f, x, x)


# ------------------------------------------------------------ the model alone
def memory_of(a):
    """``(mem, start, shape, strides)`` as ``sum_order.array_sum`` builds them:
    the array's memory from its lowest item, the index of ``a[0, ..., 0]`` in it
    and the strides in items."""
    item = a.itemsize
    shape = np.array(a.shape, np.int64)
    if a.size == 0:
        return np.zeros(0, a.dtype), 0, shape, np.array(a.strides, np.int64) // item
    reach = [(n - 1) * s for n, s in zip(a.shape, a.strides)]
    lo = sum(r for r in reach if r < 0)
    hi = sum(r for r in reach if r > 0)
    mem = np.ndarray(shape=((hi - lo) // item + 1,), dtype=a.dtype, buffer=_owner(a),
                     offset=_offset(a) + lo)
    return mem, -lo // item, shape, np.array(a.strides, np.int64) // item


def _owner(a):
    while a.base is not None:
        a = a.base
    return a


def _offset(a):
    return a.__array_interface__["data"][0] - _owner(a).__array_interface__["data"][0]


def model_sum(a):
    mem, start, shape, strides = memory_of(a)
    return sum_lanes.strided_sum(mem, start, shape, strides, a.dtype.type(0))


def model_axis(a, axis):
    inner = sum_lanes.innermost_axis(np.array(a.shape, np.int64),
                                     np.array(a.strides, np.int64))
    moved = np.moveaxis(a, axis, -1)
    out = np.empty(moved.shape[:-1], a.dtype)
    zero = a.dtype.type(0)
    for idx in np.ndindex(out.shape):
        lane = moved[idx]
        if inner == axis:
            out[idx] = pairwise_sum.pairwise(lane, zero)
        else:
            acc = zero
            for v in lane:
                acc = acc + v
            out[idx] = acc
    return out


MODEL_SHAPES = [(3, 4, 17), (5, 100, 17), (30, 4, 100), (3, 90, 100), (10, 2, 3000),
                (2, 3, 5, 7), (4, 1, 130, 9), (1000, 20), (20, 1000), (3, 5000),
                (2, 9000), (0, 4), (1, 1, 1)]


@pytest.mark.parametrize("shape", MODEL_SHAPES)
def test_model_whole(shape):
    rng = np.random.default_rng(len(shape) * 1000 + shape[-1])
    for dtype in (np.float32, np.float64):
        x = (rng.standard_normal(shape) * 2.0 ** rng.integers(0, 12, shape)).astype(dtype)
        views = [x, x.T, x[::-1], x[..., ::2], x[::2], np.swapaxes(x, 0, -1)[::-1]]
        if x.ndim >= 3:
            views += [x[:, ::2], x[:, ::-2, ::3], np.moveaxis(x, 1, -1)]
        for a in views:
            got, want = model_sum(a), np.sum(a)
            assert got.tobytes() == want.tobytes(), (a.shape, a.strides, got, want)
            if a.size and a.size <= 30000:
                for ax in range(a.ndim):
                    g, w = model_axis(a, ax), np.sum(a, axis=ax)
                    assert g.tobytes() == w.tobytes(), (a.shape, a.strides, ax)


def test_reassoc_keeps_in_order_loop():
    """``reduce_reassoc=True`` sums as before (its order vectorises)."""
    f = jit(product, fallback=False, reduce_reassoc=True)
    x = np.arange(12.0).reshape(3, 4)
    assert f(x, x) == np.sum(x * x)
    g = jit(whole, fallback=False, reduce_reassoc=True)
    assert g(x[:, ::2]) == x[:, ::2].sum()



def _row_loops(llvm_ir: str) -> list[str]:
    """Blocks of ``llvm_ir`` that branch to themselves, adding float vectors and
    storing them (a loop adding a row into the result)."""
    import re
    blocks = re.split(r"\n(?=[\w.]+:)", llvm_ir)
    return [b for b in blocks
            if re.search(r"fadd <\d+ x (double|float)>", b)
            and re.search(r"store <\d+ x (double|float)>", b)
            and re.search(r"label %" + re.escape(b.split(":", 1)[0]) + r"\b", b)]


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_in_order_axis_sums_run_along_rows(dtype):
    """Along an axis that is not NumPy's innermost, each lane is added in index
    order; the compiled loops go along the rows, adding them into the result
    (``sum_order.accumulate_axis``): the same additions in the same order, as
    vector code instead of strided scalar lanes.  Rows shorter than 8 keep each
    lane in a register (``sum_order.by_rows``)."""
    rng = np.random.default_rng(11)
    x, y = spread(rng, (37, 3, 70), dtype), spread(rng, (37, 3, 70), dtype)
    for f, args in ((axis0, (x,)), (mean_axis0, (x,)), (kept0, (x,)),
                    (product_axis0, (x, y)), (product_axis1, (x, y))):
        for a in (args, tuple(v[:, :, ::-1] for v in args), tuple(v[:1] for v in args),
                  tuple(v[..., :5] for v in args)):        # (rows shorter than 8)
            same(f, *a)
        g = jit(f, fallback=False)
        g(*args)
        assert _row_loops(g.inspect_llvm()), f.__name__
