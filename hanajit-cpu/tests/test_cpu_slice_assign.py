"""``view[...] = array``: copied straight in when the two do not share memory,
through a temporary when they do (NumPy's result either way).  Hypothesis over
slices of one base array -- overlapping forwards, backwards, reversed, the same
view -- and of two arrays, against the interpreter."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.typing_rules import typeof
from hanajit.ir import nodes as N
from hanajit.pipeline import compile_ir


def assign(dst, src, a, b, c, d, e, f):
    dst[a:b:c] = src[d:e:f]
    return dst


def copy_into(new, buf, k):
    new[:k] = buf
    return new


ASSIGN = jit(assign, fallback=False)
COPY = jit(copy_into, fallback=False)
bounds = st.integers(-12, 12)
steps = st.sampled_from([1, 2, -1, -2, 3])


def outcome(f, *args):
    try:
        return "ok", f(*args).tolist()
    except ValueError as exc:
        return ValueError, str(exc)


@settings(max_examples=300, deadline=None)
@given(bounds, bounds, steps, bounds, bounds, steps, st.booleans())
def test_slices_of_one_array_and_of_two(a, b, c, d, e, f, same):
    def run(fn):
        dst = np.arange(10.0)
        src = dst if same else -np.arange(10.0)
        return outcome(fn, dst, src, a, b, c, d, e, f)
    assert run(ASSIGN) == run(assign)


def test_a_copy_between_distinct_arrays_needs_no_temporary():
    new, buf = np.zeros(8), np.arange(5.0)
    np.testing.assert_array_equal(COPY(new, buf, 5), copy_into(np.zeros(8), buf, 5))
    module, _ = compile_ir(copy_into, tuple(typeof(x) for x in (new, buf, 5)), {})
    body = module.functions[module.entry].body
    # the store loop that reads ``buf`` directly runs when the memory is
    # disjoint; the temporary only on the overlapping branch
    branches = [s for s in N.walk_stmts(body) if isinstance(s, N.If) and any(
        isinstance(x, N.Assign) and isinstance(x.value, N.AllocArray)
        for x in N.walk_stmts(s.then))]
    assert branches and not any(
        isinstance(x, N.Assign) and isinstance(x.value, N.AllocArray)
        for s in branches for x in N.walk_stmts(s.orelse))


def test_every_overlap_of_one_array_is_numpys():
    """``a[a:b:c] = a[d:e:f]`` over a grid of bounds and every pair of steps: where
    the two slices share memory and their strides point the same way, NumPy
    copies without a temporary, in its raw loop's order (increasing addresses of
    the destination, backwards when the source starts below it and reaches it),
    so an element read after it is written is read so; the opposite way, through
    a temporary.  Compiled, the same."""
    grid = range(-10, 11, 3)
    for c in (1, 2, -1, -2, 3):
        for f in (1, 2, -1, -2, 3):
            for a in grid:
                for b in grid:
                    for d in grid:
                        for e in grid:
                            dst = np.arange(10.0)
                            want = outcome(assign, dst, dst, a, b, c, d, e, f)
                            dst = np.arange(10.0)
                            got = outcome(ASSIGN, dst, dst, a, b, c, d, e, f)
                            assert got == want, (a, b, c, d, e, f)
