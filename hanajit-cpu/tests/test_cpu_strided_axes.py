"""Float reductions over a tuple of axes of arrays of any strides (sliced,
transposed, reversed, broadcast views): NumPy's iterator order, merging and
buffering (``statistics/axes_lanes.reduce_strided``), bit for bit."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import assert_same_bits
from hanajit.testing.jitted import jitted


AXES = [(0, 1), (-2, -1), (0, -1), (1, -1), (0, 2), (0, 1, -1), (1, 2, 3), (0, 1, 2, 3)]


def _sums(axes):
    def sums(x):
        return x.sum(axis=axes), np.mean(x, axis=axes), x.prod(axis=axes)
    return sums


def _extremes(axes):
    def extremes(x):
        return x.max(axis=axes), np.min(x, axis=axes, keepdims=True)
    return extremes


def _kept(axes):
    def kept_sum(x):
        return np.sum(x, axis=axes, keepdims=True)
    return kept_sum


SUMS = {a: _sums(a) for a in AXES}
EXTREMES = {a: _extremes(a) for a in AXES}
KEPT = {a: _kept(a) for a in AXES}


def check(table, x, axes):
    f = table[axes]
    assert_same_bits(jitted(f, fallback=False)(x), f(x))


def view(rng, nd, values, big=False):
    shape = tuple(int(k) for k in rng.integers(1, 7, nd))
    if big:
        k = int(rng.integers(0, nd))
        shape = shape[:k] + (int(rng.integers(100, 3000)),) + shape[k + 1:]
    base = values(tuple(2 * k for k in shape))
    x = base[tuple(slice(None, None, int(rng.choice([1, 2, -1, -2]))) for _ in range(nd))]
    x = x[tuple(slice(0, k) for k in shape)] if rng.random() < 0.5 else x
    x = x.transpose(rng.permutation(nd))
    if rng.random() < 0.15:
        x = np.broadcast_to(x[:1], (3,) + x.shape[1:])
    return x


def axes_of(rng, nd):
    fits = [a for a in AXES
            if max(a) < nd and len({k % nd for k in a}) == len(a)]
    return fits[int(rng.integers(0, len(fits)))]


# (each example is a new kernel, a compile: (axes, dimensions, dtype, layout); it
# checks two random views of its kind, whose strides and sizes run the paths)
@settings(max_examples=30, deadline=None)
@given(st.integers(2, 5), st.sampled_from([np.float64, np.float32]), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_sums_match_numpy(nd, dtype, big, seed):
    rng = np.random.default_rng(seed)
    axes = axes_of(rng, nd)
    for _ in range(2):
        x = view(rng, nd, lambda s: rng.standard_normal(s).astype(dtype), big)
        check(SUMS, x, axes)
        check(KEPT, x, axes)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4), st.sampled_from([np.float64, np.float32]),
       st.integers(0, 2**32 - 1))
def test_extremes_match_numpy(nd, dtype, seed):
    """Zeros of both signs, infinities and NaN: NumPy's picks."""
    rng = np.random.default_rng(seed)
    pool = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan], dtype)
    axes = axes_of(rng, nd)
    for _ in range(2):
        p = np.array([3, 3, 1, 1, 0.5, 0.5, 0.1 if rng.random() < 0.5 else 0.0])
        x = view(rng, nd, lambda s: rng.choice(pool, s, p=p / p.sum()))
        check(EXTREMES, x, axes)


def test_buffered_cores_and_long_runs():
    """Reduced axes that do not merge (a step of 2 over a reversed axis): NumPy
    buffers them, up to 8192 items a fill; runs longer than a pairwise leaf."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal((7, 300, 90))
    for x, axes in ((a[:, ::2, ::-1], (-2, -1)), (a[::-1, :, ::3], (0, 2)),
                    (a.transpose(2, 0, 1)[::2], (0, -1)), (a[:, ::-2], (0, 1, -1)),
                    (a[1:, 5:, ::2].transpose(1, 2, 0), (0, 1))):
        check(SUMS, x, axes)


def test_empty_axes():
    x = np.zeros((3, 0, 4))[:, :, ::2]
    check(SUMS, x, (-2, -1))
    check(SUMS, x, (0, 2))
    with pytest.raises(ValueError):
        jit(EXTREMES[(-2, -1)], fallback=False)(x)


@settings(max_examples=90, deadline=None)
@given(st.sampled_from([(0, 2), (0, 1), (0, -1)]), st.sampled_from(["C", "F", "view"]),
       st.integers(0, 2**32 - 1))
def test_zero_picks_of_later_runs(axes, layout, seed):
    """Zeros of both signs where an element's value so far meets a later run:
    NumPy's vector loop starts its lanes from that value, so the zero kept is
    that of ``np.max([value] + run)``, not of ``np.max(run)`` put with it
    (C- and F-ordered arrays, and views)."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(k) for k in rng.integers(1, 20, 3))
    x = rng.choice(np.array([0.0, -0.0, -1.0, 1.0]), shape, p=[0.4, 0.4, 0.1, 0.1])
    if layout == "F":
        x = np.asfortranarray(x)
    elif layout == "view":
        x = x[:, ::-1, ::2]
    check(EXTREMES, x, axes)
