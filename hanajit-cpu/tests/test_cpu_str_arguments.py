"""str arguments: compile-time constants, one specialisation per value
(``ir.types.StrArg``, ``infer/str_params.py``), compared with the interpreter --
values, types, exceptions and their messages; the dispatch (two strings compile
two specialisations, repeated calls none), the cap of 32 values per parameter,
the disk cache's key, and the uses that fall back with a plain reason."""
from __future__ import annotations

import glob
import os
import warnings

import numpy as np
import pytest

from hanajit import api, jit, prange
from hanajit.errors import HanaJitFallbackWarning, UnsupportedError
from hanajit.testing.compare import check_fallback, outcome


def smooth(a, v, mode="full"):
    return np.convolve(a, v, mode)


def norm(a, ord=None):
    return np.linalg.norm(a, ord)


def pad(a, mode):
    return np.pad(a, 1, mode)


def sort(a, kind):
    return np.sort(a, kind=kind)


def agg(a, kind):
    if kind == "max":
        return a.max()
    elif kind == "min":
        return a.min()
    raise ValueError(f"unknown kind {kind}")


def pick(x, mode):
    if mode in ("a", "b") and len(mode) == 1:
        return x + 1
    elif mode.startswith("lo") or mode.upper() == "HI" or not mode:
        return x - 1
    elif mode != "zz" and mode not in ("yy",):
        return x * 2
    raise ValueError(f"unknown mode {mode!r} for {x}")


def optional(x, mode=None):
    if mode is None:
        return x
    if mode:
        return -x
    return x * 3


def local_text(x):
    m = "abc"
    if m.endswith("c"):
        return len(m) + x
    return x


def returned(x, mode):
    return mode


def percent_message(x, mode):
    if x > 0:
        raise ValueError("bad mode %s (%r) at %s" % (mode, mode, x))
    raise KeyError("mode {} or {!r}".format(mode, mode))


def double(x, how):
    if how == "double":
        return x * 2
    return x


def calls_on(x, how):
    return double(x, how) + double(x, "double")


def printing(x, mode="same"):
    print("mode", mode, x, f"<{mode:>6}|{mode!r}>")
    return x


def nested(a, mode):
    def inner(v):
        return v * 2 if mode == "d" else v
    return inner(a[0])


def comprehension(a, mode):
    return np.array([x for x in a if mode == "pos" and x > 0 or mode != "pos"])


def in_loop(a, mode):
    s = 0.0
    for i in range(a.shape[0]):
        if mode == "abs":
            s += abs(a[i])
        else:
            s += a[i]
    return s


def two(a, m1, m2):
    if m1 == m2:
        return 1
    alias = m2
    return 2 if alias.lower() == "b" else 3.5


def asserted(a, mode):
    assert mode in ("a", "b"), f"bad {mode}"
    return (mode == "a") + 1


def scaled(a, mode):
    s = np.zeros(a.shape[0])
    for i in prange(a.shape[0]):
        s[i] = a[i] * (2 if mode == "d" else 1)
    return s


A = np.array([3.0, -1.0, 2.0, 0.5])
V = np.array([1.0, 2.0])


@pytest.mark.parametrize("f, args", [
    (smooth, (A, V)), (smooth, (A, V, "same")), (smooth, (A, V, "valid")),
    (smooth, (A.astype(np.float32), V.astype(np.float32), "same")),
    (norm, (A,)), (norm, (A.reshape(2, 2), "fro")), (norm, (A.reshape(2, 2), "nuc")),
    (pad, (A, "edge")), (pad, (A, "reflect")), (pad, (A[::-1], "wrap")),
    (pad, (np.arange(4, dtype=np.int32), "symmetric")),
    (sort, (A, "stable")), (sort, (A, "quicksort")),
    (agg, (A, "max")), (agg, (A, "min")), (agg, (np.arange(5, dtype=np.uint8), "max")),
    (agg, (A, "mean")),
    (pick, (1.0, "a")), (pick, (1, "low")), (pick, (1.5, "hi")), (pick, (1.5, "")),
    (pick, (2, "other")), (pick, (1.0, "zz")), (pick, (np.float32(1.0), "yy")),
    (optional, (1.0,)), (optional, (1.0, "")), (optional, (1.0, "y")),
    (local_text, (1,)), (returned, (1, "q")), (returned, (1.0, "")),
    (percent_message, (1, "m")), (percent_message, (-1, "m")),
    (calls_on, (2.0, "x")), (calls_on, (2.0, "double")),
    (nested, (A, "d")), (nested, (A, "")), (comprehension, (A, "pos")),
    (comprehension, (A, "all")), (in_loop, (A, "abs")), (in_loop, (A, "sum")),
    (two, (A, "a", "a")), (two, (A, "a", "B")), (two, (A, "a", "c")),
    (asserted, (A, "a")), (asserted, (A, "b")),
])
def test_compiled_as_the_interpreter_runs_it(f, args):
    got, want = outcome(jit(f, fallback=False), *args), outcome(f, *args)
    assert got[0] is want[0] and type(got[1]) is type(want[1])
    if isinstance(want[1], np.ndarray):
        assert got[1].dtype == want[1].dtype and got[1].tobytes() == want[1].tobytes()
    else:
        assert repr(got[1]) == repr(want[1])


def test_print_formats_the_constant(capsys):
    jit(printing, fallback=False)(1.5)
    compiled = capsys.readouterr().out
    printing(1.5)
    assert compiled == capsys.readouterr().out


def test_each_string_compiles_once():
    jf = jit(agg, fallback=False)
    a = np.arange(4.0)
    for _ in range(3):
        assert jf(a, "max") == 3.0 and jf(a, "min") == 0.0
        assert jf(a, kind="max") == 3.0
    keys = list(jf._compiled)
    assert len(keys) == 2
    assert {k[1].value for k in keys} == {"max", "min"}


def test_a_default_string_compiles_and_a_callee_specialises_on_it():
    jf = jit(calls_on, fallback=False)
    assert jf(2.0, "x") == 6.0 and jf(2.0, "double") == 8.0
    assert len(jf._compiled) == 2


def test_past_the_cap_new_strings_run_in_the_interpreter(monkeypatch):
    assert api.STR_VALUES_CAP == 32
    monkeypatch.setattr(api, "STR_VALUES_CAP", 3)
    jf = jit(pick)
    texts = ["a", "low", "q", "r", "s", "zz", "low"]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = [outcome(jf, 1.0, t) for t in texts]
    assert got == [outcome(pick, 1.0, t) for t in texts]
    assert len(jf._compiled) == 3
    capped = [x for x in w if issubclass(x.category, HanaJitFallbackWarning)]
    assert len(capped) == 1 and "32" not in str(capped[0].message)
    assert "argument 2" in str(capped[0].message)


def test_the_disk_cache_keys_on_the_value(tmp_path, monkeypatch):
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path))
    a = np.arange(4.0)
    jf = jit(agg, cache=True, fallback=False)
    assert jf(a, "max") == 3.0 and jf(a, "min") == 0.0
    files = glob.glob(os.path.join(str(tmp_path), "**", "agg-*.hjc"), recursive=True)
    assert len(files) == 2
    again = jit(agg, cache=True, fallback=False)
    assert again(a, "min") == 0.0 and again(a, "max") == 3.0
    assert all(spec.artifact.metadata.get("from_cache") for spec in again._compiled.values())


def indexed(x, mode):
    return mode[x].expandtabs()     # (mode[x], .upper(), .title() compile)


def reassigned(x, mode):
    mode = mode + "x"
    return x


def chosen(x, mode):
    m = "a" if x > 0 else "b"      # (m == mode compiles: test_cpu_str_values)
    return [m, x]


def compared(x, mode):
    return mode == x


def in_tuple(x, mode):
    return x, mode


@pytest.mark.parametrize("f, args, reason", [
    (indexed, (1, "abc"), r"str.expandtabs\(\) of a str built at run time"),
    (reassigned, (1, "abc"), "str argument: 'mode' is assigned"),
    (chosen, (1, "a"), "str built at run time"),
    (compared, (1, "a"), "compared with a run-time value"),
    (in_tuple, (1, "a"), "str value"),
])
def test_what_cannot_fold_falls_back_with_a_reason(f, args, reason):
    check_fallback(f, args, reason)


class Text(str):
    pass


@pytest.mark.skipif(not api.native_dispatch_enabled(), reason="no native dispatcher")
def test_the_native_dispatcher_checks_the_value(monkeypatch):
    monkeypatch.setattr(api, "HOT_CALLS", 1)
    jf = jit(agg)
    a = np.arange(4.0)
    built = "".join(["m", "in"])         # equal to "min", another object
    for _ in range(4):
        assert jf(a, "max") == 3.0 and jf(a, "min") == 0.0 and jf(a, built) == 0.0
        assert jf(a, kind="max") == 3.0
        with pytest.raises(ValueError, match="unknown kind mean"):
            jf(a, "mean")
    entries = jf._native_entries
    assert len(entries) == 3 and all(e is not None for e in entries)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert jf(a, Text("max")) == 3.0         # a str subclass: the interpreter
    assert any("Text" in str(x.message) for x in w)
    assert len(jf._compiled) == 3


def test_exported_code_refuses_a_str_parameter():
    jf = jit(agg)
    assert jf(np.arange(3.0), "max") == 2.0
    with pytest.raises(UnsupportedError, match="str parameter"):
        jf.ir_module()


def test_a_prange_loop_specialises_on_the_constant():
    jf = jit(scaled, parallel=True, fallback=False)
    for mode in ("d", "x"):
        assert jf(A, mode).tobytes() == scaled(A, mode).tobytes()


def test_an_assert_message_formats_the_constant():
    # (pytest rewrites this module's asserts: the interpreter's message is compared
    # as CPython words it)
    with pytest.raises(AssertionError) as got:
        jit(asserted, fallback=False)(A, "c")
    assert str(got.value) == "bad c"


def repr_field(x, name):
    raise ValueError(f"{name}: {x} / {x!r}")


def percent_repr(x, name):
    raise KeyError("%s=%r" % (name, x))


def format_mixed(x, name):
    raise IndexError("{} and {!r} then {0}".format(name, x))  # noqa: F525


@pytest.mark.parametrize("x", [7, -3, 2.5, 1e16, -0.0])
def test_repr_of_a_python_number_in_a_message_compiles(x):
    for f in (repr_field, percent_repr):
        got, want = outcome(jit(f, fallback=False), x, "q"), outcome(f, x, "q")
        assert got == want


@pytest.mark.parametrize("x", [np.int8(-3), np.int64(5), np.uint8(200), np.float64(0.5)])
def test_repr_of_a_numpy_scalar_in_a_message_falls_back(x):
    # (repr(np.int8(-3)) is 'np.int8(-3)': compiled messages print digits)
    check_fallback(repr_field, (x, "q"), "field with !r")
    check_fallback(percent_repr, (x, "q"), "field with !r")


def test_format_mixing_automatic_and_manual_numbering_falls_back():
    # (CPython raises ValueError: cannot switch from automatic field numbering)
    check_fallback(format_mixed, (7, "a"), "the message must be")


def more_methods(x, s):
    return (x + s.index("b") + s.rindex("b"), s.isprintable(), s.istitle(), s.isascii(),
            s.swapcase() == "ABC", s.zfill(5) == "00abc", s.center(5) == " abc ",
            s.ljust(4) == "abc ", s.rjust(4) == " abc")


@pytest.mark.parametrize("s", ["abc", "xbyb", "Ab"])
def test_more_str_methods_fold(s):
    got, want = outcome(jit(more_methods, fallback=False), 1, s), outcome(more_methods, 1, s)
    assert got == want


def test_index_of_a_missing_substring_falls_back():
    # (CPython raises ValueError: substring not found; the interpreter runs it)
    check_fallback(more_methods, (1, "xyz"), "substring not found")
