"""Three small gaps of issue 22 against CPython + NumPy 2.

* ``np.squeeze`` / ``a.squeeze`` with a constant axis or tuple of axes: NumPy's
  view, NumPy's ValueError where an axis's length is not 1; without ``axis``
  the result's number of dimensions depends on the lengths: a 0-d array is
  compiled, others fall back with that reason.
* ``str``/``repr``/``f"{z}"`` of a complex (Python ``complex``,
  ``np.complex128``; ``f"{z}"`` of an ``np.complex64`` too, which NumPy formats
  as the complex it holds): CPython's text, nan, inf and signed zeros included.
  ``str`` of an ``np.float32`` or ``np.complex64`` (NumPy's shortest float32
  digits) and a format spec of a complex fall back with their reasons.
* ``RandomState.bytes(n)`` / ``Generator.bytes(n)`` fall back: a bytes object."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import assert_same_bits, check_call, check_fallback, strict_jit
from hanajit.testing.compare import outcome

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore:overflow encountered in cast")]

_jitted = {}


def _strict(f):
    if f not in _jitted:
        _jitted[f] = strict_jit(f)
    return _jitted[f]


# ------------------------------------------------------------------- squeeze
def squeeze_one(a):
    return np.squeeze(a, axis=1)


def squeeze_last(a):
    return a.squeeze(-1)


def squeeze_pair(a):
    return a.squeeze(axis=(0, 2))


def squeeze_zero_d(a):
    return a.squeeze()


def squeeze_all(a):
    return a.squeeze().shape


def squeeze_all_np(a):
    return np.squeeze(a).shape


def _same_array(got, want):
    assert type(got) is type(want)
    assert_same_bits(got, want)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=3, max_size=3), st.booleans())
def test_squeeze_axes(shape, flipped):
    a = np.arange(math.prod(shape), dtype=np.float64).reshape(shape)
    if flipped:
        a = a[::-1]                                     # (a view: the view's strides)
    for f in (squeeze_one, squeeze_last, squeeze_pair):
        check_call(f, _strict(f), a)
        if all(a.shape[k] == 1 for k in {squeeze_one: (1,), squeeze_last: (2,),
                                          squeeze_pair: (0, 2)}[f]):
            _same_array(_strict(f)(a), f(a))


def test_squeeze_message_is_numpy_s():
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out which has "
                       "size not equal to one"):
        _strict(squeeze_pair)(np.ones((1, 2, 3)))
    got = _strict(squeeze_one)(np.ones((2, 1, 3)))
    got[0, 0] = 5.0                                     # a view, as NumPy's


def test_squeeze_without_axis_of_zero_d():
    a = np.array(2.5)
    _same_array(_strict(squeeze_zero_d)(a), squeeze_zero_d(a))


@pytest.mark.parametrize("f", [squeeze_all, squeeze_all_np])
@pytest.mark.parametrize("shape", [(2, 1, 3), (1,), (3,)])
def test_squeeze_without_axis_falls_back(f, shape):
    check_fallback(f, (np.ones(shape),), r"squeeze\(\) without axis: the number of "
                   "dimensions it returns depends on the lengths")


# ------------------------------------------------------------- complex text
def complex_str(x, y):
    return str(complex(x, y))


def complex_repr(x, y):
    return repr(complex(x, y))


def complex_field(x, y):
    z = complex(x, y)
    return f"<{z}|{z!s}|{z!r}>"


def numpy_complex_str(x, y):
    return str(np.complex128(complex(x, y)))


def numpy_complex_field(x, y):
    return f"{np.complex128(complex(x, y))}"


def complex64_field(x, y):
    return f"{np.complex64(complex(x, y))}"      # (NumPy formats complex(z))


def element_text(a):
    return str(a[0]) + "," + str(a[1]) + "," + f"{a[2]}"


TEXTS = [complex_str, complex_repr, complex_field, numpy_complex_str, numpy_complex_field,
         complex64_field]
NAN, INF = math.nan, math.inf
EDGES = [0.0, -0.0, 1.0, -2.5, NAN, -NAN, INF, -INF, 1e16, 1e-5, 1e-4, 9.999999999999999e15,
         1e300, -5e-324, 0.1, 1 / 3, 123456789.0, 2.0 ** 70]


@pytest.mark.parametrize("f", TEXTS)
def test_complex_text_edges(f):
    jf = _strict(f)
    for x in EDGES:
        for y in EDGES:
            assert outcome(jf, x, y) == outcome(f, x, y), (x, y)


@pytest.mark.parametrize("f", TEXTS)
@settings(max_examples=150, deadline=None)
@given(st.floats(), st.floats())
def test_complex_text_any(f, x, y):
    assert outcome(_strict(f), x, y) == outcome(f, x, y)


def test_complex_elements():
    a = np.array([1 + 2j, -0.0 - 1j, complex(NAN, -INF), 0.5j])
    for arr in (a, a[::-1]):
        assert outcome(_strict(element_text), arr) == outcome(element_text, arr)


def complex64_str(x, y):
    return str(np.complex64(complex(x, y)))


def complex_spec(x, y):
    return f"{complex(x, y):.2f}"


def numpy_complex_repr(x, y):
    return repr(np.complex128(complex(x, y)))


def float32_str(x):
    return str(np.float32(x))


@pytest.mark.parametrize("f, args, reason", [
    (complex64_str, (0.1, 0.2), r"str\(\) of an np.complex64 \(NumPy's shortest float32"),
    (complex_spec, (0.1, 0.2), "a format spec for a complex is not compiled"),
    (numpy_complex_repr, (0.1, 0.2), r"repr\(\) of a NumPy scalar"),
    (float32_str, (0.1,), r"str\(\) of an np.float32 \(NumPy's shortest float32"),
])
def test_what_still_falls_back(f, args, reason):
    check_fallback(f, args, reason)


def complex_measured(x, y):
    return len(str(complex(x, y)))


def test_complex_text_refused_outside_python():
    from hanajit.errors import UnsupportedError
    assert jit(complex_measured)(1.0, 2.0) == 6
    with pytest.raises(UnsupportedError, match="PyOS_double_to_string"):
        jit(complex_measured).ir_module("(float64, float64)")


# ------------------------------------------------------------------- bytes()
def legacy_bytes(n):
    return np.random.RandomState(3).bytes(n)


def legacy_bytes_of(rs, n):
    return rs.bytes(n)


def generator_bytes(g, n):
    return g.bytes(n)


def test_bytes_fall_back_with_the_reason():
    from hanajit.errors import UnsupportedError
    why = r"bytes\(\) returns a bytes object, which compiled code does not make"
    check_fallback(legacy_bytes, (5,), "RandomState." + why)
    rs, rs2 = np.random.RandomState(7), np.random.RandomState(7)
    with pytest.warns(Warning, match="RandomState." + why):
        assert jit(legacy_bytes_of)(rs, 9) == legacy_bytes_of(rs2, 9)
    assert rs.random_sample() == rs2.random_sample()
    with pytest.raises(UnsupportedError, match="Generator." + why):
        jit(generator_bytes, fallback=False)(np.random.default_rng(1), 4)
    g, g2 = np.random.default_rng(1), np.random.default_rng(1)
    with pytest.warns(Warning, match="Generator." + why):
        assert jit(generator_bytes)(g, 5) == generator_bytes(g2, 5)
    assert g.random() == g2.random()
