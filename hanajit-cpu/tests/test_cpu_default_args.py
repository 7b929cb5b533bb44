"""An omitted argument's default is a constant of its own specialisation
(``ir.types.DefaultArg``, as Numba's ``Omitted``): against the interpreter, the
call omitting it, passing it by position or keyword, passing an equal value that
is another object, and the specialisation that folds it (the constant in the
optimised code), through both dispatchers, the disk cache and eager signatures."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanajit import jit
from hanajit.errors import HanaJitFallbackWarning
from hanajit.ir import types as T
from hanajit.testing.reference import check


def crc16(data, poly=0x8408):
    crc = 0xFFFF
    for b in data:
        cur = 0xFF & b
        for _ in range(8):
            if (crc & 1) ^ (cur & 1):
                crc = (crc >> 1) ^ poly
            else:
                crc >>= 1
            cur >>= 1
    return ~crc & 0xFFFF


def mixed(x, scale=2.5, shift=-3, flag=True, z=1 + 2j, tiny=-0.0):
    """A docstring and an import come first: the defaults follow them."""
    import math
    y = x * scale + shift + z.imag
    if flag:
        y = -y
    return math.copysign(y, tiny), y


def rebinds(x, k=1):
    k += x          # the parameter stays a local
    for i in range(3):
        k = k * 2 + i
    return k


def kw_only(x, *, tol=1e-3, n=4):
    s = 0.0
    for i in range(n):
        s += x / (i + tol)
    return s


def special_floats(x, lo=-math.inf, hi=math.inf, bad=math.nan):
    return max(lo, min(x, hi)), bad != bad


CALLS = [
    (mixed, (1.5,), {}), (mixed, (1.5, 3.0), {}), (mixed, (2,), {"flag": False}),
    (mixed, (2.0,), {"tiny": 0.0}), (mixed, (2.0,), {"scale": 2.5}),
    (mixed, (-1.0, 2.5, -3, True, 1 + 2j, -0.0), {}),
    (rebinds, (3,), {}), (rebinds, (3, 1), {}), (rebinds, (3,), {"k": 10}),
    (kw_only, (2.0,), {}), (kw_only, (2.0,), {"n": 2}), (kw_only, (2.0,), {"tol": 0.5}),
    (special_floats, (3.0,), {}), (special_floats, (3.0, 4.0), {}),
    (special_floats, (-math.inf,), {"hi": 0.0}),
]


@pytest.mark.parametrize("fn,args,kwargs", CALLS,
                         ids=lambda c: getattr(c, "__name__", None) or repr(c)[:20])
def test_matches_the_interpreter(fn, args, kwargs):
    f = jit(fn, fallback=False)
    for _ in range(20):                 # through the Python, then the native dispatcher
        check(f, args, kwargs)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=40),
       st.one_of(st.none(), st.integers(0, 0xFFFF)))
def test_crc_omitted_or_passed(data, poly):
    f = _crc()
    a = np.array(data, np.uint8)
    args = (a,) if poly is None else (a, poly)
    for _ in range(3):
        check(f, args)


_CRC = []


def _crc():
    if not _CRC:
        _CRC.append(jit(crc16, fallback=False))
    return _CRC[0]


def test_the_omitted_default_is_folded():
    f = jit(crc16, fallback=False)
    a = np.arange(50, dtype=np.uint8)
    assert f(a) == crc16(a)
    (key,) = f.signatures
    assert isinstance(key[1], T.DefaultArg) and key[1].value == 0x8408
    # the constant is in the optimised code: the parameter is not read
    assert str(0x8408) in f.inspect_llvm(key)
    assert f(a, 0x1021) == crc16(a, 0x1021)     # another value: compiled apart
    assert len(f.signatures) == 2
    assert T.INT64 in f.signatures[1]


def test_a_signature_of_plain_types_names_the_folded_specialisation():
    f = jit(rebinds, fallback=False)
    assert f(3) == rebinds(3)
    assert "define" in f.inspect_llvm("i64, i64")


def test_an_equal_value_of_another_object_takes_the_general_code():
    f = jit(crc16, fallback=False)
    a = np.arange(30, dtype=np.uint8)
    other = int("33800")                    # == the default, not the same object
    assert other == 0x8408
    for _ in range(40):
        assert f(a) == crc16(a)
        assert f(a, other) == crc16(a, other)
        assert f(a, poly=7) == crc16(a, 7)
    assert sorted(str(k[1]) for k in f.signatures) == ["int64", "int64 = 33800"]


def test_distinct_defaults_compare_by_value_and_type():
    assert T.default_arg(0.0) != T.default_arg(-0.0)
    assert T.default_arg(1) != T.default_arg(True) != T.default_arg(1.0)
    assert T.default_arg(0x8408) == T.default_arg(int("33800"))
    assert hash(T.default_arg(math.nan)) == hash(T.default_arg(float("nan")))
    assert T.default_arg(2 ** 63) is None and T.default_arg("s") is None
    assert T.default_arg(None) is None and T.default_arg(np.float64(1)) is None
    assert T.plain(T.default_arg(3)) == T.INT64


def test_an_eager_signature_runs_omitted_calls():
    f = jit(rebinds, signature="i64, i64", fallback=False)
    assert f(3) == rebinds(3) and f(3, 5) == rebinds(3, 5)
    assert f.signatures == [(T.INT64, T.INT64)]


def test_a_default_beyond_int64_is_an_argument_beyond_int64():
    def big(x, m=2 ** 64):
        return x < m
    f = jit(big)
    with pytest.warns(HanaJitFallbackWarning, match="does not fit int64"):
        assert f(5) is True


def test_the_disk_cache_keeps_the_folded_specialisation(tmp_path, monkeypatch):
    from hanajit import cache
    monkeypatch.setenv("HANAJIT_CACHE_DIR", str(tmp_path))
    a = np.arange(20, dtype=np.uint8)
    first = jit(crc16, cache=True, fallback=False)
    assert first(a) == crc16(a)
    hits = cache.stats["hits"]
    second = jit(crc16, cache=True, fallback=False)
    assert second(a) == crc16(a) and second(a, 3) == crc16(a, 3)
    assert cache.stats["hits"] == hits + 1
    assert isinstance(second.signatures[0][1], T.DefaultArg)
