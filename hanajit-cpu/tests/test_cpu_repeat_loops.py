"""``np.repeat`` with a scalar count, looped over its source (``Lazy.split``):
every form checked against NumPy running the same function, alone and inside
the expressions that keep the split loops or fall back to dividing the index.
Every compiled call has ``fallback=False``."""
import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.compare import check_on_copies
from hanajit.testing.jitted import jitted
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")


def same(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e)
        return
    if isinstance(exp, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == exp.shape and got.dtype == exp.dtype, (got, exp)
        np.testing.assert_array_equal(got, exp)
        return
    assert got == exp and type(got) is type(exp), (got, exp)


def check(fn, *args):
    check_on_copies(fn, jitted(fn, fallback=False), args, same)


def flat(a, k):
    return np.repeat(a, k)


def along(a, k):
    return np.repeat(a, k, axis=0), np.repeat(a, k, axis=-1), np.repeat(a, repeats=k)


def second(a, k):
    return np.repeat(a, k, axis=1)


def upsample(x, k):
    return np.repeat(x, k) / k


def rows_plus(a, k, row):
    return np.repeat(a, k, axis=0) + row, np.repeat(a, k, axis=1) * 2


def plus_same_length(x, k, y):
    return np.repeat(x, k) + y            # the axes meet: the index is divided


def summed(x, k):
    return np.sum(np.repeat(x, k)), np.repeat(x, k).max()


def of_expression(a, k):
    return np.repeat(a * 2 + 1, k, axis=0), np.repeat(np.sqrt(np.abs(a)), k, axis=-1)


def nested(x):
    return np.repeat(np.repeat(x, 2), 3), np.repeat(np.repeat(x, 2, axis=0), 3, axis=0)


def into(out, x, k):
    out[:] = np.repeat(x, k)
    return out


SHAPES = [(0,), (1,), (7,), (3, 4), (2, 3, 4), (2, 0, 3), (1, 5)]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("k", [0, 1, 2, 5])
def test_repeat_forms(shape, k):
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) - 3.5
    check(flat, a, k)
    check(along, a, k)
    if a.ndim >= 2:
        check(second, a, k)
        check(along, a.T, k)                         # not contiguous
        check(second, a[..., ::2], k)
    else:
        check(along, a[::-2], k)


@pytest.mark.parametrize("dt", [np.int8, np.uint64, np.float32, np.bool_, np.complex128])
def test_repeat_dtypes(dt):
    a = (np.arange(12) % 5 - 2).astype(dt).reshape(3, 4)
    check(flat, a, 3)
    check(along, a, 2)
    check(flat, a, np.int64(2))                      # a NumPy integer count
    check(flat, a, True)


def test_repeat_counts_numpy_refuses():
    a = np.arange(6.0).reshape(2, 3)
    check(flat, a, -1)                               # ValueError as NumPy
    check(along, a, -2)
    check(flat, np.zeros(0), -1)                     # nothing to repeat: fine


@settings(max_examples=20, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=6),
                  elements=st.floats(-1e6, 1e6)), st.integers(0, 6))
def test_repeat_any_shape(a, k):
    check(flat, a, k)
    check(along, a, k)
    if a.ndim >= 2:
        check(second, a, k)


def test_repeat_inside_expressions():
    x = np.linspace(-1.0, 2.0, 11)
    a = np.arange(12.0).reshape(3, 4) - 5.0
    check(upsample, x, 4)
    check(upsample, x, 0)                            # an empty result, nothing divided
    check(rows_plus, a, 3, np.arange(4.0))
    check(rows_plus, a, 3, np.arange(3.0)[:, None].repeat(3, axis=0))
    check(plus_same_length, x, 2, np.arange(22.0))
    check(plus_same_length, x, 2, np.arange(21.0))   # ValueError: do not broadcast
    check(plus_same_length, x[:1], 1, np.arange(5.0))    # a length 1 broadcasts
    check(summed, x, 3)
    check(of_expression, a, 2)
    check(nested, x)
    check(nested, a)
    check(into, np.zeros(33), x, 3)


def test_repeat_loops_without_dividing():
    """Materialised, alone or in an elementwise expression, ``np.repeat`` stores
    each source element ``k`` times from a loop over the source: no element
    stored divides its index (a 64-bit division per element made
    ``np.repeat(x, 4)`` four times slower than NumPy's)."""
    x = np.linspace(0.0, 1.0, 100)
    for fn in (flat, upsample):
        f = jit(fn, fallback=False)
        f(x, 4)
        stores = [ln for ln in f.inspect_ir().splitlines() if ":=" in ln]
        assert stores and not [ln for ln in stores if "sdiv" in ln], stores
