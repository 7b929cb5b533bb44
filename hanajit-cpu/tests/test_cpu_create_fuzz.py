"""Random array creation and conversion against NumPy: ``arange`` (int and float
steps, dtype), ``linspace`` (endpoint, dtype), ``zeros``/``ones``/``full`` and
their ``_like`` forms with dtypes, ``astype`` between every pair of dtypes (only
values NumPy converts defined: no NaN, inf or out-of-range floats to integers),
``round`` with decimals, ``np.abs`` and ``np.sign``.  Dtype, shape and values must
be NumPy's exactly (NaN == NaN), or both raise the same exception type."""
import random

import numpy as np
from hanajit.testing.fuzz import DERANDOMIZE, run_both
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DTYPES = ["np.bool_", "np.int8", "np.uint8", "np.int16", "np.int32", "np.int64",
          "np.uint32", "np.uint64", "np.float32", "np.float64", "np.complex128"]


def make_case(seed):
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    kind = rng.choice(["arange", "arange_f", "linspace", "zeros", "full", "like", "astype",
                       "round", "abs", "sign"])
    dt = rng.choice(DTYPES)
    a = nrng.integers(-20, 21, rng.choice([0, 1, 3, 6])).astype(np.float64) / 4
    if kind == "arange":
        lo, hi, step = rng.randint(-5, 5), rng.randint(-5, 12), rng.choice([1, 2, -1, 3, -2])
        body = f"np.arange({lo}, {hi}, {step})" if rng.random() < 0.5 else \
            f"np.arange({lo}, {hi}, {step}, dtype={rng.choice(DTYPES[1:])})"
    elif kind == "arange_f":
        body = f"np.arange({rng.choice([0.0, -1.5, 0.1])}, {rng.choice([1.0, 2.5, 3.3])}, " \
               f"{rng.choice([0.1, 0.25, 0.3, 1.0])})"
    elif kind == "linspace":
        num = rng.choice([0, 1, 2, 5, 7])
        end = rng.choice(["", ", endpoint=False"])
        dtype = rng.choice(["", ", dtype=np.float32", ", dtype=np.int64"])
        body = f"np.linspace({rng.choice([-1.0, 0, 2.5])}, {rng.choice([1, 3.5, -2.0])}, " \
               f"{num}{end}{dtype})"
    elif kind == "zeros":
        fn = rng.choice(["zeros", "ones"])
        body = f"np.{fn}(({rng.randint(0, 3)}, {rng.randint(0, 3)}), dtype={dt})"
    elif kind == "full":
        body = f"np.full({rng.randint(0, 4)}, {rng.choice([1, -2, 2.5, True])}, dtype={dt})" \
            if rng.random() < 0.6 else f"np.full(({rng.randint(0, 3)}, 2), {rng.choice([3, 1.5])})"
    elif kind == "like":
        fn = rng.choice(["zeros_like", "ones_like", "full_like"])
        extra = ", 7" if fn == "full_like" else ""
        body = f"np.{fn}(a{extra}, dtype={dt})" if rng.random() < 0.5 else f"np.{fn}(a{extra})"
    elif kind == "astype":
        src = rng.choice(DTYPES)
        if src in ("np.uint8", "np.uint32", "np.uint64"):
            a = np.abs(a)
        a = a.astype(eval(src)) if src != "np.bool_" else a > 0
        if a.dtype.kind in "fc" and dt not in ("np.float32", "np.float64", "np.complex128"):
            a = np.trunc(a.real)     # floats to ints: integral values only (defined)
            if dt in ("np.uint8", "np.uint32", "np.uint64", "np.bool_"):
                a = np.abs(a)
        body = f"a.astype({dt})"
    elif kind == "round":
        body = f"np.round(a, {rng.choice([0, 1, 2, -1])})"
    elif kind == "abs":
        body = "np.abs(a - 2)"
    else:
        body = "np.sign(a)"
    return f"import numpy as np\n\n\ndef f(a):\n    return {body}\n", a


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=DERANDOMIZE)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_creation_and_conversion_match_numpy(seed):
    src, a = make_case(seed)
    got, want = run_both(src, [a], result=lambda r: np.asarray(r).copy(), stem="create")
    assert got[0] == want[0], (src, a, got, want)
    if got[0] == "raise":
        assert got[1] is want[1], (src, got, want)
        return
    g, w = got[1], want[1]
    assert g.dtype == w.dtype and g.shape == w.shape, (src, a, g, w)
    assert np.array_equal(g, w, equal_nan=w.dtype.kind in "fc"), (src, a, g, w)
