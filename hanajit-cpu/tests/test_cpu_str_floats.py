"""The text of a float in a str built at run time -- ``str(x)``, ``repr(x)``,
``f"{x}"``, ``f"{x!r}"``, ``format(x, spec)`` with fill, align, sign, ``#``,
``0``, width, precision and the types ``e``/``E``/``f``/``F``/``g``/``G``/``%``
(of ints and bools too) -- compared with CPython on hypothesis floats (NaNs,
infinities, signed zeros, subnormals, the ``1e+16``/``1e-05`` switches),
Python floats, ``np.float64`` and ``np.float32`` scalars; ``print`` of a str
holding one; what still falls back (the repr of a NumPy scalar, grouping), and
the refusal where code runs outside this process.  (``str`` of an ``np.float32``
or of a complex: test_cpu_small_gaps.py.)"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.testing.compare import check_fallback, outcome, strict_jit
from hanajit.testing.sourcefile import load_sibling

_h = load_sibling(__file__, "str_outcomes.py", "hanajit_str_outcomes")
compiled, same = _h.compiled, _h.same


FLOATS = st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True)
EDGES = [0.0, -0.0, 1e16, 9999999999999998.0, 1e-4, 9.999999999999999e-05, 1e-5, 0.1,
         1.5e300, -5e-324, 2.2250738585072014e-308, float("nan"), -float("nan"),
         float("inf"), -float("inf"), 123456789.125, 0.5, 2.5, 1e22, 1e23]


# ------------------------------------------------------------------ kernels
def texts(x):
    y = x * 1.0
    return str(y), repr(y), f"{y}", f"{y!r}", f"{y!s}", f"<{y}>", format(y), str(x + 1)


def numpy_texts(a):
    y = a[0]                    # (an np.float64: its str and format, not its repr)
    return str(y), f"{y}", f"{y!s}", f"<{y:>8}>", format(y), str(y / 2.0)


def formats(x):
    return (f"{x:.3f}", f"{x:e}", f"{x:E}", f"{x:g}", f"{x:G}", f"{x:F}", f"{x:%}",
            f"{x:.0f}", f"{x:.0e}", f"{x:#.0f}", f"{x:#g}", f"{x:.12g}", f"{x:.3}",
            f"{x:12}", f"{x:<12.2f}", f"{x:^13.4e}", f"{x:*>14.1%}", f"{x:+}", f"{x: .2f}",
            f"{x:=+12.3f}", f"{x:012.3f}", f"{x:0<9.1f}", f"{x:ß^11g}", f"{x:-.17g}",
            format(x, ".5"), format(x, "+e"))


def numbers(n, b):
    return f"{n:.2f}", f"{n:e}", f"{n:%}", f"{b:.1f}", f"{n:d}", f"{b}", f"{b:5}", \
        f"{n:08.3g}"


def by_spec(x, spec):
    return format(x, spec)


def grown(a):
    s = ""
    for v in a:
        s += f"{v};"
    return s


def shown(x):
    s = f"v={x} w={x * 3:.2e}"
    print(s)
    return len(s)


# ------------------------------------------------------------------ tests
@settings(max_examples=300, deadline=None)
@given(FLOATS)
def test_str_and_repr(x):
    same(texts, x)
    same(numpy_texts, np.array([x]))


@pytest.mark.parametrize("x", EDGES)
def test_str_and_repr_at_the_edges(x):
    same(texts, x)


@settings(max_examples=200, deadline=None)
@given(FLOATS)
@example(0.125)
@example(-1e16)
def test_format_specs(x):
    same(formats, x)


@settings(max_examples=100, deadline=None)
@given(st.floats(width=32, allow_nan=True, allow_infinity=True))
def test_numpy_float32_fields_are_the_float_they_hold(x):
    same(formats, np.float32(x))        # (NumPy's __format__ formats float(x))
    same(grown, np.array([x, -x], np.float32))


@settings(max_examples=100, deadline=None)
@given(st.integers(-2 ** 63, 2 ** 63 - 1), st.booleans())
def test_ints_and_bools_with_float_types(n, b):
    same(numbers, n, b)


SPECS = st.builds(lambda fill, align, sign, alt, zero, width, prec, kind:
                  f"{fill if align else ''}{align}{sign}{alt}{zero}{width}{prec}{kind}",
                  st.sampled_from(["", "*", "0", "ß"]),
                  st.sampled_from(["", "<", ">", "^", "="]), st.sampled_from(["", "+", "-", " "]),
                  st.sampled_from(["", "#"]), st.sampled_from(["", "0"]),
                  st.sampled_from(["", "1", "7", "15"]),
                  st.sampled_from(["", ".0", ".1", ".6", ".20"]),
                  st.sampled_from(["", "e", "E", "f", "F", "g", "G", "%"]))


@settings(max_examples=20, deadline=None)
@given(SPECS, st.lists(st.sampled_from(EDGES) | FLOATS, min_size=3, max_size=3))
def test_generated_specs(spec, xs):
    f = strict_jit(by_spec)     # (new each time: each value of a str argument compiles
    for x in xs:                # apart, up to api.STR_VALUES_CAP of them)
        assert outcome(f, x, spec) == outcome(by_spec, x, spec)


def test_print_of_a_str_holding_a_float(capsys):
    for x in (0.1, -2.5e-7, float("inf")):
        n = compiled(shown)(x)
        got = capsys.readouterr().out
        assert n == shown(x)
        assert got == capsys.readouterr().out == f"v={x} w={x * 3:.2e}\n"


# ------------------------------------------------------------- still falling back
def numpy_repr(a):
    return repr(a[0])


def numpy_repr_field(a):
    return f"{a[0]!r}"


def numpy_int_repr_field(a):
    return f"{a[0]!r}"          # ('np.int64(3)': was '3' before repr_of)


def python_int_repr(n):
    return f"{n!r}|{repr(n + 1)}|{True!r}"


def test_repr_of_python_ints_and_bools():
    same(python_int_repr, -7)


def grouped(x):
    return f"{x:,.2f}"


def integer_type_of_float(x):
    return f"{x:d}"


def half_text(a):
    return f"{a[0]}"


@pytest.mark.parametrize("f, args, reason", [
    (numpy_repr, (np.ones(2),), "repr"),
    (numpy_repr_field, (np.ones(2),), "repr"),
    (numpy_int_repr_field, (np.arange(3),), "repr"),
    (grouped, (2.5,), "grouping"),
    (integer_type_of_float, (2.5,), "format type 'd' of a float"),
    (half_text, (np.ones(2, np.float16),), "float16"),
])
def test_what_still_falls_back(f, args, reason):
    check_fallback(f, args, reason)


def measured(x):
    return len(f"{x:.3f}") + len(str(x))


def test_refused_where_code_runs_outside_python():
    from hanajit.errors import UnsupportedError
    jitted = jit(measured)
    assert jitted(2.5) == measured(2.5)
    with pytest.raises(UnsupportedError, match="PyOS_double_to_string"):
        jitted.ir_module("(float64,)")          # what exporters compile (host_calls=False)
    with pytest.raises(UnsupportedError, match="PyOS_double_to_string"):
        jitted.specialize("float64")
