"""Random shape and ordering operations against NumPy: ``sort``, ``argsort``
(stable, or on distinct values), ``unique``, ``searchsorted``, ``diff``, ``roll``,
``tile``, ``repeat``, ``concatenate``, ``stack``, ``outer``, ``reshape``,
``transpose``, ``ravel``, ``cumsum``/``cumprod``, ``copy`` on random dtypes,
shapes (0 and 1 included) and layouts.  Results must equal NumPy's exactly (dtype,
shape, values; NaN == NaN) or both raise the same exception type."""
import random

import numpy as np
from hanajit.testing.fuzz import DERANDOMIZE, run_both, with_layout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DTYPES = [np.bool_, np.int8, np.int32, np.int64, np.uint16, np.float32, np.float64]


def _array(rng, nrng, shape, dtype):
    if dtype == np.bool_:
        a = np.asarray(nrng.random(shape) < 0.5)
    elif np.issubdtype(dtype, np.integer):
        a = np.asarray(nrng.integers(0 if dtype == np.uint16 else -5, 6, shape)).astype(dtype)
    else:
        a = np.asarray(nrng.integers(-5, 6, shape)).astype(dtype) / 2
        if a.size and rng.random() < 0.2:
            a.flat[rng.randrange(a.size)] = rng.choice([np.nan, -0.0, np.inf])
    return with_layout(rng, a)


def make_case(seed):
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    ndim = rng.randint(1, 2)
    shape = [rng.choice([0, 1, 2, 3, 5]) for _ in range(ndim)]
    dtype = rng.choice(DTYPES)
    a = _array(rng, nrng, shape, dtype)
    ax = rng.choice([0, -1] + ([1] if ndim > 1 else []))
    b = _array(rng, nrng, shape, rng.choice(DTYPES))
    op = rng.choice(["sort", "sort_axis", "argsort", "unique", "searchsorted", "diff",
                     "roll", "tile", "repeat", "concatenate", "stack", "outer", "reshape",
                     "transpose", "ravel", "cumsum", "cumprod", "copy", "sort_method"])
    if op == "sort":
        body = "np.sort(a)"
    elif op == "sort_axis":
        body = f"np.sort(a, axis={ax})"
    elif op == "sort_method":
        body = "a.sort()\n    return a"
    elif op == "argsort":
        body = "np.argsort(a, kind='stable')"
    elif op == "unique":
        body = "np.unique(a)"
    elif op == "searchsorted":
        a = np.sort(a.ravel())
        side = rng.choice(["left", "right"])
        body = f"np.searchsorted(a, b, side='{side}')"
    elif op == "diff":
        body = f"np.diff(a, n={rng.choice([1, 1, 2])}, axis={ax})"
    elif op == "roll":
        body = f"np.roll(a, {rng.randint(-7, 7)}" + (f", axis={ax})" if rng.random() < 0.5
                                                    else ")")
    elif op == "tile":
        body = f"np.tile(a, {rng.choice(['2', '(2, 1)', '0', '3'])})"
    elif op == "repeat":
        body = f"np.repeat(a, {rng.choice([0, 1, 2])}" + (f", axis={ax})" if rng.random() < 0.5
                                                         else ")")
    elif op == "concatenate":
        body = f"np.concatenate((a, b), axis={ax})"
    elif op == "stack":
        body = f"np.stack((a, b), axis={rng.choice([0, -1])})"
    elif op == "outer":
        body = "np.outer(a, b)"
    elif op == "reshape":
        n = a.size
        body = "a.reshape(-1)" if n % 2 else "a.reshape(2, -1)" if n else "a.reshape(0, -1)"
    elif op == "transpose":
        body = "a.T.copy()" if rng.random() < 0.5 else "np.transpose(a)"
    elif op == "ravel":
        body = "a.ravel()"
    elif op in ("cumsum", "cumprod"):
        body = f"np.{op}(a)"
    else:
        body = "np.copy(a)"
    if not body.startswith("a.sort()"):
        body = "return " + body
    return f"import numpy as np\n\n\ndef f(a, b):\n    {body}\n", a, b


@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=DERANDOMIZE)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_shape_operations_match_numpy(seed):
    src, a, b = make_case(seed)
    got, want = run_both(src, [a, b], result=lambda r: np.asarray(r).copy(), stem="shape")
    assert got[0] == want[0], (src, a, b, got, want)
    if got[0] == "raise":
        assert got[1] is want[1], (src, got, want)
        return
    g, w = got[1], want[1]
    assert g.dtype == w.dtype and g.shape == w.shape, (src, a, b, g, w)
    assert np.array_equal(g, w, equal_nan=w.dtype.kind in "fc"), (src, a, b, g, w)
