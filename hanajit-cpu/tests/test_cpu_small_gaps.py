"""Three small gaps of issue 22 against CPython + NumPy 2.

* ``np.squeeze`` / ``a.squeeze`` with a constant axis or tuple of axes: NumPy's
  view, NumPy's ValueError where an axis's length is not 1; without ``axis``
  the result's number of dimensions depends on the lengths: a 0-d array is
  compiled, others fall back with that reason.
* ``str``/``repr``/``f"{z}"`` of a complex (Python ``complex``,
  ``np.complex128``; ``f"{z}"`` of an ``np.complex64`` too, which NumPy formats
  as the complex it holds): CPython's text, nan, inf and signed zeros included;
  a format spec of a complex falls back with the reason.
* ``str`` of an ``np.float32`` and of an ``np.complex64``: NumPy's Dragon4 text,
  the shortest digits that read back as the same float32
  (``lib/python/float32_text.py``), positional or scientific as NumPy prints.
* ``RandomState.bytes(n)`` / ``Generator.bytes(n)`` fall back: a bytes object."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import assert_same_bits, check_call, check_fallback
from hanajit.testing.compare import outcome
from hanajit.testing.sourcefile import load_sibling

pytestmark = [pytest.mark.filterwarnings("error::hanajit.HanaJitFallbackWarning"),
              pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")]

_strict = load_sibling(__file__, "str_outcomes.py", "hanajit_str_outcomes").compiled


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
    a = np.ones((2, 1, 3))
    got = _strict(squeeze_one)(a)
    got[0, 0] = 5.0                                     # a view, as NumPy's
    assert a[0, 0, 0] == 5.0 and got.base is not None


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


def complex_spec(x, y):
    return f"{complex(x, y):.2f}"


def numpy_complex_repr(x, y):
    return repr(np.complex128(complex(x, y)))


@pytest.mark.parametrize("f, args, reason", [
    (complex_spec, (0.1, 0.2), "a format spec for a complex is not compiled"),
    (numpy_complex_repr, (0.1, 0.2), r"repr\(\) of a NumPy scalar"),
])
def test_what_still_falls_back(f, args, reason):
    check_fallback(f, args, reason)


# ------------------------------------------------ NumPy's float32 text (Dragon4)
def float32_str(a, i):
    return str(a[i])


def float32_fields(x):
    y = np.float32(x)
    return f"{y!s}|{-y!s}|" + str(y * np.float32(3))


def complex64_str(a, i):
    return str(a[i])


def _bits32(words):
    return np.array(words, np.uint32).view(np.float32)


# every exponent's extreme mantissas, powers of ten and their neighbours, the
# positional/scientific switches (1e-4, 1e6), midpoints that are short decimals
# (3e10 is one: read back to the even neighbour, NumPy prints '3e+10')
F32_EDGES = np.concatenate([
    _bits32([(e << 23) | m for e in range(256) for m in (0, 1, 2, 0x400000, 0x7ffffe,
                                                          0x7fffff)]),
    np.array([10.0 ** k for k in range(-45, 39)] + [1e-4, 1e6, 3e10, 0.1, 1 / 3, 100.0,
                                                     999999.94, 123456.0, 5e-324], np.float32),
])
with np.errstate(all="ignore"):
    F32_EDGES = np.concatenate([F32_EDGES, -F32_EDGES,
                                np.nextafter(F32_EDGES, np.float32(np.inf)),
                                np.nextafter(F32_EDGES, np.float32(-np.inf))])


def test_float32_text_edges():
    jf = _strict(float32_str)
    for i in range(len(F32_EDGES)):
        assert jf(F32_EDGES, i) == float32_str(F32_EDGES, i), F32_EDGES[i]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2 ** 32 - 1))
def test_float32_text_any_bits(word):
    a = _bits32([word, word ^ 1])
    for i in range(2):
        assert _strict(float32_str)(a, i) == float32_str(a, i)


@settings(max_examples=100, deadline=None)
@given(st.floats(width=32))
def test_float32_text_fields(x):
    assert outcome(_strict(float32_fields), x) == outcome(float32_fields, x)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 2 ** 32 - 1),
       st.sampled_from(list(F32_EDGES[:40]) + [0.0, -0.0, np.nan, np.inf]))
def test_complex64_text(re, im, edge):
    r, i = _bits32([re, im])
    z = np.array([complex(r, i), complex(edge, i), complex(r, edge), complex(edge, edge),
                  complex(0.0, edge), complex(-np.nan, edge)], np.complex64)
    for k in range(len(z)):
        assert _strict(complex64_str)(z, k) == complex64_str(z, k)


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
