"""Signed zeros in max/min against the interpreter: ``np.max``/``np.min`` (whole
array and along an axis), ``np.nanmax``/``np.nanmin``, the builtins ``max``/
``min``, and ``np.maximum``/``np.minimum``/``np.fmax``/``np.fmin`` on scalars and
arrays, float64 and float32, both orders.  ``np.argmax``/``np.argmin`` keep the
first extreme.

NumPy's contiguous reductions longer than one SIMD vector combine lanes in a
tree whose shape depends on the host's vector width, and its strided ones keep
eight accumulators (docs/semantics.md, "Signed zeros in max and min"): most
cases here are ones NumPy reduces in its scalar loop on any x86 host (two
contiguous elements, strided views of at most eight); the long ones follow the
loops with the width found on this host."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit.lib.arrays.zero_pick import simd_lanes
from hanajit.testing.jitted import jitted


def _bits(v):
    a = np.asarray(v)
    return a.dtype.kind, a.shape, np.signbit(a).tolist(), a.tolist()


def _same(got, want):
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        assert _bits(g)[1:] == _bits(w)[1:], (k, g, w)
        assert type(g) in (type(w), type(w.item() if isinstance(w, np.generic) else w)) or \
            isinstance(w, np.ndarray), (k, type(g), type(w))


def scalars(a):
    return (np.max(a), np.min(a), max(a[0], a[1]), min(a[0], a[1]),
            np.fmax(a[0], a[1]), np.fmin(a[0], a[1]), np.maximum(a[0], a[1]),
            np.minimum(a[0], a[1]), np.nanmax(a), np.nanmin(a), np.argmax(a),
            np.argmin(a), a.max(), a.min())


def elementwise(a, b):
    return np.maximum(a, b), np.minimum(a, b), np.fmax(a, b), np.fmin(a, b)


def along(m):
    return np.max(m, axis=0), np.min(m, axis=0), np.max(m, axis=1), np.min(m, axis=1)


def whole(a):
    return np.max(a), np.min(a), np.argmax(a), np.argmin(a)


DTYPES = [np.float64, np.float32]
PAIRS = [[0.0, -0.0], [-0.0, 0.0], [-0.0, -0.0], [0.0, 0.0]]


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("pair", PAIRS, ids=str)
def test_scalars_and_pairs(dt, pair):
    a = np.array(pair, dt)
    _same(jitted(scalars, fallback=False)(a), scalars(a))


def test_the_issue_example():
    # issue 22: np.max/np.min of [0.0, -0.0] are -0.0 (the later of equal values)
    a = np.array([0.0, -0.0])
    got = jitted(scalars, fallback=False)(a)
    assert [np.signbit(v) for v in got[:5]] == [True, True, False, False, False]
    b = np.array([-0.0, 0.0])
    got = jitted(scalars, fallback=False)(b)
    assert [np.signbit(v) for v in got[:5]] == [False, False, True, True, True]


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("pair", PAIRS, ids=str)
def test_elementwise(dt, pair):
    a = np.array(pair, dt)
    b = a[::-1].copy()
    got, want = jitted(elementwise, fallback=False)(a, b), elementwise(a, b)
    _same(got[:2], want[:2])            # np.maximum/np.minimum: the second, as NumPy
    # np.fmax/np.fmin of arrays: NumPy's zero depends on where an element falls in
    # its SIMD loop, which differs by host (AVX-512: +0.0 at some positions); the
    # documented rule is the first operand, with NumPy's values
    for g, w in zip(got[2:], want[2:]):
        assert g.tolist() == w.tolist()
        assert np.signbit(g).tolist() == np.signbit(a).tolist()


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: d.__name__)
@pytest.mark.parametrize("pair", PAIRS, ids=str)
def test_axis_reductions(dt, pair):
    m = np.array([pair, pair[::-1]], dt)
    _same(jitted(along, fallback=False)(m), along(m))
    _same(jitted(along, fallback=False)(m.T), along(m.T))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([0.0, -0.0, 1.0, -1.0]), min_size=1, max_size=8),
       st.sampled_from(DTYPES))
def test_strided_whole_reductions(values, dt):
    # a strided view: NumPy's scalar reduce loop (8-way unrolled from 9 elements)
    a = np.repeat(np.array(values, dt), 2)[::2]
    _same(jitted(whole, fallback=False)(a), whole(a))


@settings(max_examples=120, deadline=None)
@given(st.integers(1, 400), st.sampled_from(DTYPES), st.booleans(),
       st.sampled_from(["contiguous", "strided", "reversed", "2-D"]),
       st.integers(0, 2**32 - 1))
def test_long_arrays_follow_numpys_loops(n, dt, negatives, form, seed):
    # zeros among values on one side of them: the extreme is a zero, and which
    # one NumPy's lanes pick shows (minmax_algorithms; the width from
    # zero_pick.simd_lanes)
    if not simd_lanes(np.dtype(dt).name):
        pytest.skip("NumPy's reduce on this host is not the loop minmax_algorithms follows")
    rng = np.random.default_rng(seed)
    a = np.array(rng.choice([0.0, -0.0, -1.0 if negatives else 1.0], 2 * n), dt)
    x = {"contiguous": a[:n], "strided": a[::2], "reversed": a[::-1][:n],
         "2-D": a[: n - n % 2].reshape(2, -1) if n > 1 else a[:1]}[form]
    _same(jitted(whole, fallback=False)(x), whole(x))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6000), st.sampled_from(DTYPES), st.booleans(),
       st.sampled_from(["contiguous", "strided"]), st.integers(1, 6),
       st.integers(0, 2**32 - 1))
def test_few_zeros_in_long_arrays(n, dt, negatives, form, zeros, seed):
    # a few zeros of both signs among many values: most of NumPy's lanes hold
    # no zero, so the last zero of each lane is looked for far back
    # (minmax_algorithms.contiguous skips sixteen values at a time)
    if not simd_lanes(np.dtype(dt).name):
        pytest.skip("NumPy's reduce on this host is not the loop minmax_algorithms follows")
    rng = np.random.default_rng(seed)
    a = np.full(2 * n, -1.0 if negatives else 1.0, dt)
    at = rng.integers(0, 2 * n, zeros)
    a[at] = np.where(rng.random(zeros) < 0.5, 0.0, -0.0)
    x = a[:n] if form == "contiguous" else a[::2]
    _same(jitted(whole, fallback=False)(x), whole(x))


def _pick(p, q, big):
    """x86's ``maxsd``/``minsd``: the second operand of two equal values."""
    if p == q:
        return q
    if big:
        return p if p > q else q
    return p if p < q else q


def _numpy_contiguous(a, big, W, low_from):
    """NumPy's contiguous min/max loop (``loops_minmax``), step by step."""
    n = len(a)
    acc = [a[0]] * W
    i = 1
    while n - i >= 8 * W:
        for lane in range(W):
            v = [a[i + k * W + lane] for k in range(8)]
            tree = _pick(_pick(_pick(v[0], v[1], big), _pick(v[2], v[3], big), big),
                         _pick(_pick(v[4], v[5], big), _pick(v[6], v[7], big), big), big)
            acc[lane] = _pick(acc[lane], tree, big)
        i += 8 * W
    while n - i >= W:
        for lane in range(W):
            acc[lane] = _pick(acc[lane], a[i + lane], big)
        i += W
    h = W // 2
    while h >= 1:
        for lane in range(h):
            if h * a.itemsize >= low_from:
                acc[lane] = _pick(acc[lane + h], acc[lane], big)
            else:
                acc[lane] = _pick(acc[lane], acc[lane + h], big)
        h //= 2
    r = acc[0]
    for k in range(i, n):
        r = _pick(r, a[k], big)
    return r


def _numpy_strided(a, big):
    """NumPy's strided min/max loop: eight accumulators from the second value."""
    n = len(a)
    out = a[0]
    i = 1
    if n - 1 >= 8:
        m = [a[1 + j] for j in range(8)]
        i = 9
        while i + 8 <= n:
            m = [_pick(m[j], a[i + j], big) for j in range(8)]
            i += 8
        out = _pick(out, _pick(_pick(_pick(m[0], m[1], big), _pick(m[2], m[3], big), big),
                               _pick(_pick(m[4], m[5], big), _pick(m[6], m[7], big), big),
                               big), big)
    for k in range(i, n):
        out = _pick(out, a[k], big)
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 300), st.booleans(), st.sampled_from(DTYPES), st.integers(0, 2**32 - 1))
def test_last_zero_rule_is_numpys_loops(n, big, dt, seed):
    """``minmax_algorithms`` finds NumPy's zero as the last zero of each of
    its lanes (every other value loses every pick when the extreme is a zero);
    that is the zero NumPy's loops, followed step by step, return -- for every
    lane count and fold order, whatever the host's NumPy is."""
    from hanajit.lib.arrays import minmax_algorithms as hm
    rng = np.random.default_rng(seed)
    a = np.array(rng.choice([0.0, -0.0, -1.0 if big else 1.0], n,
                            p=rng.dirichlet([1.0, 1.0, 1.0])), dt)
    if not (a == 0).any():
        a[rng.integers(0, n)] = 0.0
    for W in (2, 4, 8, 16):
        for low_from in (16, 1 << 40):
            want = _numpy_contiguous(a, big, W, low_from)
            got = hm.contiguous(a, big, W, low_from)
            assert (got, np.signbit(got)) == (want, np.signbit(want)), (W, low_from)
    want = _numpy_strided(a, big)
    assert np.signbit(hm.strided(a, big)) == np.signbit(want)
