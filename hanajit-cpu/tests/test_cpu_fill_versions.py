"""Whole-array loops generated twice (lib/creation.fill): a copy indexing every
operand with the loop counters when no axis broadcasts at run time, and the
general copy; and assignments of a freshly computed expression into a view,
which write it once instead of through a second temporary."""
from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.testing.jitted import jitted, jitted_for
from hypothesis import given, settings
from hypothesis import strategies as st


def strict(f):
    """``f`` compiled, a fallback an error: one jitted function per ``f`` and
    argument types (jitted_for), which the parametrized cases share."""
    def run(*args):
        g = jitted_for(f, args)
        with warnings.catch_warnings():
            warnings.simplefilter("error", HanaJitFallbackWarning)
            return g(*args)
    return run


def add_mul(a, b, c):
    return a * b + c


def jacobi(u0, iters):
    u = u0.copy()
    for _ in range(iters):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


def shift_expr(a):
    a[1:] = a[:-1] * 2 + 1
    return a


def shift_copy(a):
    a[1:] = a[:-1]
    return a


def into_rows(m, v):
    m[1:, :] = v * 3.0
    return m


shapes = st.sampled_from([(3, 4), (1, 4), (3, 1), (1, 1), (0, 4), (3, 0), (4,), (1,)])


@settings(max_examples=30, deadline=None)
@given(shapes, shapes, shapes)
def test_broadcasting_decided_at_run_time(sa, sb, sc):
    rng = np.random.default_rng(len(sa) * 31 + sum(sa) + 7 * sum(sb) + 3 * sum(sc))
    a, b, c = (rng.standard_normal(s) for s in (sa, sb, sc))
    f = strict(add_mul)
    try:
        want = add_mul(a, b, c)
    except ValueError:
        with pytest.raises(ValueError, match="broadcast"):
            f(a, b, c)
        return
    np.testing.assert_array_equal(f(a, b, c), want)
    # strided and reversed views of the same data
    np.testing.assert_array_equal(f(a[::-1], b, c[..., ::-1]),
                                  add_mul(a[::-1], b, c[..., ::-1]))


def test_general_copy_selects_only_along_the_innermost_axis():
    """In the general copy an outer axis that may broadcast is indexed by
    ``min(i, d - 1)`` and only the innermost one by a select (which LLVM
    unswitches into vector copies): one copy per combination of every axis would
    multiply the nest's code by 2**axes for cases that gain nothing from it."""
    from hanajit.ir import nodes as N
    g = jit(add_mul, fallback=False)
    a = np.ones((3, 4))
    g(a, a[:1], a[:, :1])
    fn = g.ir_module().functions[g.ir_module().entry]
    general = next(s.orelse for s in N.walk_stmts(fn.body)
                   if isinstance(s, N.If) and getattr(s, "versioned", False))
    loads = [e for s in N.walk_stmts(general) for x in N.stmt_exprs(s) if x is not None
             for e in N.walk_expr(x) if isinstance(e, N.Load)]
    assert len(loads) == 3
    for load in loads:
        outer, inner = (list(N.walk_expr(i)) for i in load.indices)
        assert not any(isinstance(e, N.Select) for e in outer)
        assert any(isinstance(e, N.Intrinsic) and e.name == "smin" for e in outer)
        assert any(isinstance(e, N.Select) for e in inner)


def outer_sum(x, y):
    return np.sqrt(x[:, None] ** 2 + y[None, :] ** 2)


def grid(xs, ys):
    return xs[None, :] + 0.0 * ys[:, None]


def pairwise(p):
    return ((p[:, None, :] - p[None, :, :]) ** 2).sum(-1)


def row_against(m, v):
    return m - v[np.newaxis, :]


@functools.cache
def _versioned(g) -> int:
    """Versioned loops in ``g``'s IR at its first specialisation (built once per
    shared ``g``: its cases all have that one)."""
    from hanajit.ir import nodes as N
    fn = g.ir_module().functions[g.ir_module().entry]
    return sum(1 for s in N.walk_stmts(fn.body)
               if isinstance(s, N.If) and getattr(s, "versioned", False))


@pytest.mark.parametrize("n, m", [(5, 7), (1, 7), (5, 1), (1, 1), (0, 3), (4, 0)])
def test_axes_added_by_indexing_broadcast_without_a_test(n, m):
    """``x[:, None]`` has an axis of length 1 known when compiling: the loops index
    it with 0 and need no copy for the run-time case, which a length only known
    at run time (``v[np.newaxis, :]`` against a matrix's own columns) still has."""
    rng = np.random.default_rng(n * 10 + m)
    x, y = rng.standard_normal(n), rng.standard_normal(m)
    for f, args in ((outer_sum, (x, y)), (grid, (y, x))):
        g = jitted(f, fallback=False)
        np.testing.assert_array_equal(g(*args), f(*args))
        assert _versioned(g) == 0
    p = rng.standard_normal((n, 3))
    np.testing.assert_array_equal(strict(pairwise)(p), pairwise(p))
    mat = rng.standard_normal((n, m))
    g = jitted(row_against, fallback=False)
    for v in (y, y[:1]):
        np.testing.assert_array_equal(g(mat, v), row_against(mat, v))
    assert _versioned(g) == 1
    wide = np.ones(m + 2)
    if m == 1:                        # (n, 1) against (3,): a wider result
        np.testing.assert_array_equal(g(mat, wide), row_against(mat, wide))
    else:
        with pytest.raises(ValueError, match="broadcast"):
            g(mat, wide)


@pytest.mark.parametrize("shape", [(6, 7), (3, 3), (2, 5), (1, 1), (0, 3)])
def test_overlapping_stencil_assignment(shape):
    u = np.random.default_rng(1).standard_normal(shape)
    np.testing.assert_array_equal(strict(jacobi)(u, 4), jacobi(u, 4))


@pytest.mark.parametrize("f", [shift_expr, shift_copy])
@pytest.mark.parametrize("n", [0, 1, 2, 9])
def test_aliasing_assignments(f, n):
    a = np.arange(n, dtype=np.float64)
    np.testing.assert_array_equal(strict(f)(a.copy()), f(a.copy()))
    b = np.arange(2 * n, dtype=np.float64)[::2]          # a strided view
    np.testing.assert_array_equal(strict(f)(b.copy()), f(b.copy()))


@pytest.mark.parametrize("vshape", [(4,), (1, 4), (1,), (3, 4)])
def test_assignment_broadcasts_the_fresh_value(vshape):
    m = np.zeros((4, 4))
    v = np.arange(np.prod(vshape), dtype=np.float64).reshape(vshape)
    np.testing.assert_array_equal(strict(into_rows)(m.copy(), v), into_rows(m.copy(), v))
    with pytest.raises(ValueError):
        strict(into_rows)(m.copy(), np.ones(3))


# -- expressions written straight into the array they update -------------------------
def iadd_self(a):
    a += a * 0.5
    return a


def iadd_transposed(a):
    a += a.T
    return a


def iadd_reversed(a):
    a[::-1] += a
    return a


def iadd_shifted(a):
    a[1:] += a[:-1]
    return a


def assign_other(out, x, y):
    out[:] = x * 2.0 - y
    return out


def conv_array(img, k):
    h, w = img.shape
    out = np.zeros((h - 2, w - 2))
    for a in range(3):
        for b in range(3):
            out += k[a, b] * img[a:h - 2 + a, b:w - 2 + b]
    return out


@pytest.mark.parametrize("f", [iadd_self, iadd_transposed, iadd_reversed, iadd_shifted])
@pytest.mark.parametrize("shape", [(5, 5), (1, 1), (0, 0), (3, 3)])
def test_inplace_updates_reading_the_target(f, shape):
    a = np.random.default_rng(2).standard_normal(shape)
    np.testing.assert_array_equal(strict(f)(a.copy()), f(a.copy()))
    t = np.asfortranarray(a)
    np.testing.assert_array_equal(strict(f)(t.copy(order="F")), f(t.copy(order="F")))


@pytest.mark.parametrize("xs, ys", [(slice(0, 6), slice(6, 12)), (slice(2, 8), slice(0, 6)),
                                     (slice(0, 12, 2), slice(1, 12, 2)),
                                     (slice(8, 2, -1), slice(3, 9))])
@pytest.mark.parametrize("outs", [slice(3, 9), slice(6, 0, -1), None])
def test_assignment_from_arrays_sharing_memory_with_the_target(xs, ys, outs):
    """x, y and out are views of one base array (out overlapping them, or a
    separate array when ``outs`` is None): NumPy's result either way."""
    results = []
    for run in (assign_other, strict(assign_other)):
        base = np.arange(12.0)
        out = base[outs] if outs is not None else np.zeros(6)
        run(out, base[xs], base[ys])
        results.append((base.copy(), out.copy()))
    np.testing.assert_array_equal(results[1][0], results[0][0])
    np.testing.assert_array_equal(results[1][1], results[0][1])


def test_convolution_accumulates_in_place():
    rng = np.random.default_rng(3)
    img, k = rng.standard_normal((9, 11)), rng.standard_normal((3, 3))
    np.testing.assert_array_equal(strict(conv_array)(img, k), conv_array(img, k))


def gather_into_self(a, idx):
    a[:] = a[idx] * 2.0
    return a


def test_a_gather_of_the_target_goes_through_a_temporary():
    a = np.arange(6.0)
    idx = np.array([5, 4, 3, 2, 1, 0])
    np.testing.assert_array_equal(strict(gather_into_self)(a.copy(), idx),
                                  gather_into_self(a.copy(), idx))
