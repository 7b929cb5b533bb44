"""np.min/np.max of a 1-D float expression (``(x - m).max()``), computed without
its temporary by 16 accumulators (``reductions.Reduction.fused_extreme``): the
value of the in-order loop, bit for bit -- NaN when any value is NaN, and among
equal zeros the later one, as docs/semantics.md says of expressions -- at every
length around the 16-lane blocks, in vector code."""
import re

import numpy as np
import pytest
from hanajit import jit
from hypothesis import given, settings
from hypothesis import strategies as st


def shifted_max(a):
    return (a - 1.5).max()


def product_min(a, b):
    return np.min(a * b)


def real_max(z):
    return (z.real * 2.0).max()


def negated_max(a):
    return np.max(-a)


FUNCS = {f: jit(f, fallback=False) for f in (shifted_max, product_min, real_max, negated_max)}


def in_order(values, big):
    """The in-order reduction: the later of equal values, a NaN sticks."""
    r = values[0]
    for x in values[1:]:
        if np.isnan(r):
            break
        if np.isnan(x) or (x >= r if big else x <= r):
            r = x
    return r


def check(f, big, *args):
    with np.errstate(all="ignore"):
        values = {shifted_max: lambda a: a - 1.5, product_min: lambda a, b: a * b,
                  real_max: lambda z: z.real * 2.0, negated_max: lambda a: -a}[f](*args)
        want = in_order(list(values), big) if values.size else None
        if want is None:
            with pytest.raises(ValueError, match="zero-size array"):
                FUNCS[f](*args)
            return
        got = FUNCS[f](*args)
    assert type(got) is type(want)
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert np.array(got).tobytes() == np.array(want).tobytes(), (got, want)
        assert got == f(*args)              # NumPy's value (its zero may differ)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("n", [0, 1, 15, 16, 31, 32, 33, 47, 48, 100, 1000, 4099])
def test_lengths(dtype, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    check(shifted_max, True, a)
    check(shifted_max, True, a[::-3])
    check(product_min, False, a, b)
    check(negated_max, True, a)
    z = (a + 1j * b).astype(np.complex64 if dtype == np.float32 else np.complex128)
    check(real_max, True, z)


specials = st.sampled_from([0.0, -0.0, 1.5, np.nan, np.inf, -np.inf, 1e300, -1e-300])
values = st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=64), specials)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@settings(max_examples=120, deadline=None)
@given(st.lists(values, min_size=1, max_size=120), st.sampled_from([np.float64, np.float32]))
def test_hypothesis(xs, dtype):
    with np.errstate(all="ignore"):
        a = np.array(xs, dtype=dtype)
    check(shifted_max, True, a)
    check(negated_max, True, a)
    check(product_min, False, a, a[::-1].copy())


def test_zero_results_keep_the_later_zero():
    a = np.zeros(100)
    a[::2] = -0.0
    assert np.signbit(FUNCS[negated_max](a)) == np.signbit(in_order(list(-a), True))
    b = np.full(100, 1.5)
    b[7] = 2.0
    assert FUNCS[shifted_max](b) == 0.5


def test_the_lanes_are_vector_code():
    f = jit(shifted_max, fallback=False)    # its only specialisation: a float64 vector
    f(np.arange(100.0))
    ir = f.inspect_llvm()
    assert re.search(r"fcmp \w+ <\d+ x double>", ir), "no vector compare"
