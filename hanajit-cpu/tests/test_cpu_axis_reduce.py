"""Reductions along one axis (``lib/arrays/axis_reduce.py``): the slices combined
in C order when the axis is not the last, each lane's vector extreme when it
is NumPy's innermost -- value for value NumPy's, signed zeros, NaNs, the first
index of an argmax and integer wrap-around included, for every layout."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.compare import assert_same_bits as assert_same
from hanajit.testing.jitted import jitted
from hanajit.typing_rules import argtypeof

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]


def along0(a):
    return (np.max(a, axis=0), np.min(a, axis=0), np.argmax(a, axis=0),
            np.argmin(a, axis=0), np.sum(a, axis=0), np.prod(a, axis=0),
            np.any(a, axis=0), np.all(a, axis=0))


def along1(a):
    return (np.max(a, axis=1), np.min(a, axis=1), np.argmax(a, axis=1),
            np.argmin(a, axis=1), np.sum(a, axis=1), np.prod(a, axis=1),
            np.any(a, axis=1), np.all(a, axis=1))


def along_last(a):
    return (a.max(axis=-1), a.min(axis=-1), a.argmax(axis=-1), a.argmin(axis=-1),
            a.sum(axis=-1), a.prod(axis=-1), a.any(axis=-1), a.all(axis=-1))


def along0_kept(a):
    return (np.max(a, axis=0, keepdims=True), np.argmin(a, axis=0, keepdims=True),
            np.argmax(a, axis=-1, keepdims=True), np.sum(a, axis=0, keepdims=True),
            np.all(a, axis=0, keepdims=True))


def expressions(a):
    return ((a * 2.0).max(axis=0), (a - 1.0).argmin(axis=0), np.any(a > 0.5, axis=0),
            np.max(a + a, axis=-1))


FUNCS = [along0, along1, along_last, along0_kept]
VALUES = np.array([0.0, -0.0, 1.0, -1.0, 2.5, np.nan, np.inf, -np.inf])


def _floats(rng, shape, dtype, nan):
    p = np.array([4, 4, 2, 2, 1, nan, 0.5, 0.5], float)
    a = rng.choice(VALUES, size=shape, p=p / p.sum()).astype(dtype)
    return a


def _layouts(a):
    yield a
    yield np.asfortranarray(a)
    yield np.repeat(a, 2, axis=0)[::-2]         # strided, negative step
    if a.ndim == 3:
        yield a.transpose(1, 2, 0)


JITTED = {}


def _same(f, a):
    want = f(a)
    if f not in JITTED:
        JITTED[f] = jit(f)
    got = JITTED[f](a)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert_same(g, w)


@pytest.mark.parametrize("f", FUNCS)
@pytest.mark.parametrize("shape", [(37, 29), (5, 3, 40), (1, 33), (40, 1), (2, 2)])
def test_float64_every_layout(f, shape):
    rng = np.random.default_rng(hash((f.__name__, shape)) % 2**32)
    for nan in (0.0, 0.02):
        a = _floats(rng, shape, np.float64, nan)
        for b in _layouts(a):
            _same(f, b)


# int8 and uint8 differ from int64 in width and sign alone: each runs an axis-0
# reduction and one along the last axis (``along1`` of a 2-D array is the last)
OTHER_DTYPE_CASES = [(f, d) for f in FUNCS for d in (np.float32, np.int64, np.bool_,
                                                      np.complex128)]
OTHER_DTYPE_CASES += [(along0, np.int8), (along_last, np.int8), (along1, np.uint8),
                      (along0_kept, np.uint8)]


@pytest.mark.parametrize("f, dtype", OTHER_DTYPE_CASES,
                         ids=lambda x: getattr(x, "__name__", None) or np.dtype(x).name)
def test_other_dtypes(f, dtype):
    rng = np.random.default_rng(7)
    for shape in [(23, 41), (64, 3), (3, 70)]:
        if dtype in (np.float32, np.complex128):
            a = _floats(rng, shape, np.float64, 0.02).astype(dtype)
            if dtype == np.complex128:
                a.imag = _floats(rng, shape, np.float64, 0.02)
        else:
            a = rng.integers(-128 if dtype == np.int8 else 0, 128, shape).astype(dtype)
        _same(f, a)


def test_expressions_are_read_in_order():
    rng = np.random.default_rng(3)
    for shape in [(50, 37), (3, 200), (200, 3)]:
        a = _floats(rng, shape, np.float64, 0.02)
        _same(expressions, a)
        _same(expressions, np.asfortranarray(a))


def test_signed_zeros_as_numpy_along_either_axis():
    """Which zero a max/min keeps depends on NumPy's loop: a whole-slice
    ``maximum`` (the later value wins) across the axis, its vectorised reduce
    (``minmax_algorithms``) along a lane it makes innermost."""
    rng = np.random.default_rng(11)
    zeros = np.array([0.0, -0.0, -1.0, 1.0])
    for dtype in (np.float64, np.float32):
        for _ in range(60):
            r, c = rng.integers(1, 70, 2)
            a = rng.choice(zeros, size=(r, c), p=[.45, .45, .05, .05]).astype(dtype)
            for b in (a, np.asfortranarray(a), a[:, ::2]):
                for f in (along0, along1):
                    _same(f, b)


def test_empty_axis_raises_as_numpy():
    @jit
    def mx0(a):
        return np.max(a, axis=0)

    @jit
    def arg1(a):
        return np.argmin(a, axis=1)

    @jit
    def sum0(a):
        return np.sum(a, axis=0), np.any(a, axis=0)

    for f, shape in ((mx0, (0, 4)), (arg1, (3, 0))):
        a = np.ones(shape)
        with pytest.raises(ValueError) as want:
            f.py_func(a)
        with pytest.raises(ValueError) as got:
            f(a)
        assert str(got.value) == str(want.value)
    assert_same(mx0(np.ones((4, 0))), np.max(np.ones((4, 0)), axis=0))
    assert_same(sum0(np.ones((0, 4))), sum0.py_func(np.ones((0, 4))))


def test_slices_are_combined_as_vector_code(monkeypatch):
    """A reduction along the first axis of a C array reads its rows in order:
    the loop that combines a row into the result stores whole vectors of
    results (a walk down each column stores one result at a time); an argmax
    of a 2-D array keeps blocks of columns in vectors (``column_extremes``,
    a library piece: inlined here to be seen).  One reduction per function, so
    that no other loop can supply the vectors."""
    import re
    monkeypatch.setenv("HANAJIT_SHARE_HELPERS", "0")

    def sum0(m):
        return np.sum(m, axis=0)

    def argmax0(m):
        return np.argmax(m, axis=0)

    def any0(m):
        return np.any(m, axis=0)

    m = np.arange(64 * 64, dtype=np.int64).reshape(64, 64) % 61
    for fn, a, element in ((sum0, m, "i64"), (argmax0, m, "i64"), (any0, m > 30, "i8")):
        jf = jit(fn)
        assert_same(jf(a), fn(a))
        ir = jf.inspect_llvm()
        assert re.search(r"store <\d+ x %s>" % element, ir), fn.__name__


def over_axes(a):
    return (a.sum(axis=(0, 2)), np.max(a, axis=(1, 2)), np.min(a, axis=(0, -1), keepdims=True),
            np.any(a > 3, axis=(0, 1)), np.all(a, axis=(2, 0)), np.prod(a, axis=(0, 1, 2)),
            a.sum(axis=(1,)))


def test_tuple_axes_where_no_order_changes_the_value():
    """Reductions over a tuple of axes compile for integers and booleans (and
    any/all of anything): no order of the elements changes their value."""
    jf = jit(over_axes)
    a = np.random.default_rng(0).integers(-5, 6, (3, 4, 5))
    for x in (a, a.astype(np.int8), a.astype(np.uint16), a.astype(bool),
              np.asfortranarray(a), a[:, ::-1]):
        assert_same(jf(x), over_axes(x))


def float_axes(a):
    return (a.sum(axis=(0, 2)), np.max(a, axis=(1, 2)), np.min(a, axis=(0, -1), keepdims=True),
            np.prod(a, axis=(0, 1, 2)), a.mean(axis=(0, 1)), np.sum(a, axis=(1, 2), keepdims=True),
            np.mean(a, axis=(2, 0)), a.max(axis=(0, 1, 2)), np.prod(a, axis=(0, 2)))


def float_axes4(a):
    return (a.sum(axis=(0, 2)), a.sum(axis=(1, 3)), a.sum(axis=(0, 1, 3)), a.max(axis=(0, 3)),
            a.min(axis=(1, 2)), a.prod(axis=(0, 2)), a.mean(axis=(2, 3)))


# (each of 3-D/4-D, dtype and order is a compile of nine reductions; float32
# runs the code of float64 at another width: its C order of 3-D only)
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 7), min_size=3, max_size=4),
       st.sampled_from([("f8", "C"), ("f8", "F"), ("f4", "C")]),
       st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2]))
def test_float_tuple_axes_in_numpys_order(shape, dtype_order, seed, special):
    """Float sum/prod/mean/min/max over a tuple of axes of a C- or F-ordered array
    are NumPy's bit for bit: its iterator walks memory in order, axes of length
    1 dropped and neighbours merged, each run of the innermost merged axis
    reduced on its own (a sum pairwise) or combined element by element -- signed
    zeros (a sum of -0.0 is 0.0) and NaNs included."""
    dtype, order = dtype_order
    if dtype == "f4":
        shape = shape[:3]
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 3, shape)
    if special == 1:
        a[a < 0.3] = -0.0
    elif special == 2:
        a[a > 1.0] = np.nan
    a = np.asarray(a, dtype=dtype, order=order)
    fn = float_axes if a.ndim == 3 else float_axes4
    assert_same(jitted(fn)(a), fn(a))


def test_float_tuple_axes_of_long_runs_and_expressions():
    """Long runs (a pairwise tree per run, past NumPy's 8192-item buffer),
    expressions of C-ordered arrays (NumPy's temporary), and a view whose
    memory order only the run time knows."""
    rng = np.random.default_rng(3)

    def sums(a, b):
        return (a.sum(axis=(1, 2)), a.sum(axis=(0, 1)), (a * 2.0 - b).sum(axis=(0, 2)),
                np.max(a + b, axis=(0, 1)), (a * b).mean(axis=(1, 2)))
    a = rng.standard_normal((3, 130, 140))
    assert_same(jit(sums)(a, a[0, 0]), sums(a, a[0, 0]))
    a = rng.standard_normal((5, 3, 20000)).astype(np.float32)
    assert_same(jit(sums)(a, a[0, 0]), sums(a, a[0, 0]))

    def image_means(img):
        return img.mean(axis=(0, 1)), img.std(axis=2)
    img = rng.random((40, 50, 3))
    assert_same(jit(image_means)(img), image_means(img))

    def view(b):
        return b[::2].sum(axis=(0, 1))
    b = rng.standard_normal((4, 3, 2))
    assert_same(jit(view, fallback=False)(b), view(b))      # (test_cpu_strided_axes)
    with pytest.raises(ValueError, match="zero-size array"):
        jit(float_axes)(np.ones((2, 0, 3)))


def axes_of_expressions(a, c):
    return (np.sum(np.sqrt(np.abs(a ** 2)) - a, axis=(0, 1)), (a * a + c).mean(axis=(0, 2)),
            np.max(a * 2.0 - c, axis=(1, 2)),
            np.sum(np.where(a > c, a, c * a), axis=(0, 2), keepdims=True),
            np.prod(a * 0.01 + 1.0, axis=(0, 1)))


# (float64: float32 runs the same code at another width -- its expressions over
# a tuple of axes are in test_float_tuple_axes_of_long_runs_and_expressions)
@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=3, max_size=3), st.sampled_from(["f8"]),
       st.integers(0, 2**32 - 1))
def test_tuple_axes_of_expressions_in_any_layout(shape, dtype, seed):
    """An expression of one array of any strides (F, reversed, stepped,
    transposed) with a broadcast row, over a tuple of axes: NumPy's temporary
    is contiguous in its iterator's order of the axes, strides positive, and
    the reduction follows NumPy's iterator over it -- bit for bit.  (These fell
    back before; two arrays whose orders may differ still do, with the
    reason.)"""
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 2.0 ** rng.integers(-8, 20, shape)).astype(dtype)
    views = (np.asfortranarray(x), x[::-1], x[:, ::-1, ::2],
             x.transpose(1, 0, 2).copy().transpose(1, 0, 2),
             x.transpose(2, 0, 1).copy().transpose(1, 2, 0), np.asfortranarray(x)[::2, :, ::-1])
    for v in views:
        c = rng.standard_normal(v.shape[-1]).astype(dtype)
        with np.errstate(all="ignore"):
            assert_same(jitted(axes_of_expressions, fallback=False)(v, c),
                        axes_of_expressions(v, c))


def test_tuple_axes_of_two_arrays_in_other_orders_fall_back():
    def f(a, b):
        return np.sum(a * b, axis=(0, 1))
    a = np.asfortranarray(np.arange(60.0).reshape(3, 4, 5))
    assert_same(jit(f, fallback=False)(a, a + 1.0), f(a, a + 1.0))     # both F: compiled
    with pytest.warns(HanaJitFallbackWarning, match="may be in different memory orders"):
        assert_same(jit(f)(a[::-1], a[::-1]), f(a[::-1], a[::-1]))


def trailing(a):
    return (a.max(axis=(1, 2)), a.sum(axis=(-1, -2)), a.mean(axis=(1, 2), keepdims=True),
            np.prod(a, axis=(2, 1)), np.min(a, axis=(1, 2), keepdims=True))


@settings(max_examples=36, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=3, max_size=3), st.sampled_from(["f8", "f4"]),
       st.integers(0, 2**32 - 1), st.sampled_from([0, 1, 2]))
def test_trailing_axes_are_one_merged_axis(shape, dtype, seed, special):
    """Over the last axes of a C-ordered array NumPy's iterator merges them:
    the reduction is the one along the last axis of the merged view
    (``axis_reduce.trailing_axes``), bit for bit, empty axes and signed zeros
    included; the general helper of several axes is not called."""
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(shape) * 10.0).astype(dtype)
    if special == 1:
        a[a < 0.3] = -0.0
    elif special == 2:
        a[a > 1.0] = np.nan
    f = jitted(trailing)
    if 0 in shape[1:]:
        with pytest.raises(ValueError, match="zero-size array"):
            trailing(a)
        with pytest.raises(ValueError, match="zero-size array"):
            f(a)
        return
    assert_same(f(a), trailing(a))
    key = (argtypeof(a),)       # (the module of each specialisation: built once)
    if key not in _TRAILING_CHECKED:
        _TRAILING_CHECKED.add(key)
        assert not any("reduce_axes" in name for name in f.ir_module(key).functions)


_TRAILING_CHECKED: set = set()
