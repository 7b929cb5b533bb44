"""``dtype=`` of ``np.sum``/``np.prod``/``np.mean`` (and the methods) is NumPy's
bit for bit (``lib/arrays/reduce_dtype.py``): the values cast unsafely to the
dtype, a float sum of another dtype buffer by buffer (8192 items, each
pairwise) over a whole 1-D or C-contiguous array and along the contiguous axis
of a 2-D C or F array, in index order across it; integer sums wrap; the mean
divided in float64 and converted to the dtype (integers truncated).  NumPy's
mean of integer arrays is its mean with ``dtype=float64``: the same path.  What
is not reproduced falls back with its reason."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hanajit import jit
from hanajit.errors import UnsupportedError

SIZES = [1, 7, 100, 8191, 8192, 8193, 3 * 8192 + 5]
INPUTS = [np.int8, np.uint8, np.int32, np.int64, np.float32, np.float64, np.bool_]


def whole(a):
    return (a.sum(dtype=np.int64), np.sum(a, dtype=np.uint64), np.sum(a, dtype=np.float32),
            a.sum(dtype=np.float64), np.mean(a, dtype=np.float32), a.mean(dtype=np.float64),
            np.mean(a, dtype=np.int64), np.mean(a),
            np.prod(a[:40], dtype=np.float64))      # (more only under/overflow)


JIT_WHOLE = jit(whole, fallback=False)


def _values(dtype, shape, rng):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
    return (rng.standard_normal(shape) * 1000).astype(dtype)


def _same(got, want):
    return (type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
            and np.shape(got) == np.shape(want)
            and np.asarray(got).tobytes() == np.asarray(want).tobytes())


def _check(f, jf, a):
    with np.errstate(all="ignore"):
        want = f(a)
        got = jf(a)
    if isinstance(want, tuple):
        assert type(got) is tuple and len(got) == len(want)
        for k, (g, w) in enumerate(zip(got, want)):
            assert _same(g, w), (f.__name__, k, a.dtype, a.shape, a.strides, g, w)
    else:
        assert _same(got, want), (f.__name__, a.dtype, a.shape, a.strides, got, want)


@pytest.mark.parametrize("dtype", INPUTS)
def test_whole_array_reductions_with_a_dtype_are_numpys(dtype):
    """Every dtype= of every input dtype, sizes around the buffer's, 1-D views of
    any stride (reversed too) and a C-contiguous 2-D array as a whole (of two
    input dtypes: a compilation each)."""
    rng = np.random.default_rng(abs(hash(np.dtype(dtype).name)) % 1000)
    for n in SIZES:
        a = _values(dtype, n, rng)
        views = [a, a[::-1], a[::3]]
        if (n % 7 == 0 or n == 8192) and dtype in (np.int8, np.float32):
            views.append(a.reshape(-1, 8 if n == 8192 else 7))
        for v in views:
            _check(whole, JIT_WHOLE, v)


def along(a):
    return (a.sum(1, np.float64), np.mean(a, axis=0, dtype=np.float32, keepdims=True),
            a.sum(axis=(0, 1), dtype=np.int64), np.mean(a, axis=-1, dtype=np.int32),
            # a product along an axis of any layout multiplies in index order
            np.prod(a[:, :30], axis=1, dtype=np.float32),
            np.prod(a[::-1, :30:2], axis=1, dtype=np.float32))


JIT_ALONG = jit(along, fallback=False)


@pytest.mark.parametrize("dtype", [np.int8, np.float32])
def test_axis_reductions_with_a_dtype_are_numpys(dtype):
    """Along either axis of C and F arrays: lanes along the contiguous axis
    buffered, across it in index order, one lane alone a 1-D sum.  (An integer
    mean of an empty axis re-runs the function in the interpreter.)"""
    rng = np.random.default_rng(3)
    for shape in [(3, 5), (1, 9000), (9000, 1), (7, 300), (300, 7), (3, 8193), (8193, 3),
                  (2, 20000), (0, 4)]:
        a = _values(dtype, shape, rng)
        for v in (a, np.asfortranarray(a)):
            _check(along, JIT_ALONG, v)


def along_3d(x):
    return (np.sum(x, axis=0, dtype=np.float32), np.sum(x, axis=1, dtype=np.float32),
            np.mean(x, axis=2, dtype=np.float32), np.mean(x, axis=-2, dtype=np.float32,
                                                          keepdims=True), np.mean(x, axis=1))


def test_axis_reductions_of_3d_arrays_are_numpys(dtype=np.float64):
    """Lanes along the innermost axis (the last of C, the first of F, or one
    whose inner axes all have length 1) buffered; along the others each result
    in index order."""
    rng = np.random.default_rng(2)
    jf = jit(along_3d, fallback=False)
    for shape in [(3, 4, 500), (500, 3, 4), (2, 9000, 1), (1, 9000, 2), (4, 1, 9000),
                  (9000, 1, 2), (0, 3, 2)]:
        a = (rng.standard_normal(shape) * 1000).astype(dtype)
        for x in (a, np.asfortranarray(a)):
            _check(along_3d, jf, x)


F32 = np.dtype(np.float32)


def spellings(ints, floats):
    return (np.sum(ints, dtype=float), np.sum(floats, dtype=int), np.mean(ints, dtype="f4"),
            np.sum(floats, dtype=F32), np.sum(ints, dtype=None), np.sum(ints, None, np.uint64),
            floats.sum(dtype=np.int8), ints.sum(dtype=np.int8))


def test_dtype_spellings_and_unsafe_casts():
    """Python types, codes, dtype objects, None and the third positional argument;
    a float array summed as int8 truncates each value and wraps (NumPy's
    unsafe cast)."""
    rng = np.random.default_rng(4)
    ints = rng.integers(-100, 100, 1000).astype(np.int8)
    floats = rng.standard_normal(10000) * 300
    got, want = jit(spellings, fallback=False)(ints, floats), spellings(ints, floats)
    for k, (g, w) in enumerate(zip(got, want)):
        assert _same(g, w), (k, g, w)


def expressions(a, b, row):
    return np.sum(a * b, dtype=np.float64), np.mean(a + row, dtype=np.float32)


def test_expressions_with_a_dtype_are_numpys():
    """NumPy sums the expression's temporary through its buffer: the same
    values cast on the fly (1-D and C-contiguous 2-D, a broadcast row too)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal(10000).astype(np.float32)
    m = rng.standard_normal((100, 300)).astype(np.float32)
    row = rng.standard_normal(300)
    jf = jit(expressions, fallback=False)
    for args in [(x, x[::-1], x), (m, m, row)]:
        with np.errstate(all="ignore"):
            got, want = jf(*args), expressions(*args)
        for k, (g, w) in enumerate(zip(got, want)):
            assert _same(g, w), (k, g, w)


def float_whole(a):
    return np.sum(a, dtype=np.float64)


def transposed_whole(a):
    return np.mean(a.T, dtype=np.float64)


def float_along1(a):
    return np.sum(a, axis=1, dtype=np.float64)


def float_over_both(a):
    return np.sum(a, axis=(0, 1), dtype=np.float64)


def complex_dtype(a):
    return np.sum(a, dtype=np.complex128)


def bool_dtype(a):
    return np.sum(a, dtype=np.bool_)


def half_dtype(a):
    return np.sum(a, dtype=np.float16)


def swapped(a):
    return np.sum(a, dtype=">f8")


def real_of_complex(a):
    return np.sum(a, dtype=np.float32)


M = np.arange(20, dtype=np.float32).reshape(4, 5) / 3


def f_whole(a, b):
    return (np.sum(a, dtype=np.float32), a.mean(dtype=np.float64), np.prod(b, dtype=np.float32),
            np.prod(b), np.sum(a, dtype=np.int32),
            np.sum(b, axis=(1, 0), dtype=np.float64, keepdims=True))     # (every axis)


def test_f_ordered_arrays_as_a_whole_are_reduced_in_memory_order():
    """NumPy sums and multiplies an F-ordered array as a whole in memory order
    (a product without dtype= too), 2-D and 3-D."""
    rng = np.random.default_rng(6)
    jf = jit(f_whole, fallback=False)
    for shape in [(3, 5), (100, 300), (2, 9000), (20, 30, 40)]:
        a = np.asfortranarray(rng.standard_normal(shape) * 1000)
        b = np.asfortranarray(rng.uniform(0.5, 1.5, shape[:2]).astype(np.float32))
        got, want = jf(a, b), f_whole(a, b)
        for k, (g, w) in enumerate(zip(got, want)):
            assert _same(g, w), (shape, k, g, w)


def expression_order(a, b):
    return np.sum(a * b, dtype=np.float32), np.mean(a + b, axis=0, dtype=np.float32)


def test_an_expression_of_f_ordered_operands_is_left_to_the_interpreter():
    """NumPy's temporary of F-ordered operands is F-ordered (hanajit's is C):
    the compiled code reads the cast values in C order only when some operand
    is C-contiguous of the result's shape, and re-runs the call otherwise."""
    rng = np.random.default_rng(7)
    f = np.asfortranarray(rng.standard_normal((300, 70)) * 100)
    c = np.ascontiguousarray(f)
    row = rng.standard_normal(70)
    jf = jit(expression_order, fallback=False)
    for args in [(f, f), (c, f), (f, row), (c, row[::-1])]:
        got, want = jf(*args), expression_order(*args)
        for k, (g, w) in enumerate(zip(got, want)):
            assert _same(g, w), (k, g, w)


@pytest.mark.parametrize("f, a, reason", [
    (float_whole, M[::2, ::2], "as a whole of an array that is not C-contiguous"),
    (transposed_whole, M, "nor an F-ordered variable"),
    (float_along1, M[::2, ::2], "along an axis of a 2-D array that is not C- or F-contig"),
    (float_along1, M.reshape(2, 2, 5)[:, :, ::2], "along an axis of a 3-D array that is not"),
    (float_over_both, M.reshape(2, 2, 5), "over a tuple of axes"),
    (complex_dtype, M, "complex, bool and float16 reductions are not compiled"),
    (bool_dtype, M, "complex, bool and float16"),
    (half_dtype, M, "complex, bool and float16"),
    (swapped, M, "non-native byte order"),
    (real_of_complex, M.astype(np.complex64), "drops the imaginary parts"),
])
def test_what_is_not_reproduced_falls_back_with_its_reason(f, a, reason):
    with pytest.raises(UnsupportedError, match=reason):
        jit(f, fallback=False)(a)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            want = f(a)
        except TypeError as e:          # (NumPy refuses a swapped byte order)
            with pytest.raises(TypeError, match=str(e)[:20]):
                jit(f)(a)
            return
        assert _same(jit(f)(a), want)


def mean_i64(a):
    return np.mean(a, dtype=np.int64)


def test_an_integer_mean_of_nothing_is_left_to_the_interpreter():
    """NumPy warns and converts a NaN to the integer dtype: the compiled code
    re-runs the call in the interpreter, which does exactly that."""
    jf = jit(mean_i64, fallback=False)
    for a in (np.zeros(0, np.int64), np.zeros((0, 3))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert _same(jf(a), mean_i64(a))
