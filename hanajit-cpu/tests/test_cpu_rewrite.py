"""@jit(rewrite=True): every rewrite gives the unrewritten function's result
(CPython's exact ints: beyond int64 both re-run in the interpreter) on edge inputs,
fires on its exact pattern, and leaves near misses alone."""

import math
import warnings

import numpy as np
import pytest
from hanajit import jit
from hypothesis import given, settings
from hypothesis import strategies as st

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1
ints = st.one_of(
    st.integers(-50, 50),
    st.integers(I64_MIN, I64_MAX),
    st.sampled_from([0, -1, 1, I64_MIN, I64_MAX, I64_MAX - 3, I64_MIN + 3]),
)
steps = st.one_of(
    st.integers(-9, 9).filter(bool),
    st.integers(I64_MIN, I64_MAX).filter(bool),
    st.sampled_from([1, -1, I64_MAX, I64_MIN]),
)


# ------------------------------------------------------------------ kernels
def series(a, b, c):
    s = 0
    for i in range(a, b, c):
        s += i
    return s


def squares(a, b, c):
    s = 7
    for i in range(a, b, c):
        s = s + i * i
    return s


def affine(a, b, c, u, v):
    s = -3
    for i in range(a, b, c):
        s += u * i + v
    return s


def affine_n(n, u, v):
    s = 0
    for i in range(n):
        s = s + (i * u + v)
    return s


def shifted(n, v):
    s = 0
    for i in range(n):
        s += i + v
    return s


def poly_int(x):
    return 3 * x**3 + 2 * x**2 - x + 5


def poly_int_scrambled(x):
    return 7 - x**4 + x * 2 + 5 * x**2 - 3 * x**2 + x**4 * 9


def poly_float(x):
    return 0.5 * x**3 - 1.25 * x**2 + 3.0 * x - 2.0


def hoist(x, c, n):
    s = 0.0
    for i in range(n):
        s += x[i] * (math.sqrt(c) + c * c)
    return s


def hoist_guarded(x, d, n):
    # the integer division is guarded by a zero check inside the loop: never hoisted
    s = 0
    for i in range(n):
        if d != 0:
            s += x[i] // d
    return s


# near misses: each is one step away from a pattern and must stay a loop
def near_sub(a, b, c):
    s = 0
    for i in range(a, b, c):
        s -= i
    return s


def near_last(a, b, c):
    s = 0
    for i in range(a, b, c):
        s += i
    return s + i  # the loop variable is read after the loop


def near_cube(n):
    s = 0
    for i in range(n):
        s += i * i * i
    return s


def near_float(n):
    s = 0.0
    for i in range(n):
        s += i
    return s


def near_extra(n):
    s = 0
    t = 0
    for i in range(n):
        s += i
        t += 1
    return s + t


def near_self(n):
    s = 1
    for i in range(n):
        s += s
    return s


def near_cond(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            s += i
    return s


_PAIRS: dict = {}


def _pair(fn, **opts):
    """(rewritten, plain) jitted versions of ``fn``, made once per test session."""
    key = (fn, tuple(sorted(opts.items())))
    if key not in _PAIRS:
        _PAIRS[key] = (
            jit(rewrite=True, fallback=False, **opts)(fn),
            jit(fallback=False, **opts)(fn),
        )
    return _PAIRS[key]


def _has_loop(jf):
    return any(ln.lstrip().startswith("for ") for ln in jf.inspect_ir().splitlines())


# ------------------------------------------------------------------ closed forms
SERIES = [
    (series, ()),
    (squares, ()),
    (affine, (3, -11)),
    (affine, (I64_MAX, I64_MIN)),
    (affine, (-1, 0)),
]


@pytest.mark.parametrize("fn,extra", SERIES)
@pytest.mark.parametrize(
    "a,b,c",
    [
        (0, 10, 1),
        (10, 0, -1),
        (0, 10, -1),
        (5, 5, 1),
        (5, 5, -1),
        (-7, 100, 3),
        (100, -7, -3),
        (I64_MAX - 10, I64_MAX, 1),
        (I64_MIN, I64_MIN + 21, 2),
        (3, 1_000_001, 7),
        (-(10**18), 10**18, 10**15),
        (I64_MAX, I64_MIN, -(10**17)),
        (0, 1, I64_MAX),
        (0, -1, I64_MIN),
        (1, 2, 1),
        (2, 1, 1),
    ],
)
def test_closed_form_edges(fn, extra, a, b, c):
    r, p = _pair(fn)
    assert r(a, b, c, *extra) == p(a, b, c, *extra)
    assert not _has_loop(r)


@pytest.mark.parametrize("fn,extra", SERIES)
@settings(max_examples=60, deadline=None)
@given(a=ints, span=st.integers(-3000, 3000), c=steps)
def test_closed_form_property(fn, extra, a, span, c):
    b = max(I64_MIN, min(I64_MAX, a + span))  # the unrewritten loop must finish
    r, p = _pair(fn)
    assert r(a, b, c, *extra) == p(a, b, c, *extra)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(-5, 3000), u=ints, v=ints)
def test_closed_form_range_n(n, u, v):
    for fn, args in ((affine_n, (n, u, v)), (shifted, (n, v))):
        r, p = _pair(fn)
        assert r(*args) == p(*args)


def test_closed_form_matches_python_without_overflow():
    r = jit(rewrite=True, fallback=False)(squares)
    for a, b, c in [(0, 1000, 1), (-500, 500, 3), (900, -900, -7)]:
        assert r(a, b, c) == squares(a, b, c)


def test_zero_step_still_raises():
    r = jit(rewrite=True, fallback=False)(series)
    with pytest.raises(ValueError, match="must not be zero"):
        r(0, 10, 0)


# ------------------------------------------------------------------ Horner
@pytest.mark.parametrize("fn", [poly_int, poly_int_scrambled])
@settings(max_examples=100, deadline=None)
@given(x=ints)
def test_horner_int(fn, x):
    r, p = _pair(fn)
    assert r(x) == p(x)
    if -1000 < x < 1000:
        assert r(x) == fn(x)


def test_horner_int_fires():
    r = jit(rewrite=True, fallback=False)(poly_int)
    r(3)
    assert "int_pow" not in r.inspect_ir()
    p = jit(fallback=False)(poly_int)
    p(3)
    assert "int_pow" in p.inspect_ir()


def test_horner_float_only_with_fastmath():
    r, p = _pair(poly_float)
    assert r(1.7) == p(1.7)
    ir_plain = r.inspect_ir()
    f = jit(rewrite=True, fastmath=True, fallback=False)(poly_float)
    # (fastmath allows new rounding; at infinities inf - inf may become inf)
    for x in (0.0, -0.0, 1.5, -2.25, 1e3, float("nan")):
        want, got = poly_float(x), f(x)
        assert (math.isnan(want) and math.isnan(got)) or got == pytest.approx(
            want, rel=1e-12
        )
    assert f.inspect_ir() != ir_plain  # fastmath: the Horner form


# ------------------------------------------------------------------ hoisting
def test_hoisting_same_bits():
    x = np.random.default_rng(0).standard_normal(257)
    r, p = _pair(hoist)
    for c in (0.0, -0.0, 2.5, float("inf"), float("nan")):
        a, b = r(x, c, 257), p(x, c, 257)
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes()
    for fn in (r, p):
        with pytest.raises(ValueError, match="math domain error"):
            fn(x, -1.0, 257)
    assert "$inv" in r.inspect_ir()


def test_hoisting_keeps_guarded_division():
    x = np.arange(10)
    r, p = _pair(hoist_guarded)
    for d in (0, 3, -2):
        assert r(x, d, 10) == p(x, d, 10) == hoist_guarded(x, d, 10)


def test_hoisting_keeps_index_errors():
    x = np.arange(4.0)
    r, _ = _pair(hoist)
    with pytest.raises(IndexError):
        r(x, 2.0, 5)


# ------------------------------------------------------------------ near misses
@pytest.mark.parametrize(
    "fn,args",
    [
        (near_sub, (0, 50, 3)),
        (near_last, (0, 50, 3)),
        (near_cube, (40,)),
        (near_float, (40,)),
        (near_extra, (40,)),
        (near_self, (40,)),
        (near_cond, (40,)),
    ],
)
def test_near_misses_are_not_rewritten(fn, args):
    r, p = _pair(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert r(*args) == p(*args) == fn(*args)
    assert _has_loop(r)


@pytest.mark.parametrize("fn,types", [
    (squares, 3), (affine, 5), (poly_int, 1)])
def test_rewritten_ir_shares_no_nodes(fn, types):
    """The trees a rewrite builds (the closed-form update of ``s``, the Horner
    form) hold no node twice."""
    from hanajit.ir import nodes as N
    from hanajit.ir import types as T
    from hanajit.pipeline import compile_ir

    module, _ = compile_ir(fn, (T.INT64,) * types, {"rewrite": True})
    f = module.functions[module.entry]
    roots = [s.value for s in N.walk_stmts(f.body)
             if isinstance(s, (N.Assign, N.Return)) and s.value is not None
             and (isinstance(s, N.Return) or s.target == "s")]
    assert roots
    for root in roots:
        ids = [id(e) for e in N.walk_expr(root)]
        assert len(ids) == len(set(ids))
