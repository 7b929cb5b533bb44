"""@jit(fastmath=...): the documented LLVM flags on the user's float operations,
NaN/inf still propagate, Python-semantics helpers stay exact, bad flags refused."""
import math

import numpy as np
import pytest

from hanajit import jit


def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def floordiv_mod(x, y):
    return x // y, x % y, x ** 0.5


def isnan_path(x):
    return x != x, math.isinf(x), x * 0.0


def _llvm(jf, *args):
    jf(*args)
    return jf.inspect_llvm()


def test_results_close_and_flags_in_ir():
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal(10_001), rng.standard_normal(10_001)
    fast = jit(dot, fastmath=True)
    assert math.isclose(fast(a, b), dot(a, b), rel_tol=1e-9)
    ir_text = _llvm(fast, a, b)
    assert "reassoc" in ir_text and "contract" in ir_text and "nnan" not in ir_text


@pytest.mark.parametrize("x,y", [(7.5, -2.0), (-7.5, 2.0), (0.0, -3.0), (1e300, 1e-300),
                                 (-0.0, 5.0), (5.0, math.inf)])
def test_python_semantics_helpers_stay_exact(x, y):
    assert jit(floordiv_mod, fastmath=True)(x, y) == floordiv_mod(x, y)


def test_nan_and_inf_still_propagate():
    f = jit(isnan_path, fastmath=True)
    for v in (math.nan, math.inf, -math.inf, 1.5):
        got, want = f(v), isnan_path(v)
        assert got[:2] == want[:2]
        assert (math.isnan(got[2]) and math.isnan(want[2])) or got[2] == want[2]


def test_flag_sets_and_errors():
    a = np.arange(5.0)
    assert jit(dot, fastmath={"reassoc", "nsz"})(a, a) == 30.0
    assert jit(dot, fastmath={"fast"})(a, a) == 30.0
    assert jit(dot, fastmath=False)(a, a) == 30.0
    with pytest.raises(ValueError, match="unknown flag"):
        jit(dot, fastmath={"turbo"})


def square(x):
    return x ** 2


def test_fastmath_square_is_the_correctly_rounded_product():
    # without fastmath x ** 2 is CPython's pow bit for bit (test_cpu_conformance);
    # fastmath's approximate functions allow x*x, which pow misses by an ulp for
    # about 1 input in 1250 -- overflow still raises as CPython does
    import random
    rng = random.Random(5)
    xs = [x for x in (rng.gauss(0, 10) for _ in range(40000)) if x ** 2 != x * x][:20]
    assert xs
    fast, exact = jit(square, fastmath=True), jit(square)
    for x in xs + [0.0, -0.0, 3.5, math.inf, -math.inf, 5e-324]:
        assert fast(x) == x * x
        assert exact(x) == x ** 2
    assert math.isnan(fast(math.nan))
    for f in (fast, exact):
        with pytest.raises(OverflowError):
            f(1e200)


def element_square(a):
    return a[0] ** 2


def test_fastmath_square_of_a_numpy_scalar():
    # a NumPy float64's ** 2 is C's pow (exact without fastmath, x*x with it), and
    # overflow is inf as in NumPy, with or without fastmath
    import random
    rng = random.Random(7)
    xs = [x for x in (rng.gauss(0, 10) for _ in range(40000)) if x ** 2 != x * x][:20]
    fast, exact = jit(element_square, fastmath=True), jit(element_square)
    for x in xs + [0.0, -0.0, 3.5, math.inf, 5e-324, 1e200]:
        a = np.array([x])
        with np.errstate(over="ignore"):
            assert exact(a) == float(a[0] ** 2)
        assert fast(a) == x * x
