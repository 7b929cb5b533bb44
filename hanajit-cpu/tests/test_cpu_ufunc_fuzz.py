"""Random whole-array expressions against NumPy: one binary operator or ufunc
between arrays of random dtypes (bool, signed and unsigned ints of every width,
float32/64, complex128) and Python or NumPy scalars, with broadcasting shapes
(0 and 1 included) and random layouts.  The result's dtype (NumPy 2's promotion,
weak Python scalars), shape and every element must be NumPy's (floats bit for bit,
NaN == NaN), or both raise the same exception type."""
import random

import numpy as np
from hanajit.testing.fuzz import DERANDOMIZE, run_both, with_layout
from hanajit.testing.jitted import jitted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint32,
          np.uint64, np.float32, np.float64, np.complex128]
OPS = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", "==", "!=", "&", "|", "^",
       "<<", ">>"]
UFUNCS = ["np.maximum", "np.minimum", "np.add", "np.multiply", "np.subtract",
          "np.true_divide", "np.floor_divide", "np.fmax", "np.fmin", "np.where_gt",
          "np.abs", "np.negative", "np.sign", "np.square", "np.sqrt", "np.floor",
          "np.isnan", "np.logical_not", "np.invert", "np.clip"]


def _array(rng, nrng, dtype, shape):
    if dtype == np.bool_:
        a = np.asarray(nrng.random(shape) < 0.5)
    elif np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        vals = [0, 1, 2, 3, 7, info.max, info.min, info.max - 1]
        if info.min < 0:
            vals += [-1, -2, -7]
        pick = nrng.integers(0, len(vals), size=shape)
        a = np.asarray(np.array(vals, dtype=dtype)[pick])
    else:
        vals = [0.0, -0.0, 0.5, 1.0, -1.0, 2.5, -3.0, 1e30, np.nan, np.inf, -np.inf]
        a = np.asarray(np.array(vals, dtype=dtype)[nrng.integers(0, len(vals), size=shape)])
        if dtype == np.complex128 and a.size:
            with np.errstate(invalid="ignore"):
                a = a + 1j * np.array(vals)[nrng.integers(0, len(vals), size=shape)]
    return with_layout(rng, a)


def _scalar(rng):
    """A Python number, or a one-element array whose element the function reads
    (a NumPy scalar, "strong" in NumPy 2's promotion).  NumPy scalars are not
    passed as arguments: hanajit types arguments as Python numbers
    (docs/semantics.md)."""
    kind = rng.choice(["int", "float", "bool", "elem"])
    if kind == "int":
        return rng.choice([0, 1, 2, -1, 3, 100, 300, -129])
    if kind == "float":
        return rng.choice([0.0, 0.5, -1.5, 2.0, float("nan")])
    if kind == "bool":
        return rng.choice([True, False])
    dt = rng.choice([np.int8, np.uint8, np.int32, np.int64, np.float32, np.float64])
    return Elem(np.array([rng.choice([0, 1, 2, 3])], dtype=dt))


class Elem:
    """Marks a one-element array argument read as ``x = x[0]``."""

    def __init__(self, array):
        self.array = array


def make_case(seed):
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    shape = [rng.choice([0, 1, 2, 3]) for _ in range(rng.randint(1, 2))]
    other = list(shape)
    if rng.random() < 0.4:        # broadcast: a size-1 axis or fewer axes
        k = rng.randrange(len(other))
        other[k] = 1
        if rng.random() < 0.5:
            other = other[1:]
    a = _array(rng, nrng, rng.choice(DTYPES), shape)
    b = _array(rng, nrng, rng.choice(DTYPES), other) if rng.random() < 0.6 else _scalar(rng)
    if rng.random() < 0.5:
        a, b = b, a
        if not isinstance(a, np.ndarray) and not isinstance(b, np.ndarray):
            b = _array(rng, nrng, rng.choice(DTYPES), shape)
    if rng.random() < 0.6:
        op = rng.choice(OPS)
        body = f"x {op} y"
    else:
        fn = rng.choice(UFUNCS)
        if fn == "np.where_gt":
            body = "np.where(x > 1, x, y)"
        elif fn == "np.clip":
            body = "np.clip(x, 0, y)"
        elif fn in ("np.abs", "np.negative", "np.sign", "np.square", "np.sqrt",
                    "np.floor", "np.isnan", "np.logical_not", "np.invert"):
            body = f"{fn}(x) + 0 * {fn}(y)" if rng.random() < 0.2 else f"{fn}(x)"
        else:
            body = f"{fn}(x, y)"
    pre = "".join(f"    {n} = {n}[0]\n" for n, v in (("x", a), ("y", b)) if isinstance(v, Elem))
    args = [v.array if isinstance(v, Elem) else v for v in (a, b)]
    return f"import numpy as np\n\n\ndef f(x, y):\n{pre}    return {body}\n", args


def _same(got, want, src):
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), (src, got, want)
        assert got.dtype == want.dtype and got.shape == want.shape, (src, got, want)
        if want.dtype.kind in "fc" and any(f in src for f in ("**", "np.abs", "np.sqrt")):
            # a float power in a vectorised loop is libmvec's, within 4 ulp of
            # libm (docs/semantics.md); NumPy's complex abs and sqrt are its own
            # SIMD code, not libm's hypot, and can differ from it in the last bit
            np.testing.assert_allclose(got, want, rtol=1e-14 if want.dtype == np.float64
                                       else 1e-6, equal_nan=True, err_msg=src)
        elif want.dtype.kind in "fc" and any(f in src for f in ("clip", "fmax", "fmin")):
            # which of two equal zeros NumPy returns depends on its SIMD paths
            np.testing.assert_array_equal(got, want, err_msg=src)
        elif want.dtype.kind in "fc":
            # equal values, NaN == NaN (any NaN payload), and the same zero signs
            assert np.array_equal(got, want, equal_nan=True), (src, got, want)
            for part in ("real", "imag") if want.dtype.kind == "c" else ("real",):
                g, w = getattr(got, part), getattr(want, part)
                assert np.array_equal(np.signbit(g) | np.isnan(g),
                                      np.signbit(w) | np.isnan(w)), (src, got, want)
        else:
            np.testing.assert_array_equal(got, want, err_msg=src)
    else:
        assert got == want or (got != got and want != want), (src, got, want)


@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          derandomize=DERANDOMIZE)
@given(seed=st.integers(0, 2 ** 32 - 1))
def test_random_array_expressions_match_numpy(seed):
    src, args = make_case(seed)
    got, want = run_both(src, args, result=lambda r: r, stem="ufunc")
    assert got[0] == want[0], (src, args, got, want)
    if got[0] == "raise":
        assert got[1] is want[1], (src, got, want)
    else:
        _same(got[1], want[1], src)


def _add_first(b, a):
    return b + a[0]


def _scale(x, w, i):
    s = w[i] * 2
    return x * s


def _add_py(b, k):
    return b + k


def _add_np(b, k):
    return b + np.int64(k)


def test_numpy_scalars_are_strong_python_numbers_weak():
    u8 = np.array([200, 100], dtype=np.uint8)
    f32 = np.ones(3, dtype=np.float32) / 3
    w = np.array([0.1, 0.7])
    for fn, args in ((_add_first, (u8, np.array([100, 1]))), (_scale, (f32, w, 1)),
                     (_add_py, (u8, 100)), (_add_np, (u8, 100))):
        want, got = fn(*args), jitted(fn, fallback=False)(*args)
        assert got.dtype == want.dtype, fn.__name__
        np.testing.assert_array_equal(got, want)
    import pytest
    with pytest.raises(OverflowError, match="out of bounds for uint8"):
        jitted(_add_py, fallback=False)(u8, 300)


def _store(a, v):
    a[0] = v
    return a


def _store_slice(a, v):
    a[1:] = v
    return a


def _store_element_of(a, b):
    a[0] = b[0]          # a NumPy scalar: cast (wraps), no OverflowError
    return a


def test_storing_a_python_int_that_does_not_fit_raises():
    import pytest
    for fn, dtype, v in ((_store, np.uint8, 300), (_store, np.int8, -129),
                         (_store_slice, np.uint8, -1), (_store, np.uint64, -1)):
        with pytest.raises(OverflowError, match="out of bounds"):
            jitted(fn, fallback=False)(np.zeros(3, dtype), v)
    assert list(jitted(_store, fallback=False)(np.zeros(2, np.uint8), 255)) == [255, 0]
    got = jitted(_store_element_of, fallback=False)(np.zeros(2, np.uint8), np.array([300]))
    np.testing.assert_array_equal(got, _store_element_of(np.zeros(2, np.uint8),
                                                         np.array([300])))
