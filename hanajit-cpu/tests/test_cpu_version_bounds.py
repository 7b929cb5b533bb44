"""Loop versioning of index checks (passes/version_bounds.py): the unchecked copy
runs only when one test proves every affine index in bounds; otherwise the
checked nest gives Python's wrap-around and IndexError exactly."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.ir import nodes as N
from hanajit.passes.version_bounds import version_bounds
from hanajit.testing.jitted import jitted_for
from hanajit.testing.loop_kernels import conv3
from hypothesis import given, settings
from hypothesis import strategies as st


def shifted(x, lo, hi, d):
    """x[i + d] for i in range(lo, hi): in bounds, wrapping or raising."""
    t = 0
    for i in range(lo, hi):
        t += x[i + d] * (i + 1)
    return t


def stride2(x, n):
    t = 0
    for i in range(n):
        t += x[2 * i + 1] - x[n - i]
    return t


def previous_value(x):
    """``j`` is read before its assignment: the first read sees the value from
    before the loop (-1 wraps to the last element)."""
    j = -1
    t = 0
    for i in range(x.shape[0]):
        t += x[j]
        j = i
    return t


def reassigned(x):
    t = 0
    for i in range(x.shape[0]):
        j = i
        if x[i] > 0:
            j = i - 1
        t += x[j]
    return t


def triangle(m):
    t = 0.0
    for i in range(m.shape[0]):
        for j in range(i + 1):
            t += m[i, j] * (j + 1)
    return t


@jit
def edge(i, n):
    """``i`` clamped into ``0 .. n - 1`` (max of a min: the other nesting)."""
    return max(0, min(i, n - 1))


def blur_rows(img, k):
    """Each row convolved with the 1-D ``k``, edges clamped through a helper."""
    half = k.shape[0] // 2
    out = np.zeros_like(img)
    n, m = img.shape
    for i in range(n):
        row = edge(i, n)
        for j in range(m):
            for d in range(k.shape[0]):
                out[i, j] += k[d] * img[row, edge(j + d - half, m)]
    return out


def clamped(x, lo, hi, d, c0, c1):
    """x[min(max(c0, i + d), c1)]: in bounds, wrapping or raising by the clamp's
    bounds, with a sum and a negated clamp on the way."""
    t = 0
    for i in range(lo, hi):
        j = max(min(i + d, c1), c0)
        t += x[j] * (i + 1) + x[-min(-j, 0) - 1 + 1]
    return t


def versioned_loops(f, *args) -> int:
    """How many loop nests of ``f``'s specialisation are versioned."""
    f(*args)
    fn = f.ir_module().functions[f.ir_module().entry]
    return sum(1 for s in N.walk_stmts(fn.body)
               if isinstance(s, N.If) and s.then and isinstance(s.then[0], N.ForCount)
               and s.orelse and isinstance(s.orelse[0], N.ForCount))


def compiled(f):
    """``f`` compiled, a fallback an error; ``run.jitted`` the jitted function of
    the last call, one per ``f`` and argument types (jitted_for), so the hypothesis
    examples (the same types) compile it once."""
    def run(*args):
        run.jitted = g = jitted_for(f, args)
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return g(*args)
    return run


def same_outcome(f, *args):
    try:
        want = f(*args)
    except IndexError as exc:
        with pytest.raises(IndexError, match=str(exc).split(" is ")[0]):
            compiled(f)(*args)
        return
    got = compiled(f)(*args)
    np.testing.assert_array_equal(got, want)


def test_convolution_runs_unchecked_and_matches():
    rng = np.random.default_rng(0)
    img, k = rng.standard_normal((17, 23)), rng.standard_normal((3, 3))
    f = compiled(conv3)
    np.testing.assert_array_equal(f(img, k), conv3(img, k))
    assert versioned_loops(f.jitted, img, k) == 1
    # a kernel smaller than 3x3 fails the test: the checked nest raises
    with pytest.raises(IndexError, match="out of bounds for axis 1 with size 2"):
        f(img, k[:, :2])
    # an image too small for any output: no iteration, no error
    np.testing.assert_array_equal(f(img[:2, :2], k), conv3(img[:2, :2], k))


def test_clamped_convolution_runs_unchecked_and_matches():
    # min/max of the clamping helper: its result lies between the clamp's bounds,
    # so one test on the image's shape proves every index of the nest
    rng = np.random.default_rng(1)
    img, k = rng.standard_normal((9, 14)), rng.standard_normal(5)
    f = compiled(blur_rows)
    np.testing.assert_array_equal(f(img, k), blur_rows(img, k))
    fn = f.jitted.ir_module().functions[f.jitted.ir_module().entry]
    fast = next(s for s in fn.body if getattr(s, "versioned", False))
    while isinstance(fast, N.If):             # the fast copy of the fast copy ...
        fast = fast.then[0]
    assert isinstance(fast, N.ForCount)
    assert not [s for s in N.walk_stmts([fast]) if isinstance(s, N.Raise)]
    for shape in ((1, 1), (0, 3), (3, 0), (1, 6)):
        same_outcome(blur_rows, img[:shape[0], :shape[1]], k)


@settings(max_examples=55, deadline=None)
@given(st.integers(0, 8), st.integers(-10, 10), st.integers(-10, 10),
       st.integers(-10, 10), st.integers(-10, 10), st.integers(-10, 10))
def test_clamped_index_wraps_and_raises_like_python(n, lo, hi, d, c0, c1):
    x = np.arange(1, n + 1, dtype=np.int64) * 3
    same_outcome(clamped, x, lo, hi, d, c0, c1)


def test_clamped_index_is_versioned():
    assert versioned_loops(jit(clamped), np.arange(5), 0, 5, 0, 0, 4) >= 1


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 12), st.integers(-15, 15), st.integers(-15, 15),
       st.integers(-14, 14))
def test_shifted_index_wraps_and_raises_like_python(n, lo, hi, d):
    x = np.arange(1, n + 1, dtype=np.int64) * 3
    same_outcome(shifted, x, lo, hi, d)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 12), st.integers(-3, 9))
def test_affine_with_coefficients(size, n):
    x = np.arange(size, dtype=np.int64) ** 2
    same_outcome(stride2, x, n)


@pytest.mark.parametrize("f", [previous_value, reassigned])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_values_from_other_iterations_keep_their_checks(f, n):
    x = np.arange(n, dtype=np.int64) - 2
    same_outcome(f, x)


def test_triangular_nest_and_views():
    m = np.arange(36.0).reshape(6, 6)
    for a in (m, m[::2, ::-1], m.T, m[1:, :4]):
        same_outcome(triangle, a)


def test_huge_values_fail_the_test_instead_of_overflowing():
    # lo + d would overflow int64 in the test's arithmetic: leaves beyond 2**40
    # send the call to the checked nest, which raises as Python does
    x = np.arange(4, dtype=np.int64)
    big = 2 ** 62
    same_outcome(shifted, x, big, big + 2, -big)
    same_outcome(shifted, x, 0, 2, big)


def test_the_pass_leaves_loops_without_provable_checks_alone():
    @jit
    def gather(x, idx):
        t = 0
        for i in range(idx.shape[0]):
            t += x[idx[i]]
        return t
    x, idx = np.arange(10), np.array([3, -1, 9])
    assert gather(x, idx) == 3 + 9 + 9
    # idx[i] is provable, x[idx[i]] is not: one nest versioned, one check kept
    fn = gather.ir_module().functions[gather.ir_module().entry]
    fast = next(s.then[0] for s in N.walk_stmts(fn.body)
                if isinstance(s, N.If) and s.then and isinstance(s.then[0], N.ForCount))
    checks = [s for s in N.walk_stmts(fast.body)
              if isinstance(s, N.If) and s.then and isinstance(s.then[0], N.Raise)]
    assert len(checks) == 1
    with pytest.raises(IndexError):
        gather(x, np.array([10]))
    assert version_bounds(N.Function(name="f", params=[])) is False


# -- random nests of affine accesses, compared with CPython ---------------------------
_affine = st.tuples(st.sampled_from([-2, -1, 0, 1, 2, 3]), st.integers(-4, 4))


@st.composite
def nest_kernels(draw):
    """Source of a two-deep nest reading x[...] and writing y[..., ...] through
    affine indices of both counters (negative, out of range, empty ranges all
    reachable), with the range bounds and a shift as arguments."""
    def index(counters):
        terms = []
        for c in counters:
            k, _ = draw(_affine)
            if k:
                terms.append(f"{k} * {c}" if k != 1 else c)
        off = draw(st.integers(-4, 4))
        out = " + ".join(terms + [str(off)] if terms else [str(off)]) + " + d"
        clamp = draw(st.sampled_from(["", "", "min", "max", "both"]))
        if clamp in ("min", "both"):
            out = f"min({out}, {draw(st.sampled_from(['hi', 'lo', '3', 'd + 2']))})"
        if clamp in ("max", "both"):
            out = f"max({draw(st.sampled_from(['0', 'lo', '-1', 'd']))}, {out})"
        return out
    step = draw(st.sampled_from([1, 1, 2, -1]))
    src = f"""
from hanajit import jit


def kernel(x, y, lo, hi, d):
    t = 0
    for i in range(lo, hi, {step}):
        for j in range({draw(st.integers(-1, 2))}, hi - lo):
            t += x[{index(["i", "j"])}] * (j + 2)
            y[{index(["j"])}, {index(["i"])}] = t % 97
    return t


fast = jit(kernel)
"""
    return src


@settings(max_examples=36, deadline=None)
@given(nest_kernels(), st.integers(0, 7), st.integers(0, 5), st.integers(0, 5),
       st.integers(-6, 6), st.integers(-6, 8), st.integers(-3, 3))
def test_random_affine_nests_match_cpython(src, nx, ny0, ny1, lo, hi, d):
    from hanajit.testing.sourcefile import load_module
    mod = load_module(src, "affine")
    x = np.arange(nx, dtype=np.int64) * 7 - 5
    outcome = []
    for f in (mod.kernel, mod.fast):
        y = np.zeros((ny0, ny1), dtype=np.int64)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", HanaJitFallbackWarning)
                r = f(x, y, lo, hi, d)
        except IndexError:
            r = "IndexError"
        outcome.append((r, y.tolist()))         # partial writes before an error too
    assert outcome[0] == outcome[1], src
