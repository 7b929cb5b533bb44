"""Random array programs (``hanajit.testing.progen_arrays``) compiled for the CPU
and compared with the interpreter (CPython + NumPy) on the same inputs: return
values, exceptions and the input arrays' contents afterwards.

``HANAJIT_PROGEN_N`` scales the run (default 10 programs of 4 input sets: one
chunk, each further 10 a chunk of its own seed); a mismatch prints the program
and its inputs.  Long runs:
``python -m hanajit.testing.progen_arrays --seed 1 --count 500``.
"""
import os
import warnings

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.progen_arrays import Stats, generate, run_program
from hanajit.testing.jitted import jitted

N = int(os.environ.get("HANAJIT_PROGEN_N", "10"))
CHUNK = 10
SEEDS = range(1000, 1000 + max(1, N // CHUNK))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_array_programs_match_the_interpreter(seed):
    stats = Stats()
    for prog in generate(seed, CHUNK):
        run_program(prog, stats)
    assert not stats.crashes, "\n\n".join(
        f"{p.name}({inp!r}): {err}\n{p.source}" for p, inp, err in stats.crashes[:3])
    assert not stats.mismatches, "\n\n".join(map(str, stats.mismatches[:3]))
    # almost everything compiles; a fallback names its construct (a result that
    # is a Python number on some runs and a NumPy scalar on others -- ``s = 0``
    # then ``s = max(s, x.max())`` -- falls back by design: not counted)
    counted = [(p, why) for p, why in stats.fallbacks
               if "Python number on some runs and a NumPy scalar" not in why]
    assert len(counted) <= CHUNK // 10, "\n".join(
        f"{p.name}: {why}\n{p.source}" for p, why in counted)
    # most input sets compare values, not only exceptions
    assert stats.calls - stats.raised >= stats.calls // 4, stats.summary()


# ------------------------------------------------------- regressions found by it
def _rebind_param(m):
    m = -m[:, 1:]           # an F-order or strided parameter rebound to a C array
    return m


def _either_layout(m, c):
    x = m
    if c:
        x = m + 1.0
    return x.sum() + x[0, -1]


@pytest.mark.parametrize("how", ["C", "F", "rev", "step"])
def test_variable_holding_arrays_of_two_layouts_compiles(how):
    """Was an internal compiler error (a Cast between array types reached the
    lowering) and a fallback; the variable has layout "A" (``typing_rules.unify``)."""
    base = np.arange(12.0).reshape(3, 4)
    m = {"C": base, "F": np.asfortranarray(base), "rev": base[::-1],
         "step": np.arange(24.0).reshape(3, 8)[:, ::2]}[how]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = jitted(_rebind_param, fallback=False)(m.copy())
        np.testing.assert_array_equal(got, _rebind_param(m.copy()))
        for c in (0, 1):
            assert jitted(_either_layout, fallback=False)(m, c) == _either_layout(m, c)


def _where(c, x, y):
    return np.where(c, x, y)


def _where_cmp(x, y):
    return np.where(x < y, x, y) * -1 + 1


@pytest.mark.parametrize("dx, dy", [("int64", "int32"), ("int32", "int64"),
                                    ("float32", "float64"), ("float64", "float32"),
                                    ("int32", "float32"), ("bool", "int8")])
def test_np_where_promotes_both_array_operands(dx, dy):
    """np.where(c, x, y) of two arrays has NumPy's promoted dtype (was: the array
    element types were taken for weak Python scalars, so int64 with int32 gave
    int32 and truncated)."""
    x = np.array([1, 0, 3 + 2 ** 40 * (dx == "int64"), 1], dtype=dx)
    y = np.array([0, 6, 1, 2 ** 40 * (dy == "int64")], dtype=dy)
    c = np.array([True, False, True, False])
    for f, args in ((_where, (c, x, y)), (_where_cmp, (x, y))):
        got, want = jitted(f, fallback=False)(*args), f(*args)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_np_where_keeps_python_scalars_weak():
    x = np.array([1, 2, 3], dtype=np.int32)
    c = np.array([True, False, True])
    for f, args in ((_where, (c, x, 7)), (_where, (c, 7, x)), (_where, (c, x, 2.5))):
        got, want = jitted(f, fallback=False)(*args), f(*args)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def _aug_ellipsis(a, b):
    a[...] += b
    return a


def _aug_ellipsis_transposed(m, b):
    m.T[...] += b * m.T
    return m


def _aug_ellipsis_overlap(a):
    a[...] += a[::-1]
    return a


def test_augmented_assignment_through_ellipsis_compiles():
    """``a[...] += b`` fell back to the interpreter ("unsupported use of a Python
    object as a value: Ellipsis": the index was stored in a temporary)."""
    m = np.arange(6.0).reshape(2, 3)
    cases = ((_aug_ellipsis, lambda: (np.arange(5), np.int64(3))),
             (_aug_ellipsis, lambda: (np.arange(5.0)[::-1], np.arange(5.0))),
             (_aug_ellipsis_transposed, lambda: (m.copy(), np.array([1.0, -2.0]))),
             (_aug_ellipsis_overlap, lambda: (np.arange(17.0),)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for f, args in cases:
            np.testing.assert_array_equal(jitted(f, fallback=False)(*args()), f(*args()))


def _f32_accumulator(a):
    x = 0.0
    x += a[0]
    return x / 3


def test_float32_element_into_python_float_variable():
    """NumPy 2 makes ``x`` a float32 from the ``+=`` on (the 0.0 is a weak Python
    float); ``x / 3`` then depends on which it is, so the function runs in the
    interpreter, with a warning naming ``x`` (infer/weak_locals.py)."""
    a = np.array([0.1], dtype=np.float32)
    with pytest.warns(UserWarning, match="'x' changes type: a Python float, then a NumPy "
                                         "float32"):
        got = jit(_f32_accumulator)(a)
    assert got == _f32_accumulator(a) and type(got) is np.float32


def _row_from_2d(m):
    m[1] = m[:1]            # a (1, n) value into an (n,) row
    return m


def _slice_from_3d(a):
    a[1:] = np.zeros((1, 1, 2), dtype=a.dtype) + a[:2]
    return a


# found by progen_arrays (m[i] = m[:1]): NumPy's setitem drops leading length-1
# axes of the value (a (1, n) array fits an (n,) view)
@pytest.mark.parametrize("f, make", [
    (_row_from_2d, lambda: np.arange(12).reshape(3, 4)[::-1]),
    (_slice_from_3d, lambda: np.arange(3.0)),
])
def test_assign_value_with_leading_size1_axes(f, make):
    np.testing.assert_array_equal(jitted(f, fallback=False)(make()), f(make()))


def _row_from_2_rows(m):
    m[1] = m[:2]
    return m


def _copyto_leading(a):
    np.copyto(a, np.ones((1, 1, a.shape[0])))
    return a


def test_leading_axes_must_have_length_one():
    m = np.arange(12.0).reshape(3, 4)
    with pytest.raises(ValueError):
        _row_from_2_rows(m.copy())
    with pytest.raises(ValueError):
        jitted(_row_from_2_rows, fallback=False)(m.copy())
    a = np.arange(3.0)
    np.testing.assert_array_equal(jitted(_copyto_leading, fallback=False)(a.copy()),
                                  _copyto_leading(a.copy()))
