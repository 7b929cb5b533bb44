"""``x ** 2`` of NumPy float64 scalars in loops (hanajit.lowering.vector_square).

Scalar code squares exactly as CPython does (C's ``pow``, which glibc returns one
ulp off the correctly rounded square for about one input in 1250).  A loop that
vectorises computes it with vector math, as it computes ``exp`` or ``x ** 3``
(docs/vector-math.md): there the square is the correctly rounded ``x * x``.
``HANAJIT_VECMATH=0`` keeps every square CPython's.
"""
import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hanajit import jit
from hanajit.testing.jitted import jitted

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore::RuntimeWarning")]

vector_math = pytest.mark.skipif(os.environ.get("HANAJIT_VECMATH") == "0",
                                 reason="vector math is off (HANAJIT_VECMATH=0)")


def squares(x, out):
    for i in range(len(x)):
        out[i] = x[i] ** 2


def polyline(x, y):
    s = 0.0
    for i in range(len(x) - 1):
        s += math.sqrt((x[i + 1] - x[i]) ** 2 + (y[i + 1] - y[i]) ** 2)
    return s


def square_until_negative(x, out):
    # the early exit keeps this loop scalar
    for i in range(len(x)):
        if x[i] < -1e300:
            break
        out[i] = x[i] ** 2


def one_square(v):
    return v ** 2


def _inputs(n=20_000, seed=7):
    """Random float64s with many whose libm ``pow(x, 2)`` is not ``x * x``."""
    x = np.random.default_rng(seed).standard_normal(n)
    odd = np.array([v for v in x if v ** 2 != v * v])
    assert len(odd) > 5
    return np.concatenate([x, np.tile(odd, 64)])


def _cpython(x):
    return np.array([v ** 2 for v in x])        # NumPy scalars: C's pow


@vector_math
def test_vectorised_loop_squares_with_x_times_x():
    x = _inputs()
    f = jit(squares, fallback=False)
    out = np.empty_like(x)
    f(x, out)
    exact = _cpython(x)
    # every element is the correctly rounded square or CPython's, at most 1 ulp apart
    assert np.all((out == x * x) | (out == exact))
    assert np.all(np.abs(out - exact) <= np.spacing(exact))
    # the vector lanes (all but a short scalar remainder) are x * x
    assert np.count_nonzero(out != x * x) < 64
    assert np.count_nonzero(exact != x * x) > 300
    llvm = f.inspect_llvm()
    # the vector square was inlined: no call to it (or to any vector function) left
    assert "fmul <" in llvm and not re.search(r"call [^\n]*<\d+ x double> @(?!llvm\.)", llvm)


@vector_math
def test_polyline_loop_vectorises_and_stays_within_an_ulp_per_term():
    x, y = _inputs(seed=1), _inputs(seed=2)
    f = jit(polyline, fallback=False)
    got = f(x, y)
    want = polyline(x, y)
    assert abs(got - want) <= 1e-12 * abs(want)
    assert "x double> @llvm.sqrt" in f.inspect_llvm()


def test_scalar_loops_and_scalars_stay_exact():
    x = _inputs()
    f = jit(square_until_negative, fallback=False)
    out = np.empty_like(x)
    f(x, out)
    np.testing.assert_array_equal(out, _cpython(x))
    g = jit(one_square, fallback=False)
    for v in x[-2000:]:
        got = g(v)
        assert got == v ** 2


def test_specials_in_vector_lanes():
    """nan (with its sign), inf, zeros, tiny and huge values: the vector square
    is NumPy's array square, which C's pow agrees with on all of them."""
    sp = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -5e-324,
                   1e-160, 1e160, 1.7976931348623157e308, -1e300, 2.2250738585072014e-308])
    x = np.tile(sp, 37)
    out = np.empty_like(x)
    jitted(squares, fallback=False)(x, out)
    want = _cpython(x)
    np.testing.assert_array_equal(out, want)
    assert np.array_equal(np.signbit(out), np.signbit(want))


PROBE = """
import numpy as np, sys
sys.path.insert(0, {here!r})
from test_cpu_vector_square import squares, _inputs, _cpython
from hanajit import jit
x = _inputs()
out = np.empty_like(x)
f = jit(squares, fallback=False)
f(x, out)
print("exact" if np.array_equal(out, _cpython(x)) and "vsquare" not in f.inspect_llvm()
      else "vector")
"""


def test_exact_everywhere_without_vector_math(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE.format(here=os.path.dirname(__file__)))
    env = dict(os.environ, HANAJIT_VECMATH="0")
    out = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True,
                         env=env, timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "exact", out.stdout
