"""Advanced indexing of N-D arrays (integer arrays, boolean masks, mixed with
integers and slices) on the CPU target, checked against NumPy running the same
function.  Every compiled call has ``fallback=False``: the compiled path runs."""
import gc
import resource

import hanajit
import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted
from hanajit.testing.compare import check_on_copies
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning")


def compiled(fn):
    return jitted(fn, fallback=False)


def check(fn, *args):
    """Compiled vs interpreted on copies: results, exception types and the
    arguments' contents afterwards must agree."""
    check_on_copies(fn, compiled(fn), args, same)


def same(got, exp):
    if isinstance(exp, tuple):
        assert isinstance(got, tuple) and len(got) == len(exp)
        for g, e in zip(got, exp):
            same(g, e)
    elif isinstance(exp, np.ndarray):
        assert isinstance(got, np.ndarray)
        assert got.shape == exp.shape and got.dtype == exp.dtype, (got, exp)
        np.testing.assert_array_equal(got, exp)
    else:
        assert got == exp


# ------------------------------------------------------------------ kernels
def rows(m, i):
    return m[i]


def rows_slice(m, i):
    return m[i, :]


def rows_col(m, i, j):
    return m[i, j]


def row_cols(m, j, i):
    return m[j, i]


def cols(m, i):
    return m[:, i]


def pairs(m, i, j):
    return m[i, j]


def cols_stepped(m, i):
    return m[::-2, i]


def set_rows(m, i, v):
    m[i] = v


def set_rows_col(m, i, j, v):
    m[i, j] = v


def set_cols(m, i, v):
    m[:, i] = v


def set_pairs(m, i, j, v):
    m[i, j] = v


def add_rows(m, i, v):
    m[i] += v


def add_pairs(m, i, j, v):
    m[i, j] += v


def copy_rows(m, i, k):
    m[i] = m[k]


def set_from_reversed(m, i):
    m[i] = m[::-1][:4]


def mixed_3d(a, i):
    return a[i, :, 0], a[0, :, i], a[:, i, 1:], a[i, ..., 0], a[..., i]


def with_newaxis(m, i):
    return m[i, None], m[None, i], m[i, None, i], m[:, None, i], m[i, ..., None]


def set_with_newaxis(m, i, v):
    m[None, i] = v
    m[i, None, 0] += 1


def rowmask(m, r):
    return m[r]


def rowmask_slice(m, r):
    return m[r, 1:]


def colmask(m, c):
    return m[:, c]


def set_rowmask(m, r, v):
    m[r] = v


def positive(m):
    return m[m > 0]


def zero_mask(m):
    m[m > 0] = 0
    return m


def set_mask_values(m, v):
    m[m > 0] = v


def sum_of_gather(m, i):
    return np.sum(m[i] * 2)


# -------------------------------------------------------------- strategies
INDEX_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.int64]
VALUE_DTYPES = [np.float64, np.int64, np.float32, np.int16, np.complex128, np.bool_]


def _values(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-50, 50, size=shape)
    if np.dtype(dtype).kind == "c":
        return (a + 1j * rng.integers(-5, 5, size=shape)).astype(dtype)
    return a.astype(dtype)


@st.composite
def matrices(draw, ndim=2):
    """An array of ``ndim`` axes (0..5 long), possibly a strided or reversed view."""
    shape = tuple(draw(st.integers(0, 5)) for _ in range(ndim))
    dtype = draw(st.sampled_from(VALUE_DTYPES))
    view = draw(st.sampled_from(["c", "rev", "step", "T", "f"]))
    seed = draw(st.integers(0, 2**16))
    if view == "step":
        base = _values(tuple(2 * s for s in shape), dtype, seed)
        return base[(slice(None, None, 2),) * ndim]
    if view == "rev":
        return _values(shape, dtype, seed)[::-1]
    if view == "T":
        return _values(shape[::-1], dtype, seed).T
    if view == "f":
        return np.asfortranarray(_values(shape, dtype, seed))
    return _values(shape, dtype, seed)


def index_arrays(length, shape=None, oob=True):
    """Integer index arrays for an axis of ``length`` (negatives, duplicates, now
    and then one out of range), any integer dtype, 1-D or 2-D."""
    lo, hi = -length, length - 1
    if oob:
        lo, hi = lo - 1, hi + 1
    shapes = st.just(shape) if shape is not None else st.one_of(
        st.tuples(st.integers(0, 6)), st.tuples(st.integers(0, 3), st.integers(0, 3)))

    def build(args):
        dt, shp, vals = args
        a = np.array(vals[: int(np.prod(shp))] + [0] * int(np.prod(shp)), dtype=np.int64)
        a = a[: int(np.prod(shp))].reshape(shp)
        if np.dtype(dt).kind == "u":
            a = np.where(a < 0, -a - 1, a)
        if np.dtype(dt).itemsize == 1:
            a = np.clip(a, -100, 100)
        return a.astype(dt)
    return st.tuples(st.sampled_from(INDEX_DTYPES), shapes,
                     st.lists(st.integers(lo, hi) if hi >= lo else st.just(0),
                              max_size=12)).map(build)


SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ gathers
@SETTINGS
@given(st.data())
def test_gather_rows_and_columns(data):
    m = data.draw(matrices())
    i = data.draw(index_arrays(m.shape[0]))
    check(rows, m, i)
    check(rows, m, i[::-1])                 # strided / transposed index arrays
    check(rows, m, i.T[..., ::2])
    check(with_newaxis, m, i)
    check(set_with_newaxis, m if m.dtype != np.bool_ else m.astype(np.int8), i,
          _values(m.shape[1:], m.dtype if m.dtype != np.bool_ else np.int8, 8))
    check(rows_slice, m, i)
    c = data.draw(index_arrays(m.shape[1]))
    check(cols, m, c)
    check(cols_stepped, m, c)
    j = data.draw(st.integers(-m.shape[1] - 1, m.shape[1]))
    check(rows_col, m, i, j)
    r = data.draw(st.integers(-m.shape[0] - 1, m.shape[0]))
    check(row_cols, m, r, c)


@SETTINGS
@given(st.data())
def test_gather_paired_and_broadcast(data):
    m = data.draw(matrices())
    shape = data.draw(st.sampled_from([(3,), (2, 1), (1, 3), (0,), (2, 3)]))
    i = data.draw(index_arrays(m.shape[0], shape))
    j = data.draw(index_arrays(m.shape[1], data.draw(st.sampled_from(
        [shape, (1,), (3,), (4,)]))))
    check(pairs, m, i, j)


@SETTINGS
@given(st.data())
def test_gather_3d_mixed(data):
    a = data.draw(matrices(3))
    if a.shape[1] == 0 or a.shape[2] == 0 or a.shape[0] == 0:
        a = np.arange(24.0).reshape(2, 3, 4)
    n = min(a.shape)
    i = data.draw(index_arrays(n, oob=False))
    check(mixed_3d, a, i)


def test_gather_examples():
    m = np.arange(12.0).reshape(3, 4)
    check(rows, m, np.array([2, 0, -1, 0]))
    check(rows, m, np.array([[0, 1], [2, 2]]))
    check(rows, m, np.array([], dtype=np.int64))
    check(rows, m, np.array([3]))                       # IndexError
    check(rows, m, np.array([-4]))
    check(pairs, m, np.array([0, 1]), np.array([0, 1, 2]))    # IndexError: broadcast
    check(pairs, m, np.zeros((0, 1), np.int64), np.array([9, 1]))   # empty: unchecked
    check(rows, np.zeros((3, 0)), np.array([5]))        # IndexError though empty
    check(rows_col, m, np.array([], np.int64), 7)       # the integer is checked
    check(rows, m, np.array([2**64 - 1], np.uint64))    # NumPy casts to intp: -1
    check(sum_of_gather, m, np.array([1, 1, 2]))
    check(rows, m.T, np.array([1, 3]))


# ------------------------------------------------------------------ scatters
@SETTINGS
@given(st.data())
def test_scatter_rows(data):
    m = data.draw(matrices())
    if m.dtype == np.bool_:
        m = m.astype(np.int32)
    i = data.draw(index_arrays(m.shape[0]))
    check(set_rows, m, i, 7)
    check(add_rows, m, i, 3)
    v = _values(i.shape + m.shape[1:], m.dtype, 1)
    check(set_rows, m, i, v)
    check(set_rows, m, i, v[..., :1])                   # broadcast along the row
    check(add_rows, m, i, v)
    j = data.draw(st.integers(-m.shape[1] - 1, m.shape[1]))
    check(set_rows_col, m, i, j, _values(i.shape, m.dtype, 2))
    c = data.draw(index_arrays(m.shape[1]))
    check(set_cols, m, c, _values(m.shape[:1] + c.shape, m.dtype, 3))


@SETTINGS
@given(st.data())
def test_scatter_pairs_and_aliasing(data):
    m = data.draw(matrices())
    if m.dtype == np.bool_:
        m = m.astype(np.int8)
    i = data.draw(index_arrays(m.shape[0], (4,)))
    j = data.draw(index_arrays(m.shape[1], (4,)))
    check(set_pairs, m, i, j, _values((4,), m.dtype, 4))
    check(add_pairs, m, i, j, _values((4,), m.dtype, 5))
    check(add_pairs, m, i, j, 1)
    k = data.draw(index_arrays(m.shape[0], (4,), oob=False))
    check(copy_rows, m, i, k)
    check(set_pairs, m, i[::-1], j[::2], _values((2,), m.dtype, 7))
    check(set_from_reversed, m, i)


def test_scatter_examples():
    m = np.arange(12.0).reshape(3, 4)
    dup = np.array([0, 0, 2, 0])
    check(set_rows, m, dup, np.arange(16.0).reshape(4, 4))     # last write wins
    check(add_rows, m, dup, 1.0)                               # applied once
    check(set_rows, m, np.array([], np.int64), 5.0)
    check(set_rows, m, np.array([0, 1]), np.ones((1, 1, 4)))   # leading 1-axes
    check(set_rows, m, np.array([0, 1]), np.ones((3, 4)))      # ValueError
    check(set_rows, m, np.array([0, 3]), 1.0)                  # IndexError
    check(set_pairs, m, np.array([[0], [2]]), np.array([1, 3]), np.array([[1.0, 2.0]]))
    check(copy_rows, m, np.array([0, 1, 2]), np.array([2, 1, 0]))
    check(set_rows, np.arange(5), np.array([0, 1]), np.array([1.7, -2.9]))  # casts


# ------------------------------------------------------------------ masks
@SETTINGS
@given(st.data())
def test_masks_nd(data):
    m = data.draw(matrices())
    r = np.array(data.draw(st.lists(st.booleans(), min_size=m.shape[0],
                                    max_size=m.shape[0])), dtype=bool)
    c = np.array(data.draw(st.lists(st.booleans(), min_size=m.shape[1],
                                    max_size=m.shape[1])), dtype=bool)
    check(rowmask, m, r)
    check(rowmask_slice, m, r)
    check(colmask, m, c)
    if m.dtype.kind not in "bc":
        check(positive, m)
        check(zero_mask, m)
        check(set_rowmask, m, r, 5)
        check(set_rowmask, m, r, _values((int(r.sum()),) + m.shape[1:], m.dtype, 6))


def test_mask_errors():
    m = np.arange(12.0).reshape(3, 4) - 5
    check(rowmask, m, np.array([True, False]))                 # IndexError
    check(colmask, m, np.array([True, False, True]))           # IndexError
    check(set_rowmask, m, np.array([True, False, True]), np.ones(3))   # ValueError
    check(set_mask_values, m, np.arange(7.0))                  # count matches
    check(set_mask_values, m, np.arange(3.0))                  # ValueError
    check(set_mask_values, m, np.arange(1.0))                  # one value repeats


def self_indexed(a):
    a[a] = 0
    return a


def index_view_of_target(a):
    a[a[::-1]] = 7
    return a


def index_view_add(a):
    a[a[1:]] += a[:-1]
    return a


def value_view_of_target(m, i):
    m[i] = m[1:][: len(i)]
    return m


def test_index_aliasing_the_array():
    check(self_indexed, np.array([3, 0, 1, 2, 2]))


@SETTINGS
@given(st.lists(st.integers(-6, 5), min_size=6, max_size=6))
def test_indices_and_values_sharing_the_target(vals):
    a = np.array(vals, dtype=np.int64)
    check(self_indexed, a)
    check(index_view_of_target, a)
    check(index_view_add, a)
    m = np.arange(24.0).reshape(6, 4)
    check(value_view_of_target, m, np.abs(a[:4]) % 6)


# ------------------------------------------------------------------ fallback
def bool_scalar_with_array(m, i):
    return m[i, True]


def test_unsupported_form_falls_back_with_its_name():
    f = jit(bool_scalar_with_array)
    m = np.arange(6.0).reshape(2, 3)
    with pytest.warns(hanajit.HanaJitFallbackWarning, match="boolean scalar"):
        got = f(m, np.array([1, 0]))
    np.testing.assert_array_equal(got, m[np.array([1, 0]), True])


# ------------------------------------------------------------------ memory
def churn(m, i, j, v):
    m[i] = v
    m[i, j] += 1.0
    m[m[:, 0] > 2.0, 1:] = 0.5
    return m[i, 1:].sum() + m[:, j].sum()


def test_temporaries_are_freed():
    f = compiled(churn)
    m = np.random.default_rng(0).random((400, 400)) * 4
    i, j, v = np.arange(0, 400, 2), np.arange(200), np.ones(400)
    f(m, i, j, v)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(2000):        # ~3 MB of temporaries per call
        f(m, i, j, v)
    gc.collect()
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert grown_mb < 50


# ------------------------------------------- gathers with their index reads hoisted
def mid_gather(t, i):
    return t[:, i]            # advanced axis after a basic one


def gather_then_use(m, i):
    g = m[i]
    return g.sum(axis=1)


@pytest.mark.parametrize("fn,args", [
    (rows, (np.arange(12.0).reshape(4, 3), np.array([3, -1, 0, 0]))),
    (rows, (np.asfortranarray(np.arange(12.0).reshape(4, 3)), np.array([2, 1]))),
    (rows, (np.arange(24.0).reshape(4, 3, 2)[::-1, :, ::2], np.array([0, -4, 3]))),
    (rows, (np.zeros((4, 0)), np.array([1, 9]))),          # empty rows, bad index
    (rows, (np.zeros((4, 0)), np.array([1, 3]))),
    (rows, (np.arange(12.0).reshape(4, 3), np.array([1, 4]))),
    (rows, (np.arange(12.0).reshape(4, 3), np.array([], dtype=np.int64))),
    (rows, (np.arange(12).reshape(4, 3), np.array([[1, 2], [0, -1]]))),
    (mid_gather, (np.arange(24).reshape(2, 4, 3), np.array([3, 0, -2]))),
    (mid_gather, (np.arange(24).reshape(2, 4, 3), np.array([4]))),
    (gather_then_use, (np.arange(12.0).reshape(4, 3), np.array([3, 3, 1]))),
])
def test_hoisted_gather_matches_numpy(fn, args):
    check(fn, *args)


def ellipsis_between(t, i, mask):
    return t[:, i, ..., mask]


def ellipsis_between_store(t, i, mask):
    t[:, i, ..., mask] = np.array([[5.0, 6.0]])
    return t


def test_ellipsis_between_advanced_indices_separates_them():
    # the ... stands for no axis of a 3-D array here, yet NumPy treats the
    # advanced indices as separated: their broadcast axis comes first
    t = np.arange(24.0).reshape(2, 3, 4)
    mask = np.array([False, False, False, True])
    check(ellipsis_between, t, 2, mask)
    check(ellipsis_between_store, t, 2, mask)
